"""The analysis as JSON and as text (the words are ``view.analysis``'s)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from spades_cli.analysis.report import HandReport
from spades_cli.engine import Rules, card_str
from spades_cli.view.analysis import HINDSIGHT, deal_figures, flag_line, points_words, tricks_words


def seat_totals(rules: Rules, hands: list[HandReport]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for seat, name in enumerate(rules.seat_names):
        mine = [c for h in hands for c in h.cards if c.seat == seat]
        out[name] = {
            "cards_played": sum(h.played[seat] for h in hands),
            "cards_analysed": len(mine),
            "costly_cards": sum(1 for c in mine if c.cost_points > 0),
            "tricks_given_up": sum(c.cost_tricks for c in mine if c.cost_points > 0),
            "points_given_up": sum(c.cost_points for c in mine),
        }
    return out


def to_json(rules: Rules, hands: list[HandReport], seat: int | None = None) -> dict[str, Any]:
    names = rules.seat_names

    def keep(s: int) -> bool:
        return seat is None or s == seat

    out_hands = []
    for h in hands:
        out_hands.append(
            {
                "hand": h.hand,
                "dealer": names[h.dealer],
                "bids": {names[s]: b for s, b in enumerate(h.bids)},
                "taken": {names[s]: t for s, t in enumerate(h.taken)},
                "double_dummy": {
                    "sides": {rules.side_name(k): v for k, v in enumerate(h.side_tricks)},
                    "seats": {names[s]: v for s, v in enumerate(h.seat_tricks)},
                    "seats_at_least": {names[s]: v for s, v in enumerate(h.seat_floors)},
                },
                "cards": [
                    {
                        "trick": c.trick,
                        "seat": names[c.seat],
                        "card": card_str(c.card),
                        "best": card_str(c.best),
                        "cost_tricks": c.cost_tricks,
                        "cost_points": c.cost_points,
                        "costly": c.cost_points > 0,
                    }
                    for c in h.cards
                    if keep(c.seat)
                ],
                "not_analysed": h.skipped,
            }
        )
    totals = seat_totals(rules, hands)
    return {
        "hindsight": True,
        "note": HINDSIGHT,
        "hands": out_hands,
        "seats": {k: v for k, v in totals.items() if seat is None or k == names[seat]},
    }


def text_lines(rules: Rules, hands: list[HandReport], seat: int | None = None) -> list[str]:
    """The analysis as text: the hindsight note, each hand's lines, the seats' totals."""
    return [line for chunk in text_chunks(rules, hands, seat) for line in chunk]


def text_chunks(rules: Rules, hands: Iterable[HandReport], seat: int | None = None) -> Iterator[list[str]]:
    """The lines of :func:`text_lines` a part at a time: the note, then each hand's as
    ``hands`` gives it (an analysis still running), then the totals."""
    yield [f"Note: {HINDSIGHT}."]
    done: list[HandReport] = []
    for h in hands:
        done.append(h)
        yield hand_lines(rules, h, seat)
    yield totals_lines(rules, done, seat)


def hand_lines(rules: Rules, h: HandReport, seat: int | None = None) -> list[str]:
    """One hand's figures from the deal and its costly cards (``seat``'s only)."""
    names = rules.seat_names
    taken = " ".join(f"{names[s]} {t}" for s, t in enumerate(h.taken))
    out = [f"hand {h.hand}: {deal_figures(rules, h)}; taken {taken}"]
    if None in h.side_tricks:
        out.append("  (? = not solved within the search budget)")
    for c in h.cards:
        if c.cost_points > 0 and (seat is None or c.seat == seat):
            out.append("  " + flag_line(rules, c))
    if h.skipped:
        out.append(f"  ({h.skipped} cards not analysed: before --tricks or over the search budget)")
    return out


def totals_lines(rules: Rules, hands: list[HandReport], seat: int | None = None) -> list[str]:
    """Each seat's (or ``seat``'s) cards played and analysed, and what they gave up."""
    names = rules.seat_names
    out = ["per seat: cards played, analysed, costly, tricks and points given up"]
    for name, row in seat_totals(rules, hands).items():
        if seat is None or name == names[seat]:
            out.append(
                f"  {name}: {row['cards_played']} played, {row['cards_analysed']} analysed, "
                f"{row['costly_cards']} costly, {tricks_words(row['tricks_given_up'])}, "
                + points_words(row["points_given_up"])
            )
    return out


__all__ = ["hand_lines", "seat_totals", "text_chunks", "text_lines", "to_json", "totals_lines"]
