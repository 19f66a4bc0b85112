"""The result of a tournament (or of part of one): its JSON, read and written, and its text.

The JSON that ``spades simulate --json`` prints holds the summary people read and, under
``totals``, everything needed to add it to other parts of the same tournament (``spades
merge``) or to go on with it (``--resume-from``). Timing fields (``elapsed_s``,
``decision_time`` and ``totals.times``) are the only ones that differ between two runs of
the same games.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from spades_cli.errors import FileFormatError, UsageError
from spades_cli.simulate.game import Tournament
from spades_cli.simulate.stats import Interval, mean_ci_sums, wilson
from spades_cli.simulate.totals import TeamTotals, Totals
from spades_cli.view.look import plural

FORMAT = 1
TIMING_FIELDS = ("elapsed_s", "decision_time")  # and totals.times
_LEVEL_ORDER = {"random": 0, "easy": 1, "normal": 2, "hard": 3}


@dataclass(slots=True)
class Summary:
    tournament: Tournament
    totals: Totals
    elapsed: float = 0.0  # seconds of play (added up over merged parts)

    @property
    def complete(self) -> bool:
        return self.totals.done == ((0, self.tournament.games),)

    @property
    def team_names(self) -> tuple[str, ...]:
        return team_names(self.tournament.labels, self.tournament.rules.sides)

    @property
    def teams(self) -> tuple[TeamTotals, ...]:
        """Each side's totals (empty ones before any game was added)."""
        return self.totals.teams or tuple(TeamTotals() for _ in self.team_names)

    @property
    def diff(self) -> Interval:
        t = self.totals
        return mean_ci_sums(t.diff_n, t.diff_sum, t.diff_squares, self.tournament.copies)

    def to_json(self) -> dict[str, Any]:
        t, s = self.tournament, self.totals
        names = self.team_names
        return {
            "rules": t.rules.name,
            "players": t.rules.players,
            "seed": t.seed,
            "games": t.games,
            "duplicate": t.duplicate,
            "max_hands": t.max_hands,
            "games_played": s.copies,
            "complete": self.complete,
            "seats": dict(zip(t.rules.seat_names, t.labels, strict=True)),
            "teams": [_team_json(name, team) for name, team in zip(names, self.teams, strict=True)],
            # Between two sides only (null with a side per player: cutthroat, solo).
            "point_difference_per_hand": {
                **self.diff.to_json(),
                "samples": s.diff_n,
                "paired_deals": t.duplicate,
                "between": list(names),
            }
            if len(names) == 2
            else None,
            "capped_games": s.capped,
            "terminated_games": [{"game": i + 1, "twin": tw, "reason": why} for i, tw, why in s.terminated],
            "decision_time": [
                {
                    "label": label,
                    "decisions": h.count,
                    "mean_s": h.mean,
                    "median_s": h.quantile(0.5),
                    "p95_s": h.quantile(0.95),
                    "max_s": h.longest,
                }
                for label, h in _by_level(s)
            ],
            "elapsed_s": self.elapsed,
            "totals": {"format": FORMAT, "rules": _rules_dict(t), **s.to_json()},
        }


def _team_json(name: str, t: TeamTotals) -> dict[str, Any]:
    return {
        "name": name,
        "games": t.games,
        "wins": t.wins,
        "win_rate": wilson(t.wins, t.games).to_json(),
        "hands": t.hands,
        "points_per_hand": t.points / t.hands if t.hands else 0.0,
        "contracts": t.contracts,
        "made": t.made,
        "set": t.set,
        "nil": {"attempts": t.nil_tries, "made": t.nil_made},
        "blind_nil": {"attempts": t.blind_tries, "made": t.blind_made},
        "bags_per_hand": t.bags / t.hands if t.hands else 0.0,
        "bag_penalties": t.penalties,
        "bag_penalty_points": t.penalty_points,
    }


def _rules_dict(t: Tournament) -> dict[str, Any]:
    from spades_cli.presets import rules_to_dict

    return rules_to_dict(t.rules)


def _by_level(s: Totals) -> list[tuple[str, Any]]:
    return sorted(s.times.items(), key=lambda kv: (_LEVEL_ORDER.get(kv[0], 9), kv[0]))


def team_names(labels: Sequence[str], sides: int = 2) -> tuple[str, ...]:
    """``N/S hard``, ``E/W easy``; a side per player (cutthroat, solo): ``N hard``..."""
    n = len(labels)
    names = {2: ("N", "S"), 3: ("N", "E", "S")}.get(n, ("N", "E", "S", "W"))
    out = []
    for side in range(sides):
        seats = [s for s in range(n) if s % sides == side]  # Rules.side_of
        where = "/".join(names[s] for s in seats)
        levels = [labels[s] for s in seats]
        who = levels[0] if len(set(levels)) == 1 else "+".join(levels)
        out.append(f"{where} {who}")
    return tuple(out)


# -- reading a result back -----------------------------------------------------------


