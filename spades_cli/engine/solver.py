"""A double-dummy solver: the best play of the rest of a hand with every hand known.

The search is alpha-beta over the cards still to be played, one card per node, under
the table's rules (follow suit R-C-3, the trick winner R-C-4, spades may not be led
before they are broken R-C-6, the first-trick house rules). Its outcome is not a trick
count but a value read from a table the caller supplies, indexed by how many tricks
each *group* of seats took in the whole hand. The groups are the seats whose tricks
count the same way: a side's non-nil bidders form one group, each nil bidder is a
group of its own (R-4P-7), so a table can hold Spades points (contracts made or set,
bags near the limit, each nil's own tricks, the game score) or a plain trick count.

Three things keep it fast:

* a transposition table at the start of each trick, keyed by the remaining hands, the
  leader, whether spades are broken and the group counts so far (bounds are stored,
  so a position searched with one window serves another);
* equivalent cards: cards of one suit in one hand with nothing between them but cards
  of that hand or of finished tricks win and lose the same tricks, so one is searched;
* the outcome range: before searching a position, the least and greatest value the
  table allows from the counts so far; a position whose outcome is already settled,
  or outside the window, is not searched.
"""

from __future__ import annotations

from typing import Final

from spades_cli.engine.cards import NON_SPADE_MASK, SUIT_MASKS
from spades_cli.engine.phases import PLAY
from spades_cli.engine.state import State

INF: Final = 1e18
RADIX: Final = 14  # a group's count is a digit 0..13 of the outcome index


class SearchLimit(Exception):
    """The search needed more nodes than its budget allowed."""


