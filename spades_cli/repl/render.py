"""What the prompt shows, as styled text fragments.

Every function here returns ``Fragments``: a list of ``(style, text)`` pairs, the shape
prompt_toolkit calls formatted text, built without importing prompt_toolkit. The
prompt front end prints them in colour; the batch front end and the tests join the
texts (:func:`plain`). Style names are classes (``class:red``, ``class:error``...)
that the prompt front end maps to colours; ``--no-color`` simply drops them.

Suit symbols or letters are chosen by :class:`Look` (``--ascii``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from spades_cli.engine import BID, DECLARE, DRAFT, EXCHANGE, PLAY, HandResult, Observation, Rules, Trick
from spades_cli.engine.cards import CLUBS, DIAMONDS, HEARTS, SPADES, SUIT_NAMES, card_label
from spades_cli.engine.scoring import SideResult

Frag = tuple[str, str]
Fragments = list[Frag]

# Style classes (prefixed: prompt_toolkit's own styles already use names like "red").
RED = "class:suit-red"
BLACK = "class:suit-black"
ERROR = "class:play-error"
TITLE = "class:play-title"
DIM = "class:play-dim"
GOOD = "class:play-good"
BAD = "class:play-bad"

# Suits in the order a player sorts a hand: colours alternate (spades, hearts, clubs, diamonds).
HAND_ORDER = (SPADES, HEARTS, CLUBS, DIAMONDS)

SEAT_WORDS = {"N": "North", "E": "East", "S": "South", "W": "West"}


def plain(frags: Iterable[Frag]) -> str:
    """The text of fragments without their styles."""
    return "".join(text for _, text in frags)


def text(s: str, style: str = "") -> Fragments:
    return [(style, s)]


def join(parts: Sequence[Fragments], sep: str = " ") -> Fragments:
    out: Fragments = []
    for i, part in enumerate(parts):
        if i and sep:
            out.append(("", sep))
        out.extend(part)
    return out


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def bid_word(bid: int, blind: bool, rules: Rules) -> str:
    if blind:
        return "double nil" if rules.players == 2 else "blind nil"
    return "nil" if bid == 0 else str(bid)


def compress_bids(bids: Sequence[int]) -> str:
    """``nil or 1-13``, ``3-5``, ``nil, 2, 4-6``: the legal bids in few words."""
    parts: list[str] = []
    numbers = sorted(b for b in bids if b > 0)
    if 0 in bids:
        parts.append("nil")
    run: list[int] = []
    for b in [*numbers, -9]:
        if run and b == run[-1] + 1:
            run.append(b)
            continue
        if run:
            parts.append(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}")
        run = [b]
    if len(parts) == 2 and parts[0] == "nil":
        return f"nil or {parts[1]}"
    return ", ".join(parts)


@dataclass(frozen=True)
class Look:
    """How cards and seats are written: suit symbols or letters, seat names."""

    rules: Rules
    symbols: bool = True

    # -- seats and sides ----------------------------------------------------------

    def seat(self, seat: int) -> str:
        """``North``, ``East``..."""
        return SEAT_WORDS[self.rules.seat_names[seat]]

    def letter(self, seat: int) -> str:
        return self.rules.seat_names[seat]

    def side(self, side: int) -> str:
        """``North-South`` / ``East-West`` (4P), the seat's name (2P)."""
        if self.rules.players == 2:
            return self.seat(side)
        return ("North-South", "East-West")[side]

    def side_short(self, side: int) -> str:
        return self.rules.side_name(side)

    def side_seats(self, side: int) -> tuple[int, ...]:
        return (side,) if self.rules.players == 2 else (side, side + 2)

    # -- cards --------------------------------------------------------------------

    def card(self, card: int) -> Frag:
        style = RED if card // 13 in (HEARTS, DIAMONDS) else BLACK
        return (style, card_label(card, symbols=self.symbols))

    def card_text(self, card: int) -> str:
        return card_label(card, symbols=self.symbols)

    def cards(self, cards: Iterable[int], sep: str = " ") -> Fragments:
        return join([[self.card(c)] for c in cards], sep)

    def sorted_hand(self, cards: Iterable[int]) -> list[list[int]]:
        """The cards grouped by suit (spades, hearts, clubs, diamonds), high to low."""
        held = set(cards)
        groups = []
        for suit in HAND_ORDER:
            group = [c for c in range(suit * 13 + 12, suit * 13 - 1, -1) if c in held]
            if group:
                groups.append(group)
        return groups

    def hand(self, cards: Iterable[int]) -> Fragments:
        """A hand sorted by suit, suits two spaces apart: ``A♠ 10♠  Q♥  9♣ 2♣``."""
        groups = self.sorted_hand(cards)
        if not groups:
            return text("(no cards)", DIM)
        return join([self.cards(g) for g in groups], "  ")

    def card_list(self, cards: Iterable[int]) -> Fragments:
        """Cards high to low in hand order, one space apart."""
        return join([self.cards(g) for g in self.sorted_hand(cards)], " ")

    def played(self, trick: Sequence[tuple[int, int]]) -> Fragments:
        """``N 4♣, E K♣``: the cards of a trick with who played them."""
        return join([[("", self.letter(s) + " "), self.card(c)] for s, c in trick], ", ")

    def finished_trick(self, no: int, trick: Trick) -> Fragments:
        n = self.rules.players
        pairs = [(trick.seat_of(i, n), c) for i, c in enumerate(trick.cards)]
        winning = trick.cards[(trick.winner - trick.leader) % n]
        return [
            ("", f"Trick {no} ({self.seat(trick.leader)} led): "),
            *self.played(pairs),
            ("", f" - {self.seat(trick.winner)} wins with "),
            self.card(winning),
        ]


