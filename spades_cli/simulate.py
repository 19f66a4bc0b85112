"""Bot tournaments: play many games between seat controllers and summarise them.

Each game gets its own seed, derived from the tournament seed and the game's index, so
the results do not depend on how many worker processes play them. With ``duplicate``
every game is played twice on the same cards with the two sides' seats exchanged (the
luck of the deal cancels, as in duplicate bridge); hands of the two copies that share a
deal are compared pairwise.

``run_tournament`` returns a :class:`Summary`; ``format_summary`` prints it for people
and ``Summary.to_json`` for programs. The command is in ``cmd_simulate``.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from spades_cli.engine import Rules, rng_for
from spades_cli.errors import SpadesError
from spades_cli.match import Controller, Match

MAX_HANDS = 200
Z95 = 1.959963984540054


# -- one game ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameJob:
    index: int  # game number in the tournament
    twin: bool  # the duplicate copy, with the sides' seats exchanged
    seed: int
    labels: tuple[str, ...]  # controller label per seat (already exchanged for a twin)
    rules: Rules
    max_hands: int = MAX_HANDS
    transcript_dir: str | None = None
    rules_source: str | None = None  # preset name or file, recorded in transcripts
    overrides: tuple[str, ...] = ()
    bot_timeout: float | None = None  # --bot-timeout for cmd: seats
    on_failure: str | None = None  # --on-bot-failure for cmd: seats


@dataclass(frozen=True, slots=True)
class HandStat:
    hand_no: int
    points: tuple[int, int]  # per side
    contract: tuple[int, int]  # per side (0: no contract)
    made: tuple[bool, bool]
    bags: tuple[int, int]
    penalty: tuple[int, int]  # bag penalties charged (negative or 0)
    nil: tuple[tuple[int, int], ...]  # per seat: (attempted, made) for an ordinary nil
    blind: tuple[tuple[int, int], ...]  # per seat: (attempted, made) for a blind / double nil


@dataclass(slots=True)
class GameRecord:
    index: int
    twin: bool
    seed: int
    labels: tuple[str, ...]
    winner: int | None  # side; None when the game hit the hand cap
    scores: tuple[int, int]
    hands: list[HandStat]
    capped: bool
    times: dict[str, list[float]]  # decision seconds per controller label
    terminated: str | None = None  # why a failing cmd: bot ended the game, if one did


class _Timed:
    """Wraps a controller and records how long each decision takes."""

    def __init__(self, inner: Controller, sink: list[float]) -> None:
        self.inner = inner
        self.label = inner.label
        self.sink = sink

    def decide(self, match: Match, seat: int) -> int:
        t0 = time.perf_counter()
        action = self.inner.decide(match, seat)
        self.sink.append(time.perf_counter() - t0)
        return action


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a tournament (independent of workers and order)."""
    return rng_for(seed, "game", index).randrange(1 << 62)


def exchange_sides(labels: Sequence[str]) -> tuple[str, ...]:
    """Move every seat's player one seat on, so each side sits where the other sat."""
    n = len(labels)
    return tuple(labels[(s - 1) % n] for s in range(n))


def play_game(job: GameJob) -> GameRecord:
    """Play one game to its end (or to the hand cap) and record what the summary needs."""
    from spades_cli.protocol import BotFailure, recording
    from spades_cli.seats import make_controller

    times: dict[str, list[float]] = {}
    inner: list[Controller] = [make_controller(label, job.rules) for label in job.labels]
    match = Match(job.rules, job.seed, inner)
    writer = _transcript_writer(job, match) if job.transcript_dir is not None else None
    terminated = None
    try:
        # recording() wires the cmd: seats (timeout, fallback, logs, notes) and stops them.
        with recording(match, writer, timeout=job.bot_timeout, on_failure=job.on_failure):
            inner[:] = match.controllers  # recording() seated the programs
            match.controllers = [
                _Timed(c, times.setdefault(label, [])) for c, label in zip(inner, job.labels, strict=True)
            ]
            state = match.state
            while not match.finished and len(state.results) < job.max_hands:
                match.step()
                state = match.state
            if writer is not None and not match.finished:
                writer.note(None, f"stopped by simulate after {job.max_hands} hands", job.rules)
    except BotFailure as exc:
        # The failing seat's game ends here (recorded as its termination); the
        # tournament goes on and reports it.
        terminated = str(exc)
    finally:
        for c in inner:
            close = getattr(c, "close", None)
            if callable(close):
                close()
        if writer is not None:
            if not match.finished:
                writer.unfinished()
            writer.close()
    state = match.state
    n = job.rules.players
    hands = []
    for r in state.results:
        nil = []
        blind = []
        for s in range(n):
            is_nil = r.bids[s] == 0 and (job.rules.nil.enabled or r.blind[s])
            ok = int(r.tricks[s] == 0)
            nil.append((1, ok) if is_nil and not r.blind[s] else (0, 0))
            blind.append((1, ok) if is_nil and r.blind[s] else (0, 0))
        hands.append(
            HandStat(
                hand_no=r.hand_no,
                points=(r.sides[0].points, r.sides[1].points),
                contract=(r.sides[0].contract, r.sides[1].contract),
                made=(r.sides[0].made, r.sides[1].made),
                bags=(r.sides[0].bags, r.sides[1].bags),
                penalty=(r.sides[0].bag_penalty, r.sides[1].bag_penalty),
                nil=tuple(nil),
                blind=tuple(blind),
            )
        )
    return GameRecord(
        index=job.index,
        twin=job.twin,
        seed=job.seed,
        labels=job.labels,
        winner=state.winner() if match.finished else None,
        scores=(state.scores[0], state.scores[1]),
        hands=hands,
        capped=not match.finished and terminated is None,
        times=times,
        terminated=terminated,
    )


