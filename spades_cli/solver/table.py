"""The double-dummy solver's transposition table (``solver/search.py``).

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

The answers to questions that are not about the counted tricks (an outcome set of
another shape) are kept the same way, beside the bounds. The card that answered a
position last is kept by the exact position (every remaining card by its rank among the
remaining cards of its suit), to be tried first next time.
"""

from __future__ import annotations

from typing import Final

from spades_cli.solver.deck import POP16

_SUIT: Final = 0xFFFF  # a suit's slots (solver/deck.py: 16 a suit)


def _owners(c0: int, c1: int, c2: int, c3: int) -> int:
    """The owners (0..3, two bits a card) of a suit's remaining cards, the highest first."""
    rem = c0 | c1 | c2 | c3
    acc = 0
    while rem:
        b = 1 << (rem.bit_length() - 1)
        rem ^= b
        acc = (acc << 2) | (0 if c0 & b else 1 if c1 & b else 2 if c2 & b else 3)
    return acc


class Layout:
    """A position at a trick's start as the table reads it: per suit, the owners of its
    remaining cards from the highest down (two bits a card), how many remain and which;
    the keys of its partition bucket and of the exact position. Hands are slot masks
    (solver/deck.py), two to four seats."""

    def __init__(self, hands: list[int], n: int, meta: int) -> None:
        h0 = hands[0]
        h1 = hands[1]
        h2 = hands[2] if n > 2 else 0
        h3 = hands[3] if n > 3 else 0
        lens_a = 0
        lens_b = 0
        for suit in range(4):
            base = 16 * suit
            lens_a |= (POP16[(h0 >> base) & _SUIT] | POP16[(h1 >> base) & _SUIT] << 4) << (8 * suit)
            lens_b |= (POP16[(h2 >> base) & _SUIT] | POP16[(h3 >> base) & _SUIT] << 4) << (8 * suit)
        union = h0 | h1 | h2 | h3
        self.r0 = union & _SUIT
        self.r1 = (union >> 16) & _SUIT
        self.r2 = (union >> 32) & _SUIT
        self.r3 = union >> 48
        self.l0 = POP16[self.r0]
        self.l1 = POP16[self.r1]
        self.l2 = POP16[self.r2]
        self.l3 = POP16[self.r3]
        self.a0 = _owners(h0 & _SUIT, h1 & _SUIT, h2 & _SUIT, h3 & _SUIT)
        self.a1 = _owners((h0 >> 16) & _SUIT, (h1 >> 16) & _SUIT, (h2 >> 16) & _SUIT, (h3 >> 16) & _SUIT)
        self.a2 = _owners((h0 >> 32) & _SUIT, (h1 >> 32) & _SUIT, (h2 >> 32) & _SUIT, (h3 >> 32) & _SUIT)
        self.a3 = _owners(h0 >> 48, h1 >> 48, h2 >> 48, h3 >> 48)
        self.bkey = (lens_a, lens_b, meta)
        self.ekey = (
            ((1 << (2 * self.l0)) | self.a0) << 34 | (1 << (2 * self.l1)) | self.a1,
            ((1 << (2 * self.l2)) | self.a2) << 34 | (1 << (2 * self.l3)) | self.a3,
            meta,
        )

    def pattern(self, shape: int) -> int:
        """The owners of the top cards of each suit that ``shape`` counts."""
        k0 = shape & 15
        k1 = (shape >> 4) & 15
        k2 = (shape >> 8) & 15
        k3 = shape >> 12
        out = self.a3 >> (2 * (self.l3 - k3))
        out = (out << (2 * k2)) | (self.a2 >> (2 * (self.l2 - k2)))
        out = (out << (2 * k1)) | (self.a1 >> (2 * (self.l1 - k1)))
        return (out << (2 * k0)) | (self.a0 >> (2 * (self.l0 - k0)))

    def relevant(self, shape: int) -> int:
        """The cards (a mask) that mark where each suit's counted top cards end."""
        if shape < 0:
            return 0
        return (
            _kth(self.r0, shape & 15)
            | _kth(self.r1, (shape >> 4) & 15) << 16
            | _kth(self.r2, (shape >> 8) & 15) << 32
            | _kth(self.r3, shape >> 12) << 48
        )

    def shape_of(self, rel: int) -> int:
        """How many top cards of each suit reach down to the lowest relevant card."""
        return (
            _above(self.r0, rel & _SUIT)
            | _above(self.r1, (rel >> 16) & _SUIT) << 4
            | _above(self.r2, (rel >> 32) & _SUIT) << 8
            | _above(self.r3, rel >> 48) << 12
        )


