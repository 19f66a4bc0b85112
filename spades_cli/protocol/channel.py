"""One running ``cmd:`` program: its pipes, its deadlines and the caps on what it may send.

The program runs in a session of its own; :mod:`spades_cli.protocol.reaper` ends its whole
process group (and whatever of its descendants left the group) when it closes or the
table exits. Its standard error goes to a log created 0600.
"""

from __future__ import annotations

import contextlib
import os
import select
import selectors
import shlex
import signal
import subprocess
import threading
import time
import weakref
from pathlib import Path
from typing import IO

from spades_cli.engine.text import shown
from spades_cli.errors import UsageError
from spades_cli.protocol import reaper

__all__ = ["LOG_LIMIT", "MAX_LINE", "MAX_OUTPUT", "QUIT_GRACE", "Channel", "Fail", "parse_command"]

MAX_LINE = 64 * 1024  # longest line a program may send
MAX_OUTPUT = 1024 * 1024  # most bytes a program may send for one decision
LOG_LIMIT = 4 * 1024 * 1024  # most bytes of a program's stderr kept in its log
QUIT_GRACE = 0.5  # seconds a program has to exit after "quit"
_CHUNK = 65536


class Fail(Exception):
    """Internal: one failure of the program, before it becomes BotFailure or a Takeover."""

    def __init__(self, kind: str, reason: str, *, restart: bool = False, final: bool = False) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason
        self.restart = restart  # the conversation is out of step: stop this process
        self.final = final  # starting again cannot help (the program cannot be run)


def _reap(proc: subprocess.Popen[bytes]) -> None:
    """End the program's whole process group (and adopted orphans), collect its status."""
    reaper.end_group(proc)
    reaper.sweep()
    for pipe in (proc.stdin, proc.stdout):
        if pipe is not None:
            with contextlib.suppress(OSError):
                pipe.close()


def open_log(path: Path) -> IO[bytes]:
    """The program's log, appended to and readable by the user only (0600, whatever the umask)."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
    with contextlib.suppress(OSError):
        os.fchmod(fd, 0o600)
    return os.fdopen(fd, "ab")


def _pump_log(pipe: IO[bytes], log: IO[bytes]) -> None:
    """Copy a program's stderr to its log, keeping at most LOG_LIMIT bytes."""
    kept = 0
    fd = pipe.fileno()
    try:
        while True:
            chunk = os.read(fd, _CHUNK)
            if not chunk:
                break
            if kept < LOG_LIMIT:
                part = chunk[: LOG_LIMIT - kept]
                log.write(part)
                log.flush()
                kept += len(part)
                if kept >= LOG_LIMIT:
                    log.write(b"\n[spades: log truncated]\n")
                    log.flush()
    except OSError:
        pass
    finally:
        pipe.close()
        log.close()


