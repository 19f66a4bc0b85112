"""A spectator at a terminal (issue 34, "seen by a new user"): the screen says at once that
it connects and that it joined (it stayed blank until the next table event), and a
spectator stopped by SIGTERM does not say "the game is saved" (it keeps no game)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from helpers.net import Spawned

from spades_cli.errors import EXIT_TERMINATED

pexpect = pytest.importorskip("pexpect")


@pytest.mark.slow
def test_a_spectator_sees_the_table_at_once_and_sigterm_saves_nothing(tmp_path: Path) -> None:
    path = tmp_path / "hosted.txt"
    host = Spawned(["host", "--seat", "S=human", "--watch-token", "--transcript", str(path)])
    try:
        address, token = host.join_line("Spectators")
        host.wait_for("Waiting for South to join.")  # no table event will come
        watch(tmp_path, address, token)
        south_address, south_token = host.join_line("South")
        south = Spawned(["join", south_address, "--token", south_token], feed_later=True)
        try:
            host.wait_for("South joined")  # the game goes on to South's bid, then waits
            watch(tmp_path, address, token)  # a spectator joining a game in progress
        finally:
            south.kill()
    finally:
        host.kill()


def watch(tmp_path: Path, address: str, token: str) -> None:
    """A spectator at a terminal: shown at once that it joined; SIGTERM ends it, exit 143,
    without a word about a saved game."""
    env = dict(os.environ, SPADES_HOME=str(tmp_path / "home"), TERM="dumb")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "spades_cli", "join", address, "--token", token],
        env=env,
        encoding="utf-8",
        timeout=30,
        dimensions=(30, 100),
    )
    child.expect(f"Connecting to {address}")
    child.expect(r"Joined the table \(four-player rules, game to 500\), watching\.")
    child.kill(15)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == EXIT_TERMINATED
    assert "saved" not in (child.before or "")
    assert "spades: stopped by signal 15" in (child.before or "")
