"""Signals while the game moves: never stop half-way through recording a move.

A move is applied to the game and then appended to the transcript. An interrupt (Ctrl-C)
or a hang-up (the terminal closed) that arrived between the two would leave a
transcript that no longer matches the game, so while the session works they are only
noted; the front end acts on them once the work is done.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import FrameType

from spades_cli.errors import EXIT_UNFINISHED


@dataclass
class Caught:
    """The signals that arrived during a guarded block."""

    signals: set[int] = field(default_factory=set)

    @property
    def interrupted(self) -> bool:
        return signal.SIGINT in self.signals

    @property
    def hung_up(self) -> bool:
        return _SIGHUP is not None and _SIGHUP in self.signals


_SIGHUP: int | None = getattr(signal, "SIGHUP", None)


@contextmanager
def held_signals() -> Iterator[Caught]:
    """Note SIGINT and SIGHUP instead of acting on them until the block ends."""
    caught = Caught()
    if threading.current_thread() is not threading.main_thread():
        yield caught
        return
    wanted = [signal.SIGINT] + ([_SIGHUP] if _SIGHUP is not None else [])

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


def leave_now(signum: int = 0, frame: FrameType | None = None) -> None:
    """The terminal is gone: end the process at once. Every move is already in the
    transcript (it is flushed move by move), so nothing is lost."""
    os._exit(EXIT_UNFINISHED)


@contextmanager
def exit_on_hangup() -> Iterator[None]:
    """While the block runs, SIGHUP (a closed terminal) ends the game quietly, saved."""
    if _SIGHUP is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    if signal.getsignal(_SIGHUP) is signal.SIG_IGN:  # nohup: the parent wants hang-ups ignored
        yield
        return
    previous = signal.signal(_SIGHUP, leave_now)
    try:
        yield
    finally:
        signal.signal(_SIGHUP, previous)
