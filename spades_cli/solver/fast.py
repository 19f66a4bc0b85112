"""The double-dummy solver with its search in C (``solver/_ddcore.c``), for analysis.

:class:`FastSolver` answers the questions of :class:`~spades_cli.solver.search.Solver`
that hindsight analysis asks (``value``, ``reaches``, ``distinct_moves``) with the same
values: the same game under the same rules, the same outcome tables. Its search follows
the Python solver's (partition table, sure tricks, equivalent cards, move order) in C,
with one bound of its own on a seat counted alone (``_ddcore_sure.h``); it answers the
same questions much faster (``bench/analyze.py``, like for like; bench/README.md). The
C core is built when the package is installed with a C compiler; without it
:func:`available` is False and the callers use the Python solver (the same values,
where its budget lets it find them).

A budget counts the positions of one question, as the Python solver's does, but the
two searches visit different positions, so a budget means more positions here.
"""

from __future__ import annotations

import math

from spades_cli.engine.phases import PLAY
from spades_cli.engine.plan import plan_for
from spades_cli.engine.state import State
from spades_cli.solver.search import SearchLimit, refuse_variant
from spades_cli.solver.sets import RADIX, greatest_reached, rep_of, spreads

try:
    from spades_cli.solver import _ddcore
except ImportError:  # no C compiler at install time: the Python solver is used instead
    _ddcore = None  # type: ignore[assignment]

TT_BITS = 20  # at most 2**20 entries (48 MB) and 2**18 buckets (20 MB) a solver


def table_bits(left: int) -> int:
    """The table's size (a power of two) for a search from ``left`` tricks left: a small
    ending needs a small table, which is quicker to make and to read."""
    return max(12, min(TT_BITS, 8 + left))


def available() -> bool:
    """True when the C search core was built."""
    return _ddcore is not None


class FastSolver:
    """Double-dummy search of a position of the play phase, in C; the arguments are
    :class:`~spades_cli.solver.search.Solver`'s. ``linear`` 0/1 weights make the value
    a trick count (searched as one); otherwise the value is read from ``table``."""

    def __init__(
        self,
        state: State,
        side: int,
        groups: list[int],
        table: list[float],
        keen: list[bool] | None = None,
        linear: list[float] | None = None,
        budget: int = 0,
    ) -> None:
        if _ddcore is None:
            raise RuntimeError("the C search core was not built")
        refuse_variant(state)
        n = state.n
        self.n = n
        self.side = side
        self.groups = groups[:]
        self.ngroups = max(groups) + 1
        self.table = table
        self.budget = budget
        self.count_mode = linear is not None and all(w in (0.0, 1.0) for w in linear)
        # The counted seats: the trick count's (count mode); else side N-S's, whose tricks
        # bound the table's outcomes (sure tricks, a shared count table).
        if linear is not None and self.count_mode:
            self.cnt = [int(linear[groups[s]]) for s in range(n)]
            inc = self.cnt  # a counted seat's trick adds one to the count
        else:
            self.cnt = [int(s % 2 == 0) for s in range(n)]
            inc = [RADIX ** groups[s] for s in range(n)]  # a trick adds to its group's digit
        keen_list = keen if keen is not None else [True] * n
        plan = plan_for(state.rules)
        self.beaten_by = plan.beaten_by
        self.core = _ddcore.Core(
            n,
            plan.card_keeps,  # the play rules, as data (engine/play.py)
            plan.order.table(),  # the order of the cards in a trick, as data (engine/play.py)
            side,
            inc,
            self.cnt,
            [int(k) for k in keen_list],
            table,
            self.ngroups,
            int(self.count_mode),
            table_bits(13 - state.trick_no),
        )
        self.nodes = 0
        self.searched = 0
        self.load(state)

    def load(self, state: State) -> None:
        """Search from ``state`` next (the transposition table stays valid)."""
        if state.phase != PLAY:
            raise ValueError("the solver needs a position of the play phase")
        n = self.n
        code = 0
        for s in range(n):
            code += state.tricks_won[s] * RADIX ** self.groups[s]
        self.code = code  # the table's index so far
        self.left = 13 - state.trick_no
        self.trick = state.trick[:]
        self.current = state.current
        self.win_card = state.win_card
        self.win_seat = state.win_seat
        counted = sum(state.tricks_won[s] * self.cnt[s] for s in range(n))
        self.core.load(
            state.hands[:],
            self.trick,
            state.leader,
            state.current,
            int(state.broken),
            int(state.first_trick),
            state.win_card,
            state.win_seat,
            self.left,
            counted if self.count_mode else code,
            counted,
        )

    def share(self, other: FastSolver) -> None:
        """Answer questions about this table from the bounds on N-S's tricks to come that
        ``other`` (a trick-count solver of N-S's tricks, used in the same thread) finds."""
        self.core.share(other.core)

    def stop(self) -> None:
        """End a search this solver runs in another thread (it raises ``SearchLimit``),
        and every later one."""
        self.core.stop()

    def value(self, guess: float | None = None, bound: int = 0) -> float:
        """The value of the position with best play by every seat (``bound`` 1: known to
        be at least ``guess``; -1: at most ``guess``)."""
        return self._exact(-1, guess, bound)

    def move_values(self) -> dict[int, float]:
        """The exact value of every legal card of the seat on turn (equivalent cards
        share their representative's value)."""
        out: dict[int, float] = {}
        guess: float | None = None
        reps = self.distinct_moves()
        for c in reps:
            guess = out[c] = self._exact(c, guess)
        for c in self.core.legal():
            if c not in out:
                out[c] = out[rep_of(c, reps)]
        return out

    def reaches(self, card: int, v: float, for_side: int) -> bool:
        """Whether, after ``card`` (or from the position when ``card`` < 0), ``for_side``
        can make the value at least ``v`` (``for_side`` is ``side``) or at most ``v``."""
        if for_side == self.side:
            return self._ask(card, v)
        return not self._ask(card, math.nextafter(v, math.inf))

    def distinct_moves(self) -> list[int]:
        """One legal card of each run of equivalent cards of the seat on turn, low first."""
        return self.core.moves()

    def outcomes(self, card: int = -1) -> list[float]:
        """The values the hand can still end with (after ``card`` when it is >= 0)."""
        left = self.left
        code = self.code
        if card >= 0 and len(self.trick) == self.n - 1:
            left -= 1  # the card ends the trick: its winner is known
            wins = self.beaten_by[self.win_card] >> card & 1
            code += RADIX ** self.groups[self.current if wins else self.win_seat]
        return sorted({self.table[code + add] for add in spreads(self.ngroups, left)})

    def _ask(self, card: int, u: float) -> bool:
        """Can ``side`` make the value at least ``u`` (after ``card`` when >= 0)?"""
        self.searched += self.nodes
        answer, self.nodes = self.core.test(card, u, self.budget)
        if answer < 0:
            raise SearchLimit(f"more than {self.budget} positions")
        return bool(answer)

    def _exact(self, card: int, guess: float | None, bound: int = 0) -> float:
        """The greatest outcome ``side`` can reach, by questions from ``guess`` (MTD(f))."""
        return greatest_reached(self.outcomes(card), lambda u: self._ask(card, u), guess, bound)


__all__ = ["FastSolver", "available"]
