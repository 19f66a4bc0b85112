"""The table as a seat sees it: the trick laid out by seat, bids and tricks, whose turn.

:func:`table_view` is what the prompt, the batch mode and ``replay --step`` show while a
hand is played::

    Hand 1, trick 3: West led, East is winning. South to play.
                N 1/0  6♥
    W 1/1  2♥               E 2/0  [A♥]
                S 3/1  ?
    NS: bid 4, took 1, 0 bags, score 0
    EW: bid 3, took 1, 0 bags, score 0

Each seat shows its bid and the tricks it took (``N 3/2``; a nil that took a trick shows
``S nil ✗1``), the card it played to the trick (the one winning so far in brackets) and
``?`` on turn. A side with a nil bidder shows its seats apart (``NS: N 1/2 · S nil ✗2``),
the bags the tricks taken make already follow the side's bags (engine scoring: the hand
as if it ended now), and a line warns a side near the bag penalty. Where the terminal is
too narrow for the layout, the trick is one line.
"""

from __future__ import annotations

from collections.abc import Sequence

from spades_cli.engine import (
    BID,
    BID_BASE,
    BLIND,
    DECLARE,
    DISCARD_PHASE,
    DRAFT,
    EXCHANGE,
    PASS,
    PLAY,
    ZERO,
    Observation,
    Rules,
    blind_bid_of,
    zero_at,
)
from spades_cli.engine.cards import SUIT_NAMES, is_card, mask_of
from spades_cli.engine.illegal import card_reason
from spades_cli.engine.scoring import SideResult, score_side
from spades_cli.i18n import _, ngettext
from spades_cli.view.layout import Fragments, text_width
from spades_cli.view.look import Look, bid_word, compress_bids, join, say, text


def suit_name(suit: int) -> str:
    """``spades``, ``hearts`` ... in the language in use."""
    return _(SUIT_NAMES[suit])


def bags_count(n: int) -> str:
    return ngettext("{n} bag", "{n} bags", n).format(n=n)


def seat_tag(look: Look, obs: Observation, seat: int) -> str:
    """``N 3/2`` (bid 3, took 2); ``S nil/0``; ``S nil ✗1`` once a nil took a trick; ``W ?``
    on turn to bid, ``W -`` not yet."""
    return f"{look.letter(seat)} {_seat_bid(look, obs, seat)}"


def _seat_bid(look: Look, obs: Observation, seat: int) -> str:
    """A seat's bid and tricks without its letter: ``3/2``, ``nil ✗1``, ``?``, ``-``."""
    bid = obs.bids[seat]
    took = obs.tricks_won[seat]
    if bid is None:
        return "?" if obs.phase == BID and obs.current == seat else "-"
    word = bid_word(bid, obs.declared[seat], look.rules, zero_at(obs.zero, seat))
    if _is_nil(look, obs, seat) and took:
        return f"{word} {'✗' if look.symbols else 'x'}{took}"
    return f"{word}/{took}"


def _is_nil(look: Look, obs: Observation, seat: int) -> bool:
    bid = obs.bids[seat]
    return bid is not None and look.rules.is_nil(bid, obs.declared[seat], zero_at(obs.zero, seat))


def seats_text(look: Look, obs: Observation) -> str:
    """Every seat's tag: ``N 1/0, E 2/1, S nil ✗1, W 3/2``."""
    return ", ".join(seat_tag(look, obs, s) for s in range(obs.players))


def bids_text(look: Look, obs: Observation) -> str:
    """``N 3, E 4, S ?, W -``: ``?`` on turn to bid, ``-`` not yet; while bidding, the total
    bid so far against the hand's tricks (``7 of 13 bid``; ``7 of 17 bid`` in cutthroat)."""
    parts = []
    for seat in range(obs.players):
        bid = obs.bids[seat]
        if bid is None:
            shown = "?" if obs.phase == BID and obs.current == seat else "-"
        else:
            shown = bid_word(bid, obs.declared[seat], look.rules, zero_at(obs.zero, seat))
        parts.append(f"{look.letter(seat)} {shown}")
    said = ", ".join(parts)
    if obs.phase == BID:
        total = sum(b for s, b in enumerate(obs.bids) if b is not None and not _is_nil(look, obs, s))
        said += " " + _("({total} of {tricks} bid)").format(total=total, tricks=look.rules.hand_size)
    return said


def side_contract(look: Look, obs: Observation, side: int) -> int | None:
    """The side's contract so far (nil bids add nothing); None if nobody of it has bid."""
    bids = [obs.bids[s] for s in look.side_seats(side)]
    if all(b is None for b in bids):
        return None
    return sum(
        b
        for s, b in zip(look.side_seats(side), bids, strict=True)
        if b is not None and not _is_nil(look, obs, s)
    )


