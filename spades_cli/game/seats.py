"""Who plays each seat: ``--seat SEAT=LEVEL`` parsing and the controllers behind the labels.

A seat's *label* is what the transcript records in its ``[Seat "N" "LABEL"]`` tag:

- ``easy``, ``normal``, ``hard`` (every level of ``spades_cli.bots.LEVELS``): the bots;
- ``random``: a uniformly random legal action (a baseline for tests and benchmarks);
- ``human``: somebody at the prompt (the REPL supplies that controller);
- ``cmd:PROGRAM``: an external program speaking the bot protocol;
- ``script``: actions read from a script (``spades run``).

Every bot draws its randomness from ``match.rng("bot", seat)``, seeded by the game's seed
and the position, so the same game position always gets the same answer (resume, replay).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from spades_cli.bots import LEVELS
from spades_cli.engine import Rules
from spades_cli.errors import UsageError
from spades_cli.game.events import Emit

if TYPE_CHECKING:
    from spades_cli.game.match import Match

BOT_LEVELS = ("random", *LEVELS)  # the built-in players a label may name
HUMAN = "human"
SCRIPT = "script"
CMD_PREFIX = "cmd:"

__all__ = [
    "BOT_LEVELS",
    "CMD_PREFIX",
    "HUMAN",
    "SCRIPT",
    "BotController",
    "Program",
    "RandomController",
    "bot_log_path",
    "check_level",
    "close_players",
    "normalize_label",
    "parse_seat_specs",
]


class RandomController:
    """Plays a uniformly random legal action (drawn from the seat's seeded generator)."""

    label = "random"

    def decide(self, match: Match, seat: int) -> int:
        return match.rng("bot", seat).choice(match.state.legal_actions())


class BotController:
    """A bot of :mod:`spades_cli.bots`: it sees only its seat's observation."""

    def __init__(self, level: str) -> None:
        from spades_cli.bots import make_bot

        self.bot = make_bot(level)
        self.label = level

    def decide(self, match: Match, seat: int) -> int:
        return self.bot.act(match.observation(seat), match.rules, match.rng("bot", seat))


def normalize_label(text: str) -> str:
    """The canonical form of a seat label: levels in lower case, ``cmd:`` programs kept as given."""
    label = text.strip()
    if label[:4].lower() == CMD_PREFIX:
        return CMD_PREFIX + label[4:].strip()
    return label.lower()


def check_level(text: str, *, allow_human: bool = True) -> str:
    """Validate a seat label given by the user; UsageError (exit 2) naming it if unknown."""
    label = normalize_label(text)
    if label in BOT_LEVELS:
        return label
    if label == HUMAN and allow_human:
        return label
    if label.startswith(CMD_PREFIX):
        if not label[len(CMD_PREFIX) :]:
            raise UsageError(f"{text!r}: cmd: needs a program, e.g. cmd:python my_bot.py")
        return label
    kinds = ", ".join([*BOT_LEVELS, *([HUMAN] if allow_human else []), "cmd:PROGRAM"])
    raise UsageError(f"unknown player {text!r} (use one of: {kinds})")


def parse_seat_specs(rules: Rules, specs: Sequence[str], *, allow_human: bool = True) -> dict[int, str]:
    """``["E=easy", "W=cmd:python bot.py"]`` -> ``{1: "easy", 3: "cmd:python bot.py"}``.

    Raises UsageError (exit 2) naming the bad spec: no ``=``, an unknown seat, an unknown
    level, or the same seat twice.
    """
    out: dict[int, str] = {}
    for spec in specs:
        seat_text, sep, level = spec.partition("=")
        if not sep or not seat_text.strip() or not level.strip():
            raise UsageError(f"--seat {spec!r}: expected SEAT=LEVEL, e.g. E=normal")
        try:
            seat = rules.seat_index(seat_text)
        except ValueError as exc:
            raise UsageError(f"--seat {spec!r}: {exc}") from None
        if seat in out:
            raise UsageError(f"--seat {spec!r}: seat {rules.seat_names[seat]} is given twice")
        try:
            out[seat] = check_level(level, allow_human=allow_human)
        except UsageError as exc:
            raise UsageError(f"--seat {spec!r}: {exc.message}") from None
    return out


@runtime_checkable
class Program(Protocol):
    """A seat played by a program (:class:`spades_cli.protocol.table.ExternalController`).

    The run seats it when it begins (:meth:`spades_cli.game.run.GameRun.__enter__`):
    :meth:`seated` gives back the program's controller for this game, with the run's
    ``timeout`` (None: the program's own), ``fallback`` and ``log_path`` (beside the
    transcript) and ``report``, the run's own :meth:`~spades_cli.game.run.GameRun.report`,
    which records the program's notes and its termination."""

    label: str

    def decide(self, match: Match, seat: int) -> int: ...

    def seated(
        self, report: Emit, seat: int, *, timeout: float | None, fallback: str | None, log_path: Path | None
    ) -> Program: ...

    def close(self) -> None: ...


def bot_log_path(transcript: str | Path | None, seat_name: str) -> Path | None:
    """Where a seat's program logs its stderr: beside the transcript (``game.txt`` → ``game.N.log``)."""
    if transcript is None or str(transcript) == "-":
        return None
    path = Path(transcript)
    stem = path.stem if path.suffix else path.name
    return path.with_name(f"{stem}.{seat_name}.log")


def close_players(players: Iterable[object]) -> None:
    """Close every player that holds something (a program, a connection)."""
    for player in players:
        close = getattr(player, "close", None)
        if callable(close):
            close()
