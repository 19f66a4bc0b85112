"""Errors a user can cause, each with its exit code (see README, "Exit codes").

0 success; 1 an illegal action or a recorded result that does not match the rules;
2 a usage error or a file that cannot be parsed; 3 the game stopped before its end
because input ran out or the user left (it is saved and can be resumed); 4 ``join``:
the table showed a certificate other than the one expected (nothing was sent to it);
130 interrupted by Ctrl-C (the game is saved); 143 stopped by SIGTERM or SIGHUP (the
game is saved; a command without a game says so in one line).
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from typing import Any

EXIT_OK = 0
EXIT_ILLEGAL = 1
EXIT_USAGE = 2
EXIT_UNFINISHED = 3
EXIT_UNTRUSTED = 4
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143


class Interrupted(KeyboardInterrupt):
    """The table was told to stop by a signal (SIGTERM, SIGHUP): handled like Ctrl-C (the game
    is saved, ``end *``), with its own exit code."""

    exit_code = EXIT_TERMINATED

    saved = True  # a game was in play and is saved

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class Stopped(Interrupted):
    """SIGTERM or SIGHUP outside a game (``analyze``, ``replay``, ``stats``...): nothing to
    save; the command ends in one line with exit code 143."""

    saved = False


@contextlib.contextmanager
def on_signals(
    handler: Callable[[int, Any], None], names: tuple[str, ...] = ("SIGTERM", "SIGHUP")
) -> Iterator[None]:
    """While the block runs, the signals ``names`` (those this system has) call ``handler``;
    the handlers before are put back after it. Only the main thread can set them: elsewhere
    nothing changes. A signal the process inherited as ignored (``nohup``) stays ignored."""
    previous: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for name in names:
            sig = getattr(signal, name, None)
            if sig is not None and signal.getsignal(sig) is not signal.SIG_IGN:
                previous[sig] = signal.signal(sig, handler)
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def raise_interrupted(signum: int, frame: Any) -> None:
    """A handler for :func:`on_signals`: stop as Ctrl-C does, with exit code 143."""
    raise Interrupted(signum)


def raise_stopped(signum: int, frame: Any) -> None:
    """A handler for :func:`on_signals` outside a game: stop in one line, exit code 143."""
    raise Stopped(signum)


class SpadesError(Exception):
    """Base of every error the CLI turns into one message and an exit code."""

    exit_code = EXIT_USAGE

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line

    def __str__(self) -> str:
        where = ""
        if self.file is not None:
            where = f"{self.file}:{self.line}: " if self.line is not None else f"{self.file}: "
        return where + self.message


class UsageError(SpadesError):
    """A bad flag, option or argument."""

    exit_code = EXIT_USAGE


class FileFormatError(SpadesError):
    """A file (preset, transcript, script) that cannot be read or parsed."""

    exit_code = EXIT_USAGE


class MultiError(SpadesError):
    """Several problems found at once (each already carries FILE:LINE)."""

    def __init__(self, problems: list[str], *, exit_code: int = EXIT_USAGE) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems
        self.exit_code = exit_code

    def __str__(self) -> str:
        return self.message


class IllegalActionError(SpadesError):
    """An action the rules do not allow here (exit 1)."""

    exit_code = EXIT_ILLEGAL


class SeatFailure(SpadesError):
    """The player of a seat failed, so the game cannot go on: it ends ``terminated``
    (exit code 1). ``spades_cli.protocol.table.BotFailure`` is the one a program raises."""

    exit_code = EXIT_ILLEGAL


class MismatchError(SpadesError):
    """A recorded result that differs from what the rules give (exit 1)."""

    exit_code = EXIT_ILLEGAL