def _transcript_writer(job: GameJob, match: Match) -> Any:
    """A transcript of the game in ``job.transcript_dir``, attached as the first listener."""
    from spades_cli.transcript import TranscriptWriter

    assert job.transcript_dir is not None
    name = f"game-{job.index + 1:04d}{'-twin' if job.twin else ''}.txt"
    path = os.path.join(job.transcript_dir, name)
    return TranscriptWriter.create(path, match, rules_source=job.rules_source, overrides=job.overrides)


def _worker(job: GameJob) -> GameRecord | str:
    try:
        return play_game(job)
    except SpadesError as exc:
        return f"game {job.index + 1}: {exc}"


# -- statistics --------------------------------------------------------------------


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


def mean_ci(xs: Sequence[float]) -> Interval:
    """The mean with a 95% normal-approximation interval."""
    if not xs:
        return Interval(0.0, 0.0, 0.0)
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return Interval(m, m, m)
    half = Z95 * statistics.stdev(xs) / math.sqrt(len(xs))
    return Interval(m, m - half, m + half)


@dataclass(slots=True)
class TeamStats:
    name: str
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

    def to_json(self) -> dict[str, Any]:
        win = wilson(self.wins, self.games)
        return {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "win_rate": win.to_json(),
            "hands": self.hands,
            "points_per_hand": self.points / self.hands if self.hands else 0.0,
            "contracts": self.contracts,
            "made": self.made,
            "set": self.set,
            "nil": {"attempts": self.nil_tries, "made": self.nil_made},
            "blind_nil": {"attempts": self.blind_tries, "made": self.blind_made},
            "bags_per_hand": self.bags / self.hands if self.hands else 0.0,
            "bag_penalties": self.penalties,
            "bag_penalty_points": self.penalty_points,
        }


@dataclass(frozen=True, slots=True)
class TimeStats:
    label: str
    decisions: int
    mean: float
    median: float
    p95: float
    max: float

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label, "decisions": self.decisions, "mean_s": self.mean,
            "median_s": self.median, "p95_s": self.p95, "max_s": self.max,
        }


@dataclass(slots=True)
class Summary:
    rules_name: str
    players: int
    seed: int
    games: int  # games per copy (the tournament's --games)
    duplicate: bool
    labels: tuple[str, ...]
    teams: list[TeamStats]
    diff: Interval  # team 0 minus team 1, points per hand (per deal pair in duplicate)
    diff_samples: int
    capped: int
    undecided: int
    times: list[TimeStats]
    records: list[GameRecord] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules_name,
            "players": self.players,
            "seed": self.seed,
            "games": self.games,
            "duplicate": self.duplicate,
            "games_played": len(self.records),
            "seats": {
                name: label for name, label in zip(_seat_names(self.players), self.labels, strict=True)
            },
            "teams": [t.to_json() for t in self.teams],
            "point_difference_per_hand": {
                **self.diff.to_json(),
                "samples": self.diff_samples,
                "paired_deals": self.duplicate,
                "between": [self.teams[0].name, self.teams[1].name],
            },
            "capped_games": self.capped,
            "terminated_games": [
                {"game": r.index + 1, "twin": r.twin, "reason": r.terminated}
                for r in self.records
                if r.terminated is not None
            ],
            "decision_time": [t.to_json() for t in self.times],
        }


def _seat_names(players: int) -> tuple[str, ...]:
    return ("N", "S") if players == 2 else ("N", "E", "S", "W")


