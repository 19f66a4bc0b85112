"""Issue 33, item 4: ``spades stats --player NAME``: one player's record across games (the
seats it sat at, from the Seat tags) and its side's final score game by game."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

from click.testing import Result
from helpers.paths import TRANSCRIPTS

from spades_cli.simulate.records import points_chart

Cli = Callable[..., Result]


def _two_games(tmp_path: Path) -> Path:
    """four-player-unfinished (N and S easy; NS -140 after 2 hands), then four-player-short
    (E and W easy; EW bid 10, took 8: set, -100, R-C-8)."""
    shutil.copy(TRANSCRIPTS / "four-player-unfinished.txt", tmp_path / "b.txt")
    shutil.copy(TRANSCRIPTS / "four-player-short.txt", tmp_path / "a.txt")
    os.utime(tmp_path / "b.txt", (1_700_000_000, 1_700_000_000))
    os.utime(tmp_path / "a.txt", (1_700_086_400, 1_700_086_400))  # a day later
    return tmp_path


def test_a_player_s_record_is_its_seats_across_games(cli: Cli, tmp_path: Path) -> None:
    data = json.loads(cli(["stats", "--json", "--player", "easy", str(_two_games(tmp_path))]).stdout)
    assert data["by"] == "player" and data["player"] == "easy" and data["files"] == 2
    assert [(g["seats"], g["score"], g["won"]) for g in data["games_played"]] == [
        ("NS", -140, None),  # the older file first; unfinished
        ("EW", -100, False),
    ]
    groups = data["groups"]
    assert sorted(groups) == ["E", "N", "S", "W"]  # the seats it sat at, each its own group
    assert (groups["E"]["games"], groups["E"]["losses"], groups["E"]["hands"]) == (1, 1, 1)
    assert groups["E"]["bids"] == {"count": 1, "made": 0, "set": 1, "average_over_under": -2.0}
    assert (groups["N"]["games"], groups["N"]["unfinished"], groups["N"]["hands"]) == (1, 1, 2)
    other = json.loads(cli(["stats", "--json", "--player", "HUMAN", str(tmp_path)]).stdout)
    assert other["groups"] == {} and other["games_played"] == []


def test_the_player_view_ends_with_its_scores_chart(cli: Cli, tmp_path: Path) -> None:
    out = cli(["stats", "--player", "easy", str(_two_games(tmp_path))]).stdout
    assert out.startswith("2 games read; 2 with easy, by the seats it sat at.\n")
    assert out.endswith(
        "easy's side's final score, game by game (oldest first):\n"
        "   0 |#-#\n"
        "     |# #\n"
        "     |# #\n"
        "     |# #\n"
        "     |# #\n"
        "-140 |#\n"
        "      2 games\n"
    )
    assert all(len(line) <= 60 for line in out.splitlines())


def test_the_chart_draws_bars_from_zero() -> None:
    assert points_chart([100, -50, 0, 50], height=4) == [
        "100 |#",
        "    |#     #",
        "  0 |#-#---#",
        "-50 |  #",
        "     4 games",
    ]
    assert len(points_chart(list(range(100)))) == 7  # the last games that fit 60 columns
    assert points_chart(list(range(100)))[-1].endswith("28 games")
