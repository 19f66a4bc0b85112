"""The one place that chooses the double-dummy search: the C core when it was built,
else the Python solver. Both answer the same questions with the same values; what
differs is their speed, what a budget of positions buys, and how a search is stopped.

Callers ask :func:`new_solver` for a :class:`Search` and :func:`default_budget` for its
budget, and :func:`c_core` whether the searches run beside each other in threads and
stop at once when told (the C core lets other threads run while it searches; the
Python solver holds the interpreter, so it is interrupted where it runs instead).
"""

from __future__ import annotations

from typing import Final, Protocol

from spades_cli.engine.state import State
from spades_cli.solver import fast
from spades_cli.solver.fast import FastSolver
from spades_cli.solver.search import Solver

PYTHON_BUDGET: Final = 200_000  # positions one question of the Python solver may visit
FAST_BUDGET: Final = 20_000_000  # of the C search, some ten times as fast a position


class Search(Protocol):
    """A double-dummy search of positions of the play phase (``solver/search.py`` says
    what the arguments and the questions mean). ``searched`` counts the positions of the
    questions before the current one, ``nodes`` those of the current one; a question
    over the budget, or stopped, raises :class:`~spades_cli.solver.search.SearchLimit`."""

    searched: int
    nodes: int

    def load(self, state: State) -> None: ...
    def value(self, guess: float | None = None, bound: int = 0) -> float: ...
    def move_values(self) -> dict[int, float]: ...
    def reaches(self, card: int, v: float, for_side: int) -> bool: ...
    def distinct_moves(self) -> list[int]: ...
    def outcomes(self, card: int = -1) -> list[float]: ...
    def stop(self) -> None: ...


def c_core() -> bool:
    """True when the C search core was built: :func:`new_solver` answers with it."""
    return fast.available()


def default_budget() -> int:
    """The positions one question may visit unless told: the C core's budget or the
    Python solver's (about the same time a question)."""
    return FAST_BUDGET if c_core() else PYTHON_BUDGET


def new_solver(
    state: State,
    side: int,
    groups: list[int],
    table: list[float],
    keen: list[bool] | None = None,
    linear: list[float] | None = None,
    budget: int = 0,
    *,
    threaded: bool = False,
) -> Search:
    """A search from ``state`` (the arguments are :class:`~spades_cli.solver.search.Solver`'s):
    the C core's when it was built and its tables fit in memory, else the Python solver's.
    ``threaded``: a search to run in a thread beside others, the C core's only
    (``MemoryError`` when its tables do not fit, ``RuntimeError`` when it was not built)."""
    if threaded or c_core():
        try:
            return FastSolver(state, side, groups, table, keen, linear, budget)
        except MemoryError:
            if threaded:
                raise
            # the C tables did not fit: the Python solver finds the same values
    return Solver(state, side, groups, table, keen, linear, budget)


def share(reader: Search, counts: Search) -> None:
    """Let ``reader`` answer from the bounds on N-S's tricks that ``counts`` (a trick
    count of the same groups) finds, when the two are searches of one kind."""
    if isinstance(reader, FastSolver):
        if isinstance(counts, FastSolver):
            reader.share(counts)
    elif isinstance(reader, Solver) and isinstance(counts, Solver):
        reader.share(counts)


__all__ = ["FAST_BUDGET", "PYTHON_BUDGET", "Search", "c_core", "default_budget", "new_solver", "share"]