def side_contract_text(look: Look, obs: Observation, side: int, sep: str | None = None) -> str:
    """A side's contract and tricks: ``bid 5, took 2``; a side with a nil bidder and a
    partner shows each seat apart (``N 1/2 · S nil ✗2``: the nil's tricks are not its
    partner's)."""
    sep = _(", ") if sep is None else sep  # a list's comma in the language in use
    seats = look.side_seats(side)
    if len(seats) > 1 and any(_is_nil(look, obs, s) for s in seats):
        return (" · " if look.symbols else " + ").join(seat_tag(look, obs, s) for s in seats)
    took = sum(obs.tricks_won[s] for s in seats)
    bid = obs.bids[seats[0]]
    if bid is not None and _is_nil(look, obs, seats[0]):
        return (
            _("bid {bid}").format(bid=bid_word(bid, obs.declared[seats[0]], look.rules))
            + sep
            + _("took {n}").format(n=took)
        )
    contract = side_contract(look, obs, side)
    took_text = _("took {n}").format(n=took)
    return took_text if contract is None else _("bid {bid}").format(bid=contract) + sep + took_text


def tricks_text(look: Look, obs: Observation) -> str:
    """``NS bid 5 took 2, EW N 1/0 · S nil/0``: each side's contract and tricks."""
    return ", ".join(
        f"{look.side_short(side)} {side_contract_text(look, obs, side, ' ')}"
        for side in range(look.rules.sides)
    )


def hand_so_far(look: Look, obs: Observation, side: int) -> SideResult | None:
    """The side's result if the hand ended now (engine scoring; None before every bid is in)."""
    bids = obs.bids
    if obs.phase != PLAY or any(b is None for b in bids):
        return None
    known = [b for b in bids if b is not None]
    seats = look.side_seats(side)
    return score_side(
        look.rules, known, obs.declared, obs.tricks_won, seats, obs.scores[side], obs.bags[side], obs.zero
    )


def bags_text(look: Look, obs: Observation, side: int) -> str:
    """``3 bags``; ``3 bags (+2 this hand)`` once the tricks taken already make bags."""
    so_far = hand_so_far(look, obs, side)
    coming = ""
    if so_far is not None and so_far.bags:
        coming = " " + _("(+{n} this hand)").format(n=so_far.bags)
    return bags_count(obs.bags[side]) + coming


def bags_warning(look: Look, obs: Observation, side: int) -> str | None:
    """``NS: 1 bag from the bag penalty (-100)``; ``NS: the bag penalty (-100) comes`` when
    the tricks taken already reach it; None when the side is further from it."""
    limit, penalty = look.rules.bags.limit, look.rules.bags.penalty
    if limit is None or not look.rules.bags.enabled:
        return None
    so_far = hand_so_far(look, obs, side)
    name = look.side_short(side)
    if so_far is not None and so_far.bag_penalty:
        return _("{side}: the bag penalty ({points}) comes with this hand's bags").format(
            side=name, points=so_far.bag_penalty
        )
    bags = so_far.bags_total if so_far is not None else obs.bags[side]
    left = limit - bags
    if left > 2:
        return None
    said = ngettext(
        "{side}: {n} bag from the bag penalty (-{points})",
        "{side}: {n} bags from the bag penalty (-{points})",
        left,
    )
    return said.format(side=name, n=left, points=penalty)


def side_line(look: Look, obs: Observation, side: int) -> str:
    """``NS: bid 5, took 2, 3 bags, score 141``; ``NS: N 1/2 · S nil ✗2, 0 bags (+2 this
    hand), score 0``."""
    return _("{side}: {contract}, {bags}, score {score}").format(
        side=look.side_short(side),
        contract=side_contract_text(look, obs, side),
        bags=bags_text(look, obs, side),
        score=obs.scores[side],
    )


def status_parts(look: Look, obs: Observation) -> list[str]:
    """Everything public at a glance, in short parts (the toolbar packs them into lines):
    ``Hand 2``, ``N 3/1, E 2/0, S nil/0, W 4/2`` (bid/took), ``NS 3/1, 140 pts, 2 bags``
    (a nil bidder's tricks are not its side's), and a warning near the bag penalty."""
    parts = [_("Hand {no}").format(no=obs.hand_no + 1), seats_text(look, obs)]
    for side in range(look.rules.sides):
        took = sum(obs.tricks_won[s] for s in look.side_seats(side) if not _is_nil(look, obs, s))
        contract = side_contract(look, obs, side)
        tricks = f" {contract}/{took}," if contract is not None else ""
        points = _("{side}{tricks} {score} pts, {bags}")
        parts.append(
            points.format(
                side=look.side_short(side),
                tricks=tricks,
                score=obs.scores[side],
                bags=bags_count(obs.bags[side]),
            )
        )
    parts += [w for side in range(look.rules.sides) if (w := bags_warning(look, obs, side)) is not None]
    parts.append(_("spades broken") if obs.spades_broken else _("spades not broken"))
    return parts


