"""Every preset of the family (issue 30) is played to its end by the batch front ends, and
its transcript replays: ``spades simulate`` with easy and normal bots, then ``spades replay``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.cli import run_cli

from spades_cli.presets import load_rules
from spades_cli.simulate import Settings, Tournament, jobs_for, play_game, run_tournament, team_names
from spades_cli.simulate.report import format_summary

FAMILY = ("cutthroat", "joker-joker-deuce-deuce", "jokers", "mirror", "solo", "suicide", "whiz")


@pytest.mark.parametrize("name", FAMILY)
@pytest.mark.parametrize("level", ["easy", "normal"])
def test_r_ct_1_each_variant_plays_to_its_end_and_replays(tmp_path: Path, name: str, level: str) -> None:
    """R-CT-1, R-I-1, R-J-1, R-J-8, R-S-1, R-M-1, R-W-1: two hands (R-E-2) to the end."""
    out = tmp_path / "games"
    args = ["simulate", "--rules", name, "--set", "hand_limit=2", "--set", "target=100"]
    result = run_cli(
        [*args, "--games", "2", "--level", level, "-j", "1", "--seed", "7", "--transcripts", str(out)]
    )
    assert result.exit_code == 0, result.output
    files = sorted(out.iterdir())
    assert len(files) == 2
    for f in files:
        text = f.read_text(encoding="utf-8")
        assert "\nend winner " in text
        replayed = run_cli(["replay", str(f)])
        assert replayed.exit_code == 0, replayed.output


def test_r_ct_7_team_names_give_a_side_per_player() -> None:
    """R-CT-7, R-I-1: without partners every seat is a side of its own."""
    assert team_names(("hard", "easy", "normal"), 3) == ("N hard", "E easy", "S normal")
    assert team_names(("hard", "easy", "hard", "easy"), 4) == ("N hard", "E easy", "S hard", "W easy")
    assert team_names(("hard", "easy", "hard", "easy")) == ("N/S hard", "E/W easy")


@pytest.mark.parametrize(("name", "seats"), [("cutthroat", "NES"), ("solo", "NESW")])
def test_r_i_1_the_simulate_report_has_a_column_per_player(name: str, seats: str) -> None:
    """R-CT-7, R-I-1: a column per player, its wins adding up to the games; no point
    difference between "two sides" that are not two; in JSON a team per player."""
    args = ["simulate", "--rules", name, "--set", "hand_limit=2", "-j", "1"]
    args += [a for s in seats for a in ("--seat", f"{s}=random")]
    result = run_cli([*args, "--games", "3", "--seed", "5"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    header = next(line for line in lines if line.lstrip().startswith("N random"))
    assert header.split() == [w for s in seats for w in (s, "random")]
    won = next(line for line in lines if line.startswith("games won"))
    wins = [int(w.split("/")[0]) for w in won.split() if "/" in w and not w.startswith("(")]
    assert len(wins) == len(seats) and sum(wins) <= 3
    assert "point difference" not in result.output
    data = json.loads(run_cli([*args, "--games", "3", "--seed", "5", "--json"]).stdout)
    assert [t["name"] for t in data["teams"]] == [f"{s} random" for s in seats]
    assert data["point_difference_per_hand"] is None


@pytest.mark.parametrize(
    ("name", "labels", "rotations"),
    [
        (
            "cutthroat",
            ("hard", "normal", "easy"),
            [("hard", "normal", "easy"), ("easy", "hard", "normal"), ("normal", "easy", "hard")],
        ),
        (
            "solo",
            ("A", "B", "C", "D"),
            [("A", "B", "C", "D"), ("D", "A", "B", "C"), ("C", "D", "A", "B"), ("B", "C", "D", "A")],
        ),
    ],
)
def test_r_ct_7_duplicate_plays_every_rotation_of_the_seats(
    name: str, labels: tuple[str, ...], rotations: list[tuple[str, ...]]
) -> None:
    """R-CT-7, R-I-1: with a side per player a duplicate deal is played once per rotation
    of the seats, every copy on the same cards, so each player sits in every seat."""
    t = Tournament(load_rules(name), labels, 2, 9, duplicate=True)
    assert t.copies == len(labels)
    for index in (0, 1):
        jobs = jobs_for(t, index)
        assert [j.labels for j in jobs] == rotations
        assert [j.twin for j in jobs] == list(range(len(labels)))
        assert len({j.seed for j in jobs}) == 1


def test_r_ct_7_duplicate_totals_follow_each_player_round_the_table() -> None:
    """R-CT-7: the totals of a cutthroat duplicate run give each player its games in every
    seat (three copies of each deal), and each player's wins are the games it won
    wherever it sat."""
    rules = load_rules("cutthroat", overrides=["hand_limit=1"])
    labels = ("easy", "random", "normal")
    summary = run_tournament(rules, labels, 2, 11, duplicate=True, max_hands=3)
    assert summary.totals.copies == 6
    assert [team.games for team in summary.totals.teams] == [6, 6, 6]
    settings = Settings(summary.tournament)
    wins = [0, 0, 0]
    for index in (0, 1):
        for job in jobs_for(summary.tournament, index):
            rec = play_game(settings, job)
            if rec.winner is not None:
                wins[labels.index(job.labels[rec.winner])] += 1
    assert [team.wins for team in summary.totals.teams] == wins
    text = format_summary(summary)
    assert "every deal 3 times, each player in every seat" in text
