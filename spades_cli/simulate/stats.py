"""Confidence intervals and a fixed-bucket histogram of decision times.

Everything here works on running sums, so that any number of games takes the same
memory and totals from different processes or machines can be added together.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

Z95 = 1.959963984540054

# Decision times go into buckets 20 to a decade from 0.1 us to 100 s: bucket b holds
# times in [10 ** (b / 20 - 7), 10 ** ((b + 1) / 20 - 7)); shorter and longer times go to
# the first and last bucket. A median read from the histogram is within 6% of the true one.
PER_DECADE = 20
LOWEST_EXP = -7
BUCKETS = 9 * PER_DECADE


@dataclass(frozen=True, slots=True)
class Interval:
    value: float
    low: float
    high: float

    def to_json(self) -> dict[str, float]:
        return {"value": self.value, "low": self.low, "high": self.high}


def wilson(successes: int, n: int) -> Interval:
    """The Wilson score 95% interval of a proportion."""
    if n == 0:
        return Interval(0.0, 0.0, 1.0)
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return Interval(p, low, high)


def mean_ci_sums(n: int, total: int, squares: int, scale: int = 1) -> Interval:
    """The mean of ``n`` samples ``x / scale`` with a 95% normal-approximation interval,
    from the exact integer sums of ``x`` and ``x * x`` (so the result does not depend on the
    order the samples were added in)."""
    if n == 0:
        return Interval(0.0, 0.0, 0.0)
    mean = total / (n * scale)
    if n < 2:
        return Interval(mean, mean, mean)
    # Sample variance of x: (n * sum(x^2) - sum(x)^2) / (n (n - 1)), exact in integers.
    var = (n * squares - total * total) / (n * (n - 1)) / (scale * scale)
    half = Z95 * math.sqrt(max(0.0, var)) / math.sqrt(n)
    return Interval(mean, mean - half, mean + half)


def mean_ci(xs: Sequence[int]) -> Interval:
    """The mean of integer samples with a 95% normal-approximation interval."""
    return mean_ci_sums(len(xs), sum(xs), sum(x * x for x in xs))


def bucket_of(seconds: float) -> int:
    if seconds <= 0:
        return 0
    b = math.floor((math.log10(seconds) - LOWEST_EXP) * PER_DECADE)
    return min(BUCKETS - 1, max(0, b))


def bucket_middle(b: int) -> float:
    """The geometric middle of bucket ``b`` (seconds)."""
    return float(10 ** ((b + 0.5) / PER_DECADE + LOWEST_EXP))


@dataclass(slots=True)
class TimeHist:
    """Decision times of one kind of player: count, sum, max and a bucket histogram."""

    count: int = 0
    total: float = 0.0
    longest: float = 0.0
    buckets: dict[int, int] = field(default_factory=dict)

    def add(self, seconds: float) -> None:
        self.count += 1
        self.total += seconds
        if seconds > self.longest:
            self.longest = seconds
        b = bucket_of(seconds)
        self.buckets[b] = self.buckets.get(b, 0) + 1

    def merged(self, other: TimeHist) -> TimeHist:
        buckets = dict(self.buckets)
        for b, c in other.buckets.items():
            buckets[b] = buckets.get(b, 0) + c
        return TimeHist(
            self.count + other.count, self.total + other.total, max(self.longest, other.longest), buckets
        )

    def quantile(self, q: float) -> float:
        """The time below which a fraction ``q`` of the decisions fall (bucket middle, at most the max)."""
        if self.count == 0:
            return 0.0
        rank = max(1, math.ceil(q * self.count))
        seen = 0
        for b in sorted(self.buckets):
            seen += self.buckets[b]
            if seen >= rank:
                return min(self.longest, bucket_middle(b))
        return self.longest

    @property
    def mean(self) -> float:
        return self.total / self.count if self.count else 0.0

    def to_json(self) -> dict[str, object]:
        return {
            "decisions": self.count,
            "sum_s": self.total,
            "max_s": self.longest,
            "buckets": {str(b): self.buckets[b] for b in sorted(self.buckets)},
        }

    @classmethod
    def from_json(cls, d: Mapping[str, object]) -> TimeHist:
        """Raises ValueError / TypeError / KeyError on a malformed entry (the caller names the file)."""
        count, total, longest, raw = d["decisions"], d["sum_s"], d["max_s"], d["buckets"]
        if not isinstance(count, int) or not isinstance(total, (int, float)):
            raise ValueError("decisions must be a whole number and sum_s a number")
        if not isinstance(longest, (int, float)) or not isinstance(raw, dict):
            raise ValueError("max_s must be a number and buckets an object")
        buckets = {}
        for k, v in raw.items():
            b = int(k)
            if not 0 <= b < BUCKETS or not isinstance(v, int) or v < 0:
                raise ValueError(f"bad bucket {k!r}")
            buckets[b] = v
        return cls(count, float(total), float(longest), buckets)