def pack(parts: list[str], width: int, sep: str = " | ") -> list[str]:
    """Parts joined with ``sep`` into as few lines of at most ``width`` as they fit."""
    lines: list[str] = []
    for part in parts:
        if lines and text_width(lines[-1]) + text_width(sep) + text_width(part) <= width:
            lines[-1] += sep + part
        else:
            lines.append(part)
    return lines


def status(look: Look, obs: Observation, width: int = 80) -> Fragments:
    """The status parts packed into lines of ``width``."""
    return text("\n".join(pack(status_parts(look, obs), width)))


def _trick_title(look: Look, obs: Observation) -> str:
    no = len(obs.tricks) + 1
    head = _("Hand {hand}, trick {no}").format(hand=obs.hand_no + 1, no=no)
    n = obs.players
    on_turn = 0 <= obs.current < n
    if obs.current_trick:
        win = (obs.leader + look.winning(obs.current_trick)) % n
        said = _("{head}: {leader} led, {winner} is winning.").format(
            head=head, leader=look.seat(obs.leader), winner=look.seat(win)
        )
        return said + (" " + _("{seat} to play.").format(seat=look.seat(obs.current)) if on_turn else "")
    said = _("{head}.") if obs.spades_broken else _("{head}; spades not broken.")
    return said.format(head=head) + (
        " " + _("{seat} to lead.").format(seat=look.seat(obs.current)) if on_turn else ""
    )


def _trick_cells(look: Look, obs: Observation) -> list[Fragments]:
    """Per seat: its tag and its card in the trick (the winning one marked, ``?`` on turn)."""
    n = obs.players
    played = {(obs.leader + i) % n: c for i, c in enumerate(obs.current_trick)}
    win = (obs.leader + look.winning(obs.current_trick)) % n if obs.current_trick else -1
    cells: list[Fragments] = []
    for seat in range(n):
        tag: Fragments = [("", seat_tag(look, obs, seat))]
        if seat in played:
            card = look.marked(played[seat]) if seat == win else [look.card(played[seat])]
            tag += [("", "  "), *card]
        elif seat == obs.current and obs.phase == PLAY:
            tag += [("", "  ?")]
        cells.append(tag)
    return cells


def _width(frags: Fragments) -> int:
    return sum(text_width(t) for _style, t in frags)


def trick_layout(look: Look, obs: Observation, width: int = 80) -> Fragments:
    """The trick by seat: North on top, South at the bottom, West and East at the sides (in
    the two-player game North above South; with three seats East alone at the side); one
    line when narrower than the layout."""
    return _compass(_trick_cells(look, obs), width)


def finished_trick(look: Look, cards: Sequence[tuple[int, int]], winner: int, width: int = 80) -> Fragments:
    """A finished trick laid out by seat like the trick in progress (``cards``: the seats and
    their cards), the winner's card marked: what stays on the screen until the next card."""
    played = dict(cards)
    cells: list[Fragments] = []
    for seat in range(look.rules.players):
        card = played[seat]
        shown = look.marked(card) if seat == winner else [look.card(card)]
        cells.append([("", f"{look.letter(seat)}  "), *shown])
    return _compass(cells, width)


def _compass(cells: list[Fragments], width: int) -> Fragments:
    """One cell per seat laid out as the table: North on top, South at the bottom."""
    if len(cells) == 2:
        return join(cells, "\n")
    north, east, south = cells[:3]
    west = cells[3] if len(cells) == 4 else []
    left = _width(west) + 3
    middle = max(_width(north), _width(south), 6) + 3
    if left + middle + _width(east) > width:
        return join(cells, ", ")
    pad = " " * left
    gap = " " * (left + middle - _width(west))
    return [("", pad), *north, ("", "\n"), *west, ("", gap), *east, ("", "\n" + pad), *south]


def table_view(look: Look, obs: Observation, width: int = 80) -> Fragments:
    """The whole table during play: title, the trick by seat, then each side's line."""
    out: Fragments = [("", _trick_title(look, obs) + "\n"), *trick_layout(look, obs, width)]
    if obs.players > 2:
        for side in range(look.rules.sides):
            out += [("", "\n" + side_line(look, obs, side))]
    else:
        out += [("", "\n" + "; ".join(side_line(look, obs, side) for side in range(look.rules.sides)))]
    for side in range(look.rules.sides):
        warning = bags_warning(look, obs, side)
        if warning is not None:
            out += [("", f"\n{warning}.")]
    return out


def hand_line(look: Look, obs: Observation) -> Fragments:
    name = look.seat(obs.seat)
    if not obs.looked:
        if look.rules.players == 2:
            return text(_("{seat} has no cards yet.").format(seat=name))
        return text(_("{seat} has not looked at the cards yet.").format(seat=name))
    return say(_("{seat}'s hand: {cards}"), seat=name, cards=look.hand(obs.hand))


