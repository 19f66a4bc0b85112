"""``spades stats`` and ``spades games``: numbers read from transcripts, checked by hand."""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from helpers.paths import TRANSCRIPTS

from spades_cli.transcript.games import latest_unfinished, saved_games

Cli = Callable[..., Result]


def test_stats_json_on_a_one_hand_game_matches_a_count_by_hand(cli: Cli) -> None:
    # four-player-short.txt: bids S nil, W 5, N 4, E 5; tricks N 5, E 3, S 0, W 5 (R-C-5);
    # NS bid 4 took 5: made, 1 bag, +141 with S's nil (R-4P-6, R-C-10); EW bid 10 took 8: set, -100.
    # A bid counts its side's contract: made or set, and the side's tricks over or under it.
    result = cli(["stats", "--json", str(TRANSCRIPTS / "four-player-short.txt")])
    assert result.exit_code == 0, result.output
    groups = json.loads(result.stdout)["groups"]
    n, e, s, w = groups["N"], groups["E"], groups["S"], groups["W"]
    assert (n["games"], n["wins"], n["losses"], n["hands"]) == (1, 1, 0, 1)
    assert n["bids"] == {"count": 1, "made": 1, "set": 0, "average_over_under": 1.0}
    assert e["bids"] == {"count": 1, "made": 0, "set": 1, "average_over_under": -2.0}
    assert w["bids"] == {"count": 1, "made": 0, "set": 1, "average_over_under": -2.0}
    assert s["bids"]["count"] == 0 and s["nil"] == {"tried": 1, "made": 1}
    assert (n["bags_per_hand"], n["points_per_hand"]) == (1.0, 141.0)
    assert (e["bags_per_hand"], e["points_per_hand"]) == (0.0, -100.0)
    assert (e["wins"], e["losses"]) == (0, 1)


def test_stats_counts_double_nils_and_bag_penalties(cli: Cli) -> None:
    # two-player.txt: South declares double nil in hands 13, 17, 19 and 21 (R-2P-3) and makes it
    # once; North carries 56 bags over 21 hands, so 5 penalties of 10 bags (R-C-9).
    data = json.loads(cli(["stats", "--json", str(TRANSCRIPTS / "two-player.txt")]).stdout)
    north, south = data["groups"]["N"], data["groups"]["S"]
    assert south["blind_nil"] == {"tried": 4, "made": 1}
    assert south["bids"]["count"] == 17 and north["bids"]["count"] == 21
    assert north["hands"] == 21 and north["bags_per_hand"] == round(56 / 21, 2)
    assert north["bag_penalties"] == 5
    assert (north["wins"], south["losses"]) == (1, 1)


def test_stats_by_level_and_rules_over_a_folder(cli: Cli) -> None:
    by_rules = json.loads(cli(["stats", "--json", "--by", "rules", str(TRANSCRIPTS)]).stdout)
    assert by_rules["files"] == 7 and set(by_rules["groups"]) == {"four-player", "two-player"}
    # 3 two-player games, 2 of them finished (each a win of one side and a loss of the other).
    two = by_rules["groups"]["two-player"]
    assert (two["games"], two["wins"], two["losses"], two["unfinished"]) == (3, 2, 2, 1)
    by_level = cli(["stats", "--by", "level", str(TRANSCRIPTS)])
    assert by_level.exit_code == 0
    assert "easy: 5 games" in by_level.stdout and all(len(x) <= 60 for x in by_level.stdout.splitlines())


def _copies(folder: Path, won: int, unfinished: int) -> None:
    for i in range(won):
        shutil.copy(TRANSCRIPTS / "four-player.txt", folder / f"won{i}.txt")
    for i in range(unfinished):
        shutil.copy(TRANSCRIPTS / "four-player-unfinished.txt", folder / f"open{i}.txt")


