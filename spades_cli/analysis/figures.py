"""The figures of a hand from the deal: the tricks each side can take with best play,
and each seat with its partners helping (a seat alone on its side, as in cutthroat and
solo, has its side's figure).

A seat takes no more than its side can, so it is asked 1, 2, ... tricks upward, up to
its side's figure: a question the seat can answer "yes" to is cheaper than a "no", and
each leaves bounds in the solver's table for the next (fewer positions than a binary
search). With the C core the four seats are searched in a thread each, at a lower
priority, while the caller solves the hand's positions (:class:`SeatFigures`), a long
question asked again after each first card (:func:`first_card_first`); else one after
another once the side's figure is known (:func:`deal_figures`).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from typing import Final

from spades_cli.analysis.report import Figures, side_figures
from spades_cli.analysis.threads import Halt, yield_to_caller
from spades_cli.engine import State
from spades_cli.solver import backend
from spades_cli.solver.backend import Search
from spades_cli.solver.deck import solver_deck
from spades_cli.solver.fast import FastSolver
from spades_cli.solver.search import SearchLimit
from spades_cli.solver.sets import trick_table


def seat_solver(start: State, seat: int, budget: int, *, threaded: bool = False) -> Search:
    """A search of the tricks ``seat`` takes from ``start``, its partners helping
    (``threaded``: see :func:`~spades_cli.solver.backend.new_solver`)."""
    groups = [0 if s == seat else 1 for s in range(start.n)]
    table = trick_table(2, [0])
    side = solver_deck(start.rules).side_of[seat]
    return backend.new_solver(start, side, groups, table, None, [1.0, 0.0], budget, threaded=threaded)


def deal_figures(
    start: State, sides: list[int | None], budget: int, halt: Halt | None = None
) -> tuple[Figures, int]:
    """The tricks each seat, its partners helping, can take from the deal, given each
    side's (``sides``, None when not known), and the positions searched. A seat alone
    on its side has its side's figure; a seat whose side's figure is not known, none."""
    side_of = solver_deck(start.rules).side_of
    seats: list[int | None] = []
    floors: list[int] = []
    searched = 0
    for seat in range(start.n):
        top = sides[side_of[seat]]
        if top is None or side_of.count(side_of[seat]) == 1:
            seats.append(top)
            floors.append(top or 0)
            continue
        got, floor, count = _seat_figure(start, seat, top, budget, halt)
        seats.append(got)
        floors.append(floor)
        searched += count
    return (sides, seats, floors), searched


def _seat_figure(
    start: State, seat: int, top: int, budget: int, halt: Halt | None = None
) -> tuple[int | None, int, int]:
    """The tricks ``seat`` can take from the deal, its partner helping (None: over the
    budget), the most it was shown to reach, and the positions searched; only the counts
    up to its side's figure ``top`` are asked about."""
    solver = seat_solver(start, seat, budget)
    if halt is not None:
        halt.add(solver)
    side = solver_deck(start.rules).side_of[seat]
    lo = 0
    try:
        while lo < top and solver.reaches(-1, float(lo + 1), side):
            lo += 1
    except SearchLimit:
        return None, lo, solver.searched + solver.nodes
    return lo, lo, solver.searched + solver.nodes


# A seat's question from the deal that has visited this many positions is asked again
# card by card (:func:`first_card_first`), each card within the second figure.
LONG_QUESTION: Final = 4_000_000
CARD_PROBE: Final = 1_000_000


