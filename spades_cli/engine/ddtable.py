"""The double-dummy solver's transposition table (``engine/solver.py``).

Positions are stored at a trick's start. A bound on the counted tricks still to come is
valid for every position that agrees on what the search that proved it looked at
(*partition search*): the leader, whether spades are broken, how many cards of each
suit every hand holds, and per suit who holds each of the top ``k`` remaining cards,
from the highest down. The cards below them only ever followed suit, were discarded or
ruffed, never won a trick by their rank, so any low cards of the same number in the
same hands give the same result. ``k`` per suit comes from the *relevant* cards of the
search (the cards that won a trick by rank over a card of their suit, and the cards
that decided a sure-trick bound); a bound is kept under its ``k`` per suit (its
*shape*) and the owners of those top cards (its *pattern*).

Questions that are not about the counted tricks are kept by the exact position: every
remaining card by its rank among the remaining cards of its suit.
"""

from __future__ import annotations

from typing import Final

_SUIT: Final = 0x1FFF


class Layout:
    """A position at a trick's start as the table reads it: per suit, the owners of its
    remaining cards from the highest down (two bits a card after a leading 1), how many
    remain and which; the keys of its partition bucket and of the exact position."""

    def __init__(self, hands: list[int], n: int, meta: int) -> None:
        h0 = hands[0]
        h1 = hands[1]
        h2 = hands[2] if n == 4 else 0
        h3 = hands[3] if n == 4 else 0
        lens_a = 0
        lens_b = 0
        self.acc = [0, 0, 0, 0]
        self.slen = [0, 0, 0, 0]
        self.rem = [0, 0, 0, 0]
        for suit in range(4):
            base = 13 * suit
            c0 = (h0 >> base) & _SUIT
            c1 = (h1 >> base) & _SUIT
            c2 = (h2 >> base) & _SUIT
            c3 = (h3 >> base) & _SUIT
            rem = c0 | c1 | c2 | c3
            self.rem[suit] = rem
            self.slen[suit] = rem.bit_count()
            lens_a |= (c0.bit_count() | c1.bit_count() << 4) << (8 * suit)
            lens_b |= (c2.bit_count() | c3.bit_count() << 4) << (8 * suit)
            acc = 1
            while rem:
                r = rem.bit_length() - 1
                b = 1 << r
                rem ^= b
                acc = (acc << 2) | (0 if c0 & b else 1 if c1 & b else 2 if c2 & b else 3)
            self.acc[suit] = acc
        accs = self.acc
        self.bkey = (lens_a, lens_b, meta)
        self.ekey = (accs[0] << 27 | accs[1], accs[2] << 27 | accs[3], meta)

    def pattern(self, shape: int) -> int:
        """The owners of the top cards of each suit that ``shape`` counts."""
        out = 0
        for suit in range(4):
            k = (shape >> (4 * suit)) & 15
            out = (out << 27) | (self.acc[suit] >> (2 * (self.slen[suit] - k)))
        return out

    def relevant(self, shape: int) -> int:
        """The cards (a mask) that mark where each suit's counted top cards end."""
        out = 0
        if shape < 0:
            return 0
        for suit in range(4):
            k = (shape >> (4 * suit)) & 15
            rem = self.rem[suit]
            while k > 0:
                r = rem.bit_length() - 1
                rem ^= 1 << r
                k -= 1
                if k == 0:
                    out |= 1 << (13 * suit + r)
        return out

    def shape_of(self, rel: int) -> int:
        """How many top cards of each suit reach down to the lowest relevant card."""
        shape = 0
        for suit in range(4):
            r = (rel >> (13 * suit)) & _SUIT
            if r:
                low = r & -r
                k = (self.rem[suit] & ~(low - 1)).bit_count()
                shape |= k << (4 * suit)
        return shape

    def everything(self) -> int:
        """Every remaining card: what an exact answer depends on."""
        out = 0
        for suit in range(4):
            out |= self.rem[suit] << (13 * suit)
        return out


class Table:
    """Bounds by partition, exact answers, and the card that answered last (move order)."""

    def __init__(self) -> None:
        # (lengths of hands 0 and 1, of hands 2 and 3, leader and flags) -> shape -> pattern
        # -> lo | hi << 4.
        self.buckets: dict[tuple[int, int, int], dict[int, dict[int, int]]] = {}
        self.answers: dict[tuple[int, int, int, int, int], bool] = {}
        self.hints: dict[tuple[int, int, int], int] = {}
        self.lo = 0
        self.hi = 0
        self.lo_shape = -1
        self.hi_shape = -1

    def probe(self, lay: Layout, left: int) -> None:
        """The best bounds stored for positions like ``lay`` (in ``lo``, ``hi``, with the
        shapes that gave them, -1 for none)."""
        lo = 0
        hi = left
        lo_shape = -1
        hi_shape = -1
        bucket = self.buckets.get(lay.bkey)
        if bucket is not None:
            for shape, slots in bucket.items():
                v = slots.get(lay.pattern(shape))
                if v is not None:
                    if v & 15 > lo:
                        lo = v & 15
                        lo_shape = shape
                    if v >> 4 < hi:
                        hi = v >> 4
                        hi_shape = shape
        self.lo = lo
        self.hi = hi
        self.lo_shape = lo_shape
        self.hi_shape = hi_shape

    def store(self, lay: Layout, rel: int, lo: int, hi: int, left: int) -> None:
        """Tighten the bounds of the positions like ``lay`` that agree on the owners of
        the cards down to the relevant ones."""
        shape = lay.shape_of(rel)
        bucket = self.buckets.get(lay.bkey)
        if bucket is None:
            bucket = {}
            self.buckets[lay.bkey] = bucket
        slots = bucket.get(shape)
        if slots is None:
            slots = {}
            bucket[shape] = slots
        pat = lay.pattern(shape)
        v = slots.get(pat, left << 4)
        old_lo = v & 15
        old_hi = v >> 4
        slots[pat] = (lo if lo > old_lo else old_lo) | (hi if hi < old_hi else old_hi) << 4


__all__ = ["Layout", "Table"]
