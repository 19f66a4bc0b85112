"""The question put to the double-dummy solver: what the end of a hand is worth to a side.

An :class:`Outcome` is the value table of one hand, indexed by the tricks each *group*
of seats takes (the seats that score alike: a side's non-nil bidders form one group,
each nil bidder is a group of its own, R-4P-7; without partners every seat is a group,
R-CT-1, R-I-1), with the groups and the hints the search reads beside it. The analysis
asks for the side's tricks and its points; a bot gives its own value of a finished hand
(a :data:`Utility`). With more than two sides the other sides' points count as their
mean (the side's points less what the others score on average).
"""

from __future__ import annotations

from collections.abc import Callable

from spades_cli.engine.observation import HandResult
from spades_cli.engine.rules import Rules
from spades_cli.engine.scoring import score_side
from spades_cli.engine.state import State
from spades_cli.solver.deck import solver_deck
from spades_cli.solver.search import Solver
from spades_cli.solver.sets import spreads

# A finished hand's value for a side (a bot's: points with bags priced, the game's odds).
Utility = Callable[[Rules, int, HandResult], float]


class Outcome:
    """The value table of one hand for ``side``, by the tricks of each group of seats:
    ``value`` "tricks" (the side's tricks), "points" (the hand's points of ``side`` less
    the other side's, or the other sides' mean) or a :data:`Utility` of the finished
    hand (kept as ``utility``)."""

    def __init__(self, st: State, side: int, *, value: str | Utility) -> None:
        if isinstance(value, str) and value not in ("tricks", "points"):
            raise ValueError(f"an outcome is tricks, points or a utility, not {value!r}")
        rules = st.rules
        n = st.n
        deck = solver_deck(rules)
        side_of = deck.side_of
        nil = [rules.is_nil(st.bids[s], st.blind[s], st.zero[s]) for s in range(n)]
        groups = [-1] * n
        first_of: list[int] = []
        for s in range(n):
            if groups[s] >= 0:
                continue
            groups[s] = len(first_of)
            first_of.append(s)
            for p in range(s + 1, n):  # a partner who is not nil either (R-4P-6)
                if side_of[p] == side_of[s] and not nil[s] and not nil[p]:
                    groups[p] = groups[s]
        self.groups = groups
        self.keen = [not x for x in nil]
        self.side = side
        nsides = deck.sides
        # Each side's contract: its bids that are not nil (R-4P-6).
        self.contracts = tuple(
            sum(st.bids[s] for s in range(n) if side_of[s] == k and not nil[s]) for k in range(nsides)
        )
        # The side's trick count is a sum over the groups: the solver can share more.
        self.linear = [float(side_of[first] == side) for first in first_of] if value == "tricks" else None
        self.kind = value if isinstance(value, str) else "utility"
        self.utility: Utility | None = None if isinstance(value, str) else value
        self.rules = rules
        sides = [tuple(s for s in range(n) if side_of[s] == k) for k in range(nsides)]
        self.seats = sides[side]
        g = len(first_of)
        radix = deck.radix
        table = [0.0] * (radix**g)
        bids = tuple(st.bids)
        blind = tuple(st.blind)
        for index in spreads(g, deck.tricks, radix):
            tricks = [0] * n
            x = index
            for k in range(g):
                tricks[first_of[k]] = x % radix
                x //= radix
            scored = tuple(
                score_side(rules, bids, blind, tricks, seats, st.scores[k], st.bags[k])
                for k, seats in enumerate(sides)
            )
            result = HandResult(st.hand_no, st.dealer, bids, blind, tuple(tricks), scored)
            table[index] = self.value_of(result)
        self.table = table

    def value_of(self, result: HandResult) -> float:
        """What the finished hand ``result`` is worth to ``side`` (the table's entry for
        its tricks)."""
        if self.utility is not None:
            return self.utility(self.rules, self.side, result)
        if self.kind == "tricks":
            return float(sum(result.tricks[s] for s in self.seats))
        others = [r.points for k, r in enumerate(result.sides) if k != self.side]
        return float(result.sides[self.side].points - sum(others) / len(others))

    def solver(self, st: State, budget: int = 0, total: int = 0) -> Solver:
        """The Python search of ``st`` for this table: its budget (``budget`` a question,
        ``total`` all its questions) counts the same positions on every build (a bot
        that caps its search makes the same moves whether the C core was built or not)."""
        return Solver(st, self.side, self.groups, self.table, self.keen, self.linear, budget, total)


__all__ = ["Outcome", "Utility"]
