"""A double-dummy solver: the best play of the rest of a hand with every hand known.

The search follows the table's rules exactly (follow suit R-C-3, the trick winner R-C-4,
spades may not be led before they are broken R-C-6, the first-trick house rules). Its
outcome is a value read from a table the caller supplies, indexed by how many tricks
each *group* of seats took in the whole hand. The groups are the seats whose tricks
count the same way: a side's non-nil bidders form one group, each nil bidder is a group
of its own (R-4P-7), so a table can hold Spades points (contracts made or set, bags near
the limit, each nil's own tricks, the game score) or a plain trick count.

Every search is a yes-or-no question, a *null window*: can this side make the hand end
in one of the outcomes of a set (the outcomes whose value is at least v, or at most v)?
The set is a bit mask over the ways the tricks still to play can fall to the groups; a
trick won shifts the mask. An exact value is a few such questions, starting from a
guess (the value of the previous position, as MTD(f) does). What keeps it fast:

* a transposition table at every trick's start (``solver/table.py``) that keeps bounds
  on one trick count (normally side N-S's tricks still to come) by *partition*: a bound
  holds for every position with the same leader, broken flag and suit lengths per hand
  whose top cards of each suit, down to the cards the search depended on (the cards that
  won a trick by rank, the cards behind a sure-trick bound), have the same owners. Every
  question about any table is first answered from those bounds when it can be, and a
  question that is a trick target tightens them. The answers to other questions are
  kept by partition too, beside the bounds. The table lives as long as the solver, so
  one solver can answer many positions of a hand (:meth:`Solver.load`) and two solvers
  with the same groups can share it;
* sure tricks (``solver/sure.py``): the top spades of one hand win a trick each,
  whatever happens, and so do a hand's spades that the other side's higher spades
  cannot all beat (each beats at most one, in its own trick); the leader's top cards of
  a side suit (or its partner's, reached with a lead), while every opponent with a
  spade must follow;
* equivalent cards: cards of one suit in one hand with nothing between them but cards
  of that hand or of finished tricks win and lose the same tricks, so one is searched;
* move ordering: the card that answered the question before, then by rank: the cheapest
  card that wins for a seat that wants the trick, the least useful card otherwise (the
  most remaining cards of its suit above it), sure winners and leads to the partner's
  winner first; the last trick is counted, not searched.
"""

from __future__ import annotations

from typing import Final

from spades_cli.engine.phases import PLAY
from spades_cli.engine.play import legal_play
from spades_cli.engine.state import State
from spades_cli.solver.deck import (
    ALL_SLOTS,
    POP16,
    SUIT_MASKS,
    UnsupportedRules,
    mates,
    solver_deck,
)
from spades_cli.solver.sets import (
    RADIX,
    bits,
    count_of,
    greatest_reached,
    rep_of,
    spreads,
    trick_table,
    vectors,
)
from spades_cli.solver.sure import sure_bounds
from spades_cli.solver.table import Layout, Table

INF: Final = 1e18
_ALL: Final = ALL_SLOTS


class SearchLimit(Exception):
    """The search needed more nodes than its budget allowed."""


