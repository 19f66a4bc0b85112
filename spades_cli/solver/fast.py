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
from collections.abc import Callable

from spades_cli.engine.phases import PLAY
from spades_cli.engine.state import State
from spades_cli.solver.deck import mates, pairs, solver_deck, tricks_left
from spades_cli.solver.search import SearchLimit
from spades_cli.solver.sets import greatest_reached, rep_of, spreads

try:
    from spades_cli.solver import _ddcore
except ImportError:  # no C compiler at install time: the Python solver is used instead
    _ddcore = None  # type: ignore[assignment]

TT_BITS = 21  # at most 2**21 entries (96 MB) and 2**19 buckets (40 MB) a solver, grown to as it fills
START_MOST = 20  # a search from the deal starts at 2**20 entries: most never need more


def table_bits(left: int) -> int:
    """The table's largest size (a power of two) for a search from ``left`` tricks left: a
    small ending needs a small table, which is quicker to make and to read."""
    return max(12, min(TT_BITS, 8 + left))


def start_bits(left: int) -> int:
    """The table's first size: it grows fourfold as it fills, up to ``table_bits``. A
    search from the deal fills 2**20 entries at once, and only a question that fills
    them (the exact trick counts of the points near the bag limit did, before their
    cards were ordered by cuts) grows to 2**21; a later one often needs far less (the
    pages a table touches are zeroed first: bench/README.md)."""
    return min(START_MOST, table_bits(left)) if left >= 13 else 14


def available() -> bool:
    """True when the C search core was built."""
    return _ddcore is not None