def team_names(labels: Sequence[str]) -> tuple[str, str]:
    n = len(labels)
    names = _seat_names(n)
    out = []
    for side in (0, 1):
        seats = [s for s in range(n) if s % 2 == side]
        where = "/".join(names[s] for s in seats)
        levels = [labels[s] for s in seats]
        who = levels[0] if len(set(levels)) == 1 else "+".join(levels)
        out.append(f"{where} {who}")
    return out[0], out[1]


def summarise(
    rules: Rules, seed: int, games: int, labels: tuple[str, ...], duplicate: bool, records: list[GameRecord]
) -> Summary:
    names = team_names(labels)
    teams = [TeamStats(names[0]), TeamStats(names[1])]
    diffs: list[float] = []
    by_game: dict[int, dict[bool, GameRecord]] = {}
    capped = 0
    times: dict[str, list[float]] = {}
    for rec in records:
        by_game.setdefault(rec.index, {})[rec.twin] = rec
        capped += rec.capped
        for label, ts in rec.times.items():
            times.setdefault(label, []).extend(ts)
        for side in (0, 1):
            team = teams[side ^ rec.twin]
            team.games += 1
            if rec.winner == side:
                team.wins += 1
            for h in rec.hands:
                team.hands += 1
                team.points += h.points[side]
                if h.contract[side] > 0:
                    team.contracts += 1
                    team.made += h.made[side]
                    team.set += not h.made[side]
                for s in range(rules.players):
                    if s % 2 == side:
                        team.nil_tries += h.nil[s][0]
                        team.nil_made += h.nil[s][1]
                        team.blind_tries += h.blind[s][0]
                        team.blind_made += h.blind[s][1]
                team.bags += h.bags[side]
                if h.penalty[side]:
                    team.penalties += round(-h.penalty[side] / max(1, rules.bags.penalty)) or 1
                    team.penalty_points += h.penalty[side]
    if duplicate:
        for pair in by_game.values():
            if len(pair) < 2:
                continue
            first = {h.hand_no: h for h in pair[False].hands}
            for h in pair[True].hands:
                g = first.get(h.hand_no)
                if g is None:
                    continue
                # Team 0 sat on side 0 in the first copy and on side 1 in the twin.
                d1 = g.points[0] - g.points[1]
                d2 = h.points[1] - h.points[0]
                diffs.append((d1 + d2) / 2)
    else:
        for rec in records:
            for h in rec.hands:
                diffs.append(h.points[0] - h.points[1])
    time_stats = []
    for label in sorted(times, key=lambda x: (_LEVEL_ORDER.get(x, 9), x)):
        ts = sorted(times[label])
        if not ts:
            continue
        time_stats.append(
            TimeStats(
                label=label,
                decisions=len(ts),
                mean=statistics.fmean(ts),
                median=statistics.median(ts),
                p95=ts[min(len(ts) - 1, int(0.95 * len(ts)))],
                max=ts[-1],
            )
        )
    undecided = sum(1 for r in records if r.winner is None)
    return Summary(
        rules_name=rules.name,
        players=rules.players,
        seed=seed,
        games=games,
        duplicate=duplicate,
        labels=labels,
        teams=teams,
        diff=mean_ci(diffs),
        diff_samples=len(diffs),
        capped=capped,
        undecided=undecided,
        times=time_stats,
        records=records,
    )


_LEVEL_ORDER = {"random": 0, "easy": 1, "normal": 2, "hard": 3}


# -- the tournament ----------------------------------------------------------------


def make_jobs(
    rules: Rules,
    labels: tuple[str, ...],
    games: int,
    seed: int,
    *,
    duplicate: bool = False,
    max_hands: int = MAX_HANDS,
    transcript_dir: str | None = None,
    rules_source: str | None = None,
    overrides: tuple[str, ...] = (),
    bot_timeout: float | None = None,
    on_failure: str | None = None,
) -> list[GameJob]:
    jobs = []
    extra = (max_hands, transcript_dir, rules_source, overrides, bot_timeout, on_failure)
    for i in range(games):
        gs = game_seed(seed, i)
        jobs.append(GameJob(i, False, gs, labels, rules, *extra))
        if duplicate:
            jobs.append(GameJob(i, True, gs, exchange_sides(labels), rules, *extra))
    return jobs


