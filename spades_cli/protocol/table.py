"""The table side of the protocol: a seat played by a program (``--seat N=cmd:PROGRAM``).

:class:`ExternalController` starts the program, checks its handshake and asks it for each
decision of its seat. It never trusts the program: a bad, illegal or missing answer, a
crash or a flood of output ends in :class:`BotFailure` (or, with a fallback level, a
built-in bot decides and a :class:`Takeover` is recorded). It never blocks past the time
limit, and the program's whole process group ends with it (:mod:`.reaper`).
"""

from __future__ import annotations

import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from spades_cli.bots import LEVELS
from spades_cli.engine import IllegalAction, Observation, Rules
from spades_cli.engine.notation import NotationError, action_text, parse_action
from spades_cli.engine.text import shown
from spades_cli.errors import SeatFailure, UsageError
from spades_cli.game.events import Emit, Noted, Terminated
from spades_cli.protocol.channel import Channel, Fail, parse_command
from spades_cli.protocol.codec import (
    DEFAULT_TIMEOUT,
    HELLO,
    KIND_OF_PHASE,
    PROTOCOL_VERSION,
    format_request,
    rules_lines,
)

if TYPE_CHECKING:
    from spades_cli.bots import Bot
    from spades_cli.game.match import Match

__all__ = ["RETIRE_AFTER", "STARTUP_TIMEOUT", "BotFailure", "ExternalController", "Takeover"]

STARTUP_TIMEOUT = 10.0  # the handshake may take this long (or the decision limit if longer)
RETIRE_AFTER = 3  # failures in a row after which the fallback plays the rest of the game


class BotFailure(SeatFailure):
    """An external program failed to decide for its seat; the game ends (exit code 1).

    ``kind`` is one word (``start``, ``handshake``, ``timeout``, ``crash``, ``overflow``,
    ``garbage``, ``unsolicited``, ``unreadable``, ``illegal``, ``refused``) and ``reason``
    one sentence saying what happened; both belong in the transcript's termination record.
    """

    def __init__(self, seat: int | None, seat_name: str | None, kind: str, reason: str, label: str) -> None:
        who = f"seat {seat_name}" if seat_name is not None else "the bot"
        super().__init__(f"{who} ({label}) failed: {reason}")
        self.seat = seat
        self.seat_name = seat_name
        self.kind = kind
        self.reason = reason
        self.label = label

    @property
    def record(self) -> str:
        """The reason as the transcript's termination record gives it."""
        return f"{self.label} failed ({self.kind}): {self.reason}"


@dataclass(frozen=True, slots=True)
class Takeover:
    """A decision the fallback bot made because the program failed (``--on-bot-failure``)."""

    seat: int
    seat_name: str
    level: str  # the built-in bot that decided
    kind: str  # the failure, as in BotFailure.kind
    reason: str
    action: int
    retired: bool  # the program was stopped: the built-in bot plays the rest of the game

    def __str__(self) -> str:
        text = (
            f"the program failed ({self.kind}: {self.reason}); the {self.level} bot "
            f"decided {action_text(self.action)} instead"
        )
        if self.retired:
            text += f" and plays seat {self.seat_name} for the rest of the game"
        return text


