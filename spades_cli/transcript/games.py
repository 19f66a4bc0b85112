"""The saved games: the transcripts in the per-user folder, newest first.

``spades games`` lists them (date, rules, seats, score, finished or not) and can delete
finished ones older than some days; ``spades resume`` without a file continues the most
recent unfinished one (:func:`latest_unfinished`); ``spades play`` says when some exist.

Only the lines needed are read from each file (its tags, hands, scores and end) through
the public transcript reader, so listing a few hundred games is quick.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from spades_cli.errors import FileFormatError, SpadesError, UsageError
from spades_cli.transcript import EndLine, HandLine, ScoreLine, default_transcript_dir, parse_transcript

_KEEP = ("[", "hand ", "score ", "end ")
DAY = 86400.0


@dataclass(frozen=True)
class SavedGame:
    path: Path
    modified: float  # seconds since the epoch
    rules: str
    seats: tuple[tuple[str, str], ...]  # (seat, who), in the file's order
    hands: int  # hands begun
    scores: tuple[tuple[str, int], ...]  # the last score line, per side
    finished: bool
    winner: str | None

    def as_json(self) -> dict[str, object]:
        return {
            "file": str(self.path),
            "modified": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(self.modified)),
            "rules": self.rules,
            "seats": dict(self.seats),
            "hands": self.hands,
            "score": dict(self.scores),
            "finished": self.finished,
            "winner": self.winner,
        }


def read_saved(path: Path) -> SavedGame:
    """What :func:`saved_games` shows of one transcript (raises SpadesError or OSError)."""
    data = path.read_bytes()
    text = data.decode("utf-8", errors="replace")
    kept = "".join(line for line in text.splitlines(keepends=True) if line.startswith(_KEEP))
    t = parse_transcript(kept, str(path))
    names = {tag.values[0]: tag.values[1] for tag in t.tags_named("Rule")}
    if not names and t.rules_source is None:  # an empty file, or not a game: never resumed
        raise FileFormatError("not a saved game (it names no rules)", file=str(path))
    hands = 0
    scores: tuple[tuple[str, int], ...] = ()
    end: EndLine | None = None
    for e in t.events:
        if isinstance(e, HandLine):
            hands += 1
        elif isinstance(e, ScoreLine):
            scores = e.scores
        elif isinstance(e, EndLine):
            end = e
    return SavedGame(
        path=path,
        modified=path.stat().st_mtime,
        rules=names.get("name") or t.rules_source or "?",
        seats=tuple((tag.values[0], tag.values[1]) for tag in t.tags_named("Seat")),
        hands=hands,
        scores=scores,
        finished=end is not None and end.winner is not None,
        winner=end.winner if end is not None else None,
    )


def saved_games(folder: Path | None = None) -> tuple[list[SavedGame], list[str]]:
    """The games saved in ``folder`` (default: the per-user transcripts folder), newest
    first, and a line for each file that could not be read."""
    where = folder if folder is not None else default_transcript_dir()
    games: list[SavedGame] = []
    problems: list[str] = []
    try:
        files = [p for p in where.glob("*.txt") if p.is_file()]
    except OSError:
        return [], []
    for path in files:
        try:
            games.append(read_saved(path))
        except OSError as exc:
            problems.append(f"{path}: cannot read: {exc.strerror or exc}")
        except SpadesError as exc:
            problems.append(str(exc).splitlines()[0][:200])
    games.sort(key=lambda g: (g.modified, str(g.path)), reverse=True)
    return games, problems


def unfinished_games(folder: Path | None = None) -> list[SavedGame]:
    """The saved games not finished yet, newest first."""
    return [g for g in saved_games(folder)[0] if not g.finished]


def latest_unfinished(folder: Path | None = None) -> Path | None:
    """The transcript of the most recently played unfinished game, if any."""
    games = unfinished_games(folder)
    return games[0].path if games else None


def latest_game(folder: Path | None = None) -> str:
    """For ``spades resume`` without a file: the latest unfinished game, or a usage error."""
    path = latest_unfinished(folder)
    if path is None:
        where = folder if folder is not None else default_transcript_dir()
        raise UsageError(
            f"no unfinished game in {where}: give the FILE to resume ('spades games' lists the saved games)"
        )
    return str(path)


def delete_finished(
    games: Iterable[SavedGame], older_than_days: float, now: float | None = None
) -> tuple[list[Path], list[str]]:
    """Delete the finished games last written more than ``older_than_days`` ago; return them,
    and why each one that could not be deleted was not (``FILE: reason``)."""
    limit = (time.time() if now is None else now) - older_than_days * DAY
    gone: list[Path] = []
    kept: list[str] = []
    for g in games:
        if g.finished and g.modified < limit:
            try:
                g.path.unlink()
            except FileNotFoundError:
                continue
            except OSError as exc:
                kept.append(f"{g.path}: cannot delete: {exc.strerror or exc}")
                continue
            gone.append(g.path)
    return gone, kept


def unfinished_notice(folder: Path | None = None) -> str | None:
    """For ``spades play``: a line saying that unfinished games exist and how to go on."""
    count = len(unfinished_games(folder))
    if not count:
        return None
    some = "an unfinished game" if count == 1 else f"{count} unfinished games"
    return f"You have {some}: 'spades resume' continues the latest, 'spades games' lists them."


def describe(g: SavedGame) -> list[str]:
    """Two lines for one saved game (fits 60 columns)."""
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.modified))
    score = ", ".join(f"{side} {points}" for side, points in g.scores) or "no hand scored"
    state = f"won by {g.winner}" if g.finished else "unfinished"
    seats = ", ".join(f"{seat} {who}" for seat, who in g.seats)
    return [f"{when}  {g.rules}, hand {g.hands}: {score}; {state}", f"  {seats}; {g.path}"]