def first_card_first(solver: Search, u: float, side: int, ours: bool) -> bool:
    """``solver.reaches(-1, u, side)`` from the deal, the same answer, found sooner when the
    search tries the wrong first cards first: a question longer than
    :data:`LONG_QUESTION` positions is asked after each first card within
    :data:`CARD_PROBE` (a "yes" after a card of ``side``, ``ours`` when it leads, or a
    "no" after a card of the other side answers it; every card answered the other way
    does too), and only then whole, its table warm from the probes; all of it within the
    solver's budget (a "yes" that cost 62 million positions answered with 6.6 million:
    bench/README.md)."""
    if not isinstance(solver, FastSolver) or 0 < solver.budget <= LONG_QUESTION:
        return solver.reaches(-1, u, side)
    budget = solver.budget
    spent = solver.searched + solver.nodes

    def within(card: int, cap: int) -> bool:
        """The question after ``card`` (or whole) within ``cap`` positions and the budget."""
        if budget:
            left = budget - (solver.searched + solver.nodes - spent)
            if left <= 0:
                raise SearchLimit(f"more than {budget} positions")
            cap = min(cap, left) if cap else left
        return solver.reaches(card, u, side, cap)

    with suppress(SearchLimit):
        return within(-1, LONG_QUESTION)
    answered = 0
    cards = solver.distinct_moves()
    for card in cards:
        try:
            if within(card, CARD_PROBE) == ours:
                return ours
            answered += 1
        except SearchLimit:
            continue
    return not ours if answered == len(cards) else within(-1, 0)


class SeatFigures:
    """The seats' figures from the deal, searched in a thread a seat, at a lower
    priority, while the caller solves the hand's positions (the C search lets other
    threads run; each thread has a solver of its own; measured: bench/README.md). Each
    seat asks 1, 2, ... tricks upward until a "no". Its side's figure is known only at
    the end: a question above it can only be a "no" (or over the budget), so the figures
    are those of asking only up to it, as :func:`deal_figures` does. Two sides only."""

    def __init__(self, start: State, budget: int, halt: Halt | None = None) -> None:
        """``MemoryError`` when the C tables do not fit (the caller asks one seat after
        another instead)."""
        n = start.n
        deck = solver_deck(start.rules)
        self.total = deck.tricks  # the hand's tricks
        self.side_of = deck.side_of
        self.tops: list[int | None] = [None, None]  # the sides' figures, once known
        self.solvers = [seat_solver(start, seat, budget, threaded=True) for seat in range(n)]
        self.leader = start.current
        if halt is not None:
            for solver in self.solvers:
                halt.add(solver)
        self.pool = ThreadPoolExecutor(max_workers=n, thread_name_prefix="analyze")
        self.futures = [self.pool.submit(self._ladder, seat) for seat in range(n)]

    def _ladder(self, seat: int) -> tuple[int, bool]:
        """The most tricks the seat was shown to reach and whether a question was over
        the budget (or stopped)."""
        yield_to_caller()
        solver = self.solvers[seat]
        side = self.side_of[seat]
        lo = 0
        try:
            while lo < self.total:
                top = self.tops[side]
                if top is not None and lo >= top:
                    break
                if not first_card_first(solver, float(lo + 1), side, self.side_of[self.leader] == side):
                    break
                lo += 1
        except SearchLimit:
            return lo, True
        return lo, False

    def know(self, ns: float) -> None:
        """N-S's tricks from the deal, once known: no seat asks past its side's figure."""
        sides = side_figures(ns, self.total)
        self.tops[0], self.tops[1] = sides[0], sides[1]

    def result(self, ns: float | None) -> tuple[Figures, int]:
        """The figures (as :func:`deal_figures`) once N-S's tricks from the deal are known."""
        sides = side_figures(ns, self.total)
        if ns is None:
            self.close()
            return (sides, [None] * len(self.solvers), [0] * len(self.solvers)), self.searched()
        self.tops[0], self.tops[1] = sides[0], sides[1]
        seats: list[int | None] = []
        floors: list[int] = []
        for seat, future in enumerate(self.futures):
            lo, over = future.result()
            top = sides[self.side_of[seat]]
            assert top is not None
            seats.append(top if lo >= top else None if over else lo)
            floors.append(min(lo, top))
        self.close()
        return (sides, seats, floors), self.searched()

    def searched(self) -> int:
        return sum(s.searched + s.nodes for s in self.solvers)

    def close(self) -> None:
        """End the searches still running and the threads."""
        for solver in self.solvers:
            solver.stop()
        self.pool.shutdown(wait=True)


__all__ = ["SeatFigures", "deal_figures", "seat_solver"]
