"""Who plays each seat: ``--seat SEAT=LEVEL`` parsing and the controllers behind the labels.

A seat's *label* is what the transcript records in its ``[Seat "N" "LABEL"]`` tag:

- ``easy``, ``normal``, ``hard``: the bots of :mod:`spades_cli.bots`;
- ``random``: a uniformly random legal action (a baseline for tests and benchmarks);
- ``human``: somebody at the prompt (the REPL supplies that controller);
- ``cmd:PROGRAM``: an external program speaking the bot protocol;
- ``script``: actions read from a script (``spades run``).

Every bot draws its randomness from ``match.rng("bot", seat)``, seeded by the game's seed
and the position, so the same game position always gets the same answer (resume, replay).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from spades_cli.engine import Rules
from spades_cli.errors import UsageError

if TYPE_CHECKING:
    from spades_cli.match import Controller, Match

BOT_LEVELS = ("random", "easy", "normal", "hard")
HUMAN = "human"
SCRIPT = "script"
CMD_PREFIX = "cmd:"

__all__ = [
    "BOT_LEVELS",
    "CMD_PREFIX",
    "HUMAN",
    "SCRIPT",
    "BotController",
    "RandomController",
    "check_level",
    "make_controller",
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


def make_controller(
    label: str,
    rules: Rules,
    *,
    human: Callable[[str], Controller] | None = None,
    **opts: Any,
) -> Controller:
    """The controller for a seat label.

    ``human`` builds the controller of a ``human`` seat (the REPL passes it); without it a
    human seat is a UsageError. ``cmd:PROGRAM`` labels go to
    ``spades_cli.protocol.ExternalController(PROGRAM, rules=rules, **opts)``.
    """
    name = normalize_label(label)
    if name == "random":
        return RandomController()
    if name in BOT_LEVELS:
        try:
            return BotController(name)
        except ValueError as exc:  # a level the bots package does not provide
            raise UsageError(str(exc)) from None
    if name == HUMAN:
        if human is None:
            raise UsageError(
                "a human seat needs the interactive prompt: use 'spades play', or give the seat to a bot"
            )
        return human(name)
    if name.startswith(CMD_PREFIX):
        program = name[len(CMD_PREFIX) :]
        if not program:
            raise UsageError(f"{label!r}: cmd: needs a program, e.g. cmd:python my_bot.py")
        try:
            protocol = importlib.import_module("spades_cli.protocol")
        except ModuleNotFoundError as exc:
            if exc.name != "spades_cli.protocol":
                raise
            raise UsageError("external programs as players are not available in this version") from None
        controller: Controller = protocol.ExternalController(program, rules=rules, **opts)
        return controller
    if name == SCRIPT:
        raise UsageError("this seat was played from a script: give it a player with --seat SEAT=LEVEL")
    raise UsageError(f"unknown player {label!r} (use one of: {', '.join(BOT_LEVELS)}, human, cmd:PROGRAM)")
