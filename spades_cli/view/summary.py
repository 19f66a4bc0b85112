"""Summaries: a finished hand, the per-hand score table, the end of the game with its chart,
and the rules in a few lines.

The per-hand table (:func:`score_table`) fits 60 columns::

    hand   NS bid took  pts score   EW bid took  pts score
       1    4+nil    5 +141   141       10    8 -100  -100
    bags                        1                        0

The chart (:func:`score_chart`) draws both scores over the hands with plain characters
(one letter per side), so it reads the same in a pipe, a log or ``LANG=C``.
"""

from __future__ import annotations

from collections.abc import Sequence

from spades_cli.engine import HandResult, Rules, zero_at
from spades_cli.engine.cards import DECK, card_label
from spades_cli.engine.scoring import SideResult
from spades_cli.i18n import _, ngettext
from spades_cli.view.layout import Fragments, ljust, rjust, text_width
from spades_cli.view.look import BAD, GOOD, TITLE, Look, bid_word, say, text


def _bags(n: int) -> str:
    return ngettext("{n} bag", "{n} bags", n).format(n=n)


def hand_result(look: Look, rules: Rules, result: HandResult) -> Fragments:
    """The score breakdown of a finished hand, one line per side."""
    out: Fragments = [(TITLE, _("Hand {no} is over.").format(no=result.hand_no + 1))]
    for side in range(len(result.sides)):
        out.append(("", "\n  "))
        out.extend(side_result(look, rules, result, side, result.sides[side]))
    return out


def side_result(look: Look, rules: Rules, result: HandResult, side: int, r: SideResult) -> Fragments:
    seats = look.side_seats(side)
    bids = [bid_word(result.bids[s], result.blind[s], rules, zero_at(result.zero, s)) for s in seats]
    if len(seats) == 1:
        said = _("bid {bid}").format(bid=bids[0])
    else:
        each = ", ".join(f"{look.letter(s)} {b}" for s, b in zip(seats, bids, strict=True))
        said = _("bid {bid} ({each})").format(bid=r.contract, each=each)
    parts: Fragments = []

    def part(s: str, style: str = "") -> None:
        if parts:
            parts.append(("", ", "))
        parts.append((style, s))

    if r.contract > 0:
        if r.made:
            part(_("made {points:+d}").format(points=r.contract_points), GOOD)
        else:
            part(_("set {points:+d}").format(points=r.contract_points), BAD)
    for s in seats:
        if rules.is_nil(result.bids[s], result.blind[s], zero_at(result.zero, s)):
            what = bid_word(0, result.blind[s], rules)
            value = rules.blind_nil.value if result.blind[s] else rules.nil.value
            who = f"{look.letter(s)} " if len(seats) > 1 else ""
            if result.tricks[s] == 0:
                part(_("{who}{nil} made +{points}").format(who=who, nil=what, points=value), GOOD)
            else:
                part(_("{who}{nil} failed -{points}").format(who=who, nil=what, points=value), BAD)
    if r.bags:
        part(f"{_bags(r.bags)} {r.bag_points:+d}")
    if r.bag_penalty:
        part(_("bag penalty {points:+d}").format(points=r.bag_penalty), BAD)
    if not parts:
        part(_("nothing"))
    took = str(r.tricks)
    if len(seats) > 1:
        took += " (" + ", ".join(f"{look.letter(s)} {result.tricks[s]}" for s in seats) + ")"
    line = _("{side}: {bid}, took {took}: {parts} = {points:+d}; score {score}, {bags}")
    return say(
        line,
        side=look.side(side),
        bid=said,
        took=took,
        parts=parts,
        points=r.points,
        score=r.score,
        bags=_bags(r.bags_total),
    )


def _side_bid(look: Look, rules: Rules, result: HandResult, side: int) -> str:
    """``4+nil``: the side's bids, nils by name (``dnil`` / ``bnil`` for double / blind)."""
    words = []
    for s in look.side_seats(side):
        if result.bids[s] == 0:
            words.append(("dnil" if rules.players == 2 else "bnil") if result.blind[s] else "nil")
        else:
            words.append(str(result.bids[s]))
    return "+".join(words)


