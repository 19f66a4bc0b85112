"""``--level LEVEL``: the level of every bot seat no ``--seat`` names (play, host, simulate)."""

from __future__ import annotations

import pytest
from helpers.cli import run_cli

from spades_cli.cli.cmd_play import seat_labels
from spades_cli.presets import load_rules


def test_play_seats_the_level_at_every_seat_but_yours() -> None:
    rules = load_rules("four-player")
    assert seat_labels(rules, [], "hard") == {0: "hard", 1: "hard", 2: "human", 3: "hard"}
    assert seat_labels(rules, ["N=easy"], "expert") == {0: "easy", 1: "expert", 2: "human", 3: "expert"}
    assert seat_labels(rules, []) == {0: "normal", 1: "normal", 2: "human", 3: "normal"}


def test_simulate_takes_the_level_for_the_seats_not_named() -> None:
    result = run_cli(
        ["simulate", "-n", "1", "--max-hands", "1", "-j", "1", "-q", "--level", "easy", "--seat", "N=normal"]
    )
    assert result.exit_code == 0, result.output
    assert "seats: N=normal, E=easy, S=easy, W=easy" in result.output


@pytest.mark.parametrize("command", ["play", "host", "simulate"])
def test_an_unknown_level_is_a_usage_error(command: str) -> None:
    result = run_cli([command, "--level", "grandmaster"])
    assert result.exit_code == 2
    assert "grandmaster" in result.output