class Solver:
    """Double-dummy search of one position of the play phase.

    ``groups[s]`` is the group of seat ``s`` (0 .. G-1); ``table[i]`` the value of the
    hand for ``side`` when the groups' trick counts written in the rules' radix make
    ``i`` (group 0 the lowest digit; solver/deck.py ``radix_of``: 14 for hands of 13
    tricks). ``side`` (a side of the rules) maximises the value, every other seat
    minimises it (with more than two sides, all of them together: solver/deck.py).
    The cards, the order and the play rules are the rules' (any deck of the family),
    searched as slot cards (solver/deck.py); the public methods take and give cards.
    ``keen[s]`` says whether seat ``s`` usually wants tricks (only the order in which
    moves are tried depends on it, never the result). ``linear`` (per group) says the
    table is that weighted sum of the counts; ``budget`` caps the positions searched
    by each call (0: no cap), ``total`` those of all its calls together (0: no cap).
    """

    def __init__(
        self,
        state: State,
        side: int,
        groups: list[int],
        table: list[float],
        keen: list[bool] | None = None,
        linear: list[float] | None = None,
        budget: int = 0,
        total: int = 0,
    ) -> None:
        if state.phase != PLAY:
            raise ValueError("the solver needs a position of the play phase")
        n = state.n
        self.n = n
        deck = solver_deck(state.rules)  # the cards as slot cards, the seats as two teams
        self.deck = deck
        self.asked = side
        self.team, self.side = deck.teams(side)
        self.mate = mates(self.team)
        self.tricks = deck.tricks
        self.radix = deck.radix
        self.table = table
        self.groups = groups[:]
        g = max(groups) + 1
        self.ngroups = g
        self.keen = keen[:] if keen is not None else [True] * n
        self.keeps = deck.keeps  # the play rules (engine/play.py), in slot cards
        self.order = deck.order  # the order of the slot cards in a trick
        self.beaten_by = self.order.beaten_by
        self.trump = self.order.trump
        self.trump_suit = self.order.trump_suit
        self.budget = budget
        self.per_call = budget
        self.total = total
        self.nodes = 0
        self.searched = 0  # positions searched by the questions before the current one
        # Outcome sets: explicit digits for groups 0 .. G-2 (the last group's count is
        # what is left), so bit k0 + 14*k1 + ... stands for one way the tricks can fall.
        self.full: list[int] = []
        self.shift: list[int] = [self.radix ** groups[s] if groups[s] < g - 1 else 0 for s in range(n)]
        outcomes = vectors(g, self.radix)
        for left in range(self.tricks + 1):
            m = 0
            for idx, total in outcomes:
                if total <= left:
                    m |= 1 << idx
            self.full.append(m)
        self._init_count(groups, side, linear, outcomes)
        self.tt = Table()
        self.rel = 0  # the cards whose rank the last search result depended on
        self.used_lo = False
        self.used_hi = False
        self.want_win = False
        self.x = self.side  # the team asking the current question
        self.best_card = -1
        self.load(state)

    def _init_count(
        self, groups: list[int], side: int, linear: list[float] | None, vectors: list[tuple[int, int]]
    ) -> None:
        """Choose the trick count whose bounds the transposition table keeps: the tricks
        of the seats in ``counted`` (team ``count_side`` wanting them), or none."""
        n = self.n
        g = self.ngroups
        team = self.team
        side_of_group = [-1] * g
        pure = True
        for s in range(n):
            k = groups[s]
            if side_of_group[k] < 0:
                side_of_group[k] = team[s]
            elif side_of_group[k] != team[s]:
                pure = False
        counted: list[bool] = [False] * g
        count_side = -1
        if pure:
            counted = [side_of_group[k] == 0 for k in range(g)]
            count_side = 0
        elif linear is not None and all(w in (0.0, 1.0) for w in linear):
            ones = [k for k in range(g) if linear[k] == 1.0]
            sides = {team[s] for s in range(n) if groups[s] in ones}
            if len(sides) == 1:
                counted = [k in ones for k in range(g)]
                count_side = sides.pop()
        self.counted = counted
        self.count_side = count_side
        self.seat_counted = [counted[groups[s]] for s in range(n)]
        # up[left][a]: the outcomes in which the counted seats take at least a more tricks.
        self.up: list[list[int]] = []
        self.thresholds: dict[int, int] = {}
        for left in range(self.tricks + 1):
            row = [0] * (left + 2)
            for idx, total in vectors:
                if total > left:
                    continue
                c = count_of(idx, left - total, counted, g, self.radix)
                for a in range(c + 1):
                    row[a] |= 1 << idx
            self.up.append(row)
            if count_side >= 0:
                for a in range(1, left + 1):
                    self.thresholds[row[a] * 32 + left] = 2 * a
                    self.thresholds[(self.full[left] & ~row[a]) * 32 + left] = 2 * a + 1

    def share(self, other: Solver) -> None:
        """Use ``other``'s transposition tables (same groups, same counted seats)."""
        same = other.counted == self.counted and other.count_side == self.count_side
        if other.groups != self.groups or not same:
            raise ValueError("solvers share their tables only with the same groups")
        self.tt = other.tt

    def load(self, state: State) -> None:
        """Search from ``state`` next (a position of the same hand or another: the
        transposition tables stay valid)."""
        if state.phase != PLAY:
            raise ValueError("the solver needs a position of the play phase")
        n = self.n
        deck = self.deck
        self.hands = [deck.slots(h) for h in state.hands]
        self.trick = [deck.slot(c) for c in state.trick]
        self.leader = state.leader
        self.current = state.current
        self.broken = state.broken
        self.first = state.first_trick
        self.win_card = deck.slot(state.win_card)
        self.win_seat = state.win_seat
        self.left = self.tricks - state.trick_no
        code = 0
        for s in range(n):
            code += state.tricks_won[s] * self.radix ** self.groups[s]
        self.code = code
        held = 0
        for h in self.hands:
            held |= h
        for c in self.trick:
            held |= 1 << c
        self.gone = _ALL & ~held

    # -- public -------------------------------------------------------------------

    def stop(self) -> None:
        """End the search (from another thread: at its next position it raises
        ``SearchLimit``), and every later one: a budget that no position meets."""
        self.budget = -1

    def value(self, guess: float | None = None, bound: int = 0) -> float:
        """The value of the position with best play by every seat (``bound`` 1: known to
        be at least ``guess``; -1: at most ``guess``)."""
        return self._exact(-1, guess, bound)

    def move_values(self) -> dict[int, float]:
        """The exact value of every legal card of the seat on turn."""
        seat = self.current
        mask = self._legal(seat, self.hands[seat])
        out: dict[int, float] = {}
        reps = self._distinct(mask, seat)
        guess: float | None = None
        for c in self._order(reps, seat, -1):
            guess = out[c] = self._exact(c, guess)
        # Equivalent cards share their representative's value.
        for c in bits(mask):
            if c not in out:
                out[c] = out[rep_of(c, reps)]
        card = self.deck.card_of
        return {card[c]: v for c, v in out.items()}

    def best_move(self) -> tuple[int, float]:
        """A best card for the seat on turn and the position's value."""
        values = self.move_values()
        maximize = self.team[self.current] == self.side
        best = -1
        for c, v in values.items():
            if best < 0 or (v > values[best] if maximize else v < values[best]):
                best = c
        return best, values[best]

    def reaches(self, card: int, v: float, for_side: int) -> bool:
        """Whether, after ``card`` (or from the position when ``card`` < 0), ``for_side``
        can make the value at least ``v`` (``for_side`` is ``side``) or at most ``v``."""
        x = self.side if for_side == self.asked else 1 - self.side
        pred = self._pred(v, x)
        return self._ask(self.deck.slot(card), pred, x)

    def distinct_moves(self) -> list[int]:
        """One legal card of each run of equivalent cards of the seat on turn, low first."""
        seat = self.current
        card = self.deck.card_of
        return [card[c] for c in self._distinct(self._legal(seat, self.hands[seat]), seat)]

    def outcomes(self, card: int = -1) -> list[float]:
        """The values the hand can still end with (after ``card`` when it is >= 0)."""
        return self._outcomes(self.deck.slot(card))

    def _outcomes(self, card: int) -> list[float]:
        left = self.left
        code = self.code
        if card >= 0 and len(self.trick) == self.n - 1:
            left -= 1  # the card ends the trick: its winner is known
            code += self.radix ** self.groups[self._winner_with(card)]
        return sorted({self.table[code + add] for add in spreads(self.ngroups, left, self.radix)})

    # -- exact values from yes-or-no questions ------------------------------------

    def _exact(self, card: int, guess: float | None, bound: int = 0) -> float:
        """The exact value (after ``card`` when it is >= 0): the greatest outcome v that
        ``side`` can reach, found by questions starting from ``guess``."""
        side = self.side
        return greatest_reached(
            self._outcomes(card), lambda v: self._ask(card, self._pred(v, side), side), guess, bound
        )

    def _pred(self, v: float, for_side: int) -> int:
        """The outcome set (relative to the counts so far, before any card is played)
        whose values are >= v when ``for_side`` is ``side``, else <= v."""
        left = self.left
        g = self.ngroups
        table = self.table
        code = self.code
        top = self.radix ** (g - 1)
        up = for_side == self.side
        out = 0
        for idx, total in vectors(g, self.radix):
            if total > left:
                continue
            val = table[code + idx + (left - total) * top]
            if (val >= v) if up else (val <= v):
                out |= 1 << idx
        return out

    def _ask(self, card: int, pred: int, for_side: int) -> bool:
        self.x = for_side
        self.searched += self.nodes
        self.nodes = 0
        if self.total and self.budget >= 0:
            # The positions left of the total (at least one: a spent total stops at once).
            left = max(1, self.total - self.searched)
            self.budget = min(self.per_call, left) if self.per_call else left
        if card >= 0:
            return self._after(card, pred)
        if not self.trick:
            return self._lead(pred)
        return self._move(pred)

    # -- search -------------------------------------------------------------------

    def _lead(self, pred: int) -> bool:
        """At a trick's start: can side ``x`` end the hand in ``pred``?"""
        left = self.left
        full = self.full[left]
        if pred == 0 or pred == full:
            self.rel = 0
            return pred != 0
        if left == 1:
            return self._last(pred)
        tt = self.tt
        meta = self.leader * 4 + (2 if self.broken else 0) + (1 if self.first else 0)
        lay = Layout(self.hands, self.n, meta)
        question = pred * 2 + self.x
        if self.first:
            tt.clear(left)
        else:
            tt.probe(lay, left, question)
        kind = -1
        if self.count_side >= 0:
            known = self._bounded(lay, pred, left)
            if known >= 0:
                return known == 1
            kind = self.thresholds.get(pred * 32 + left, -1)
            if kind >= 0 and (kind & 1) != (0 if self.x == self.count_side else 1):
                kind = -1  # a target the other way round: not the counted game
        key = lay.ekey
        if kind < 0 and tt.found:
            self.rel = lay.relevant(tt.answer_shape)
            return tt.answer
        self.best_card = -1
        result = self._move_hint(pred, self._from_relative(tt.hints.get(key, -1)))
        rel = self.rel
        if self.best_card >= 0:
            tt.hints[key] = self._to_relative(self.best_card)
        if kind >= 0:
            a = kind >> 1
            # kind even: "at least a counted tricks"; odd: "at most a - 1".
            if (kind & 1 == 0) == result:
                tt.store(lay, rel, a, left, left)
            else:
                tt.store(lay, rel, 0, a - 1, left)
        else:
            tt.remember(lay, rel, question, result, left)
        self.rel = rel
        return result

    def _bounded(self, lay: Layout, pred: int, left: int) -> int:
        """The answer from the bounds the table found (``tt.lo``, ``tt.hi``) or the sure
        tricks (1 yes, 0 no, -1 not known); ``rel`` is then the cards they depended on."""
        tt = self.tt
        lo, hi = tt.lo, tt.hi  # from the table (nothing at the first trick)
        rel = 0
        if lo > 0 or hi < left:
            known = self._decide(pred, left, lo, hi)
            if known >= 0:
                self.rel = (lay.relevant(tt.lo_shape) if self.used_lo else 0) | (
                    lay.relevant(tt.hi_shape) if self.used_hi else 0
                )
                return known
            rel = lay.relevant(tt.lo_shape) | lay.relevant(tt.hi_shape)
        counted = self.seat_counted
        got = sure_bounds(
            self.hands, self.leader, self.first, left, counted, self.trump_suit, self.team, self.mate
        )
        s_lo = got & 31
        s_hi = (got >> 5) & 31
        if s_lo > lo or s_hi < hi:
            known = self._decide(pred, left, s_lo if s_lo > lo else lo, s_hi if s_hi < hi else hi)
            if known >= 0:
                self.rel = rel | got >> 10
                return known
        return -1

    def _decide(self, pred: int, left: int, lo: int, hi: int) -> int:
        """Whether ``pred`` is sure to hold (1) or to fail (0) when the counted tricks
        still to come are between ``lo`` and ``hi`` (-1: either may happen)."""
        up = self.up[left]
        self.used_lo = True
        self.used_hi = False
        if self.x == self.count_side:
            if pred & up[lo] == up[lo]:
                return 1
            self.used_lo = False
            self.used_hi = True
            if pred & ~up[hi + 1] == 0:
                return 0
        else:
            if pred & up[lo] == 0:
                return 0
            self.used_lo = False
            self.used_hi = True
            low_set = self.full[left] & ~up[hi + 1]
            if pred & low_set == low_set:
                return 1
        return -1

    def _last(self, pred: int) -> bool:
        """The last trick: every hand holds one card, so it is counted, not searched."""
        n = self.n
        seat = self.leader
        lead = self.hands[seat].bit_length() - 1
        win_card = lead
        win_seat = seat
        for i in range(1, n):
            s = (seat + i) % n
            c = self.hands[s].bit_length() - 1
            if self.beaten_by[win_card] >> c & 1:  # R-C-4
                win_card = c
                win_seat = s
        # The winner's rank matters when it beat a card of its own suit.
        rel = 0
        for s in range(n):
            c = self.hands[s].bit_length() - 1
            if c != win_card and c >> 4 == win_card >> 4:
                rel = 1 << win_card
        self.rel = rel
        rest = (pred >> self.shift[win_seat]) & self.full[0]
        return rest != 0

    def _winner_with(self, c: int) -> int:
        if self.beaten_by[self.win_card] >> c & 1:
            return self.current
        return self.win_seat

    def _after(self, c: int, pred: int) -> bool:
        """Play ``c`` for the seat on turn, search the rest, take it back."""
        seat = self.current
        n = self.n
        trick = self.trick
        saved_win_card = self.win_card
        saved_win_seat = self.win_seat
        saved_broken = self.broken
        self.hands[seat] ^= 1 << c
        trick.append(c)
        if len(trick) == 1:
            self.win_card = c
            self.win_seat = seat
        else:
            if self.beaten_by[self.win_card] >> c & 1:  # R-C-4
                self.win_card = c
                self.win_seat = seat
        if self.trump >> c & 1:
            self.broken = True  # R-C-6
        if len(trick) == n:
            winner = self.win_seat
            saved_leader = self.leader
            saved_first = self.first
            played = 0
            for x in trick:
                played |= 1 << x
            self.trick = []
            self.gone |= played
            left = self.left
            self.left = left - 1
            self.leader = winner
            self.current = winner
            self.first = False
            r = self._lead((pred >> self.shift[winner]) & self.full[left - 1])
            w = self.win_card
            for x in trick:
                if x != w and x >> 4 == w >> 4:
                    self.rel |= 1 << w  # the winner beat a card of its suit by rank
                    break
            self.first = saved_first
            self.current = seat
            self.leader = saved_leader
            self.left = left
            self.gone &= ~played
            self.trick = trick
        else:
            self.current = (seat + 1) % n
            r = self._move(pred)
            self.current = seat
        trick.pop()
        self.hands[seat] ^= 1 << c
        self.win_card = saved_win_card
        self.win_seat = saved_win_seat
        self.broken = saved_broken
        return r

    def _move(self, pred: int) -> bool:
        return self._move_hint(pred, -1)

    def _move_hint(self, pred: int, hint: int) -> bool:
        self.nodes += 1
        if self.budget and self.nodes > self.budget:
            raise SearchLimit("stopped" if self.budget < 0 else f"more than {self.budget} positions")
        seat = self.current
        mask = self._legal(seat, self.hands[seat])
        moves = self._order(self._distinct(mask, seat), seat, hint)
        mine = self.team[seat] == self.x
        rel = 0
        for c in moves:
            r = self._after(c, pred)
            if r == mine:
                self.best_card = c
                return r
            rel |= self.rel
        self.best_card = moves[0]
        self.rel = self._whole_runs(rel, mask, seat)
        return not mine

    def _whole_runs(self, rel: int, mask: int, seat: int) -> int:
        """``rel`` widened so that no run of equivalent cards searched through its lowest
        card is cut by the lowest relevant card of its suit (a position that agrees
        only above that card might split the run)."""
        hand = self.hands[seat]
        gone = self.gone
        for suit in range(4):
            r = rel & SUIT_MASKS[suit]
            if not r or not mask & SUIT_MASKS[suit]:
                continue
            low = r & -r
            if not hand & low:
                continue
            c = low.bit_length() - 1
            base = 16 * suit
            below = c - 1
            while below >= base:
                b = 1 << below
                if gone & b:
                    below -= 1
                elif hand & b:
                    c = below
                    below -= 1
                else:
                    break
            rel |= 1 << c
        return rel

    # -- transposition keys -------------------------------------------------------

    def _to_relative(self, card: int) -> int:
        """A card as its suit and the number of remaining cards of the suit above it."""
        if card < 0:
            return -1
        suit = card >> 4
        union = _ALL & ~self.gone
        above = union & SUIT_MASKS[suit] & ~((2 << card) - 1)
        return suit * 16 + POP16[above >> (16 * suit)]

    def _from_relative(self, rel: int) -> int:
        if rel < 0:
            return -1
        suit = rel // 16
        k = rel % 16
        rem = _ALL & ~self.gone & SUIT_MASKS[suit]
        while rem:
            c = rem.bit_length() - 1
            if k == 0:
                return c
            k -= 1
            rem ^= 1 << c
        return -1

    # -- moves --------------------------------------------------------------------

    def _legal(self, seat: int, hand: int) -> int:
        trick = self.trick
        return legal_play(self.keeps, hand, trick[0] if trick else -1, self.first, self.broken, self.order)

    def _distinct(self, mask: int, seat: int) -> list[int]:
        """One card of each run of equivalent legal cards (the lowest of the run)."""
        avail = self.hands[seat] | self.gone
        out: list[int] = []
        prev = -99
        while mask:
            low = mask & -mask
            c = low.bit_length() - 1
            mask ^= low
            if prev >= 0 and c >> 4 == prev >> 4:
                between = ((1 << c) - 1) & ~((2 << prev) - 1)
                if between & ~avail == 0:
                    prev = c
                    continue
            out.append(c)
            prev = c
        return out

    def _order(self, moves: list[int], seat: int, hint: int) -> list[int]:
        """Likely good moves first: the stored best move, then by the rank heuristics of
        ``_lead_key`` and ``_follow_key``."""
        if len(moves) == 1:
            return moves
        keys: list[int] = []
        if self.trick:
            self._set_follow(seat)
            for c in moves:
                keys.append(self._follow_key(c, seat))
        else:
            for c in moves:
                keys.append(self._lead_key(c, seat))
        out = moves[:]
        for i in range(1, len(out)):  # a stable insertion sort by key
            c = out[i]
            k = keys[i]
            j = i - 1
            while j >= 0 and keys[j] > k:
                out[j + 1] = out[j]
                keys[j + 1] = keys[j]
                j -= 1
            out[j + 1] = c
            keys[j + 1] = k
        if hint >= 0:
            for i in range(len(out)):
                if out[i] >> 4 == hint >> 4 and self._same_run(out[i], hint, seat):
                    if i:
                        c = out.pop(i)
                        out.insert(0, c)
                    break
        return out

    def _set_follow(self, seat: int) -> None:
        """What the seat on turn wants from the trick: ``want_win`` (a seat that wants
        tricks whose partner is not sure to win it)."""
        trick = self.trick
        w = self.win_card
        n = self.n
        team = self.team
        partner_wins = team[self.win_seat] == team[seat] and len(trick) > 1
        for i in range(1, n - len(trick) if partner_wins else 0):
            # A later hand of the other team may still beat the partner's card.
            later = (seat + i) % n
            if team[later] != team[seat]:
                nxt = self.hands[later]
                follow = nxt & self.order.suit_mask[trick[0]]
                if (follow if follow else nxt) & self.beaten_by[w]:
                    partner_wins = False
        self.want_win = self.keen[seat] and not partner_wins

    def _follow_key(self, c: int, seat: int) -> int:
        """Order key (low first) of a card following to the trick: winning cards first for
        a seat that wants the trick (the cheapest first), else the cards that lose (the
        least useful first: most remaining cards of its suit above it, spades last); a
        seat that does not want tricks sheds its highest losing card first."""
        wins = self.beaten_by[self.win_card] >> c & 1 == 1
        group = 0 if wins == self.want_win else 64
        if wins:
            return group + (c & 15)
        others = _ALL & ~self.gone & ~self.hands[seat]
        above = POP16[(others & SUIT_MASKS[c >> 4] & ~((2 << c) - 1)) >> (16 * (c >> 4))]
        if not self.keen[seat]:
            return group + above
        trump = self.trump
        spade = 16 if trump >> c & 1 and not trump >> self.trick[0] & 1 else 0
        return group + 13 - above + spade

    def _lead_key(self, c: int, seat: int) -> int:
        """Order key (low first) of a lead: for a seat that wants tricks a sure winner no
        opponent can ruff, a low card to the partner's winner, a card the partner can
        ruff, other winners, then low cards; a seat that does not want tricks leads the
        lowest cards that others can beat."""
        suit = c >> 4
        rank = c & 15
        hands = self.hands
        own = hands[seat]
        union = _ALL & ~self.gone
        sm = SUIT_MASKS[suit]
        above = union & sm & ~((2 << c) - 1) & ~own
        if not self.keen[seat]:
            return (0 if above else 32) + rank
        team = self.team
        ruff = False
        trump = self.trump
        if suit != self.trump_suit:
            for opp_seat in range(self.n):
                opp = hands[opp_seat]
                if team[opp_seat] != team[seat] and not opp & sm and opp & trump:
                    ruff = True
        if not above:
            return 32 if ruff else 0
        mate = self.mate[seat]
        if mate >= 0 and mate != seat:
            partner = hands[mate]
            if partner & (1 << (above.bit_length() - 1)):
                return 33 if ruff else 16 + rank
            if suit != self.trump_suit and not partner & sm and partner & trump:
                return 48 + rank
        return 64 + rank

    def _same_run(self, a: int, b: int, seat: int) -> bool:
        if a == b:
            return True
        lo, hi = (a, b) if a < b else (b, a)
        between = ((1 << hi) - 1) & ~((2 << lo) - 1)
        return between & ~(self.hands[seat] | self.gone) == 0


__all__ = ["INF", "RADIX", "SearchLimit", "Solver", "UnsupportedRules", "spreads", "trick_table"]