# -- whole-table views --------------------------------------------------------------


def bids_text(look: Look, obs: Observation) -> str:
    """``N 3, E 4, S ?, W -``: ``?`` on turn to bid, ``-`` not yet."""
    parts = []
    for seat in range(obs.players):
        bid = obs.bids[seat]
        if bid is None:
            shown = "?" if obs.phase == BID and obs.current == seat else "-"
        else:
            shown = bid_word(bid, obs.declared[seat], look.rules)
        parts.append(f"{look.letter(seat)} {shown}")
    return ", ".join(parts)


def side_contract(look: Look, obs: Observation, side: int) -> int | None:
    """The side's contract so far (nil bids add nothing); None if nobody of it has bid."""
    bids = [obs.bids[s] for s in look.side_seats(side)]
    if all(b is None for b in bids):
        return None
    return sum(b for b in bids if b is not None)


def tricks_text(look: Look, obs: Observation) -> str:
    """``NS 2/5, EW 1/7``: tricks taken against the contract."""
    parts = []
    for side in range(2):
        took = sum(obs.tricks_won[s] for s in look.side_seats(side))
        contract = side_contract(look, obs, side)
        shown = f"{took}/{contract}" if contract is not None else f"{took}"
        parts.append(f"{look.side_short(side)} {shown}")
    return ", ".join(parts)


def score_text(look: Look, obs: Observation) -> str:
    return ", ".join(f"{look.side_short(side)} {obs.scores[side]}" for side in range(2))


def bags_text(look: Look, obs: Observation) -> str:
    return ", ".join(f"{look.side_short(side)} {obs.bags[side]}" for side in range(2))


def status_parts(look: Look, obs: Observation) -> list[str]:
    """Everything public at a glance: hand number, bids, tricks against bids, score, spades."""
    return [
        f"Hand {obs.hand_no + 1}",
        f"bids {bids_text(look, obs)}",
        f"tricks {tricks_text(look, obs)}",
        f"score {score_text(look, obs)}",
        f"bags {bags_text(look, obs)}",
        "spades broken" if obs.spades_broken else "spades not broken",
    ]


def status(look: Look, obs: Observation) -> Fragments:
    """The status parts on two lines, as in the prompt's toolbar."""
    parts = status_parts(look, obs)
    return text(" | ".join(parts[:3]) + "\n" + " | ".join(parts[3:]))