def discards_line(look: Look, obs: Observation) -> Fragments:
    if not obs.own_discards:
        return text(_("{seat} has discarded nothing yet.").format(seat=look.seat(obs.seat)))
    return say(
        _("{seat}'s discards: {cards}"), seat=look.seat(obs.seat), cards=look.card_list(obs.own_discards)
    )


def _play_prompt(look: Look, obs: Observation) -> Fragments:
    name = look.seat(obs.seat)
    cards = [a for a in obs.legal if is_card(a)]
    if obs.current_trick:
        led = look.suit(obs.current_trick[0])
        if all(look.suit(c) == led for c in cards) and len(cards) < len(obs.hand):
            said = _("{seat} to play: follow {suit} ({cards})")
            return say(said, seat=name, suit=suit_name(led), cards=look.card_list(cards))
        if any(look.suit(c) == led for c in obs.hand):
            return text(_("{seat} to play: follow {suit}").format(seat=name, suit=suit_name(led)))
        return text(_("{seat} to play: no {suit}, so any card").format(seat=name, suit=suit_name(led)))
    if len(cards) < len(obs.hand):
        # Why the other cards may not lead, in the engine's words (never re-derived here).
        barred = [c for c in obs.hand if c not in cards]
        reason, _rule = card_reason(
            look.rules, mask_of(obs.hand), obs.current_trick, not obs.tricks, obs.spades_broken, barred[0]
        )
        why = _(reason).partition(": ")[0]
        if all(look.is_trump(c) for c in barred) and not any(look.is_trump(c) for c in cards):
            return text(_("{seat} to lead: any card but a spade ({why})").format(seat=name, why=why))
        return say(_("{seat} to lead: {cards} ({why})"), seat=name, cards=look.card_list(cards), why=why)
    return text(_("{seat} to lead: any card").format(seat=name))


def turn_prompt(look: Look, obs: Observation, rules: Rules) -> Fragments:
    """The line that says what the seat on turn must decide, and what is legal."""
    name = look.seat(obs.seat)
    phase = obs.phase
    if phase == PLAY:
        return _play_prompt(look, obs)
    if phase == BID:
        bids = sorted(a - BID_BASE for a in obs.legal if a != ZERO)
        said = compress_bids(bids, ZERO in obs.legal)
        return text(_("{seat} to bid: {bids}").format(seat=name, bids=said))
    if phase == DRAFT and obs.draft_card is not None:
        got = len(obs.hand) + 1
        said = _("{seat} draws card {no} of {size}: {card} - keep or discard?")
        return say(said, seat=name, no=got, size=rules.hand_size, card=look.card(obs.draft_card))
    if phase == DECLARE:
        if rules.players == 2:
            return text(
                _("{seat}: declare double nil before your first card? (blind or noblind)").format(seat=name)
            )
        numbers = sorted(n for a in obs.legal if (n := blind_bid_of(a)))
        if not numbers:
            return text(
                _("{seat}: bid blind nil before looking at your cards? (blind or noblind)").format(seat=name)
            )
        blind = f"blind{numbers[0]}" if len(numbers) == 1 else f"blind{numbers[0]}–blind{numbers[-1]}"
        if BLIND in obs.legal:
            said = _(
                "{seat}: bid blind before looking at your cards? ({numbers}, blind for blind nil, or noblind)"
            )
        else:
            said = _("{seat}: bid blind before looking at your cards? ({numbers} or noblind)")
        return text(said.format(seat=name, numbers=blind))
    if phase == EXCHANGE:
        left = rules.blind_nil.exchange - obs.exchanged[obs.seat]
        said = ngettext(
            "{seat}: give up a card for one from the discard pile ({n} exchange left), or done",
            "{seat}: give up a card for one from the discard pile ({n} exchanges left), or done",
            left,
        )
        return text(said.format(seat=name, n=left))
    if phase == PASS:  # R-BN-4: the cards still to pass follow from the hand's size
        held = len(obs.hand) - rules.hand_size
        left = rules.blind_nil.pass_cards + held if held <= 0 else held
        said = ngettext(
            "{seat}: pass a card face down to your partner ({n} card to pass)",
            "{seat}: pass a card face down to your partner ({n} cards to pass)",
            left,
        )
        return text(said.format(seat=name, n=left))
    if phase == DISCARD_PHASE:  # R-J-6: down to the hand size
        left = len(obs.hand) - rules.hand_size
        said = ngettext(
            "{seat}: lay a card aside face down, out of play ({n} card to lay aside)",
            "{seat}: lay a card aside face down, out of play ({n} cards to lay aside)",
            left,
        )
        return text(said.format(seat=name, n=left))
    return text(_("{seat}: nothing to decide").format(seat=name))
