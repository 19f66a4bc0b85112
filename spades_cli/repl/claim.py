"""``claim``: the rest of a hand's tricks for a side, when they are certain.

A claim is checked by the double-dummy solver with every hand known (a game played here
knows them): the claiming seats (the side's bidders, not a nil bidder) must take every
trick still to play whatever the other seats play. The side's cards are then played by
the solver (the lowest card that keeps every trick), the other side's by their own
players.
"""

from __future__ import annotations

from spades_cli.engine import State
from spades_cli.solver import backend
from spades_cli.solver.deck import radix_of
from spades_cli.solver.search import SearchLimit
from spades_cli.solver.sets import trick_table


class Claim:
    """The claim of the ``seats`` of ``side`` at ``state``: :attr:`certain`, then :meth:`card`
    for the side's turns."""

    def __init__(self, state: State, side: int, seats: list[int]) -> None:
        groups = [0 if s in seats else 1 for s in range(state.n)]
        self.side = side
        table = trick_table(2, [0], radix_of(state.rules.hand_size))  # (17 tricks: R-CT-1)
        budget = backend.default_budget()
        self.solver = backend.new_solver(state, side, groups, table, None, [1.0, 0.0], budget)
        won = sum(state.tricks_won[s] for s in seats)
        self.target = float(won + state.rules.hand_size - len(state.tricks))
        try:
            self.certain = self.solver.reaches(-1, self.target, side)
        except SearchLimit:
            self.certain = False  # not shown within the budget: not certain enough to claim

    def card(self, state: State) -> int:
        """The lowest card of the side's seat on turn that keeps every trick."""
        self.solver.load(state)
        moves = self.solver.distinct_moves()
        return next((c for c in moves if self.solver.reaches(c, self.target, self.side)), moves[0])