def test_stats_by_rules_counts_each_game_once(cli: Cli, tmp_path: Path) -> None:
    # Issue 33: 10 transcripts, 3 finished, were "40 games, 28 unfinished" (one per seat).
    _copies(tmp_path, 3, 7)
    data = json.loads(cli(["stats", "--json", "--by", "rules", str(tmp_path)]).stdout)
    four = data["groups"]["four-player"]
    assert data["files"] == 10
    assert (four["games"], four["wins"], four["losses"], four["unfinished"]) == (10, 3, 3, 7)
    assert four["hands"] == 188  # 47 hands in all, counted for each of the four seats


def test_stats_by_level_counts_games_not_seats(cli: Cli, tmp_path: Path) -> None:
    # Issue 33: normal and easy each play two seats of every game; each game counts once.
    _copies(tmp_path, 3, 7)
    groups = json.loads(cli(["stats", "--json", "--by", "level", str(tmp_path)]).stdout)["groups"]
    normal, easy = groups["normal"], groups["easy"]
    assert (normal["games"], normal["wins"], normal["losses"], normal["unfinished"]) == (10, 3, 0, 7)
    assert (easy["games"], easy["wins"], easy["losses"], easy["unfinished"]) == (10, 0, 3, 7)
    assert (
        "easy: 10 games, 0 won, 3 lost, 7 unfinished" in cli(["stats", "--by", "level", str(tmp_path)]).stdout
    )


def test_stats_by_seat_gives_partners_the_side_s_over_under(cli: Cli) -> None:
    # Issue 33: made/set was the side's but over/under the seat's. In four-player-short.txt
    # W bid 5 and took 5, E bid 5 and took 3: EW's contract of 10 is set by 2 for both.
    groups = json.loads(cli(["stats", "--json", str(TRANSCRIPTS / "four-player-short.txt")]).stdout)["groups"]
    assert [groups[s]["bids"]["average_over_under"] for s in "EW"] == [-2.0, -2.0]
    assert [groups[s]["bids"]["set"] for s in "EW"] == [1, 1]


def test_stats_counts_the_games_by_their_undo_policy(cli: Cli, tmp_path: Path) -> None:
    shutil.copy(TRANSCRIPTS / "four-player-short.txt", tmp_path / "a.txt")
    text = (TRANSCRIPTS / "four-player-short.txt").read_text(encoding="utf-8")
    (tmp_path / "b.txt").write_text(text.replace('[Format "1"]\n', '[Format "1"]\n[Undo "never"]\n', 1))
    result = cli(["stats", str(tmp_path)])
    assert result.stdout.splitlines()[:2] == ["2 games read; by seat.", "Undo: 1 never, 1 not recorded."]
    assert json.loads(cli(["stats", "--json", str(tmp_path)]).stdout)["undo"] == {
        "never": 1,
        "not recorded": 1,
    }


def test_stats_skips_a_file_that_is_not_a_transcript(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "junk.txt").write_text("hand x\n\x00bad")
    shutil.copy(TRANSCRIPTS / "four-player-short.txt", tmp_path)
    result = cli(["stats", str(tmp_path)])
    assert result.exit_code == 0 and "1 game read" in result.stdout
    assert "skipped" in result.stderr and "junk.txt" in result.stderr and "Traceback" not in result.output


