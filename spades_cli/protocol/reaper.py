"""Every program a table starts dies with the table.

Each ``cmd:`` program runs in a session (and process group) of its own. Ending one means
SIGTERM to its whole group, a short grace, then SIGKILL to whatever is left. So that no
way out of the table forgets a program, the live groups are kept here and ended:

- when their controller closes (the normal end and every error, through ``finally``);
- at interpreter exit (``atexit``: an uncaught exception, ``sys.exit``);
- on SIGTERM and SIGHUP: the handler ends the groups, then hands the signal on to the
  handler that was there before (or, if that was the default, dies of it as before).

Descendants that leave the group (``setsid``, a daemon's double fork) are out of reach of
``killpg``. On Linux the table makes itself a *child subreaper* (``PR_SET_CHILD_SUBREAPER``)
when it starts its first program, so those orphans become its children instead of
init's; every program gets ``SPADES_TABLE=<table pid>`` in its environment, which its
descendants inherit, and :func:`sweep` ends and reaps every child of the table that carries
it and is not a program still in play. Each program is also started with
``PR_SET_PDEATHSIG`` = SIGKILL, so it dies even if the table is killed outright (SIGKILL
cannot be caught). Other systems get the process-group part only (see docs/bot-protocol.md).
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from types import FrameType
from typing import Any

__all__ = [
    "GRACE",
    "MARK",
    "end_all",
    "end_group",
    "environment",
    "preexec",
    "register",
    "sweep",
    "unregister",
]

GRACE = 0.3  # seconds between SIGTERM and SIGKILL
_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
_LINUX = sys.platform.startswith("linux")
MARK = "SPADES_TABLE"  # environment variable naming the table a program was started by

_live: dict[int, subprocess.Popen[bytes]] = {}  # pid (= pgid = sid) -> the program
_lock = threading.Lock()
_installed = False
_previous: dict[int, Any] = {}


def _prctl() -> Callable[..., int] | None:
    if not _LINUX:
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:  # pragma: no cover - no C library to ask
        return None
    fn: Callable[..., int] = libc.prctl
    return fn


_PRCTL = _prctl()


def preexec() -> Callable[[], None] | None:
    """The ``preexec_fn`` for a program's Popen: on Linux it dies when the table does."""
    if _PRCTL is None:
        return None
    prctl = _PRCTL
    parent = os.getpid()

    def child() -> None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:  # the table died before the line above
            os._exit(1)

    return child


def environment() -> dict[str, str]:
    """The environment a program starts with: ours, unbuffered, marked with the table."""
    return dict(os.environ, PYTHONUNBUFFERED="1", **{MARK: str(os.getpid())})


def register(proc: subprocess.Popen[bytes]) -> None:
    """Keep ``proc`` (started with ``start_new_session``) to end with the table."""
    _install()
    with _lock:
        _live[proc.pid] = proc


def unregister(proc: subprocess.Popen[bytes]) -> None:
    with _lock:
        _live.pop(proc.pid, None)


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def end_group(proc: subprocess.Popen[bytes], grace: float = GRACE) -> None:
    """SIGTERM to the program's group, SIGKILL after ``grace`` to what is left; reap it."""
    pgid = proc.pid
    if proc.poll() is None or _group_alive(pgid):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signal.SIGTERM)
        end = time.monotonic() + grace
        while time.monotonic() < end:
            proc.poll()
            if proc.returncode is not None and not _group_alive(pgid):
                break
            time.sleep(0.01)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signal.SIGKILL)
    proc.wait()
    unregister(proc)


def _adopted(pid: int, me: int, mark: bytes) -> bool:
    """Is ``pid`` a child of the table that descends from one of its programs?"""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            data = fh.read()
        if int(data[data.rfind(b")") + 2 :].split()[1]) != me:
            return False
        with open(f"/proc/{pid}/environ", "rb") as fh:
            return mark in fh.read().split(b"\0")
    except (OSError, ValueError, IndexError):
        return False


def sweep(grace: float = GRACE, depth: int = 0) -> None:
    """End and reap the orphans the table adopted as a subreaper (Linux): its children that
    descend from its programs (a bot's ``setsid`` child) and are not programs in play."""
    if not _subreaper_on:
        return
    me = os.getpid()
    mark = f"{MARK}={me}".encode()
    with _lock:
        keep = set(_live)
    try:
        pids = [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except OSError:  # pragma: no cover
        return
    orphans = [pid for pid in pids if pid not in keep and _adopted(pid, me, mark)]
    if not orphans:
        return
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in orphans:
            with contextlib.suppress(OSError):
                if os.getpgid(pid) == pid:  # it leads a group of its own: end all of it
                    os.killpg(pid, sig)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, sig)
        end = time.monotonic() + (grace if sig == signal.SIGTERM else 1.0)
        while orphans and time.monotonic() < end:
            orphans = [pid for pid in orphans if not _reaped(pid)]
            if orphans:
                time.sleep(0.01)
    if depth < 3:  # the orphans' own children were adopted in turn
        sweep(grace, depth + 1)


def _reaped(pid: int) -> bool:
    try:
        done, _ = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return done == pid


def end_all() -> None:
    """End every program still in play and every adopted orphan (exit, SIGTERM, SIGHUP)."""
    with _lock:
        procs = list(_live.values())
    for proc in procs:
        with contextlib.suppress(OSError):
            end_group(proc)
    sweep()


_subreaper_on = False


def _install() -> None:
    """Once, at the first program: become a subreaper, hook exit, SIGTERM and SIGHUP."""
    global _installed, _subreaper_on
    if _installed:
        return
    _installed = True
    if _PRCTL is not None:
        _subreaper_on = _PRCTL(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    atexit.register(end_all)
    if threading.current_thread() is not threading.main_thread():
        return  # signal handlers can only be set from the main thread
    for sig in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(sig) == signal.SIG_IGN:
            continue  # nohup and the like: the table goes on, and so do its programs
        try:
            _previous[sig] = signal.signal(sig, _on_signal)
        except (OSError, ValueError):  # pragma: no cover
            continue


def _on_signal(signum: int, frame: FrameType | None) -> None:
    end_all()
    previous = _previous.get(signum, signal.SIG_DFL)
    if callable(previous):
        previous(signum, frame)
    elif previous == signal.SIG_IGN:
        return
    else:  # the default action: die of the signal, as without this handler
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