def score_table(look: Look, rules: Rules, results: Sequence[HandResult], *, last: int = 0) -> Fragments:
    """Every finished hand (or the ``last`` ones): per side the bid, the tricks, the points
    and the running score; then the bags carried."""
    shown = list(results[-last:]) if last else list(results)
    sides = look.rules.sides
    # Two sides: bid, took, points and score each; more (cutthroat, solo): bid/took in one
    # column, so that three sides fit 60 columns and four 80.
    apart = sides == 2
    rows: list[list[str]] = [[_("hand")]]
    for side in range(sides):
        bid = _("{side} bid").format(side=look.side_short(side))
        rows[0] += [bid, _("took"), _("pts"), _("score")] if apart else [bid, _("pts"), _("score")]
    for r in shown:
        row = [str(r.hand_no + 1)]
        for side in range(sides):
            sr, bid = r.sides[side], _side_bid(look, rules, r, side)
            tricks = [bid, str(sr.tricks)] if apart else [f"{bid}/{sr.tricks}"]
            row += [*tricks, f"{sr.points:+d}", str(sr.score)]
        rows.append(row)
    per = len(rows[0]) // sides if sides else 0
    bags = [_("bags")] + [""] * (per * sides)
    if results:
        for side in range(sides):
            bags[per * (side + 1)] = str(results[-1].sides[side].bags_total)
    rows.append(bags)
    widths = [max(text_width(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [rjust(c, w) if i else ljust(c, w) for i, (c, w) in enumerate(zip(row, widths, strict=True))]
        blocks = [cells[: 1 + per], *(cells[1 + per * s : 1 + per * (s + 1)] for s in range(1, sides))]
        lines.append("  ".join(" ".join(b) for b in blocks))
    return text("\n".join(line.rstrip() for line in lines))


def score_chart(
    look: Look, rules: Rules, results: Sequence[HandResult], width: int = 60, height: int = 8
) -> str:
    """Both scores over the hands as a small text chart: a column per hand (sampled when
    there are more hands than columns), the side's letter where its score is, ``#`` where
    both are, the zero line as ``-``."""
    if not results:
        return ""
    sides = look.rules.sides
    marks = [look.side_short(s)[0] for s in range(sides)]
    if len(set(marks)) < sides:
        marks = [str(s + 1) for s in range(sides)]
    scores = [(0,) * sides] + [r.scores for r in results]
    low = min(0, *(min(s) for s in scores))
    high = max(rules.target if rules.target else 1, *(max(s) for s in scores))
    label_w = max(len(str(low)), len(str(high)))
    cols = min(len(scores), max(1, (width - label_w - 2) // 2))
    picks = [round(i * (len(scores) - 1) / max(cols - 1, 1)) for i in range(cols)]
    grid = [[" "] * (cols * 2) for _ in range(height)]

    def row_of(value: int) -> int:
        return round((high - value) * (height - 1) / (high - low))

    zero = row_of(0)
    for c in range(cols * 2):
        grid[zero][c] = "-"
    for c, k in enumerate(picks):
        for side in range(sides):
            r = row_of(scores[k][side])
            cell = grid[r][c * 2 + 1]
            grid[r][c * 2 + 1] = "#" if cell in marks else marks[side]
    lines = []
    for r, cells in enumerate(grid):
        label = str(high) if r == 0 else str(low) if r == height - 1 else "0" if r == zero else ""
        lines.append(f"{label.rjust(label_w)} |{''.join(cells).rstrip()}")
    key = ", ".join(f"{marks[s]} = {look.side(s)}" for s in range(sides))
    lines.append(f"{' ' * label_w} +{'-' * (cols * 2)}")
    said = _("hands 0 to {n}; {key}; # = both")
    if sides > 2:
        said = _("hands 0 to {n}; {key}; # = more than one")
    lines.append(" " * label_w + "  " + said.format(n=len(results), key=key))
    return "\n".join(lines)


def game_over(
    look: Look,
    rules: Rules,
    results: Sequence[HandResult],
    winner: int | None,
    scores: Sequence[int],
    width: int = 60,
) -> Fragments:
    """The end of the game: the whole score table, the winner and the chart."""
    out: Fragments = [(TITLE, _("Final score, hand by hand:")), ("", "\n")]
    out += score_table(look, rules, results)
    if winner is not None:
        verb = _("{side} wins, {won} to {lost}.") if look.wins_word() else _("{side} win, {won} to {lost}.")
        said = verb.format(side=look.side(winner), won=scores[winner], lost=look.losers(scores, winner))
        out += [("", "\n"), (TITLE, said)]
    chart = score_chart(look, rules, results, width)
    if chart:
        out += [("", "\n" + _("The scores over the hands:") + "\n" + chart)]
    return out


def rules_summary(look: Look, rules: Rules) -> Fragments:
    """The options that matter at the table, in a few lines."""
    lines = [f"Rules: {rules.name}" + (f" - {rules.description}" if rules.description else "")]
    if rules.players == 2:
        how = ", cards drafted"
    else:
        how = ", partners sit opposite" if rules.partnerships else ", each for themself"
    game = f"{rules.players} players{how}"
    end = f"game to {rules.target}"
    if rules.losing_score is not None:
        end += f", or down to {rules.losing_score}"
    if rules.mercy is not None:
        end += f", or a lead of {rules.mercy}"
    lines.append(f"  {game}; {end}.")
    deck = _deck_summary(rules)
    if deck:
        lines.append(deck)

    bidding = f"  Bids {rules.bidding.min_bid}-{rules.hand_size}"
    bidding += {
        "mirror": " (each bids the spades held, R-M-1)",
        "whiz": " (each bids nil or the spades held, R-W-1)",
    }.get(rules.bidding.mode, "")
    if rules.bidding.suicide:
        bidding += f"; one partner of each side bids nil, the other at least {rules.bidding.suicide_min}"
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
    if rules.players == 2:
        lines.append("  Draft: draw the top card and keep it (the next is discarded) or discard it (and")
        n = rules.hand_size
        lines.append(f"  keep the next), until each player holds {n}; 'discards' lists the ones you gave up.")
    lines.append("  Type 'rules all' for every option.")
    return text("\n".join(lines))


def _deck_summary(rules: Rules) -> str:
    """``  Deck: 52 cards, 13 each (2C 2D out); above the ace of spades: BJ LJ.``, or
    nothing for the ordinary deck of 52 cards and four players' hands (R-C-1, R-CT-1, R-J-1)."""
    trumps = [card_label(c, symbols=False) for c in rules.trump_cards]
    out = [c for c in DECK if c not in rules.deck_cards]
    if not trumps and not out:
        return ""
    said = f"  Deck: {len(rules.deck_cards)} cards, {rules.hand_size} each"
    if out:
        said += f" ({' '.join(card_label(c, symbols=False) for c in out)} out)"
    if trumps:
        said += f"; above the ace of spades: {' '.join(trumps)}"
    k = rules.deck.discard
    if k:  # R-J-6 / R-J-7
        who = "the holder of 2C" if rules.deck.discard_to == "two_of_clubs" else "the dealer"
        when = "after" if rules.deck.discard_after_bids else "before"
        said += f".\n  Left over: {k}, taken by {who}, who lays {k} aside face down {when} the bidding"
    return said + "."


def opening_lines(look: Look, seed: int | str, labels: dict[int, str], transcript: str | None) -> list[str]:
    """What ``spades play`` says first: the rules, the seed, who sits where, the file."""
    rules = look.rules
    humans = [s for s, label in labels.items() if label == "human"]
    parts = []
    for seat in range(rules.players):
        label = labels[seat]
        if label == "human":
            who = _("you") if len(humans) == 1 else _("a person")
        elif label.startswith("cmd:"):
            who = _("program {name}").format(name=label[4:])
        else:
            who = _("{level} bot").format(level=label)
        parts.append(f"{look.seat(seat)} {who}")
    said = _("Spades, {rules} rules: game to {target}. Seed {seed}.")
    lines = [said.format(rules=rules.name, target=rules.target, seed=seed)]
    lines.append(_("Seats: {seats}.").format(seats=", ".join(parts)))
    if transcript is not None:
        lines.append(_("Saving the game in {path}").format(path=transcript))
    lines.append(_("Type help for the commands."))
    return lines
