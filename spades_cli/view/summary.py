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

from spades_cli.engine import HandResult, Rules
from spades_cli.engine.scoring import SideResult
from spades_cli.view.layout import Fragments
from spades_cli.view.look import BAD, GOOD, TITLE, Look, bid_word, plural, text


def hand_result(look: Look, rules: Rules, result: HandResult) -> Fragments:
    """The score breakdown of a finished hand, one line per side."""
    out: Fragments = [(TITLE, f"Hand {result.hand_no + 1} is over.")]
    for side in range(len(result.sides)):
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
        if rules.is_nil(result.bids[s], result.blind[s]):
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
    took = str(r.tricks)
    if len(seats) > 1:
        took += " (" + ", ".join(f"{look.letter(s)} {result.tricks[s]}" for s in seats) + ")"
    return [
        ("", f"{look.side(side)}: {said}, took {took}: "),
        *parts,
        ("", f" = {r.points:+d}; score {r.score}, {plural(r.bags_total, 'bag')}"),
    ]


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
    names = [look.side_short(s) for s in range(look.rules.sides)]
    rows: list[list[str]] = [["hand"]]
    for side in range(look.rules.sides):
        rows[0] += [f"{names[side]} bid", "took", "pts", "score"]
    for r in shown:
        row = [str(r.hand_no + 1)]
        for side in range(look.rules.sides):
            sr = r.sides[side]
            row += [_side_bid(look, rules, r, side), str(sr.tricks), f"{sr.points:+d}", str(sr.score)]
        rows.append(row)
    bags = ["bags"] + [""] * 8
    if results:
        bags[4], bags[8] = str(results[-1].sides[0].bags_total), str(results[-1].sides[1].bags_total)
    rows.append(bags)
    widths = [max(len(row[i]) for row in rows) for i in range(9)]
    lines = []
    for row in rows:
        cells = [c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))]
        lines.append(" ".join(cells[:5]) + "  " + " ".join(cells[5:]))
    return text("\n".join(line.rstrip() for line in lines))


def score_chart(
    look: Look, rules: Rules, results: Sequence[HandResult], width: int = 60, height: int = 8
) -> str:
    """Both scores over the hands as a small text chart: a column per hand (sampled when
    there are more hands than columns), the side's letter where its score is, ``#`` where
    both are, the zero line as ``-``."""
    if not results:
        return ""
    marks = [look.side_short(s)[0] for s in range(look.rules.sides)]
    if marks[0] == marks[1]:
        marks = ["1", "2"]
    scores = [(0, 0)] + [r.scores for r in results]
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
        for side in range(look.rules.sides):
            r = row_of(scores[k][side])
            cell = grid[r][c * 2 + 1]
            grid[r][c * 2 + 1] = "#" if cell in marks else marks[side]
    lines = []
    for r, cells in enumerate(grid):
        label = str(high) if r == 0 else str(low) if r == height - 1 else "0" if r == zero else ""
        lines.append(f"{label.rjust(label_w)} |{''.join(cells).rstrip()}")
    key = ", ".join(f"{marks[s]} = {look.side(s)}" for s in range(look.rules.sides))
    lines.append(f"{' ' * label_w} +{'-' * (cols * 2)}")
    lines.append(f"{' ' * label_w}  hands 0 to {len(results)}; {key}; # = both")
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
    out: Fragments = [(TITLE, "Final score, hand by hand:"), ("", "\n")]
    out += score_table(look, rules, results)
    if winner is not None:
        verb = "wins" if rules.players == 2 else "win"
        said = f"{look.side(winner)} {verb}, {scores[winner]} to {scores[1 - winner]}."
        out += [("", "\n"), (TITLE, said)]
    chart = score_chart(look, rules, results, width)
    if chart:
        out += [("", "\nThe scores over the hands:\n" + chart)]
    return out


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
    if rules.players == 2:
        lines.append("  Draft: draw the top card and keep it (the next is discarded) or discard it (and")
        lines.append("  keep the next), until each player holds 13; 'discards' lists the ones you gave up.")
    lines.append("  Type 'rules all' for every option.")
    return text("\n".join(lines))