class Channel:
    """One running program: non-blocking pipes, deadlines, caps on what it may send."""

    def __init__(self, argv: list[str], command: str, log_path: Path | None) -> None:
        log: IO[bytes] | None = None
        if log_path is not None:
            try:
                log = open_log(log_path)  # closed by the log thread
                log.write(f"[spades: started {command}]\n".encode())
                log.flush()
            except OSError as exc:
                if log is not None:
                    log.close()
                raise UsageError(f"cannot write the bot log {log_path}: {exc.strerror or exc}") from None
        try:
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE if log is not None else subprocess.DEVNULL,
                bufsize=0,
                start_new_session=True,
                env=reaper.environment(),
                preexec_fn=reaper.preexec(),
            )
        except OSError as exc:
            if log is not None:
                log.close()
            raise Fail("start", f"cannot run {command!r}: {exc.strerror or exc}", final=True) from None
        reaper.register(self.proc)
        self._finalizer = weakref.finalize(self, _reap, self.proc)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.wfd = self.proc.stdin.fileno()
        self.rfd = self.proc.stdout.fileno()
        os.set_blocking(self.wfd, False)
        os.set_blocking(self.rfd, False)
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.rfd, selectors.EVENT_READ)
        self.buf = bytearray()
        self.received = 0
        self.closed = False
        self.log_thread: threading.Thread | None = None
        if log is not None:
            assert self.proc.stderr is not None
            self.log_thread = threading.Thread(
                target=_pump_log, args=(self.proc.stderr, log), name="spades-bot-log", daemon=True
            )
            self.log_thread.start()

    @property
    def alive(self) -> bool:
        return not self.closed

    def _exited(self, wait: float) -> bool:
        """Has the program exited (within ``wait`` seconds)? Never collects its status."""
        end = time.monotonic() + wait
        while True:
            try:
                info = os.waitid(os.P_PID, self.proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                return True
            if info is not None:
                return True
            if time.monotonic() >= end:
                return False
            time.sleep(0.005)

    def _gone(self) -> Fail:
        """The program closed its output: wait briefly for it to exit and say how it ended."""
        exited = self._exited(1.0)
        self.close(polite=False)
        code = self.proc.returncode
        if not exited or code is None:
            return Fail("crash", "closed its output", restart=True)
        if code < 0:
            try:
                sig = signal.Signals(-code).name
            except ValueError:
                sig = str(-code)
            return Fail("crash", f"was killed by signal {sig}", restart=True)
        return Fail("crash", f"exited with status {code}", restart=True)

    def _read_some(self, wait: float) -> bool:
        """Read what the program has sent, waiting up to ``wait`` seconds; False if nothing came."""
        if not self.sel.select(max(wait, 0.0)):
            return False
        try:
            chunk = os.read(self.rfd, _CHUNK)
        except BlockingIOError:
            return True
        except OSError:
            raise self._gone() from None
        if not chunk:
            raise self._gone()
        self.received += len(chunk)
        if self.received > MAX_OUTPUT:
            raise Fail("overflow", f"sent more than {MAX_OUTPUT // 1024} KiB for one decision", restart=True)
        self.buf += chunk
        return True

    def _next_line(self) -> str | None:
        buf = self.buf
        end = buf.find(b"\n")
        if end < 0:
            if len(buf) > MAX_LINE:
                raise Fail("overflow", f"sent a line longer than {MAX_LINE // 1024} KiB", restart=True)
            return None
        if end > MAX_LINE:
            raise Fail("overflow", f"sent a line longer than {MAX_LINE // 1024} KiB", restart=True)
        line = bytes(buf[:end]).decode("utf-8", "replace").strip()
        del buf[: end + 1]
        return line

    def begin(self) -> None:
        """Start a new exchange: nothing may be waiting from the program but comments."""
        self.received = 0
        while self._read_some(0.0):
            pass
        while (line := self._next_line()) is not None:
            if line and not line.startswith("#"):
                raise Fail("unsolicited", f"sent {shown(line)} when nothing was asked", restart=True)

    def send(self, data: bytes, deadline: float, what: str) -> None:
        view = memoryview(data)
        while view:
            try:
                written = os.write(self.wfd, view)
            except BlockingIOError:
                written = 0
            except (BrokenPipeError, ConnectionResetError):
                raise self._gone() from None
            view = view[written:]
            if view:
                wait = deadline - time.monotonic()
                if wait <= 0:
                    raise Fail("timeout", f"did not read the {what} in time", restart=True)
                select.select([], [self.wfd], [], wait)

    def answer(self, deadline: float, limit: float, what: str) -> str:
        """The next line that is not empty or a comment, by ``deadline`` (output that keeps
        coming without an answer does not move the deadline)."""
        while True:
            line = self._next_line()
            if line is not None:
                if line and not line.startswith("#"):
                    return line
                continue
            wait = deadline - time.monotonic()
            if wait <= 0:
                raise Fail("timeout", f"gave no answer to the {what} within {limit:g} s", restart=True)
            self._read_some(wait)

    def close(self, *, polite: bool) -> None:
        """Stop the program (asking it to quit first if ``polite``) and reap it."""
        if self.closed:
            return
        self.closed = True
        if polite and not self._exited(0.0):
            try:
                self.send(b"quit\n", time.monotonic() + 0.1, "quit")
                self._exited(QUIT_GRACE)
            except Fail:
                pass
        self._finalizer()
        self.sel.close()
        if self.log_thread is not None:
            self.log_thread.join(timeout=1.0)


def parse_command(command: str) -> list[str]:
    """The argument vector of a ``cmd:`` program (shell-like quoting, no shell)."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise UsageError(f"cannot read the bot command {command!r}: {exc}") from None
    if not argv:
        raise UsageError("the bot command is empty (write --seat SEAT=cmd:'PROGRAM ARGS')")
    return argv
