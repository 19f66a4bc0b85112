"""``spades run``: scripted games (transcripts with parts left out).

The scripted game of each preset (``transcripts/scripts/*.txt``) runs here and its JSON
result is compared with the frozen one next to it (``*.expected.json``). Regenerate those
(only when the scripts or the random player change on purpose) with::

    PYTHONPATH=tests .venv/bin/python tests/transcript/test_run_scripts.py --regen
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from click.testing import Result
from helpers.cli import run_cli
from helpers.paths import TRANSCRIPTS

from spades_cli.engine import BID_BASE
from spades_cli.transcript import read_transcript, replay, write_transcript

SCRIPTS = TRANSCRIPTS / "scripts"
# The command line of each scripted game (the script's path and -o come first).
SCRIPTED = {
    "four-player": ["--then", "random"],
    "two-player": ["--seat", "S=random", "--then", "random"],
}
LOCATION = re.compile(r"^(spades: )?\S+:\d+: ", re.MULTILINE)


def run_script(name: str, out: Path, *extra: str) -> Result:
    return run_cli(["run", str(SCRIPTS / f"{name}.txt"), "-o", str(out), "--json", *SCRIPTED[name], *extra])


def result_json(result: Result) -> dict[str, object]:
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize("name", sorted(SCRIPTED))
def test_scripted_game_gives_the_frozen_json(name: str, tmp_path: Path) -> None:
    out = tmp_path / "game.txt"
    result = run_script(name, out)
    assert result.exit_code == 0, result.stderr
    data = result_json(result)
    assert data.pop("transcript") == str(out)
    expected = json.loads((SCRIPTS / f"{name}.expected.json").read_text())
    assert data == expected


@pytest.mark.parametrize("name", sorted(SCRIPTED))
def test_scripted_game_transcript_replays_round_trips_and_is_deterministic(name: str, tmp_path: Path) -> None:
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    assert run_script(name, first).exit_code == 0
    assert run_script(name, second).exit_code == 0
    assert first.read_bytes() == second.read_bytes()
    t = read_transcript(first)
    assert write_transcript(t) == first.read_text()
    replayed = run_cli(["replay", "--json", str(first)])
    assert replayed.exit_code == 0
    ran = json.loads((SCRIPTS / f"{name}.expected.json").read_text())
    again = result_json(replayed)
    for key in ("finished", "winner", "scores", "bags", "hands", "actions", "seats"):
        assert again[key] == ran[key], key


def test_four_player_script_fixes_the_deal_of_south(tmp_path: Path) -> None:
    # R-C-4 / R-C-6: South holds all thirteen spades, so South takes every trick of hand 1
    # whatever the others do, and may lead spades at once (she holds only spades).
    out = tmp_path / "game.txt"
    data = result_json(run_script("four-player", out))
    hand = data["hands"][0]  # type: ignore[index]
    assert hand["tricks"] == {"N": 0, "E": 0, "S": 13, "W": 0}
    assert hand["bids"]["S"] == 6
    assert 'seat S "random"' in out.read_text().splitlines()  # --then took over after hand 1


def test_two_player_script_declares_drafts_and_exchanges(tmp_path: Path) -> None:
    # R-2P-2 / R-2P-3: North keeps the top card of every pair, declares double nil and
    # swaps the jack of spades for the three of clubs from the discard pile.
    out = tmp_path / "game.txt"
    data = result_json(run_script("two-player", out))
    assert data["hands"][0]["declared"][0] == "N"  # type: ignore[index]
    lines = out.read_text().splitlines()
    assert "declare N blind" in lines
    assert "draft N keep 2C discard 3C" in lines
    assert "exchange N give JS draw 3C" in lines
    assert "exchange N done" in lines


def test_a_full_transcript_as_a_script_plays_the_same_game(tmp_path: Path) -> None:
    golden = TRANSCRIPTS / "four-player.txt"
    out = tmp_path / "again.txt"
    result = run_cli(["run", str(golden), "-o", str(out), "--json"])
    assert result.exit_code == 0, result.stderr
    data = result_json(result)
    expected = json.loads((TRANSCRIPTS / "four-player.json").read_text())
    for key in ("finished", "winner", "scores", "bags", "hands", "actions"):
        assert data[key] == expected[key], key
    assert data["seats"] == {"N": "script", "E": "script", "S": "script", "W": "script"}


def test_scripted_seat_running_out_stops_with_exit_3_and_can_be_resumed(tmp_path: Path) -> None:
    out = tmp_path / "game.txt"
    script = SCRIPTS / "four-player.txt"
    result = run_cli(["run", str(script), "-o", str(out)])
    assert result.exit_code == 3
    assert f"{script}:15: S has no scripted action left (hand 2" in result.stderr
    assert "spades resume" in result.stderr
    text = out.read_text()
    assert text.endswith("end *\n")
    assert run_cli(["replay", str(out)]).exit_code == 0
    resumed = run_cli(["resume", str(out), "--seat", "S=random", "--json"])
    assert resumed.exit_code == 0, resumed.stderr
    assert result_json(resumed)["finished"] is True
    assert 'seat S "random"' in out.read_text()


def test_unscripted_seat_needs_a_player(tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_text('[Rules "two-player"]\nN: noblind\n')
    result = run_cli(["run", str(script), "--seed", "1", "-o", str(tmp_path / "g.txt")])
    assert result.exit_code == 2
    assert "seat S has no scripted actions" in result.stderr
    assert "--seat S=LEVEL" in result.stderr


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("X=easy", "unknown seat 'X'"),
        ("E", "expected SEAT=LEVEL"),
        ("E=genius", "unknown player 'genius'"),
        ("E=human", "unknown player 'human'"),
    ],
)
def test_bad_seat_spec_is_a_usage_error(spec: str, message: str, tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_text("")
    result = run_cli(["run", str(script), "--seat", spec, "-o", str(tmp_path / "g.txt")])
    assert result.exit_code == 2
    assert message in result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_illegal_scripted_card_names_the_line(tmp_path: Path) -> None:
    # R-C-3: the script's South must follow suit; a card she does not hold is illegal.
    script = tmp_path / "s.txt"
    script.write_text(
        '[Rules "four-player"]\n[Seed "3"]\n\nhand 1 dealer W\n'
        "deal S AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S\n"
        "S: 4 AS AH\n"
    )
    result = run_cli(
        [
            "run",
            str(script),
            "--seat",
            "N=random",
            "--seat",
            "E=random",
            "--seat",
            "W=random",
            "-o",
            str(tmp_path / "g.txt"),
        ]
    )
    assert result.exit_code == 1
    assert f"{script}:6: S AH is not legal in hand 1: you do not hold AH" in result.stderr


def test_wrong_recorded_result_in_a_script_is_a_mismatch(tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    body = (SCRIPTS / "four-player.txt").read_text()
    script.write_text(body + "result NS tricks 13 points 999 bags 6 | EW tricks 0 points -200 bags 0\n")
    result = run_cli(["run", str(script), "--then", "random", "-o", str(tmp_path / "g.txt")])
    assert result.exit_code == 1
    assert (
        f"{script}:16: hand 1: NS took 13 tricks for 76 points and 6 bags, not 13, 999 and 6" in result.stderr
    )


def test_leftover_scripted_actions_are_an_error(tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    body = (TRANSCRIPTS / "four-player.txt").read_text()
    script.write_text(body + "N: QS\n")
    line = body.count("\n") + 1
    result = run_cli(["run", str(script), "-o", str(tmp_path / "g.txt")])
    assert result.exit_code == 1
    assert f"{script}:{line}: the game ended before N's scripted action 'QS' was played" in result.stderr


def test_seed_option_overrides_the_script_seed(tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_text(
        '[Rules "two-player"]\n[Seed "a"]\n[Seat "N" "random"]\n[Seat "S" "random"]\n'
        '[Set "losing_score=-200"]\n'
    )
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    assert run_cli(["run", str(script), "-o", str(a)]).exit_code == 0
    assert run_cli(["run", str(script), "--seed", "b", "-o", str(b)]).exit_code == 0
    assert '[Seed "a"]' in a.read_text()
    assert '[Seed "b"]' in b.read_text()
    assert read_transcript(a).events[1] != read_transcript(b).events[1]  # different decks


def test_command_line_set_applies_on_top_of_the_script_rules(tmp_path: Path) -> None:
    out = tmp_path / "g.txt"
    result = run_cli(
        ["run", str(SCRIPTS / "four-player.txt"), "--then", "random", "--set", "nil.value=50", "-o", str(out)]
    )
    assert result.exit_code == 0, result.stderr
    text = out.read_text()
    assert '[Set "losing_score=-500"]\n[Set "nil.value=50"]' in text
    assert '[Rule "nil.value" "50"]' in text


def test_runs_are_recorded_in_the_default_folder_without_overwriting(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("SPADES_HOME", str(tmp_path / "home"))
    script = SCRIPTS / "four-player.txt"
    for _ in range(2):
        assert run_cli(["run", str(script), "--then", "random"]).exit_code == 0
    folder = tmp_path / "home" / "transcripts"
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["game-script-4-1.txt", "game-script-4-2.txt"]
    assert (folder / names[0]).read_bytes() == (folder / names[1]).read_bytes()


def test_script_bids_use_forgiving_notation(tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_text((SCRIPTS / "four-player.txt").read_text().replace("S: 6\n", "S: NIL\n"))
    out = tmp_path / "g.txt"
    result = run_cli(["run", str(script), "--then", "random", "-o", str(out), "--json"])
    assert result.exit_code == 0, result.stderr
    hand = result_json(result)["hands"][0]  # type: ignore[index]
    assert hand["bids"]["S"] == 0
    replayed = replay(read_transcript(out))
    assert replayed.match.state.results[0].bids[2] == BID_BASE - BID_BASE


def regen() -> None:
    import tempfile

    for name in SCRIPTED:
        with tempfile.TemporaryDirectory() as tmp:
            result = run_script(name, Path(tmp) / "game.txt")
            assert result.exit_code == 0, result.output
            data = json.loads(result.stdout)
            data.pop("transcript")
        path = SCRIPTS / f"{name}.expected.json"
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        print(f"{path}: winner {data['winner']}, {len(data['hands'])} hands")


if __name__ == "__main__":
    if sys.argv[1:] == ["--regen"]:
        regen()
    else:
        print(__doc__)