def table(look: Look, obs: Observation, *, turn: bool = True) -> Fragments:
    """The trick in progress, who led it and (with ``turn``) who is on turn and spades."""
    no = len(obs.tricks) + 1
    out: Fragments = [("", f"Trick {no}")]
    if obs.current_trick:
        n = obs.players
        pairs = [((obs.leader + i) % n, c) for i, c in enumerate(obs.current_trick)]
        out += [("", f" ({look.seat(obs.leader)} led): "), *look.played(pairs)]
        if turn and 0 <= obs.current < n:
            out.append(("", f" - {look.seat(obs.current)} to play"))
    elif turn and 0 <= obs.current < obs.players:
        out.append(("", f": {look.seat(obs.current)} to lead"))
    if turn:
        out.append(("", " | spades broken" if obs.spades_broken else " | spades not broken"))
    return out


def hand_line(look: Look, obs: Observation) -> Fragments:
    name = look.seat(obs.seat)
    if not obs.looked:
        if look.rules.players == 2:
            return text(f"{name} has no cards yet.")
        return text(f"{name} has not looked at the cards yet.")
    return [("", f"{name}'s hand: "), *look.hand(obs.hand)]


def discards_line(look: Look, obs: Observation) -> Fragments:
    if not obs.own_discards:
        return text(f"{look.seat(obs.seat)} has discarded nothing yet.")
    return [("", f"{look.seat(obs.seat)}'s discards: "), *look.card_list(obs.own_discards)]