def read_summary(path: str) -> Summary:
    """A result written by ``spades simulate --json`` (or ``spades merge``); FileFormatError
    (exit 2) naming the file when it cannot be read or is not such a result."""
    from spades_cli.transcript.files import read_limited

    raw = read_limited(path, "result file")
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise FileFormatError("not JSON: not UTF-8 text", file=path) from None
    except json.JSONDecodeError as exc:
        raise FileFormatError(f"not JSON ({exc.msg} at line {exc.lineno})", file=path) from None
    except RecursionError:
        raise FileFormatError("not a result file: nested too deeply", file=path) from None
    return summary_from_json(data, path)


def summary_from_json(data: Any, origin: str) -> Summary:
    from spades_cli.errors import MultiError
    from spades_cli.presets import rules_from_dict

    if not isinstance(data, dict) or not isinstance(data.get("totals"), dict):
        raise FileFormatError("not a simulate result (written by 'spades simulate --json')", file=origin)
    totals = data["totals"]
    if totals.get("format") != FORMAT:
        raise FileFormatError(f"unknown simulate result format {str(totals.get('format'))[:20]}", file=origin)
    if not isinstance(totals.get("rules"), dict) or "base" in totals["rules"]:
        # The rules are written out in full: a received file never makes us open another one.
        raise FileFormatError("not a simulate result: totals.rules must be the rules in full", file=origin)
    try:
        rules = rules_from_dict(totals["rules"], origin=f"{origin}: totals.rules")
    except MultiError as exc:
        raise FileFormatError(f"bad rules: {exc.problems[0]}", file=origin) from None
    try:
        seats = data["seats"]
        labels = tuple(str(seats[name]) for name in rules.seat_names)
        games, seed, max_hands = data["games"], data["seed"], data["max_hands"]
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in (games, seed, max_hands)):
            raise ValueError("games, seed and max_hands must be whole numbers")
        tournament = Tournament(rules, labels, games, seed, bool(data["duplicate"]), max_hands)
        part = Totals.from_json(totals)
        elapsed = float(data.get("elapsed_s", 0.0))
    except (KeyError, TypeError, ValueError) as exc:
        what = f"missing {exc}" if isinstance(exc, KeyError) else str(exc)[:80]
        raise FileFormatError(f"not a simulate result: {what}", file=origin) from None
    if part.done and part.done[-1][1] > games:
        raise FileFormatError(f"game {part.done[-1][1]} is past the tournament's {games} games", file=origin)
    return Summary(tournament, part, elapsed)


def differences(a: Tournament, b: Tournament) -> list[str]:
    """What makes two tournaments different (empty when they are the same one)."""
    out = []
    if a.seed != b.seed:
        out.append(f"seed {a.seed} against {b.seed}")
    if a.labels != b.labels:
        out.append(f"seats {'/'.join(a.labels)} against {'/'.join(b.labels)}")
    if a.rules != b.rules:
        changed = " (with other settings)" if a.rules.name == b.rules.name else ""
        out.append(f"rules {a.rules.name} against {b.rules.name}{changed}")
    if a.games != b.games:
        out.append(f"games {a.games} against {b.games}")
    if a.duplicate != b.duplicate:
        out.append(f"duplicate {str(a.duplicate).lower()} against {str(b.duplicate).lower()}")
    if a.max_hands != b.max_hands:
        out.append(f"max hands {a.max_hands} against {b.max_hands}")
    return out


def merge_summaries(parts: Sequence[tuple[str, Summary]]) -> Summary:
    """Parts of one tournament added together; UsageError (exit 2) naming the file that belongs
    to another tournament or repeats games."""
    first_name, first = parts[0]
    totals = first.totals
    elapsed = first.elapsed
    for name, part in parts[1:]:
        diff = differences(first.tournament, part.tournament)
        if diff:
            raise UsageError(f"{name} is from another tournament than {first_name}: {'; '.join(diff)}")
        try:
            totals = totals.merged(part.totals)
        except ValueError as exc:
            raise UsageError(f"{name}: {exc} (it overlaps an earlier file)") from None
        elapsed += part.elapsed
    return Summary(first.tournament, totals, elapsed)


# -- text ---------------------------------------------------------------------------


def _pct(i: Interval) -> str:
    return f"{100 * i.value:.1f}% (95% CI {100 * i.low:.1f}-{100 * i.high:.1f}%)"


def _ms(seconds: float) -> str:
    return f"{1000 * seconds:.2f} ms" if seconds < 1 else f"{seconds:.2f} s"