class ExternalController:
    """A seat played by a program over the bot protocol (``--seat N=cmd:'python bot.py'``).

    ``decide`` returns a legal action or raises :class:`BotFailure` (never blocks past the
    time limit, never raises anything else). With ``on_failure=LEVEL`` a built-in bot
    decides instead and a :class:`Takeover` is appended to ``takeovers``; after
    RETIRE_AFTER failures in a row the program is stopped and the built-in bot plays the
    seat for the rest of that game. ``name`` is the name the program gave in the
    handshake (after :meth:`start` or the first decision).

    ``emit`` (see :func:`spades_cli.app.setup.make_seat`) hears, for the record, a ``Noted``
    with the program's name after each handshake and one for every takeover, and a
    ``Terminated`` when a failure ends the game. Close the controller (or use ``with``)
    when the game is over; programs still running at exit are killed.
    """

    def __init__(
        self,
        command: str,
        rules: Rules,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        on_failure: str | None = None,
        log_path: str | Path | None = None,
        seat: int | None = None,
        startup_timeout: float | None = None,
        emit: Emit | None = None,
    ) -> None:
        self.argv = parse_command(command)
        self.command = command
        self.label = f"cmd:{command}"
        self.rules = rules
        self._fallback: Bot | None = None
        for value in (timeout, startup_timeout):
            if value is not None and not value > 0:
                raise UsageError(f"a bot time limit must be more than 0 seconds, not {value:g}")
        self.timeout = float(timeout)
        self.startup_timeout = float(startup_timeout or max(STARTUP_TIMEOUT, timeout))
        if on_failure is not None and on_failure not in LEVELS:
            raise UsageError(f"unknown bot level {on_failure!r} (levels: {', '.join(LEVELS)})")
        self.on_failure = on_failure
        self.log_path = Path(log_path) if log_path is not None else None
        self.seat = seat  # set by decide() when not given
        self.emit = emit
        self.name: str | None = None
        self.takeovers: list[Takeover] = []
        self._channel: Channel | None = None
        self._rules_for: tuple[Rules, str] = (rules, "\n".join(rules_lines(rules)))
        self._game: weakref.ref[Match] | None = None
        self._streak = 0
        self._retired = False

    @property
    def pid(self) -> int | None:
        """The process id of the running program (None when none is running)."""
        channel = self._channel
        return channel.proc.pid if channel is not None and channel.alive else None

    # -- life cycle -------------------------------------------------------------

    def start(self) -> str:
        """Start the program and check its handshake; its name. Raises BotFailure."""
        try:
            self._open()
        except Fail as fail:
            raise self._failure(self.seat, fail) from None
        assert self.name is not None
        return self.name

    def close(self) -> None:
        """Ask the program to quit, then kill what is left of its process group."""
        channel, self._channel = self._channel, None
        if channel is not None:
            channel.close(polite=True)

    def seated(
        self, report: Emit, seat: int, *, timeout: float | None, fallback: str | None, log_path: Path | None
    ) -> ExternalController:
        """This seat's program for one game run (:class:`spades_cli.game.seats.Program`): the
        run's time limit (None: this one's), fallback and log, its notes and termination
        told to ``report``."""
        return ExternalController(
            self.command,
            self.rules,
            timeout=timeout if timeout is not None else self.timeout,
            on_failure=fallback,
            log_path=log_path,
            seat=seat,
            emit=report,
        )

    def __enter__(self) -> ExternalController:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _open(self) -> Channel:
        """The running program, started (and its handshake checked) if need be."""
        if self._channel is not None and self._channel.alive:
            return self._channel
        self._channel = None
        channel = Channel(self.argv, self.command, self.log_path)
        try:
            channel.begin()
            limit = self.startup_timeout
            deadline = time.monotonic() + limit
            channel.send(f"{HELLO} {PROTOCOL_VERSION}\n".encode(), deadline, "handshake")
            line = channel.answer(deadline, limit, "handshake")
            name = _check_hello(line)
        except Fail as fail:
            channel.close(polite=False)
            if fail.kind == "crash":
                fail.reason += " during the handshake"
            elif fail.kind not in ("timeout", "overflow"):
                fail.kind = "handshake"
            fail.restart = True
            raise
        self._channel = channel
        if self.emit is not None and name != self.name:
            self.emit(Noted(self.seat, f"played by {name} (bot protocol {PROTOCOL_VERSION}, {self.label})"))
        self.name = name
        return channel

    # -- deciding ---------------------------------------------------------------

    def decide(self, match: Match, seat: int) -> int:
        self.seat = seat
        if self._game is None or self._game() is not match:
            self._game = weakref.ref(match)
            self._streak = 0
            self._retired = False
        obs = match.observation(seat)
        if self._retired:  # already noted when the program was stopped
            return self._fallback_bot().act(obs, match.rules, match.rng("bot", seat))
        try:
            action = self._ask(match, obs, seat)
        except Fail as fail:
            if fail.restart and self._channel is not None:
                self._channel.close(polite=False)
                self._channel = None
            if self.on_failure is None:
                self.close()
                raise self._failure(seat, fail) from None
            self._streak += 1
            if fail.final or self._streak >= RETIRE_AFTER:
                self._retired = True
                self.close()
            return self._take_over(match, obs, seat, fail)
        self._streak = 0
        return action

    def _ask(self, match: Match, obs: Observation, seat: int) -> int:
        channel = self._open()
        rules = match.rules
        if self._rules_for[0] is not rules:
            self._rules_for = (rules, "\n".join(rules_lines(rules)))
        request = format_request(obs, rules, match.rng_key("bot", seat), rules_text=self._rules_for[1])
        kind = KIND_OF_PHASE[obs.phase]
        channel.begin()
        deadline = time.monotonic() + self.timeout
        channel.send(request.encode(), deadline, f"{kind} request")
        line = channel.answer(deadline, self.timeout, f"{kind} request")
        return _check_answer(match, obs, kind, line)

    def _failure(self, seat: int | None, fail: Fail) -> BotFailure:
        """The failure that ends the game, told to ``emit`` as the termination record."""
        name = self.rules.seat_names[seat] if seat is not None else None
        failure = BotFailure(seat, name, fail.kind, fail.reason, self.label)
        if self.emit is not None:
            self.emit(Terminated(seat, failure.record))
        return failure

    def _fallback_bot(self) -> Bot:
        if self._fallback is None:
            from spades_cli.bots import make_bot

            assert self.on_failure is not None
            self._fallback = make_bot(self.on_failure)
        return self._fallback

    def _take_over(self, match: Match, obs: Observation, seat: int, fail: Fail) -> int:
        assert self.on_failure is not None
        action = self._fallback_bot().act(obs, match.rules, match.rng("bot", seat))
        name = match.rules.seat_names[seat]
        note = Takeover(seat, name, self.on_failure, fail.kind, fail.reason, action, self._retired)
        self.takeovers.append(note)
        if self.emit is not None:
            self.emit(Noted(seat, str(note)))
        return action


