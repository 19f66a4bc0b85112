"""Every program a table starts dies with the table (issue 10, item 4), and its log is private.

The programs here are tests/bots/misbehave.py in two modes: ``deaf`` ignores the end of its
input, ``quit`` and SIGTERM; ``setsid`` starts a child in a session of its own, out of
reach of its process group. Every process started for a game carries a tag in its
environment, so the test counts them in /proc after the game.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.paths import BOT_PROGRAMS

from spades_cli.presets import load_rules
from spades_cli.protocol import ExternalController

BOTS = BOT_PROGRAMS
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="counts processes in /proc")


def bot(mode: str) -> str:
    return f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(BOTS / 'misbehave.py'))} {mode}"


def tagged(tag: str) -> list[int]:
    """The running processes (not zombies) whose environment carries ``tag``."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            environ = Path(f"/proc/{name}/environ").read_bytes()
            state = Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if f"SPADES_TEST_TAG={tag}".encode() in environ.split(b"\0") and state != "Z":
            found.append(int(name))
    return found


def wait_for_none(tag: str, seconds: float = 10.0) -> list[int]:
    deadline = time.monotonic() + seconds
    while (left := tagged(tag)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def kill_tagged(tag: str) -> None:
    """SIGKILL whatever a failed test left running under ``tag`` (a timeout must not leak)."""
    for pid in tagged(tag):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError, OSError):
            os.waitpid(pid, os.WNOHANG)


@pytest.fixture
def tags() -> Iterator[list[str]]:
    """The tags of the tables a test starts; their processes are killed when it ends."""
    started: list[str] = []
    yield started
    for tag in started:
        kill_tagged(tag)


def start_table(tmp_path: Path, games: int, tags: list[str]) -> tuple[subprocess.Popen[str], str, Path]:
    tag = uuid.uuid4().hex
    tags.append(tag)
    pids = tmp_path / "escaped.pids"
    env = dict(os.environ, SPADES_TEST_TAG=tag, ORPHAN_PID_FILE=str(pids))
    command = [
        sys.executable,
        "-m",
        "spades_cli",
        "simulate",
        "--rules",
        "two-player",
        "--games",
        str(games),
        "--jobs",
        "1",
        "--quiet",
        "--seed",
        "3",
        "--max-hands",
        "3",
        "--seat",
        f"N={bot('deaf')}",
        "--seat",
        f"S={bot('setsid')}",
    ]
    proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return proc, tag, pids


@pytest.mark.slow
def test_no_process_outlives_a_finished_tournament(tmp_path: Path, tags: list[str]) -> None:
    proc, tag, pids = start_table(tmp_path, games=2, tags=tags)
    _out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert len(pids.read_text().split()) == 2  # one escaped child per game was started
    assert wait_for_none(tag) == []


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_no_process_outlives_a_table_stopped_by_a_signal(
    tmp_path: Path, sig: signal.Signals, tags: list[str]
) -> None:
    proc, tag, pids = start_table(tmp_path, games=500, tags=tags)
    deadline = time.monotonic() + 60
    while not (pids.exists() and pids.read_text().strip()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert pids.exists(), "the game never started its programs"
    assert len(tagged(tag)) >= 3  # the table, both programs, the escaped child
    proc.send_signal(sig)
    proc.communicate(timeout=60)
    assert proc.returncode != 0
    assert wait_for_none(tag) == []


@pytest.mark.slow
def test_a_table_killed_outright_takes_its_programs_along(tmp_path: Path, tags: list[str]) -> None:
    proc, tag, pids = start_table(tmp_path, games=500, tags=tags)
    deadline = time.monotonic() + 60
    while not (pids.exists() and pids.read_text().strip()) and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.kill()  # SIGKILL: nothing runs in the table; the programs die of PR_SET_PDEATHSIG
    proc.communicate(timeout=60)
    escaped = {int(p) for p in pids.read_text().split()}
    deadline = time.monotonic() + 10
    while not set(left := tagged(tag)) <= escaped and time.monotonic() < deadline:
        time.sleep(0.05)
    # The programs themselves are gone; a child that left their session is out of reach
    # once nobody is left to adopt it (documented in docs/bot-protocol.md).
    assert set(left) <= escaped
    for pid in left:
        os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)  # adopted by this test process if it is a subreaper


def test_the_bot_log_is_private_whatever_the_umask(tmp_path: Path) -> None:
    rules = load_rules("two-player")
    log = tmp_path / "game.N.log"
    old = os.umask(0)
    try:
        program = ExternalController(bot("stderr")[4:], rules, log_path=log)
        with program:
            program.start()
    finally:
        os.umask(old)
    assert log.stat().st_mode & 0o777 == 0o600


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_spades_run_stopped_by_a_signal_saves_and_leaves_nothing(
    tmp_path: Path, sig: signal.Signals, tags: list[str]
) -> None:
    tag = uuid.uuid4().hex
    tags.append(tag)
    pids = tmp_path / "escaped.pids"
    script = tmp_path / "bare.txt"
    script.write_text('[Rules "two-player"]\n[Seed "9"]\n', encoding="utf-8")
    out = tmp_path / "game.txt"
    env = dict(os.environ, SPADES_TEST_TAG=tag, ORPHAN_PID_FILE=str(pids))
    command = [
        sys.executable,
        "-m",
        "spades_cli",
        "run",
        str(script),
        "--max-hands",
        "100000",
        "-o",
        str(out),
        "--seat",
        f"N={bot('deaf')}",
        "--seat",
        f"S={bot('setsid')}",
    ]
    proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not (pids.exists() and pids.read_text().strip()) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)  # a few moves into the game
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode != 0 and "Traceback" not in err
    assert out.read_text(encoding="utf-8").rstrip().endswith("end *")
    assert wait_for_none(tag) == []
