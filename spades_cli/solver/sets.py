"""Outcome sets of the double-dummy solver (``solver/search.py``): the ways the tricks
still to play can fall to the groups of seats, as digits of an outcome index."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

RADIX: Final = 14  # a group's count is a digit 0..13 of the outcome index


def rep_of(c: int, reps: list[int]) -> int:
    best = reps[0]
    for r in reps:
        if r <= c and r // 13 == c // 13:
            best = r
    return best


_VECTORS: Final[dict[int, list[tuple[int, int]]]] = {}


def vectors(groups: int) -> list[tuple[int, int]]:
    """Every way up to 13 tricks can fall to groups 0 .. G-2, as (index, tricks)."""
    hit = _VECTORS.get(groups)
    if hit is not None:
        return hit
    out: list[tuple[int, int]] = [(0, 0)]
    for g in range(groups - 1):
        step = RADIX**g
        out = [(idx + k * step, total + k) for idx, total in out for k in range(14 - total)]
    out.sort()
    _VECTORS[groups] = out
    return out


def count_of(idx: int, last: int, counted: list[bool], groups: int) -> int:
    """The counted tricks of the outcome ``idx`` (explicit digits) and ``last`` tricks
    for the last group."""
    c = last if counted[groups - 1] else 0
    for g in range(groups - 1):
        if counted[g]:
            c += idx % RADIX
        idx //= RADIX
    return c


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
        out.append(acc + left * RADIX**g)
        return
    for k in range(left + 1):
        _spread_into(out, groups, g + 1, left - k, acc + k * RADIX**g)


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


def trick_table(groups: int, counted: list[int]) -> list[float]:
    """A table whose value is the number of tricks taken by the groups in ``counted``."""
    size = RADIX**groups
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


__all__ = ["RADIX", "bits", "count_of", "greatest_reached", "rep_of", "spreads", "trick_table", "vectors"]
