"""``spades replay`` and ``spades resume`` at the command line: output, JSON, exit codes."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from helpers.cli import run_cli
from helpers.paths import TRANSCRIPTS

NAMES = ["four-player", "two-player", "four-player-house", "four-player-unfinished", "two-player-unfinished"]


@pytest.mark.parametrize("name", NAMES)
def test_replay_json_matches_the_frozen_result(name: str) -> None:
    path = TRANSCRIPTS / f"{name}.txt"
    result = run_cli(["replay", "--json", str(path)])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data.pop("file") == str(path)
    assert data == json.loads((TRANSCRIPTS / f"{name}.json").read_text())


def test_replay_json_has_the_documented_keys() -> None:
    data = json.loads(run_cli(["replay", "--json", str(TRANSCRIPTS / "four-player.txt")]).stdout)
    for key in ("rules", "finished", "winner", "scores", "bags", "hands"):
        assert key in data
    hand = data["hands"][0]
    for key in ("bids", "tricks", "points", "bags"):
        assert key in hand
    assert set(hand["tricks"]) == {"N", "E", "S", "W"}
    assert set(hand["points"]) == {"NS", "EW"}
    assert sum(hand["tricks"].values()) == 13  # R-C-5


def test_replay_shows_the_game_hand_by_hand() -> None:
    result = run_cli(["replay", "--ascii", str(TRANSCRIPTS / "four-player.txt")])
    assert result.exit_code == 0
    frozen = json.loads((TRANSCRIPTS / "four-player.json").read_text())
    hands, actions = len(frozen["hands"]), frozen["actions"]
    out = result.stdout
    assert out.startswith("\nHand 1 (dealer ")
    assert "Bids: " in out
    assert out.count("Trick 1: ") == hands and out.count("Trick 13: ") == hands
    assert "\nScore: NS " in out
    assert "Winner: NS" in out
    assert out.rstrip().endswith(f"ok, {actions} actions and {hands} hands checked")
    assert "♠" not in out and "\x1b[" not in out


def test_replay_symbols_and_colour() -> None:
    result = run_cli(["replay", "--color", str(TRANSCRIPTS / "two-player.txt")])
    assert result.exit_code == 0
    assert "♠" in result.stdout and "\x1b[31m" in result.stdout


def test_replay_of_an_unfinished_game_says_so() -> None:
    path = TRANSCRIPTS / "two-player-unfinished.txt"
    result = run_cli(["replay", str(path)])
    assert result.exit_code == 0
    assert "the game is unfinished (hand 2, trick 4)" in result.stdout
    assert f"spades resume {path}" in result.stdout


def test_step_moves_as_the_keys_say() -> None:
    path = str(TRANSCRIPTS / "four-player.txt")
    result = run_cli(["replay", "--step", "--ascii", path], input="\n\nt\ng 11\ne\nq\n")
    assert result.exit_code == 0
    out = result.stdout
    assert out.count("Keys: ") == 1  # shown once
    assert "Hand 1, move 1 of " in out and "Hand 1, move 2 of " in out
    assert "Trick 1 (" in out  # t: the end of the first trick
    assert "Hand 11, move " in out and "Hand 11 is over." in out
    assert out.rstrip().endswith("hands checked")


def test_replay_errors_name_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    text = (TRANSCRIPTS / "four-player.txt").read_text().replace("bids ", "bids N:99 ", 1)
    bad.write_text(text)
    result = run_cli(["replay", str(bad)])
    assert result.exit_code == 2
    line = text.split("\n").index(next(x for x in text.split("\n") if x.startswith("bids N:99"))) + 1
    assert result.stderr.startswith(f"spades: {bad}:{line}: N '99': a bid is a number 1-13, or nil")
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_replay_of_a_missing_file_is_exit_2(tmp_path: Path) -> None:
    result = run_cli(["replay", str(tmp_path / "none.txt")])
    assert result.exit_code == 2
    assert "cannot read" in result.stderr


# The bots of the day need not end a game: every run and resume below is capped.
CAP = ["--max-hands", "12"]


@pytest.mark.parametrize(
    ("rules", "cut", "players"),
    [("two-player", 150, "bots"), ("four-player", 97, "bots"), ("four-player", 150, "random")],
)
def test_resume_continues_to_the_same_end_as_an_uninterrupted_game(
    rules: str, cut: int, players: str, tmp_path: Path
) -> None:
    # Every bot draws from the seed and the position, and later hands are dealt from the
    # seed: a game cut anywhere and resumed ends exactly as the uninterrupted one.
    script = tmp_path / "s.txt"
    script.write_text(f'[Rules "{rules}"]\n[Seed "resume-me"]\n[Set "losing_score=-1000"]\n')
    levels = ("easy", "normal", "normal", "easy") if players == "bots" else ("random",) * 4
    names = "NS" if rules == "two-player" else "NESW"
    seats = [arg for name, level in zip(names, levels, strict=False) for arg in ("--seat", f"{name}={level}")]
    full = tmp_path / "full.txt"
    ran = run_cli(["run", str(script), *seats, *CAP, "--json", "-o", str(full)])
    assert ran.exit_code == 0, ran.stderr
    text = full.read_text()
    assert text.count("\nhand ") > 2
    part = tmp_path / "part.txt"
    part.write_text("\n".join(text.split("\n")[:cut]) + "\n")
    resumed = run_cli(["resume", "--json", *CAP, str(part)])
    assert resumed.exit_code == 0, resumed.stderr
    assert part.read_text() == text
    expected, data = json.loads(ran.stdout), json.loads(resumed.stdout)
    for key in ("finished", "winner", "scores", "bags", "hands", "actions", "seats", "in_progress"):
        assert data[key] == expected[key], key


def test_resume_drops_the_end_star_and_appends(tmp_path: Path) -> None:
    path = tmp_path / "u.txt"
    shutil.copy(TRANSCRIPTS / "four-player-unfinished.txt", path)
    before = path.read_text()
    assert run_cli(["resume", *CAP, str(path)]).exit_code == 0
    after = path.read_text()
    assert after.startswith(before[: -len("\nend *\n")])
    assert "end *" not in after[: -len("end *\n")]  # at most one, at the very end (the cap)
    assert re.search(r"\nend (winner (NS|EW)|\*)\n\Z", after)
    assert "\nhand 4 dealer " in after
    assert run_cli(["replay", str(path)]).exit_code == 0


def test_resume_into_another_file_leaves_the_original(tmp_path: Path) -> None:
    path = tmp_path / "u.txt"
    shutil.copy(TRANSCRIPTS / "four-player-unfinished.txt", path)
    out = tmp_path / "out.txt"
    result = run_cli(["resume", str(path), *CAP, "--transcript", str(out), "--seat", "E=easy"])
    assert result.exit_code == 0
    assert path.read_text() == (TRANSCRIPTS / "four-player-unfinished.txt").read_text()
    assert 'seat E "easy"' in out.read_text().splitlines()


def test_resume_stops_at_max_hands_and_can_go_on(tmp_path: Path) -> None:
    path = tmp_path / "u.txt"
    shutil.copy(TRANSCRIPTS / "four-player-unfinished.txt", path)
    first = run_cli(["resume", "--max-hands", "3", "--json", str(path)])
    assert first.exit_code == 0
    data = json.loads(first.stdout)
    assert len(data["hands"]) == 3 and data["finished"] is False
    assert path.read_text().endswith("\nend *\n")
    again = run_cli(["resume", "--max-hands", "4", "--json", str(path)])
    assert again.exit_code == 0
    assert len(json.loads(again.stdout)["hands"]) == 4


def test_resume_of_a_finished_game_is_a_usage_error() -> None:
    result = run_cli(["resume", str(TRANSCRIPTS / "four-player.txt")])
    assert result.exit_code == 2
    assert "the game is over (NS won): nothing to resume" in result.stderr


def test_resume_of_a_game_with_a_human_seat_continues_at_the_prompt(tmp_path: Path) -> None:
    path = tmp_path / "u.txt"
    path.write_text(
        (TRANSCRIPTS / "four-player-unfinished.txt")
        .read_text()
        .replace('[Seat "N" "easy"]', '[Seat "N" "human"]')
    )
    # stdin is not a terminal: batch mode; end of input saves and leaves (exit 3).
    result = run_cli(["resume", str(path), "--fast"], input="score\n")
    assert result.exit_code == 3, result.output
    assert "Traceback" not in result.output
    assert f"Game saved in {path}" in result.output
    assert path.read_text().rstrip("\n").endswith("end *")
    assert run_cli(["replay", str(path)]).exit_code == 0
    # Another player can take the seat and finish the game.
    assert run_cli(["resume", str(path), *CAP, "--seat", "N=easy"]).exit_code == 0
