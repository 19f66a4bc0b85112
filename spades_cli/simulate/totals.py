"""Running totals of a tournament: every game is added as it ends and then forgotten.

:class:`Totals` holds only counts and exact integer sums (plus a histogram of decision
times), so memory stays flat whatever the number of games, and totals from chunks,
worker processes, machines or shards add up to exactly what one run gives, in any order.
Which games are in a total is kept as ranges of game indices (``done``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields

from spades_cli.errors import SpadesError
from spades_cli.simulate.game import GameRecord, HandStat, Settings, jobs_for, play_game
from spades_cli.simulate.stats import TimeHist

Ranges = tuple[tuple[int, int], ...]  # sorted, disjoint, not touching: [start, end) of game indices


@dataclass(slots=True)
class TeamTotals:
    """One team's counts (a team is the players of one side of the first copy)."""

    games: int = 0
    wins: int = 0
    hands: int = 0
    points: int = 0
    contracts: int = 0
    made: int = 0
    set: int = 0
    nil_tries: int = 0
    nil_made: int = 0
    blind_tries: int = 0
    blind_made: int = 0
    bags: int = 0
    penalties: int = 0
    penalty_points: int = 0

    def merged(self, other: TeamTotals) -> TeamTotals:
        return TeamTotals(*(getattr(self, f) + getattr(other, f) for f in TEAM_FIELDS))

    def add_hand(self, h: HandStat, side: int, players: int, penalty_unit: int) -> None:
        sides = len(h.points)
        self.hands += 1
        self.points += h.points[side]
        if h.contract[side] > 0:
            self.contracts += 1
            self.made += h.made[side]
            self.set += not h.made[side]
        for s in range(side, players, sides):  # the side's seats (Rules.side_of is seat % sides)
            self.nil_tries += h.nil[s][0]
            self.nil_made += h.nil[s][1]
            self.blind_tries += h.blind[s][0]
            self.blind_made += h.blind[s][1]
        self.bags += h.bags[side]
        self.penalties += h.penalties(side, penalty_unit)
        self.penalty_points += h.penalty[side]


TEAM_FIELDS = tuple(f.name for f in fields(TeamTotals))


@dataclass(slots=True)
class Totals:
    # One per side (two, or one per player without partners), made by the first game added.
    teams: tuple[TeamTotals, ...] = ()
    done: Ranges = ()
    copies: int = 0  # games played, a duplicate deal counting once per copy
    capped: int = 0
    undecided: int = 0
    # Point difference team 0 - team 1: one sample per hand, or per deal of a duplicate
    # pair (then the sample is the sum of the two copies' differences, halved when shown).
    diff_n: int = 0
    diff_sum: int = 0
    diff_squares: int = 0
    terminated: tuple[tuple[int, int, str], ...] = ()  # (game index, copy, reason)
    times: dict[str, TimeHist] = field(default_factory=dict)

    @property
    def games_done(self) -> int:
        return sum(b - a for a, b in self.done)

    @property
    def hands(self) -> int:
        return self.teams[0].hands if self.teams else 0

    def add_game(self, rec: GameRecord, players: int, penalty_unit: int) -> None:
        self.copies += 1
        self.capped += rec.capped
        self.undecided += rec.winner is None
        if rec.terminated is not None:
            self.terminated += ((rec.index, rec.twin, rec.terminated),)
        sides = len(rec.scores)
        if not self.teams:
            self.teams = tuple(TeamTotals() for _ in range(sides))
        for side in range(sides):
            # In copy k every player sits k seats on: side ``side`` is the team of the
            # side k before it in the first copy.
            team = self.teams[(side - rec.twin) % sides]
            team.games += 1
            team.wins += rec.winner == side
            for h in rec.hands:
                team.add_hand(h, side, players, penalty_unit)

    def add_diffs(self, values: Iterable[int]) -> None:
        for d in values:
            self.diff_n += 1
            self.diff_sum += d
            self.diff_squares += d * d

    def merged(self, other: Totals) -> Totals:
        """Both totals together; ValueError naming a game when they share one."""
        times = dict(self.times)
        for label, h in other.times.items():
            times[label] = times[label].merged(h) if label in times else h
        return Totals(
            teams=_merged_teams(self.teams, other.teams),
            done=union(self.done, other.done),
            copies=self.copies + other.copies,
            capped=self.capped + other.capped,
            undecided=self.undecided + other.undecided,
            diff_n=self.diff_n + other.diff_n,
            diff_sum=self.diff_sum + other.diff_sum,
            diff_squares=self.diff_squares + other.diff_squares,
            terminated=tuple(sorted(self.terminated + other.terminated)),
            times=times,
        )

    def to_json(self) -> dict[str, object]:
        return {
            "done": [list(r) for r in self.done],
            "copies": self.copies,
            "capped": self.capped,
            "undecided": self.undecided,
            "teams": [{f: getattr(t, f) for f in TEAM_FIELDS} for t in self.teams],
            "diff": {"n": self.diff_n, "sum": self.diff_sum, "sum_squares": self.diff_squares},
            "terminated": [[i + 1, twin, why] for i, twin, why in self.terminated],
            "times": {label: h.to_json() for label, h in sorted(self.times.items())},
        }

    @classmethod
    def from_json(cls, d: Mapping[str, object]) -> Totals:
        """Raises ValueError / TypeError / KeyError on anything malformed."""
        teams = d["teams"]
        diff = d["diff"]
        times = d["times"]
        terminated = d["terminated"]
        # A team per side, or none before the first game ended (an interrupted run).
        if not (isinstance(teams, list) and len(teams) in (0, 2, 3, 4) and isinstance(diff, dict)):
            raise ValueError("teams must be a list of two to four and diff an object")
        if not (isinstance(times, dict) and isinstance(terminated, list)):
            raise ValueError("times must be an object and terminated a list")
        ends: list[tuple[int, int, str]] = []
        for entry in terminated:
            game, twin, why = entry
            ends.append((_int(game) - 1, _int(int(twin) if isinstance(twin, bool) else twin), str(why)))
        return cls(
            teams=tuple(_team(t) for t in teams),
            done=_ranges(d["done"]),
            copies=_int(d["copies"]),
            capped=_int(d["capped"]),
            undecided=_int(d["undecided"]),
            diff_n=_int(diff["n"]),
            diff_sum=_int(diff["sum"], signed=True),
            diff_squares=_int(diff["sum_squares"]),
            terminated=tuple(sorted(ends)),
            times={str(k): TimeHist.from_json(v) for k, v in times.items()},
        )