def _check_hello(line: str) -> str:
    if line.startswith("?"):
        raise Fail("handshake", f"refused the handshake: {shown(line)}")
    if not line.startswith("="):
        raise Fail("handshake", f"answered the handshake with {shown(line)}")
    version, _, name = line[1:].strip().partition(" ")
    if version != str(PROTOCOL_VERSION):
        raise Fail(
            "handshake", f"speaks protocol version {shown(version)}; this table speaks {PROTOCOL_VERSION}"
        )
    name = "".join(ch for ch in name if ch.isprintable()).strip()
    return name[:80] or "unnamed"


def _check_answer(match: Match, obs: Observation, kind: str, line: str) -> int:
    if line.startswith("="):
        text = line[1:].strip()
        try:
            action = parse_action(text, obs.phase)
        except NotationError as exc:
            raise Fail("unreadable", f"answered {shown(text)} to a {kind} request: {exc}") from None
        if action not in obs.legal:
            try:
                match.state.check(action)
            except IllegalAction as exc:
                why = exc.reason
                raise Fail("illegal", f"answered {action_text(action)}, which is illegal: {why}") from None
        return action
    if line.startswith("?"):
        raise Fail("refused", f"declined the {kind} request: {shown(line[1:].strip())}")
    raise Fail("garbage", f"sent {shown(line)}, which is not an answer (= ACTION or ? ERROR)", restart=True)
