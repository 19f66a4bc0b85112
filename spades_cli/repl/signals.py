"""Signals while the game moves: never stop half-way through recording a move.

A move is applied to the game and then appended to the transcript. An interrupt (Ctrl-C)
or a hang-up (the terminal closed) that arrived between the two would leave a
transcript that no longer matches the game, so while the session works they are only
noted; the front end acts on them once the work is done. SIGTERM and SIGHUP end the game
like Ctrl-C (the run records ``end *``) with their own exit code (143): they raise
:class:`~spades_cli.errors.Interrupted`.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import FrameType

from spades_cli.errors import Interrupted


@dataclass
class Caught:
    """The signals that arrived during a guarded block."""

    signals: set[int] = field(default_factory=set)

    @property
    def interrupted(self) -> bool:
        return signal.SIGINT in self.signals

    @property
    def stopped(self) -> int | None:
        """SIGTERM or SIGHUP, if one arrived: the game is to end, saved."""
        return next((s for s in _STOPS if s in self.signals), None)


_SIGHUP: int | None = getattr(signal, "SIGHUP", None)
_STOPS: tuple[int, ...] = tuple(s for s in (getattr(signal, "SIGTERM", None), _SIGHUP) if s is not None)


@contextmanager
def held_signals() -> Iterator[Caught]:
    """Note SIGINT, SIGTERM and SIGHUP instead of acting on them until the block ends."""
    caught = Caught()
    if threading.current_thread() is not threading.main_thread():
        yield caught
        return
    wanted = [signal.SIGINT, *_STOPS]

    def note(signum: int, frame: FrameType | None) -> None:
        caught.signals.add(signum)

    # A signal the process was started with ignored (``trap '' INT``, a background job,
    # a test runner) stays ignored: a program must not take back what its parent chose.
    inherited = {s: signal.getsignal(s) for s in wanted}
    previous = {s: signal.signal(s, note) for s in wanted if inherited[s] is not signal.SIG_IGN}
    try:
        yield caught
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def stop_now(signum: int, frame: FrameType | None = None) -> None:
    """SIGTERM or SIGHUP (the terminal closed) while nothing is being recorded: end the
    game now; the run records ``end *`` on the way out (every move is already saved)."""
    raise Interrupted(signum)


def check_stop(caught: Caught) -> None:
    """Act on a SIGTERM or SIGHUP noted while a move was being recorded."""
    if caught.stopped is not None:
        raise Interrupted(caught.stopped)


@contextmanager
def exit_on_hangup() -> Iterator[None]:
    """While the block runs, SIGTERM and SIGHUP end the game, saved (exit 143)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    # nohup or ``trap '' TERM``: the parent wants these ignored, and so they stay.
    previous = {s: signal.signal(s, stop_now) for s in _STOPS if signal.getsignal(s) is not signal.SIG_IGN}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