def _saved(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i, name in enumerate(["four-player.txt", "two-player-unfinished.txt", "four-player-unfinished.txt"]):
        path = folder / name
        shutil.copy(TRANSCRIPTS / name, path)
        stamp = time.time() - (10 - i) * 86400  # four-player.txt is the oldest, 10 days old
        os.utime(path, (stamp, stamp))


def test_games_lists_the_saved_games_newest_first(cli: Cli, tmp_path: Path) -> None:
    _saved(tmp_path)
    games, problems = saved_games(tmp_path)
    assert [g.path.name for g in games] == [
        "four-player-unfinished.txt",
        "two-player-unfinished.txt",
        "four-player.txt",
    ]
    assert not problems and [g.finished for g in games] == [False, False, True]
    assert games[2].scores == (("NS", 556), ("EW", -354)) and games[2].winner == "NS"
    assert latest_unfinished(tmp_path) == tmp_path / "four-player-unfinished.txt"
    out = cli(["games", "--folder", str(tmp_path)]).stdout
    assert "four-player, hand 11: NS 556, EW -354; won by NS" in out
    assert "two-player, hand 2: N 42, S -90; unfinished" in out
    assert out.rstrip().endswith("spades resume")


def test_games_deletes_only_finished_games_older_than_the_limit(cli: Cli, tmp_path: Path) -> None:
    _saved(tmp_path)
    kept = cli(["games", "--folder", str(tmp_path), "--delete-finished-older-than", "30"])
    assert kept.exit_code == 0 and "Deleted" not in kept.stdout
    gone = cli(["games", "--folder", str(tmp_path), "--delete-finished-older-than", "5", "--json"])
    data = json.loads(gone.stdout)
    assert data["deleted"] == [str(tmp_path / "four-player.txt")]
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == ["four-player-unfinished.txt", "two-player-unfinished.txt"]
    assert all(not g["finished"] for g in data["games"])


def test_resume_without_a_file_continues_the_latest_unfinished_game(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SPADES_HOME", str(tmp_path))
    _saved(tmp_path / "transcripts")
    latest = tmp_path / "transcripts" / "four-player-unfinished.txt"
    before = latest.read_text(encoding="utf-8")
    result = cli(["resume", "--json", "--max-hands", "4"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["transcript"] == str(latest)
    text = latest.read_text(encoding="utf-8")
    assert text.count("\nhand ") == 4 > before.count("\nhand ")  # continued up to --max-hands
    assert text.split("\ntrick 3 ")[0] == before.split("\ntrick 3 ")[0]
    # The other unfinished game was left alone.
    assert (tmp_path / "transcripts" / "two-player-unfinished.txt").read_bytes() == (
        TRANSCRIPTS / "two-player-unfinished.txt"
    ).read_bytes()


def test_a_stray_empty_file_does_not_stop_resume_without_a_file(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34: one empty ``.txt`` in the folder (the newest file) made bare ``spades resume``
    fail ("names no rules"); it is skipped, and ``games`` says why in one line."""
    monkeypatch.setenv("SPADES_HOME", str(tmp_path))
    _saved(tmp_path / "transcripts")
    stray = tmp_path / "transcripts" / "notes.txt"
    stray.write_text("")
    result = cli(["resume", "--json", "--max-hands", "4"])
    assert result.exit_code == 0, result.output
    latest = tmp_path / "transcripts" / "four-player-unfinished.txt"
    assert json.loads(result.stdout)["transcript"] == str(latest)
    games, problems = saved_games(tmp_path / "transcripts")
    assert stray not in [g.path for g in games]
    assert problems == [f"{stray}: not a saved game (it names no rules)"]


def test_resume_without_a_file_and_no_unfinished_game_is_a_usage_error(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SPADES_HOME", str(tmp_path))
    result = cli(["resume"])
    assert result.exit_code == 2
    assert result.stderr.startswith("spades: no unfinished game in ") and "Traceback" not in result.output


def test_stats_says_why_a_file_is_skipped_as_every_reader_does(cli: Cli, tmp_path: Path) -> None:
    # The same one-line reasons as replay and analyze: not the text decoder's own message.
    (tmp_path / "binary.txt").write_bytes(b'[Game "spades"]\n\xff\xfe\n')
    shutil.copy(TRANSCRIPTS / "four-player-short.txt", tmp_path)
    result = cli(["stats", str(tmp_path)])
    assert result.exit_code == 0 and "1 game read" in result.stdout
    assert (
        f"skipped {tmp_path / 'binary.txt'}:2: not UTF-8 text (a transcript is plain UTF-8)" in result.stderr
    )
    assert "codec" not in result.stderr
