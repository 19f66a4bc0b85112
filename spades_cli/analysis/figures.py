"""The figures of a hand from the deal: the tricks each side can take with best play,
and each seat with its partners helping (a seat alone on its side, as in cutthroat and
solo, has its side's figure).

A seat takes no more than its side can, so it is asked 1, 2, ... tricks upward, up to
its side's figure: a question the seat can answer "yes" to is cheaper than a "no", and
each leaves bounds in the solver's table for the next (fewer positions than a binary
search). With the C core the seats' questions are taken one at a time by the hand's
runners beside its positions, the seat that has asked the fewest first
(:class:`SeatFigures`), a long question asked
again after each first card (:func:`first_card_first`); else one after another once
the side's figure is known (:func:`deal_figures`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import suppress
from typing import Final

from spades_cli.analysis.forced import forced_tricks
from spades_cli.analysis.report import Figures, side_figures
from spades_cli.analysis.threads import Halt
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
    """The seats' figures from the deal, each seat's questions asked by a solver of its own
    (made when it first asks), one question at a time by whichever of the hand's runners
    is free (:meth:`work`, beside the hand's positions:
    :func:`~spades_cli.analysis.threads.in_turn`; the C search lets other threads run).
    Each seat asks 1, 2, ... tricks upward until a "no", never past its side's figure: a
    question that might lie above it waits until the side's figure is known
    (:meth:`know`), so the questions asked, and the positions searched, are the same
    whichever runner takes a question and whenever. Two sides only."""

    def __init__(self, start: State, budget: int, halt: Halt) -> None:
        deck = solver_deck(start.rules)
        self.start = start
        self.budget = budget
        self.halt = halt
        self.total = deck.tricks  # the hand's tricks
        self.side_of = deck.side_of
        self.ours = [deck.side_of[start.current] == side for side in range(2)]  # who leads
        self.tops: list[int | None] = [None, None]  # the sides' figures, once known
        self.settled = False  # the sides' figures are known, or will not be
        # the least each side is sure of: its trumps no one beats, then its seats' "yes"es
        sides = [[s for s in range(start.n) if deck.side_of[s] == k] for k in range(2)]
        self.floors = [forced_tricks(start, seats) for seats in sides]
        self.found: list[tuple[int, bool]] = [(0, True)] * start.n  # a seat's ladder not run: over
        self.counts = [0] * start.n
        self.ready = threading.Condition()
        # Each seat's ladder: the most it was shown to reach, its solver, whether it is
        # being asked (by a runner) and whether it is over.
        self.reached = [0] * start.n
        self.solvers: list[Search | None] = [None] * start.n
        self.busy = [False] * start.n
        self.over = [False] * start.n

    def groups(self, runners: int) -> list[Callable[[], None]]:
        """The seats' questions as groups for ``runners`` runners (:meth:`work` each)."""
        return [self.work] * max(1, runners)

    def work(self) -> None:
        """Ask the seats' questions, one at a time, until none is left that no other runner
        is asking: each time the next question of the seat that has asked the fewest (so
        that the seats' long last questions start early, side by side)."""
        while True:
            with self.ready:
                free = [s for s in range(len(self.busy)) if not self.busy[s] and not self.over[s]]
                if not free:
                    return
                seat = min(free, key=lambda s: (self.reached[s], s))
                self.busy[seat] = True
            more = False
            try:
                more = self.rung(seat)
            finally:
                with self.ready:
                    self.busy[seat] = False
                    self.over[seat] = not more
                    self.ready.notify_all()

    def rung(self, seat: int) -> bool:
        """The seat's next question (``reached + 1`` tricks); False when its ladder is
        over: the figure (the most tricks shown reachable, and whether a question was
        over the budget or stopped) is then in ``found``."""
        side = self.side_of[seat]
        lo = self.reached[seat]
        over = False
        try:
            if self._asks(side, lo + 1):
                solver = self.solvers[seat]
                if solver is None:
                    solver = self.solvers[seat] = seat_solver(self.start, seat, self.budget)
                    self.halt.add(solver)
                if first_card_first(solver, float(lo + 1), side, self.ours[side]):
                    self.reached[seat] = lo + 1
                    with self.ready:
                        self.floors[side] = max(self.floors[side], lo + 1)
                        self.ready.notify_all()
                    return True
        except SearchLimit:
            over = True
        self.found[seat] = (lo, over or self.halt.halted)
        done = self.solvers[seat]
        if done is not None:
            self.counts[seat] = done.searched + done.nodes
            self.halt.drop(done)  # its table goes with it
            self.solvers[seat] = None
        return False

    def _asks(self, side: int, u: int) -> bool:
        """Whether a seat of ``side`` asks for ``u`` tricks: only up to the side's figure
        (waiting for it when ``u`` is above what the side is sure of)."""
        with self.ready:
            while True:
                top = self.tops[side]
                if top is not None:
                    return u <= top
                if self.settled or self.halt.halted:
                    return False
                if u <= self.floors[side]:
                    return True
                self.ready.wait(0.05)  # in steps, so that a halt gets through

    def know(self, ns: float | None, settled: bool = False) -> None:
        """N-S's tricks from the deal (None: not known); ``settled``: no more will come."""
        with self.ready:
            if ns is not None:
                sides = side_figures(ns, self.total)
                self.tops[0], self.tops[1] = sides[0], sides[1]
            self.settled = self.settled or settled
            self.ready.notify_all()

    def result(self, ns: float | None) -> tuple[Figures, int]:
        """The figures (as :func:`deal_figures`) once every seat's ladder has run."""
        sides = side_figures(ns, self.total)
        seats: list[int | None] = []
        floors: list[int] = []
        for seat, (lo, over) in enumerate(self.found):
            top = sides[self.side_of[seat]]
            if top is None:
                seats.append(None)
                floors.append(0)
                continue
            seats.append(top if lo >= top else None if over else lo)
            floors.append(min(lo, top))
        return (sides, seats, floors), sum(self.counts)


__all__ = ["SeatFigures", "deal_figures", "seat_solver"]