def _merged_teams(a: tuple[TeamTotals, ...], b: tuple[TeamTotals, ...]) -> tuple[TeamTotals, ...]:
    if not a or not b:
        return a or b
    if len(a) != len(b):
        raise ValueError(f"{len(a)} sides against {len(b)}")
    return tuple(x.merged(y) for x, y in zip(a, b, strict=True))


def _int(x: object, *, signed: bool = False) -> int:
    if not isinstance(x, int) or isinstance(x, bool) or (x < 0 and not signed):
        raise ValueError(f"expected a whole number, got {str(x)[:20]!r}")
    return x


def _team(d: object) -> TeamTotals:
    if not isinstance(d, dict):
        raise ValueError("a team must be an object")
    return TeamTotals(*(_int(d[f], signed=f in ("points", "penalty_points")) for f in TEAM_FIELDS))


def _ranges(raw: object) -> Ranges:
    if not isinstance(raw, list):
        raise ValueError("done must be a list of [start, end] ranges")
    out: Ranges = ()
    for item in raw:
        a, b = item
        if _int(a) >= _int(b):
            raise ValueError(f"empty range {[a, b]}")
        out = union(out, ((a, b),))
    return out


def union(x: Ranges, y: Ranges) -> Ranges:
    """The ranges of both, joined where they touch; ValueError if they share a game."""
    out: list[tuple[int, int]] = []
    for a, b in sorted(x + y):
        if out and a < out[-1][1]:
            raise ValueError(f"game {a + 1} is counted twice")
        if out and a == out[-1][1]:
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return tuple(out)


def missing(done: Ranges, start: int, end: int) -> Ranges:
    """The parts of [start, end) that are not in ``done``."""
    out = []
    at = start
    for a, b in done:
        if b <= at or a >= end:
            continue
        if a > at:
            out.append((at, a))
        at = max(at, b)
    if at < end:
        out.append((at, end))
    return tuple(out)


def play_range(settings: Settings, start: int, end: int) -> Totals | str:
    """Play games ``start`` to ``end - 1`` (each with its copies) and return their totals, or
    the message of the first error that stops the tournament."""
    t = settings.tournament
    totals = Totals(done=((start, end),))
    for index in range(start, end):
        try:
            records = [play_game(settings, job, totals.times) for job in jobs_for(t, index)]
        except SpadesError as exc:
            return f"game {index + 1}: {exc}"
        for rec in records:
            totals.add_game(rec, t.rules.players, t.rules.bags.penalty)
        if t.rules.sides != 2:
            pass  # the point difference is between two sides only
        elif t.duplicate:
            totals.add_diffs(_pair_diffs(records[0], records[1]))
        else:
            totals.add_diffs(h.points[0] - h.points[1] for h in records[0].hands)
    return totals


def _pair_diffs(first: GameRecord, twin: GameRecord) -> list[int]:
    """Per deal played in both copies: team 0's lead in the first copy plus its lead in the
    twin (team 0 sat on side 0 in the first copy and on side 1 in the twin)."""
    by_hand = {h.hand_no: h for h in first.hands}
    out = []
    for h in twin.hands:
        g = by_hand.get(h.hand_no)
        if g is not None:
            out.append((g.points[0] - g.points[1]) + (h.points[1] - h.points[0]))
    return out