def turn_prompt(look: Look, obs: Observation, rules: Rules) -> Fragments:
    """The line that says what the seat on turn must decide, and what is legal."""
    name = look.seat(obs.seat)
    phase = obs.phase
    legal = list(obs.legal)
    if phase == PLAY:
        cards = [a for a in legal if a < 52]
        if obs.current_trick:
            led = obs.current_trick[0] // 13
            if all(c // 13 == led for c in cards) and len(cards) < len(obs.hand):
                said = f"{name} to play: follow {SUIT_NAMES[led]} ("
                return [("", said), *look.card_list(cards), ("", ")")]
            if any(c // 13 == led for c in obs.hand):
                return [("", f"{name} to play: follow {SUIT_NAMES[led]}")]
            return text(f"{name} to play: no {SUIT_NAMES[led]}, so any card")
        if len(cards) < len(obs.hand):
            if all(c // 13 != SPADES for c in cards) and any(c // 13 == SPADES for c in obs.hand):
                return text(f"{name} to lead: any card but a spade (spades are not broken)")
            return [("", f"{name} to lead: "), *look.card_list(cards)]
        return text(f"{name} to lead: any card")
    if phase == BID:
        bids = sorted(a - 52 for a in legal)
        return text(f"{name} to bid: {compress_bids(bids)}")
    if phase == DRAFT and obs.draft_card is not None:
        got = len(obs.hand) + 1
        return [
            ("", f"{name} draws card {got} of 13: "),
            look.card(obs.draft_card),
            ("", " - keep or discard?"),
        ]
    if phase == DECLARE:
        if rules.players == 2:
            return text(f"{name}: declare double nil before your first card? (blind or no)")
        return text(f"{name}: bid blind nil before looking at your cards? (blind or no)")
    if phase == EXCHANGE:
        left = rules.blind_nil.exchange - obs.exchanged[obs.seat]
        return text(
            f"{name}: give up a card for one from the discard pile "
            f"({plural(left, 'exchange')} left), or done"
        )
    return text(f"{name}: nothing to decide")


def hand_result(look: Look, rules: Rules, result: HandResult) -> Fragments:
    """The score breakdown of a finished hand, one line per side."""
    out: Fragments = [(TITLE, f"Hand {result.hand_no + 1} is over.")]
    for side in range(2):
        out.append(("", "\n  "))
        out.extend(side_result(look, rules, result, side, result.sides[side]))
    return out


def side_result(look: Look, rules: Rules, result: HandResult, side: int, r: SideResult) -> Fragments:
    seats = look.side_seats(side)
    bids = [bid_word(result.bids[s], result.blind[s], rules) for s in seats]
    if len(seats) == 1:
        said = f"bid {bids[0]}"
    else:
        each = ", ".join(f"{look.letter(s)} {b}" for s, b in zip(seats, bids, strict=True))
        said = f"bid {r.contract} ({each})"
    parts: Fragments = []

    def part(s: str, style: str = "") -> None:
        if parts:
            parts.append(("", ", "))
        parts.append((style, s))

    if r.contract > 0:
        if r.made:
            part(f"made {r.contract_points:+d}", GOOD)
        else:
            part(f"set {r.contract_points:+d}", BAD)
    for s in seats:
        if result.bids[s] == 0 and (result.blind[s] or rules.nil.enabled):
            what = bid_word(0, result.blind[s], rules)
            value = rules.blind_nil.value if result.blind[s] else rules.nil.value
            who = f"{look.letter(s)} " if len(seats) > 1 else ""
            if result.tricks[s] == 0:
                part(f"{who}{what} made +{value}", GOOD)
            else:
                part(f"{who}{what} failed -{value}", BAD)
    if r.bags:
        part(f"{plural(r.bags, 'bag')} {r.bag_points:+d}")
    if r.bag_penalty:
        part(f"bag penalty {r.bag_penalty:+d}", BAD)
    if not parts:
        part("nothing")
    return [
        ("", f"{look.side(side)}: {said}, took {r.tricks}: "),
        *parts,
        ("", f" = {r.points:+d}; score {r.score}, {plural(r.bags_total, 'bag')}"),
    ]


def score_table(look: Look, rules: Rules, results: Sequence[HandResult], obs: Observation) -> Fragments:
    """Every finished hand's points per side and the totals."""
    names = [look.side_short(s) for s in range(2)]
    rows = [("hand", names[0], names[1])]
    for r in results:
        rows.append((str(r.hand_no + 1), f"{r.sides[0].points:+d}", f"{r.sides[1].points:+d}"))
    rows.append(("total", str(obs.scores[0]), str(obs.scores[1])))
    rows.append(("bags", str(obs.bags[0]), str(obs.bags[1])))
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    lines = [f"Score (game to {rules.target}):"]
    for row in rows:
        lines.append("  " + "  ".join(cell.rjust(w) if i else cell.ljust(w) for i, (cell, w) in
                                      enumerate(zip(row, widths, strict=True))).rstrip())
    return text("\n".join(lines))


def rules_summary(look: Look, rules: Rules) -> Fragments:
    """The options that matter at the table, in a few lines."""
    lines = [f"Rules: {rules.name}" + (f" - {rules.description}" if rules.description else "")]
    how = ", partners sit opposite" if rules.players == 4 else ", cards drafted"
    game = f"{rules.players} players{how}"
    end = f"game to {rules.target}"
    if rules.losing_score is not None:
        end += f", or down to {rules.losing_score}"
    if rules.mercy is not None:
        end += f", or a lead of {rules.mercy}"
    lines.append(f"  {game}; {end}.")
    bidding = f"  Bids {rules.bidding.min_bid}-13"
    if rules.nil.enabled:
        failed = {"bags": "are bags", "partner": "count for the partner", "none": "score nothing"}
        bidding += f"; nil {rules.nil.value} (a failed nil's tricks {failed[rules.nil.failed_tricks]})"
    if rules.blind_nil.enabled:
        what = "double nil" if rules.players == 2 else "blind nil"
        bidding += f"; {what} {rules.blind_nil.value}"
        if rules.blind_nil.behind_by is not None:
            bidding += f" (only when {rules.blind_nil.behind_by} behind)"
        if rules.blind_nil.exchange:
            bidding += f" with up to {rules.blind_nil.exchange} cards exchanged"
    if rules.bidding.team_min:
        bidding += f"; partners bid at least {rules.bidding.team_min}"
    if rules.bidding.team_max is not None:
        bidding += f"; partners bid at most {rules.bidding.team_max}"
    if rules.ten_for_two_hundred:
        bidding += "; 10 or more made scores 200"
    lines.append(bidding + ".")
    if rules.bags.enabled:
        bags = f"  Overtricks: {rules.bags.value:+d} each"
        if rules.bags.limit is not None:
            bags += f"; every {rules.bags.limit} bags cost {rules.bags.penalty}"
    else:
        bags = "  Overtricks score nothing"
    lines.append(bags + ".")
    if rules.play.spades_break:
        play = ["spades must be broken before they are led"]
    else:
        play = ["spades may be led any time"]
    if rules.play.two_of_clubs_leads:
        play.append("the two of clubs leads the first trick")
    if rules.play.no_spades_first_trick:
        play.append("no spades on the first trick")
    lines.append("  Play: " + "; ".join(play) + ".")
    lines.append("  Type 'rules all' for every option.")
    return text("\n".join(lines))