def _kth(rem: int, k: int) -> int:
    """The ``k``-th highest card of a suit mask as a mask (0 when ``k`` is 0)."""
    while k > 1:
        rem ^= 1 << (rem.bit_length() - 1)
        k -= 1
    return 1 << (rem.bit_length() - 1) if k == 1 else 0


def _above(rem: int, rel: int) -> int:
    """How many cards of ``rem`` are at or above the lowest card of ``rel``: at most 15
    (a shape's 4 bits a suit; the owners of the top 15 of 16 cards, with the hands'
    lengths, tell the owner of the 16th: R-J-8's 16 spades)."""
    if not rel:
        return 0
    k = POP16[rem & ~((rel & -rel) - 1)]
    return k if k < 16 else 15


class Entry:
    """What is known of the positions of one bucket, shape and pattern: bounds on the
    counted tricks still to come and the answers to other questions."""

    def __init__(self, left: int) -> None:
        self.lo = 0
        self.hi = left
        self.answers: dict[int, bool] = {}


class Table:
    """Bounds and answers by partition, and the card that answered last (move order)."""

    def __init__(self) -> None:
        # (lengths of hands 0 and 1, of hands 2 and 3, leader and flags) -> shape -> pattern.
        self.buckets: dict[tuple[int, int, int], dict[int, dict[int, Entry]]] = {}
        self.hints: dict[tuple[int, int, int], int] = {}
        self.lo = 0
        self.hi = 0
        self.lo_shape = -1
        self.hi_shape = -1
        self.found = False
        self.answer = False
        self.answer_shape = -1

    def probe(self, lay: Layout, left: int, question: int) -> None:
        """The best bounds stored for positions like ``lay`` (in ``lo``, ``hi``, with the
        shapes that gave them, -1 for none), and whether one of them answered
        ``question`` (outcome set * 2 + the side asking: ``found``, ``answer``,
        ``answer_shape``)."""
        lo = 0
        hi = left
        lo_shape = -1
        hi_shape = -1
        found = False
        bucket = self.buckets.get(lay.bkey)
        if bucket is not None:
            for shape, slots in bucket.items():
                e = slots.get(lay.pattern(shape))
                if e is not None:
                    if e.lo > lo:
                        lo = e.lo
                        lo_shape = shape
                    if e.hi < hi:
                        hi = e.hi
                        hi_shape = shape
                    if not found and e.answers:
                        known = e.answers.get(question)
                        if known is not None:
                            found = True
                            self.answer = known
                            self.answer_shape = shape
        self.lo = lo
        self.hi = hi
        self.lo_shape = lo_shape
        self.hi_shape = hi_shape
        self.found = found

    def clear(self, left: int) -> None:
        """Nothing known (the first trick: who holds the two of clubs may matter)."""
        self.lo = 0
        self.hi = left
        self.lo_shape = -1
        self.hi_shape = -1
        self.found = False

    def entry(self, lay: Layout, rel: int, left: int) -> Entry:
        """The entry of the positions like ``lay`` that agree on the owners of the cards
        down to the relevant ones (made when new)."""
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
        e = slots.get(pat)
        if e is None:
            e = Entry(left)
            slots[pat] = e
        return e

    def store(self, lay: Layout, rel: int, lo: int, hi: int, left: int) -> None:
        """Tighten the bounds of the positions like ``lay`` (see ``entry``)."""
        e = self.entry(lay, rel, left)
        if lo > e.lo:
            e.lo = lo
        if hi < e.hi:
            e.hi = hi

    def remember(self, lay: Layout, rel: int, question: int, answer: bool, left: int) -> None:
        """Keep the answer to ``question`` for the positions like ``lay``."""
        self.entry(lay, rel, left).answers[question] = answer


__all__ = ["Entry", "Layout", "Table"]