def format_summary(summary: Summary) -> str:
    t, s = summary.tournament, summary.totals
    lines = []
    mode = ""
    if t.duplicate:
        mode = (
            ", duplicate (every deal twice, sides exchanged)"
            if t.copies == 2
            else f", duplicate (every deal {t.copies} times, each player in every seat)"
        )
    lines.append(
        f"{plural(s.copies, 'game')} of {t.rules.name} (seed {t.seed}{mode}), {plural(s.hands, 'hand')}"
    )
    if not summary.complete:
        ranges = ", ".join(f"{a + 1}-{b}" for a, b in s.done) or "none"
        lines.append(f"partial: games {ranges} of {t.games}")
    seats = ", ".join(f"{n}={lab}" for n, lab in zip(t.rules.seat_names, t.labels, strict=True))
    lines.append(f"seats: {seats}")
    if s.capped:
        lines.append(f"{s.capped} game(s) stopped at the hand cap without a winner")
    for index, twin, why in s.terminated:
        copy = "" if not twin else " (sides exchanged)" if t.copies == 2 else f" (players {twin} seats on)"
        lines.append(f"game {index + 1}{copy} ended early: {why}")
    lines.append("")
    lines.extend(_table(summary))
    lines.append("")
    names = summary.team_names
    what = "per deal, duplicate pairs" if t.duplicate else "per hand"
    if len(names) == 2:
        d = summary.diff
        lines.append(
            f"point difference {names[0]} - {names[1]} ({what}, n={s.diff_n}): "
            f"{d.value:+.1f} (95% CI {d.low:+.1f} to {d.high:+.1f})"
        )
        lines.append("")
    lines.append("decision time per player (one process; median and 95% from a histogram, within 6%):")
    width = max((len(label) for label in s.times), default=8)
    for label, h in _by_level(s):
        lines.append(
            f"  {label:<{width}} {h.count:>8} decisions  mean {_ms(h.mean)}  median {_ms(h.quantile(0.5))}"
            f"  95% {_ms(h.quantile(0.95))}  max {_ms(h.longest)}"
        )
    return "\n".join(lines)


def _table(summary: Summary) -> list[str]:
    ts = summary.teams
    names = summary.team_names
    rows: list[tuple[str, list[str]]] = []
    rows.append(("games won", [f"{t.wins}/{t.games}  {_pct(wilson(t.wins, t.games))}" for t in ts]))
    rows.append(("points per hand", [f"{t.points / t.hands:.1f}" if t.hands else "-" for t in ts]))
    rows.append(("contracts made / set", [f"{t.made} / {t.set} of {t.contracts}" for t in ts]))
    rows.append(("nil made / tried", [f"{t.nil_made} / {t.nil_tries}" for t in ts]))
    blind = "double nil made / tried" if summary.tournament.rules.players == 2 else "blind nil made / tried"
    rows.append((blind, [f"{t.blind_made} / {t.blind_tries}" for t in ts]))
    rows.append(("bags per hand", [f"{t.bags / t.hands:.2f}" if t.hands else "-" for t in ts]))
    rows.append(("bag penalties", [f"{t.penalties} ({t.penalty_points} points)" for t in ts]))
    w0 = max(len(r[0]) for r in rows)
    widths = [max(len(names[k]), *(len(r[1][k]) for r in rows)) for k in range(len(names))]

    def line(label: str, vals: Sequence[str]) -> str:
        cells = [f"{v:<{w}}" for v, w in zip(vals, widths, strict=True)]
        return f"{label:<{w0}}  {'  '.join(cells)}".rstrip()

    return [line("", names), *(line(label, vals) for label, vals in rows)]


def check_summary_path(path: str) -> str:
    """Where a summary for ``path`` is written (the file a link names), checked before any
    game is played: UsageError when it is not a regular file (a device, a pipe, a folder)
    or its folder cannot be written."""
    import os
    import stat

    real = os.path.realpath(path)
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise UsageError(f"{path}: cannot write: {exc.strerror or exc}") from None
    if mode is not None and not stat.S_ISREG(mode):
        raise UsageError(f"{path}: is not a regular file: the summary is written to a file")
    folder = os.path.dirname(real) or "."
    if os.path.isdir(folder) and not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"{path}: cannot write: its folder is not writable")
    return real


def write_summary(summary: Summary, path: str) -> None:
    """Write the JSON of ``summary`` to ``path`` (whole or not at all: a temporary file renamed,
    readable by the user alone)."""
    import os

    real = check_summary_path(path)
    tmp = f"{real}.tmp{os.getpid()}"
    try:
        folder = os.path.dirname(real)
        if folder:
            os.makedirs(folder, mode=0o700, exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with open(fd, "w", encoding="utf-8") as f:
            f.write(json.dumps(summary.to_json(), indent=2) + "\n")
        os.replace(tmp, real)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise UsageError(f"{path}: cannot write: {exc.strerror or exc}") from None


def partial_path(seed: int, shard: tuple[int, int] | None) -> str:
    """Where an interrupted run saves its totals when no ``--out`` is given: the per-user data
    folder (``$SPADES_HOME``, else ``$XDG_DATA_HOME/spades``, else ``~/.local/share/spades``)."""
    from spades_cli.transcript import default_transcript_dir

    part = f"-shard-{shard[0]}-of-{shard[1]}" if shard is not None else ""
    return str(default_transcript_dir().parent / "simulate" / f"partial-{seed}{part}.json")


def without_timing(data: dict[str, Any] | Summary) -> str:
    """The JSON text of a result without its timing fields: two runs (or merged shards) of
    the same games give the same text."""
    d = dict(data.to_json() if isinstance(data, Summary) else data)
    for key in TIMING_FIELDS:
        d.pop(key, None)
    d["totals"] = {k: v for k, v in d["totals"].items() if k != "times"}
    return json.dumps(d, indent=2)
