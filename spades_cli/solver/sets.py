"""Outcome sets of the double-dummy solver (``solver/search.py``): the ways the tricks
still to play can fall to the groups of seats, as digits of an outcome index."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

# A group's count is a digit of the outcome index: base 14 for hands of up to 13 tricks,
# one more than the tricks of a longer hand (solver/deck.py ``radix_of``).
RADIX: Final = 14
MAX_TRICKS: Final = 17  # the longest hand the solvers play (R-CT-1: 51 cards to three seats)


def rep_of(c: int, reps: list[int]) -> int:
    """The representative in ``reps`` of the card ``c`` (slot cards: 16 a suit)."""
    best = reps[0]
    for r in reps:
        if r <= c and r >> 4 == c >> 4:
            best = r
    return best


_VECTORS: Final[dict[int, list[tuple[int, int]]]] = {}


def vectors(groups: int, radix: int = RADIX) -> list[tuple[int, int]]:
    """Every way up to ``radix - 1`` tricks can fall to groups 0 .. G-2, as (index, tricks)."""
    key = groups * 64 + radix
    hit = _VECTORS.get(key)
    if hit is not None:
        return hit
    out: list[tuple[int, int]] = [(0, 0)]
    for g in range(groups - 1):
        step = radix**g
        out = [(idx + k * step, total + k) for idx, total in out for k in range(radix - total)]
    out.sort()
    _VECTORS[key] = out
    return out


def count_of(idx: int, last: int, counted: list[bool], groups: int, radix: int = RADIX) -> int:
    """The counted tricks of the outcome ``idx`` (explicit digits) and ``last`` tricks
    for the last group."""
    c = last if counted[groups - 1] else 0
    for g in range(groups - 1):
        if counted[g]:
            c += idx % radix
        idx //= radix
    return c


_SPREADS: Final[dict[int, list[int]]] = {}


def spreads(groups: int, left: int, radix: int = RADIX) -> list[int]:
    """Every way ``left`` more tricks can fall to the groups, as index increments."""
    key = (groups * 32 + left) * 64 + radix
    hit = _SPREADS.get(key)
    if hit is not None:
        return hit
    out: list[int] = []
    _spread_into(out, groups, 0, left, 0, radix)
    _SPREADS[key] = out
    return out


def _spread_into(out: list[int], groups: int, g: int, left: int, acc: int, radix: int) -> None:
    if g == groups - 1:
        out.append(acc + left * radix**g)
        return
    for k in range(left + 1):
        _spread_into(out, groups, g + 1, left - k, acc + k * radix**g, radix)


def bits(mask: int) -> list[int]:
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def greatest_reached(
    values: list[float], reaches: Callable[[float], bool], guess: float | None, bound: int = 0
) -> float:
    """The greatest of the sorted ``values`` that ``reaches`` says yes to (the least is
    always reached), by yes-or-no questions starting from ``guess`` (MTD(f): most positions
    keep their predecessor's value, so the walk from the guess is short). ``bound`` 1 says
    the value is known to be at least ``guess``, -1 at most ``guess``: the question that
    knowledge answers is not asked (the value after a card of the side solved for is a
    floor of the value before it; after a card of the other side, a ceiling)."""
    lo, hi = 0, len(values) - 1  # the value is values[k] for some lo <= k <= hi
    far = False  # above a floor, past two steps
    if guess is not None:
        k = 0
        while k < hi and values[k + 1] <= guess:
            k += 1
        if bound < 0:
            hi = k
        if bound > 0 or k == 0 or reaches(values[k]):
            lo = k
            while lo < hi and reaches(values[lo + 1]):
                lo += 1
                if bound > 0 and lo == k + 2:
                    break
            else:
                return values[lo]
            # Above a floor, past two steps: the rest by quarters from the top, not step by
            # step (a value that moved up that far often moved much further: a nil kept
            # instead of broken; and each "yes" there costs about as much as the first while
            # a "no" far above is cheap; measured: bench/README.md).
            far = True
        else:
            hi = k - 1
            if bound < 0 and hi > 0:  # below a ceiling the value most often is one step lower
                if reaches(values[hi]):
                    return values[hi]
                hi -= 1
    while lo < hi:
        mid = lo + (3 * (hi - lo) + 3) // 4 if far else (lo + hi + 1) // 2
        if reaches(values[mid]):
            lo = mid
        else:
            hi = mid - 1
    return values[lo]


def trick_table(groups: int, counted: list[int], radix: int = RADIX) -> list[float]:
    """A table whose value is the number of tricks taken by the groups in ``counted``
    (``radix``: the rules', solver/deck.py ``radix_of``)."""
    size = radix**groups
    out = [0.0] * size
    for i in range(size):
        total = 0
        x = i
        for g in range(groups):
            if g in counted:
                total += x % radix
            x //= radix
        out[i] = float(total)
    return out


__all__ = [
    "MAX_TRICKS",
    "RADIX",
    "bits",
    "count_of",
    "greatest_reached",
    "rep_of",
    "spreads",
    "trick_table",
    "vectors",
]
