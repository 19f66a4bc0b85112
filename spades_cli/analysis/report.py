"""What the analysis of a hand finds: its figures from the deal and its analysed cards."""

from __future__ import annotations

from dataclasses import dataclass, field

# The figures from the deal: per side, per seat (its partners helping; None: not solved
# within the budget), and per seat the most tricks shown reachable.
Figures = tuple[list[int | None], list[int | None], list[int]]


@dataclass
class CardReport:
    hand: int  # 1-based
    trick: int  # 1-based
    seat: int
    card: int
    best: int  # a best card in that position
    cost_tricks: int  # tricks the side gave up against the best card
    cost_points: float  # hand points (side less the other side) given up
    kept: bool  # the best card made the side's contract and the played card did not
    outcome: str  # what the played card led to (for the flag's text)


@dataclass
class HandReport:
    hand: int
    dealer: int
    bids: tuple[int, ...]
    side_tricks: list[int | None]  # per side, from the deal (None: not solved in budget)
    seat_tricks: list[int | None]  # per seat, the partner helping
    seat_floors: list[int]  # per seat, the most tricks shown reachable (the figure when known)
    taken: tuple[int, ...]  # tricks taken per seat in the game
    cards: list[CardReport] = field(default_factory=list)
    skipped: int = 0  # cards not analysed (too early in the hand or over budget)
    played: tuple[int, ...] = ()  # cards played per seat (fewer in an unfinished hand)
    # positions searched for the seats' figures, N-S's tricks and N-S's points (not in the JSON)
    parts: tuple[int, int, int] = (0, 0, 0)

    @property
    def searched(self) -> int:
        """The positions the solver searched for the hand."""
        return sum(self.parts)


def side_figures(ns: float | None, tricks: int) -> list[int | None]:
    """Each of two sides' tricks from the deal, from N-S's, in a hand of ``tricks``
    tricks (None: not known)."""
    return [None, None] if ns is None else [round(ns), tricks - round(ns)]


__all__ = ["CardReport", "Figures", "HandReport", "side_figures"]