def run_tournament(
    rules: Rules,
    labels: tuple[str, ...],
    games: int,
    seed: int,
    *,
    jobs: int = 1,
    duplicate: bool = False,
    max_hands: int = MAX_HANDS,
    transcript_dir: str | None = None,
    rules_source: str | None = None,
    overrides: tuple[str, ...] = (),
    progress: Callable[[int, int], None] | None = None,
    bot_timeout: float | None = None,
    on_failure: str | None = None,
) -> Summary:
    """Play the tournament (in ``jobs`` worker processes) and summarise it."""
    work = make_jobs(
        rules, labels, games, seed, duplicate=duplicate, max_hands=max_hands,
        transcript_dir=transcript_dir, rules_source=rules_source, overrides=overrides,
        bot_timeout=bot_timeout, on_failure=on_failure,
    )
    results: list[GameRecord] = []
    errors: list[str] = []
    total = len(work)

    def collect(item: GameRecord | str) -> None:
        if isinstance(item, str):
            errors.append(item)
        else:
            results.append(item)
        if progress is not None:
            progress(len(results) + len(errors), total)

    if jobs <= 1 or total <= 1:
        for job in work:
            collect(_worker(job))
            if errors:
                break
    else:
        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(min(jobs, total)) as pool:
            for item in pool.imap_unordered(_worker, work, chunksize=1):
                collect(item)
                if errors:
                    pool.terminate()
                    break
    if errors:
        raise SpadesError(errors[0])
    results.sort(key=lambda r: (r.index, r.twin))
    return summarise(rules, seed, games, labels, duplicate, results)


# -- text output -------------------------------------------------------------------


def _pct(i: Interval) -> str:
    return f"{100 * i.value:.1f}% (95% CI {100 * i.low:.1f}-{100 * i.high:.1f}%)"


def _ms(seconds: float) -> str:
    return f"{1000 * seconds:.2f} ms" if seconds < 1 else f"{seconds:.2f} s"


def format_summary(s: Summary) -> str:
    lines = []
    played = len(s.records)
    mode = ", duplicate (every deal twice, sides exchanged)" if s.duplicate else ""
    hands = sum(len(r.hands) for r in s.records)
    lines.append(f"{played} games of {s.rules_name} (seed {s.seed}{mode}), {hands} hands")
    seats = ", ".join(f"{n}={lab}" for n, lab in zip(_seat_names(s.players), s.labels, strict=True))
    lines.append(f"seats: {seats}")
    if s.capped:
        lines.append(f"{s.capped} game(s) stopped at the hand cap without a winner")
    for r in s.records:
        if r.terminated is not None:
            copy = " (sides exchanged)" if r.twin else ""
            lines.append(f"game {r.index + 1}{copy} ended early: {r.terminated}")
    lines.append("")
    rows: list[tuple[str, list[str]]] = []
    ts = s.teams
    rows.append(("games won", [f"{t.wins}/{t.games}  {_pct(wilson(t.wins, t.games))}" for t in ts]))
    rows.append(("points per hand", [f"{t.points / t.hands:.1f}" if t.hands else "-" for t in ts]))
    rows.append(("contracts made / set", [f"{t.made} / {t.set} of {t.contracts}" for t in ts]))
    rows.append(("nil made / tried", [f"{t.nil_made} / {t.nil_tries}" for t in ts]))
    blind = "double nil made / tried" if s.players == 2 else "blind nil made / tried"
    rows.append((blind, [f"{t.blind_made} / {t.blind_tries}" for t in ts]))
    rows.append(("bags per hand", [f"{t.bags / t.hands:.2f}" if t.hands else "-" for t in ts]))
    rows.append(("bag penalties", [f"{t.penalties} ({t.penalty_points} points)" for t in ts]))
    w0 = max(len(r[0]) for r in rows)
    w1 = max(len(ts[0].name), *(len(r[1][0]) for r in rows))
    lines.append(f"{'':<{w0}}  {ts[0].name:<{w1}}  {ts[1].name}")
    for label, vals in rows:
        lines.append(f"{label:<{w0}}  {vals[0]:<{w1}}  {vals[1]}")
    lines.append("")
    what = "per deal, duplicate pairs" if s.duplicate else "per hand"
    d = s.diff
    lines.append(
        f"point difference {ts[0].name} - {ts[1].name} ({what}, n={s.diff_samples}): "
        f"{d.value:+.1f} (95% CI {d.low:+.1f} to {d.high:+.1f})"
    )
    lines.append("")
    lines.append("decision time per player (one process):")
    width = max((len(t.label) for t in s.times), default=8)
    for t in s.times:
        lines.append(
            f"  {t.label:<{width}} {t.decisions:>8} decisions  mean {_ms(t.mean)}  median {_ms(t.median)}"
            f"  95% {_ms(t.p95)}  max {_ms(t.max)}"
        )
    return "\n".join(lines)