class FastSolver:
    """Double-dummy search of a position of the play phase, in C; the arguments are
    :class:`~spades_cli.solver.search.Solver`'s. ``linear`` 0/1 weights make the value
    a trick count (searched as one); otherwise the value is read from ``table``. The
    core reads slot cards and two teams (solver/deck.py); the methods take and give
    cards."""

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
        n = state.n
        self.n = n
        deck = solver_deck(state.rules)  # the cards as slot cards, the seats as two teams
        self.deck = deck
        self.asked = side
        team, self.side = deck.teams(side)
        self.team = team
        self.radix = radix = deck.radix
        self.groups = groups[:]
        self.ngroups = max(groups) + 1
        self.table = table
        self.budget = budget
        self.count_mode = linear is not None and all(w in (0.0, 1.0) for w in linear)
        # The counted seats: the trick count's (count mode); else team 0's (side N-S's),
        # whose tricks bound the table's outcomes (sure tricks, a shared count table).
        if linear is not None and self.count_mode:
            self.cnt = [int(linear[groups[s]]) for s in range(n)]
            inc = self.cnt  # a counted seat's trick adds one to the count
        else:
            self.cnt = [int(team[s] == 0) for s in range(n)]
            inc = [radix ** groups[s] for s in range(n)]  # a trick adds to its group's digit
        keen_list = keen if keen is not None else [True] * n
        self.beaten_by = deck.order.beaten_by  # the order of the slot cards in a trick
        self.trump_suit = deck.order.trump_suit
        # The team whose tricks are counted, when the count is one whole team's (-1: not).
        self.counted_team = -1
        if self.count_mode:
            whole = {team[s] for s in range(n) if self.cnt[s]}
            if len(whole) == 1 and all(self.cnt[s] for s in range(n) if team[s] in whole):
                self.counted_team = whole.pop()
        self.core = _ddcore.Core(
            n,
            deck.keeps,  # the play rules, as data (engine/play.py), in slot cards
            deck.order_table(),  # the order of the cards in a trick (engine/play.py's), in slot cards
            self.side,
            inc,
            self.cnt,
            [int(k) for k in keen_list],
            table,
            self.ngroups,
            int(self.count_mode),
            table_bits(tricks_left(state)),
            team,
            mates(team),
            int(pairs(team)),
            radix,
            start_bits(tricks_left(state)),
        )
        self.nodes = 0
        self.searched = 0
        # The value of the last position whose cards move_values solved: the next one's
        # first question starts from it (from one position to the next the value most
        # often stays, as a hand is played; any guess gives the same values).
        self.last_value: float | None = None
        self.load(state)

    def load(self, state: State) -> None:
        """Search from ``state`` next (the transposition table stays valid)."""
        if state.phase != PLAY:
            raise ValueError("the solver needs a position of the play phase")
        n = self.n
        deck = self.deck
        code = 0
        for s in range(n):
            code += state.tricks_won[s] * self.radix ** self.groups[s]
        self.code = code  # the table's index so far
        self.left = tricks_left(state)
        self.trick = [deck.slot(c) for c in state.trick]
        self.current = state.current
        self.win_card = deck.slot(state.win_card)
        self.win_seat = state.win_seat
        counted = sum(state.tricks_won[s] * self.cnt[s] for s in range(n))
        self.hands = [deck.slots(h) for h in state.hands]
        self.core.load(
            self.hands,
            self.trick,
            state.leader,
            state.current,
            int(state.broken),
            int(state.first_trick),
            self.win_card,
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
        guess = self.last_value
        reps = self.core.moves()
        for c in reps:
            guess = out[c] = self._exact(c, guess)
        mine = self.team[self.current] == self.side
        self.last_value = max(out.values()) if mine else min(out.values())
        for c in self.core.legal():
            if c not in out:
                out[c] = out[rep_of(c, reps)]
        card = self.deck.card_of
        return {card[c]: v for c, v in out.items()}

    def reaches(self, card: int, v: float, for_side: int, cap: int | None = None) -> bool:
        """Whether, after ``card`` (or from the position when ``card`` < 0), ``for_side``
        can make the value at least ``v`` (``for_side`` is ``side``) or at most ``v``;
        ``cap``: this question's positions in place of the budget (0: no limit)."""
        slot = self.deck.slot(card)
        if for_side == self.asked:
            return self._ask(slot, v, cap)
        return not self._ask(slot, math.nextafter(v, math.inf), cap)

    def tricks_searched(self) -> int:
        """The tricks this solver's searches finished (a trick's last card played in the
        search): DDS's unit of work (its ``nodes``), for like-for-like comparisons."""
        return self.core.tricks()

    def distinct_moves(self) -> list[int]:
        """One legal card of each run of equivalent cards of the seat on turn, low first."""
        card = self.deck.card_of
        return [card[c] for c in self.core.moves()]

    def outcomes(self, card: int = -1) -> list[float]:
        """The values the hand can still end with (after ``card`` when it is >= 0)."""
        return self._outcomes(self.deck.slot(card))

    def _outcomes(self, card: int) -> list[float]:
        left = self.left
        code = self.code
        if card >= 0 and len(self.trick) == self.n - 1:
            left -= 1  # the card ends the trick: its winner is known
            wins = self.beaten_by[self.win_card] >> card & 1
            code += self.radix ** self.groups[self.current if wins else self.win_seat]
        return sorted({self.table[code + add] for add in spreads(self.ngroups, left, self.radix)})

    def _ask(self, card: int, u: float, cap: int | None = None) -> bool:
        """Can ``side`` make the value at least ``u`` (after ``card`` when >= 0)?"""
        limit = self.budget if cap is None else cap
        self.searched += self.nodes
        answer, self.nodes = self.core.test(card, u, limit)
        if answer < 0:
            raise SearchLimit(f"more than {limit} positions")
        return bool(answer)

    def _exact(self, card: int, guess: float | None, bound: int = 0) -> float:
        """The greatest outcome ``side`` can reach, by questions from ``guess`` (MTD(f));
        with no guess and many tricks left, from an estimate of the counted team's tricks,
        step by step."""
        values = self._outcomes(card)

        def ask(u: float) -> bool:
            return self._ask(card, u)

        if guess is None and bound == 0 and self.counted_team >= 0 and self.left >= ESTIMATE_FROM:
            est = estimate_tricks(self.hands, self.team, self.counted_team, self.trump_suit, self.left)
            return stepped(values, ask, min(len(values) - 1, est))
        return greatest_reached(values, ask, guess, bound)


# Tricks left from which a search with no guess starts from the estimate: below, halving
# costs about as little, and the estimate's own cost shows (bench/README.md).
ESTIMATE_FROM = 10


def stepped(values: list[float], reaches: Callable[[float], bool], k: int) -> float:
    """The greatest of the sorted ``values`` that ``reaches`` says yes to (the least is
    always reached), asked from ``values[k]`` one step at a time (DDS's walk: the
    questions next to the value cost the most, so a good first guess is worth more than
    halving; measured: bench/README.md)."""
    lo, hi = 0, len(values) - 1
    while lo < hi:
        at = k if k > lo else k + 1
        if reaches(values[at]):
            lo = k = at
        else:
            hi = k = at - 1
    return values[lo]


def estimate_tricks(hands: list[int], team: list[int], side: int, trump_suit: int, left: int) -> int:
    """A guess at the tricks to come of team ``side`` from its cards (slot masks), for the
    first question of a search with no other guess: a line fitted to the values of 200
    dealt hands (bench/README.md, issue 32's ninth round). Its high cards (the top four
    of each suit's remaining cards, 4 to 1), its trumps beyond the other team's, and the
    short suits of each team's hands that hold trumps."""
    uni = mine = 0
    for s, h in enumerate(hands):
        uni |= h
        if team[s] == side:
            mine |= h
    high = trumps = 0
    for suit in range(4):
        rem = (uni >> (16 * suit)) & 0xFFFF
        own = (mine >> (16 * suit)) & 0xFFFF
        weight = 4
        while rem and weight:
            top = rem.bit_length() - 1
            if own >> top & 1:
                high += weight
            rem ^= 1 << top
            weight -= 1
        if suit == trump_suit:
            trumps = 2 * own.bit_count() - ((uni >> (16 * suit)) & 0xFFFF).bit_count()
    ruffs = [0, 0]  # by team: short suits (none or one card) in a hand with trumps
    for s, h in enumerate(hands):
        held = ((h >> (16 * trump_suit)) & 0xFFFF).bit_count()
        for suit in range(4):
            length = ((h >> (16 * suit)) & 0xFFFF).bit_count()
            if held and suit != trump_suit and length < 2:
                ruffs[team[s] == side] += min(2 - length, held)
    guess = -0.681 * left / 13 + 0.372 * high + 0.407 * trumps + 0.454 * ruffs[1] - 0.651 * ruffs[0]
    return max(0, min(left, round(guess)))


__all__ = ["FastSolver", "available"]
