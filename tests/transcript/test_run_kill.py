"""A game killed with SIGKILL part way leaves a transcript that replays up to its last action,
and ``resume`` finishes it exactly as an uninterrupted run with the same seed ends."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.cli import run_cli

from spades_cli.transcript import read_transcript, replay, write_transcript

# Random players and a deep losing score: a long game (about 70 hands, 1400 lines) that
# ends whatever the bots of the day do; every decision still comes from the seed.
SEATS = ["--seat", "N=random", "--seat", "E=random", "--seat", "S=random", "--seat", "W=random"]
SCRIPT = '[Rules "four-player"]\n[Set "losing_score=-10000"]\n[Seed "kill-9"]\n'
KILL_AT_LINES = 200  # the kill lands early in the game


def _lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_sigkill_leaves_a_replayable_transcript_that_resumes_to_the_same_end(tmp_path: Path) -> None:
    script = tmp_path / "script.txt"
    script.write_text(SCRIPT)
    partial = tmp_path / "killed.txt"
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "spades_cli", "run", str(script), *SEATS, "-o", str(partial)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
    )
    try:
        deadline = time.monotonic() + 120
        while _lines(partial) < KILL_AT_LINES:
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            assert time.monotonic() < deadline, "the game did not get going"
            time.sleep(0.002)
        assert proc.poll() is None, "the game ended before it could be killed"
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stderr:
            proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL

    killed_text = partial.read_text()
    assert "end " not in killed_text  # nothing had the chance to mark the end
    # The partial file replays (exit 0, unfinished) and is canonical as it stands.
    replayed = run_cli(["replay", "--json", str(partial)])
    assert replayed.exit_code == 0, replayed.stderr
    assert json.loads(replayed.stdout)["finished"] is False
    t = read_transcript(partial)
    actions = len(replay(t).match.state.history)
    assert actions > 0
    assert write_transcript(t) == killed_text

    resumed = run_cli(["resume", "--json", str(partial)])
    assert resumed.exit_code == 0, resumed.stderr

    full = tmp_path / "full.txt"
    uninterrupted = run_cli(["run", str(script), *SEATS, "--json", "-o", str(full)])
    assert uninterrupted.exit_code == 0, uninterrupted.stderr
    assert partial.read_bytes() == full.read_bytes()
    done, expected = json.loads(resumed.stdout), json.loads(uninterrupted.stdout)
    for key in ("finished", "winner", "scores", "bags", "hands", "actions", "seed", "seats"):
        assert done[key] == expected[key], key
    assert done["finished"] is True
