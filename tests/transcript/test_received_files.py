"""A received file is data: it never starts a program and never makes us read another file;
games are bounded; SIGTERM and SIGHUP end a game like Ctrl-C. Every test runs the CLI as a
user does."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.cli import run_cli
from helpers.paths import TRANSCRIPTS

from spades_cli.errors import EXIT_TERMINATED
from spades_cli.transcript import read_transcript, replay

ROGUE = "cmd:sh -c 'id > owned; exec spades bot'"
UNFINISHED = (TRANSCRIPTS / "four-player-unfinished.txt").read_text()
RANDOM_SEATS = ["--seat", "N=random", "--seat", "E=random", "--seat", "S=random", "--seat", "W=random"]


def _with_rogue_seat(tmp_path: Path) -> tuple[Path, int]:
    """The unfinished golden game, with East given to a program that leaves a mark."""
    text = UNFINISHED.replace('[Seat "E" "normal"]', f'[Seat "E" "{ROGUE}"]')
    path = tmp_path / "received.txt"
    path.write_text(text)
    line = text.splitlines().index(f'[Seat "E" "{ROGUE}"]') + 1
    return path, line


def test_received_transcript_never_starts_a_program(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    path, line = _with_rogue_seat(tmp_path)
    refused = run_cli(["resume", str(path)])
    assert refused.exit_code == 2
    assert refused.stderr == (
        f"spades: {path}:{line}: seat E is played by a program named in the file ({ROGUE}); "
        "give it a player with --seat E=...\n"
    )
    assert not (tmp_path / "owned").exists()
    assert path.read_text() == UNFINISHED.replace('[Seat "E" "normal"]', f'[Seat "E" "{ROGUE}"]')
    # The command line gives East a player: the game goes on, and still nothing ran.
    played = run_cli(["resume", str(path), "--seat", "E=normal", "--max-hands", "4", "--json"])
    assert played.exit_code == 0, played.stderr
    assert json.loads(played.stdout)["actions"] > 0
    assert not (tmp_path / "owned").exists()


def test_a_seat_line_naming_a_program_is_refused_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    text = UNFINISHED.rstrip("\n").removesuffix("end *") + f'seat W "{ROGUE}"\nend *\n'
    path = tmp_path / "received.txt"
    path.write_text(text)
    refused = run_cli(["resume", str(path)])
    assert refused.exit_code == 2
    where = f"{path}:{len(text.splitlines()) - 1}"
    assert f"{where}: seat W is played by a program named in the file" in refused.stderr
    assert not (tmp_path / "owned").exists()


def test_received_script_never_starts_a_program(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    script = tmp_path / "script.txt"
    script.write_text(f'[Rules "four-player"]\n[Seed "s"]\n[Seat "N" "{ROGUE}"]\n')
    refused = run_cli(["run", str(script), "--seat", "E=random", "--seat", "S=random", "--seat", "W=random"])
    assert refused.exit_code == 2
    assert f"{script}:3: seat N is played by a program named in the file" in refused.stderr
    assert not (tmp_path / "owned").exists()


def test_trust_programs_shows_each_command_line_before_running_it(tmp_path: Path) -> None:
    bot = f"{shlex.quote(sys.executable)} -m spades_cli bot --level easy"
    text = UNFINISHED.replace('[Seat "E" "normal"]', f'[Seat "E" "cmd:{bot}"]')
    path = tmp_path / "trusted.txt"
    path.write_text(text)
    line = text.splitlines().index(f'[Seat "E" "cmd:{bot}"]') + 1
    played = run_cli(["resume", str(path), "--trust-programs", "--max-hands", "3", "--json"])
    assert played.exit_code == 0, played.stderr
    assert f"{path}:{line}: seat E runs the program named in the file: {bot}\n" in played.stderr
    notes = [e.text for e in read_transcript(path).events if type(e).__name__ == "NoteLine"]
    assert any(n.startswith("played by") for n in notes)  # the program did play East


def test_replay_never_starts_a_program(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    path, _ = _with_rogue_seat(tmp_path)
    replayed = run_cli(["replay", str(path)])
    assert replayed.exit_code == 0, replayed.stderr
    assert not (tmp_path / "owned").exists()


def test_a_transcript_names_presets_not_paths(tmp_path: Path) -> None:
    secret = tmp_path / "id_secret.yaml"
    secret.write_text("# PRIVATE KEY MATERIAL\nbase: four-player\nname: ours\n")
    text = UNFINISHED.split('[Rule "', 1)[0].replace('[Rules "four-player"]', f'[Rules "{secret}"]')
    text += "".join(line + "\n" for line in UNFINISHED.splitlines() if not line.startswith("["))
    path = tmp_path / "received.txt"
    path.write_text(text)
    for command in (["replay"], ["resume", "--seat", "E=easy"]):
        refused = run_cli([*command, str(path)])
        assert refused.exit_code == 2
        assert "is not a shipped preset" in refused.stderr and "--rules FILE" in refused.stderr
        assert "PRIVATE" not in refused.stdout + refused.stderr
    # The same file given on the command line may be read.
    allowed = run_cli(["replay", "--json", "--rules", str(secret), str(path)])
    assert allowed.exit_code == 0, allowed.stderr
    # A self-contained transcript ([Rule] tags) needs nothing else.
    assert run_cli(["replay", str(TRANSCRIPTS / "four-player-unfinished.txt")]).exit_code == 0


def test_messages_quote_only_a_short_excerpt_of_a_line(tmp_path: Path) -> None:
    path = tmp_path / "long.txt"
    path.write_text(UNFINISHED + "x" * 100_000 + "\n")
    result = run_cli(["replay", str(path)])
    assert result.exit_code == 2
    assert len(result.stderr) < 300
    assert "xxx..." in result.stderr


@pytest.mark.slow
def test_run_and_resume_stop_after_200_hands_by_default(tmp_path: Path) -> None:
    script = tmp_path / "endless.txt"
    script.write_text(
        '[Rules "four-player"]\n[Set "target=100000"]\n[Set "losing_score=-100000"]\n[Seed "cap"]\n'
    )
    out = tmp_path / "game.txt"
    ran = run_cli(["run", str(script), *RANDOM_SEATS, "-o", str(out), "--json"])
    assert ran.exit_code == 0, ran.stderr
    assert len(json.loads(ran.stdout)["hands"]) == 200
    assert out.read_text().endswith('note "stopped after 200 hands, the limit (--max-hands)"\nend *\n')
    resumed = run_cli(["resume", str(out), "--max-hands", "201", "--json"])
    assert resumed.exit_code == 0, resumed.stderr
    assert len(json.loads(resumed.stdout)["hands"]) == 201
    assert out.read_text().endswith('note "stopped after 201 hands, the limit (--max-hands)"\nend *\n')


def _lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


@pytest.mark.slow
@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_sigterm_and_sighup_end_a_game_like_ctrl_c(tmp_path: Path, name: str) -> None:
    signum = getattr(signal, name, None)
    if signum is None:
        pytest.skip(f"no {name} here")
    script = tmp_path / "long.txt"
    script.write_text('[Rules "four-player"]\n[Set "losing_score=-10000"]\n[Seed "term"]\n')
    out = tmp_path / "game.txt"
    proc = subprocess.Popen(
        [sys.executable, "-m", "spades_cli", "run", str(script), *RANDOM_SEATS, "-o", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    try:
        deadline = time.monotonic() + 120
        while _lines(out) < 200:
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            assert time.monotonic() < deadline, "the game did not get going"
            time.sleep(0.002)
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == EXIT_TERMINATED, err
    assert b"the game is saved" in err
    text = out.read_text()
    assert text.endswith("end *\n")
    result = replay(read_transcript(out))
    assert not result.match.finished and result.ended


def test_a_game_stopped_after_one_hand_says_one_hand(tmp_path: Path) -> None:
    """The cap's note counts in words a person reads: 1 hand, not 1 hands (issue 34)."""
    script = tmp_path / "one.txt"
    script.write_text('[Rules "four-player"]\n[Seed "cap1"]\n')
    out = tmp_path / "game.txt"
    ran = run_cli(["run", str(script), *RANDOM_SEATS, "-o", str(out), "--max-hands", "1"])
    assert ran.exit_code == 0, ran.stderr
    assert out.read_text().endswith('note "stopped after 1 hand, the limit (--max-hands)"\nend *\n')
