"""``spades simulate`` and the tournament runner behind it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.paths import BOT_PROGRAMS

from spades_cli.cli.main import main
from spades_cli.presets import load_rules
from spades_cli.simulate import (
    Settings,
    Tournament,
    exchange_sides,
    game_seed,
    jobs_for,
    mean_ci,
    play_game,
    run_tournament,
    team_names,
    wilson,
)
from spades_cli.simulate.report import without_timing

FOUR = load_rules("four-player")
TWO = load_rules("two-player")


def test_wilson_interval_known_values() -> None:
    w = wilson(90, 100)
    assert w.value == 0.9
    assert (round(w.low, 4), round(w.high, 4)) == (0.8256, 0.9448)
    assert wilson(0, 0).low == 0.0 and wilson(0, 0).high == 1.0
    assert wilson(10, 10).high == 1.0


def test_mean_interval_known_values() -> None:
    m = mean_ci([1, 2, 3, 4])
    assert m.value == 2.5
    assert round(m.high - m.value, 4) == round(1.959963984540054 * 1.2909944487358056 / 2, 4)
    assert mean_ci([]).value == 0.0
    assert mean_ci([5]).low == 5.0


def test_game_seeds_depend_only_on_the_tournament_seed_and_index() -> None:
    assert game_seed(1, 0) == game_seed(1, 0)
    assert len({game_seed(1, i) for i in range(50)}) == 50
    assert game_seed(1, 3) != game_seed(2, 3)


def test_duplicate_exchanges_the_sides_on_the_same_cards() -> None:
    assert exchange_sides(("hard", "easy", "hard", "easy")) == ("easy", "hard", "easy", "hard")
    assert exchange_sides(("N1", "E1", "S1", "W1")) == ("W1", "N1", "E1", "S1")
    assert exchange_sides(("hard", "normal")) == ("normal", "hard")
    t = Tournament(FOUR, ("hard", "easy", "hard", "easy"), 2, 9, duplicate=True)
    jobs = jobs_for(t, 0) + jobs_for(t, 1)
    assert [(j.index, j.twin) for j in jobs] == [(0, False), (0, True), (1, False), (1, True)]
    assert jobs[0].seed == jobs[1].seed != jobs[2].seed
    assert jobs[1].labels == ("easy", "hard", "easy", "hard")


def test_team_names() -> None:
    assert team_names(("hard", "easy", "hard", "easy")) == ("N/S hard", "E/W easy")
    assert team_names(("hard", "easy", "normal", "easy")) == ("N/S hard+normal", "E/W easy")
    assert team_names(("normal", "easy")) == ("N normal", "S easy")


def test_a_game_is_played_to_its_end_and_recorded() -> None:
    # R-C-11: the game ends when a side reaches the target; every hand is recorded.
    t = Tournament(TWO, ("normal", "easy"), 1, 4)
    times: dict[str, object] = {}
    rec = play_game(Settings(t), jobs_for(t, 0)[0], times)  # type: ignore[arg-type]
    assert not rec.capped and rec.winner in (0, 1)
    assert max(rec.scores) >= TWO.target
    assert rec.scores[rec.winner] == max(rec.scores)
    assert sum(h.points[0] for h in rec.hands) == rec.scores[0]
    assert sum(h.points[1] for h in rec.hands) == rec.scores[1]
    assert set(times) == {"normal", "easy"}


def test_the_hand_cap_stops_a_game_and_is_reported() -> None:
    summary = run_tournament(FOUR, ("random",) * 4, 2, 5, max_hands=2)
    totals = summary.totals
    assert totals.capped == 2 and totals.undecided == 2
    assert totals.hands == 4  # two hands in each of the two games
    assert totals.teams[0].wins == totals.teams[1].wins == 0


@pytest.mark.slow
def test_results_do_not_depend_on_the_number_of_workers() -> None:
    labels = ("easy", "random", "easy", "random")
    one = run_tournament(FOUR, labels, 3, 17, jobs=1, duplicate=True, max_hands=3)
    two = run_tournament(FOUR, labels, 3, 17, jobs=2, duplicate=True, max_hands=3)
    assert without_timing(one) == without_timing(two)
    assert one.totals.copies == 6


def test_duplicate_pairs_hands_of_the_same_deal() -> None:
    summary = run_tournament(TWO, ("easy", "random"), 2, 3, duplicate=True, max_hands=4)
    assert summary.totals.copies == 4
    assert summary.totals.diff_n == 8  # 2 games x 4 hands, each deal played twice
    # The team "N easy" sat North in the first copy and South in the twin.
    team = summary.totals.teams[0]
    assert summary.team_names[0] == "N easy"
    assert team.games == 4
    assert team.hands == 16
    settings = Settings(summary.tournament)
    all_pairs = []
    for i in (0, 1):
        first, twin = jobs_for(summary.tournament, i)
        assert first.seed == twin.seed and twin.labels == ("random", "easy")
        a, b = play_game(settings, first), play_game(settings, twin)
        all_pairs += [
            ((x.points[0] - x.points[1]) + (y.points[1] - y.points[0])) / 2
            for x, y in zip(a.hands, b.hands, strict=True)
        ]
    assert summary.diff.value == pytest.approx(sum(all_pairs) / len(all_pairs))


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_cli_json_output() -> None:
    code, out, err = run(
        "simulate",
        "--games",
        "2",
        "--rules",
        "two-player",
        "--seat",
        "N=easy",
        "--seat",
        "s=random",
        "--max-hands",
        "2",
        "--jobs",
        "1",
        "--seed",
        "5",
        "--json",
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["rules"] == "two-player" and data["games"] == 2 and data["seed"] == 5
    assert data["seats"] == {"N": "easy", "S": "random"}
    assert [t["name"] for t in data["teams"]] == ["N easy", "S random"]
    assert data["teams"][0]["hands"] == 4
    assert data["capped_games"] == 2
    assert {t["label"] for t in data["decision_time"]} == {"easy", "random"}
    assert "simulate: 2/2 games" in err  # plain progress lines when stderr is not a terminal


def test_cli_text_output_and_default_seats() -> None:
    code, out, err = run("simulate", "-n", "1", "--max-hands", "1", "-j", "1", "-q")
    assert code == 0, err
    assert "seats: N=normal, E=normal, S=normal, W=normal" in out
    assert "games won" in out and "point difference N/S normal - E/W normal" in out
    assert "1 game(s) stopped at the hand cap" in out
    assert err == ""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--games", "0"], "--games must be at least 1"),
        (["--jobs", "0"], "--jobs must be at least 1"),
        (["--max-hands", "0"], "--max-hands must be at least 1"),
        (["--seat", "X=easy"], "unknown seat"),
        (["--seat", "N=grandmaster"], "unknown player 'grandmaster'"),
        (["--seat", "N=human"], "unknown player 'human'"),
        (["--seat", "N"], "expected SEAT=LEVEL"),
        (["--rules", "no-such-preset"], "no-such-preset"),
        (["--set", "nil.value=lots"], "nil.value"),
    ],
)
def test_cli_usage_errors_exit_2_with_one_message(args: list[str], message: str) -> None:
    code, out, err = run("simulate", "-q", *args)
    assert code == 2
    assert message in err
    assert "Traceback" not in err and out == ""


def test_cli_saves_a_transcript_per_game_that_replays(tmp_path: object) -> None:
    import pathlib

    folder = pathlib.Path(str(tmp_path)) / "games"
    code, _, err = run(
        "simulate",
        "-n",
        "1",
        "--rules",
        "two-player",
        "--seat",
        "N=easy",
        "--seat",
        "S=easy",
        "--duplicate",
        "--max-hands",
        "2",
        "-j",
        "1",
        "-q",
        "--transcripts",
        str(folder),
    )
    assert code == 0, err
    files = sorted(p.name for p in folder.iterdir())
    assert files == ["game-0001-twin.txt", "game-0001.txt"]
    text = (folder / "game-0001.txt").read_text()
    assert '[Seat "N" "easy"]' in text and text.rstrip().endswith("end *")
    code, _, err = run("replay", str(folder / "game-0001.txt"))
    assert code == 0, err


def _misbehaving(mode: str, after: int) -> str:
    bot = BOT_PROGRAMS / "misbehave.py"
    return f"N=cmd:{sys.executable} {bot} {mode} {after}"


def test_a_failing_program_ends_its_game_and_the_tournament_reports_it(tmp_path: Path) -> None:
    args = [
        "simulate",
        "--games",
        "1",
        "--jobs",
        "1",
        "--seed",
        "3",
        "--max-hands",
        "1",
        "-q",
        "--json",
        "--transcripts",
        str(tmp_path),
        "--seat",
        _misbehaving("illegal", 5),
    ]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    [ended] = data["terminated_games"]
    assert ended["game"] == 1
    assert "which is illegal" in ended["reason"]
    lines = (tmp_path / "game-0001.txt").read_text().splitlines()
    assert lines[-2].startswith('terminated N "cmd:')
    assert lines[-1] == "end *"


def test_with_a_fallback_the_built_in_bot_takes_over_and_the_game_goes_on(tmp_path: Path) -> None:
    args = [
        "simulate",
        "--games",
        "1",
        "--jobs",
        "1",
        "--seed",
        "3",
        "--max-hands",
        "1",
        "-q",
        "--json",
        "--on-bot-failure",
        "easy",
        "--transcripts",
        str(tmp_path),
        "--seat",
        _misbehaving("illegal", 5),
    ]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["terminated_games"] == []
    assert data["capped_games"] == 1
    text = (tmp_path / "game-0001.txt").read_text()
    assert "\nnote N " in text and "terminated" not in text