class Solver:
    """Double-dummy search of one position of the play phase.

    ``groups[s]`` is the group of seat ``s`` (0 .. G-1); ``table[i]`` the value of the
    hand for ``side`` when the groups' trick counts written in base 14 make ``i``
    (group 0 the lowest digit). ``side`` maximises the value, the other side minimises.
    ``keen[s]`` says whether seat ``s`` usually wants tricks (only the order in which
    moves are tried depends on it, never the result). ``linear`` (per group) says the
    table is that weighted sum of the counts; ``budget`` caps the positions searched.
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
    ) -> None:
        if state.phase != PLAY:
            raise ValueError("the solver needs a position of the play phase")
        n = state.n
        self.n = n
        self.side = side
        self.table = table
        self.weight = [RADIX ** groups[s] for s in range(n)]
        self.ngroups = max(groups) + 1
        self.keen = keen if keen is not None else [True] * n
        # A table that is a sum over the groups (a trick count) lets positions reached
        # with different counts so far share their transposition entries.
        self.linear = linear is not None
        self.seat_value = [linear[groups[s]] if linear is not None else 0.0 for s in range(n)]
        self.base = 0.0
        self.hands = state.hands[:]
        self.trick = state.trick[:]
        self.leader = state.leader
        self.current = state.current
        self.broken = state.broken
        self.first = state.first_trick
        self.win_card = state.win_card
        self.win_seat = state.win_seat
        self.left = 13 - state.trick_no
        code = 0
        for s in range(n):
            code += state.tricks_won[s] * self.weight[s]
            self.base += state.tricks_won[s] * self.seat_value[s]
        self.code = code
        held = 0
        for h in self.hands:
            held |= h
        for c in self.trick:
            held |= 1 << c
        self.gone = ((1 << 52) - 1) & ~held
        play = state.rules.play
        self.no_spades_first = play.no_spades_first_trick
        self.club_lead = play.two_of_clubs_leads
        self.tt: dict[tuple[int, int, int, int, int], tuple[float, float, int]] = {}

        self.ranges: dict[int, tuple[float, float]] = {}
        self.best_card = -1
        self.nodes = 0
        self.budget = budget  # nodes before SearchLimit is raised (0: no limit)

    # -- public -------------------------------------------------------------------

    def value(self) -> float:
        """The value of the position with best play by every seat."""
        return self._exact(-1)

    def move_values(self) -> dict[int, float]:
        """The exact value of every legal card of the seat on turn."""
        seat = self.current
        mask = self._legal(seat, self.hands[seat])
        out: dict[int, float] = {}
        reps = self._distinct(mask, seat)
        for c in reps:
            out[c] = self._exact(c)
        # Equivalent cards share their representative's value.
        for c in _bits(mask):
            if c not in out:
                out[c] = out[self._rep_of(c, reps, seat)]
        return out

    def best_move(self) -> tuple[int, float]:
        """A best card for the seat on turn and the position's value."""
        values = self.move_values()
        maximize = self.current % 2 == self.side
        best = -1
        for c, v in values.items():
            if best < 0 or (v > values[best] if maximize else v < values[best]):
                best = c
        return best, values[best]

    def _exact(self, card: int) -> float:
        """The exact value of the position (after ``card`` when it is >= 0), found by
        a binary search of null-window tests over the outcomes the table allows."""
        values = sorted(set(self.table[self.code + add] for add in spreads(self.ngroups, self.left)))
        lo, hi = 0, len(values) - 1  # the value is values[k] for some lo <= k <= hi
        while lo < hi:
            mid = (lo + hi + 1) // 2
            a, b = values[mid - 1], values[mid]
            v = self._after(card, a, b) if card >= 0 else self._search(a, b)
            if v >= b:
                lo = mid
            else:
                hi = mid - 1
        return values[lo]

    # -- search -------------------------------------------------------------------

    def _search(self, alpha: float, beta: float) -> float:
        if not self.trick:
            return self._lead(alpha, beta)
        return self._move(alpha, beta, -1)

    def _range(self, code: int, left: int) -> tuple[float, float]:
        key = code * 16 + left
        hit = self.ranges.get(key)
        if hit is not None:
            return hit
        lo, hi = INF, -INF
        for add in spreads(self.ngroups, left):
            v = self.table[code + add]
            if v < lo:
                lo = v
            if v > hi:
                hi = v
        self.ranges[key] = (lo, hi)
        return lo, hi

    def _lead(self, alpha: float, beta: float) -> float:
        code = self.code
        left = self.left
        if left == 0:
            return self.table[code]
        lo, hi = self._range(code, left)
        if lo >= hi or lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        key = self._key()
        base = self.base
        e = self.tt.get(key)
        hint = -1
        low, up = lo, hi
        if e is not None:
            e_low, e_up, rel = e
            if e_low + base > low:
                low = e_low + base
            if e_up + base < up:
                up = e_up + base
            if low >= beta:
                return low
            if up <= alpha:
                return up
            if low >= up:
                return low
            hint = self._from_relative(rel)
        a0 = alpha if alpha > low else low
        b0 = beta if beta < up else up
        v = self._move(a0, b0, hint)
        best = self.best_card
        if v <= a0:
            up = v
        elif v >= b0:
            low = v
        else:
            low = up = v
        self.tt[key] = (low - base, up - base, self._to_relative(best))
        self.best_card = best
        return v

    def _after(self, c: int, alpha: float, beta: float) -> float:
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
            w = self.win_card
            if c > w and (c >= 39 or c // 13 == w // 13):  # R-C-4
                self.win_card = c
                self.win_seat = seat
        if c >= 39:
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
            self.code += self.weight[winner]
            self.base += self.seat_value[winner]
            self.left -= 1
            self.leader = winner
            self.current = winner
            self.first = False
            v = self._lead(alpha, beta)
            self.first = saved_first
            self.current = seat
            self.leader = saved_leader
            self.left += 1
            self.code -= self.weight[winner]
            self.base -= self.seat_value[winner]
            self.gone &= ~played
            self.trick = trick
        else:
            self.current = (seat + 1) % n
            v = self._move(alpha, beta, -1)
            self.current = seat
        trick.pop()
        self.hands[seat] ^= 1 << c
        self.win_card = saved_win_card
        self.win_seat = saved_win_seat
        self.broken = saved_broken
        return v

    def _move(self, alpha: float, beta: float, hint: int) -> float:
        self.nodes += 1
        if self.budget and self.nodes > self.budget:
            raise SearchLimit(f"more than {self.budget} positions")
        seat = self.current
        mask = self._legal(seat, self.hands[seat])
        moves = self._order(self._distinct(mask, seat), seat, hint)
        maximize = seat % 2 == self.side
        best = -INF if maximize else INF
        best_card = moves[0]
        for c in moves:
            v = self._after(c, alpha, beta)
            if maximize:
                if v > best:
                    best = v
                    best_card = c
                    if v > alpha:
                        alpha = v
            elif v < best:
                best = v
                best_card = c
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        self.best_card = best_card
        return best


    # -- transposition keys -------------------------------------------------------

    def _key(self) -> tuple[int, int, int, int, int]:
        """The position at a trick's start up to the ranks of the cards gone: per suit,
        who holds each remaining card from the highest down (two bits a card)."""
        h = self.hands
        h0, h1, h2 = h[0], h[1], h[2] if self.n == 4 else 0
        union = ((1 << 52) - 1) & ~self.gone
        parts = [0, 0, 0, 0]
        for suit in range(4):
            acc = 1
            rem = (union >> (13 * suit)) & 0x1FFF
            while rem:
                r = rem.bit_length() - 1
                rem ^= 1 << r
                bit = 1 << (13 * suit + r)
                owner = 0 if h0 & bit else 1 if h1 & bit else 2 if h2 & bit else 3
                acc = (acc << 2) | owner
            parts[suit] = acc
        meta = ((0 if self.linear else self.code) * 8 + self.leader) * 2 + (1 if self.broken else 0)
        return (parts[0], parts[1], parts[2], parts[3], meta)

    def _to_relative(self, card: int) -> int:
        """A card as its suit and the number of remaining cards of the suit above it."""
        if card < 0:
            return -1
        suit = card // 13
        union = ((1 << 52) - 1) & ~self.gone
        above = union & SUIT_MASKS[suit] & ~((2 << card) - 1)
        return suit * 16 + above.bit_count()

    def _from_relative(self, rel: int) -> int:
        if rel < 0:
            return -1
        suit = rel // 16
        k = rel % 16
        rem = ((1 << 52) - 1) & ~self.gone & SUIT_MASKS[suit]
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
        if trick:
            follow = hand & SUIT_MASKS[trick[0] // 13]
            if follow:
                return follow  # R-C-3
            if self.first and self.no_spades_first and hand & NON_SPADE_MASK:
                return hand & NON_SPADE_MASK
            return hand
        if self.first:
            if self.club_lead and hand & 1:
                return 1
            if self.no_spades_first and hand & NON_SPADE_MASK:
                return hand & NON_SPADE_MASK
        if not self.broken and hand & NON_SPADE_MASK:
            return hand & NON_SPADE_MASK  # R-C-6
        return hand

    def _distinct(self, mask: int, seat: int) -> list[int]:
        """One card of each run of equivalent legal cards (the lowest of the run)."""
        avail = self.hands[seat] | self.gone
        out: list[int] = []
        prev = -99
        while mask:
            low = mask & -mask
            c = low.bit_length() - 1
            mask ^= low
            if prev >= 0 and c // 13 == prev // 13:
                between = ((1 << c) - 1) & ~((2 << prev) - 1)
                if between & ~avail == 0:
                    prev = c
                    continue
            out.append(c)
            prev = c
        return out

    def _rep_of(self, c: int, reps: list[int], seat: int) -> int:
        best = reps[0]
        for r in reps:
            if r <= c and r // 13 == c // 13:
                best = r
        return best

    def _order(self, moves: list[int], seat: int, hint: int) -> list[int]:
        """Likely good moves first: the stored best move, then for a seat that wants
        tricks the cheapest card that wins the trick so far, else low cards first."""
        if len(moves) == 1:
            return moves
        first: list[int] = []
        rest: list[int] = []
        trick = self.trick
        keen = self.keen[seat]
        if trick:
            w = self.win_card
            partner_wins = self.n == 4 and self.win_seat % 2 == seat % 2
            for c in moves:
                wins = c > w and (c >= 39 or c // 13 == w // 13)
                if (wins and keen and not partner_wins) or (not wins and (not keen or partner_wins)):
                    first.append(c)
                else:
                    rest.append(c)
        else:
            for c in reversed(moves):
                if keen:
                    first.append(c)
                else:
                    rest.append(c)
            first.extend(reversed(rest))
            rest = []
        out = first + rest
        if hint >= 0:
            for i in range(len(out)):
                if out[i] // 13 == hint // 13 and self._same_run(out[i], hint, seat):
                    if i:
                        c = out.pop(i)
                        out.insert(0, c)
                    break
        return out

    def _same_run(self, a: int, b: int, seat: int) -> bool:
        if a == b:
            return True
        lo, hi = (a, b) if a < b else (b, a)
        between = ((1 << hi) - 1) & ~((2 << lo) - 1)
        return between & ~(self.hands[seat] | self.gone) == 0


_SPREADS: Final[dict[int, list[int]]] = {}


def spreads(groups: int, left: int) -> list[int]:
    """Every way ``left`` more tricks can fall to the groups, as index increments."""
    key = groups * 16 + left
    hit = _SPREADS.get(key)
    if hit is not None:
        return hit
    out: list[int] = []
    _spread_into(out, groups, 0, left, 0)
    _SPREADS[key] = out
    return out


def _spread_into(out: list[int], groups: int, g: int, left: int, acc: int) -> None:
    if g == groups - 1:
        out.append(acc + left * RADIX ** g)
        return
    for k in range(left + 1):
        _spread_into(out, groups, g + 1, left - k, acc + k * RADIX ** g)


def _bits(mask: int) -> list[int]:
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def trick_table(groups: int, counted: list[int]) -> list[float]:
    """A table whose value is the number of tricks taken by the groups in ``counted``."""
    size = RADIX ** groups
    out = [0.0] * size
    for i in range(size):
        total = 0
        x = i
        for g in range(groups):
            if g in counted:
                total += x % RADIX
            x //= RADIX
        out[i] = float(total)
    return out


__all__ = ["INF", "RADIX", "SearchLimit", "Solver", "spreads", "trick_table"]
