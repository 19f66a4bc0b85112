"""``--bot-timeout`` and ``--on-bot-failure`` on ``spades play``, ``run`` and ``resume``.

A ``cmd:`` bot that fails ends the game with exit 1, one message naming the seat and the
reason, and a transcript ending with ``terminated SEAT "reason"`` then ``end *`` (which
``spades replay`` accepts); with ``--on-bot-failure LEVEL`` a built-in bot decides instead
and each takeover is a ``note`` line. The bots are ``tests/bots/misbehave.py``.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import Result
from helpers.cli import run_cli
from helpers.paths import BOT_PROGRAMS, TRANSCRIPTS

from spades_cli.errors import EXIT_ILLEGAL, EXIT_OK, EXIT_UNFINISHED, EXIT_USAGE

BOTS = BOT_PROGRAMS
SCRIPT = TRANSCRIPTS / "scripts" / "four-player.txt"  # South scripted for hand 1; N, E, W free
UNFINISHED = TRANSCRIPTS / "four-player-unfinished.txt"  # hand 3, trick 3: West to play
FAST = ["--bot-timeout", "0.5"]
GARBAGE = re.escape("sent 'hello table, how are you', which is not an answer (= ACTION or ? ERROR)")


def misbehave(mode: str, after: int = 0) -> str:
    """The command of a bot that answers ``after`` requests legally, then misbehaves."""
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(BOTS / 'misbehave.py'))} {mode} {after}"


def quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def no_traceback(result: Result) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output


def check_terminated(
    result: Result, path: Path, seat: str, command: str, kind: str, reason: str, mode: str
) -> None:
    """Exit 1, one message ``seat SEAT (cmd:...) failed: REASON`` (REASON a regular
    expression), and the transcript ends with the same reason then ``end *``; it replays."""
    no_traceback(result)
    assert result.exit_code == EXIT_ILLEGAL, result.output
    label = f"cmd:{command}"
    message = re.fullmatch(rf"spades: seat {seat} \({re.escape(label)}\) failed: ({reason})\n", result.stderr)
    assert message is not None, result.stderr
    record = f"{label} failed ({kind}): {message.group(1)}"
    assert lines(path)[-2:] == [f"terminated {seat} {quoted(record)}", "end *"]
    name_note = f"note {seat} {quoted(f'played by misbehave {mode} (bot protocol 1, {label})')}"
    assert lines(path).count(name_note) == 1
    assert path.with_name(f"{path.stem}.{seat}.log").exists()
    replayed = run_cli(["replay", str(path), "--json"])
    assert replayed.exit_code == EXIT_OK, replayed.output
    assert json.loads(replayed.stdout)["terminated"] == {"seat": seat, "reason": record}


def takeover_notes(path: Path, seat: str, level: str) -> list[str]:
    prefix = f'note {seat} "the program failed ('
    notes = [line for line in lines(path) if line.startswith(prefix)]
    assert all(f"; the {level} bot decided " in note for note in notes), notes
    return notes


# ---------------------------------------------------------------------------- run


def run(out: Path, *extra: str) -> Result:
    return run_cli(["run", str(SCRIPT), "-o", str(out), "--then", "random", *extra])


RUN_FAILURES = [
    # mode, kind, reason (a regular expression); North's first request is its bid
    ("garbage", "garbage", GARBAGE),
    ("silent", "timeout", re.escape("gave no answer to the bid request within 0.5 s")),
    ("crash", "crash", re.escape("exited with status 3")),
    ("refuse", "refused", re.escape("declined the bid request: 'I would rather not'")),
]


@pytest.mark.slow
@pytest.mark.parametrize(("mode", "kind", "reason"), RUN_FAILURES, ids=[c[0] for c in RUN_FAILURES])
def test_run_ends_with_the_termination_record(tmp_path: Path, mode: str, kind: str, reason: str) -> None:
    out = tmp_path / "game.txt"
    command = misbehave(mode)
    result = run(out, f"--seat=N=cmd:{command}", *FAST)
    check_terminated(result, out, "N", command, kind, reason, mode)


def test_run_with_a_fallback_goes_on_and_notes_the_takeovers(tmp_path: Path) -> None:
    out = tmp_path / "game.txt"
    command = misbehave("illegal", after=1)
    result = run(out, f"--seat=N=cmd:{command}", "--on-bot-failure", "easy", "--max-hands", "1", *FAST)
    no_traceback(result)
    assert result.exit_code == EXIT_OK, result.output
    text = lines(out)
    assert text[-1] == "end *"
    assert not any(line.startswith("terminated") for line in text)
    notes = takeover_notes(out, "N", "easy")
    # illegal, illegal, illegal: the third failure in a row retires the program
    assert len(notes) == 3
    assert notes[0].startswith('note N "the program failed (illegal: answered ')
    assert notes[-1].endswith(' instead and plays seat N for the rest of the game"')
    assert run_cli(["replay", str(out)]).exit_code == EXIT_OK


@pytest.mark.slow
def test_run_applies_the_flags_to_the_then_bot(tmp_path: Path) -> None:
    out = tmp_path / "game.txt"
    command = misbehave("silent")
    result = run_cli(["run", str(SCRIPT), "-o", str(out), "--then", f"cmd:{command}", *FAST])
    no_traceback(result)
    assert result.exit_code == EXIT_ILLEGAL, result.output
    assert "spades: seat S (cmd:" in result.stderr
    assert "gave no answer to the bid request within 0.5 s" in result.stderr
    assert lines(out)[-2].startswith(f'terminated S "cmd:{command} failed (timeout): ')
    assert lines(out)[-1] == "end *"


# ---------------------------------------------------------------------------- resume


@pytest.fixture
def unfinished(tmp_path: Path) -> Path:
    path = tmp_path / "game.txt"
    shutil.copyfile(UNFINISHED, path)
    return path


def test_resume_ends_with_the_termination_record(unfinished: Path) -> None:
    command = misbehave("crash")
    result = run_cli(["resume", str(unfinished), f"--seat=E=cmd:{command}", *FAST])
    check_terminated(result, unfinished, "E", command, "crash", re.escape("exited with status 3"), "crash")
    assert lines(unfinished).count(f"seat E {quoted(f'cmd:{command}')}") == 1


def test_resume_reports_an_illegal_card_exactly(unfinished: Path) -> None:
    command = misbehave("illegal")
    result = run_cli(["resume", str(unfinished), f"--seat=W=cmd:{command}", *FAST])
    check_terminated(
        result, unfinished, "W", command, "illegal", r"answered (\w\w), which is illegal: .+", "illegal"
    )


def test_resume_with_a_fallback_goes_on_and_notes_the_takeover(
    unfinished: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    command = misbehave("garbage", after=1)
    once = tmp_path / "once"
    monkeypatch.setenv("MISBEHAVE_ONCE", str(once))  # one failure only, even across restarts
    result = run_cli(
        [
            "resume",
            str(unfinished),
            f"--seat=W=cmd:{command}",
            "--on-bot-failure",
            "easy",
            "--max-hands",
            "3",
            *FAST,
        ]
    )
    no_traceback(result)
    assert result.exit_code == EXIT_OK, result.output
    assert once.exists()
    notes = takeover_notes(unfinished, "W", "easy")
    assert len(notes) == 1
    assert notes[0].startswith(
        "note W \"the program failed (garbage: sent 'hello table, how are you', which is not an answer"
    )
    assert lines(unfinished)[-1] == "end *"
    assert run_cli(["replay", str(unfinished)]).exit_code == EXIT_OK


def test_resume_with_prompt_seat_ends_with_the_termination_record(unfinished: Path) -> None:
    command = misbehave("refuse")
    result = run_cli(
        ["resume", str(unfinished), "--seat=S=human", f"--seat=E=cmd:{command}", *FAST], input=""
    )
    reason = re.escape("declined the card request: 'I would rather not'")
    check_terminated(result, unfinished, "E", command, "refused", reason, "refuse")


# ---------------------------------------------------------------------------- play (batch)


def play(out: Path, moves: Sequence[str], *extra: str) -> Result:
    text = "".join(f"{m}\n" for m in moves)
    return run_cli(["play", "--seed", "7", "--transcript", str(out), "--ascii", *extra], input=text)


def test_play_ends_with_the_termination_record(tmp_path: Path) -> None:
    out = tmp_path / "game.txt"
    command = misbehave("garbage")
    # Seed 7: East deals, South bids first, East bids last.
    result = play(out, ["3"], f"--seat=E=cmd:{command}", *FAST)
    check_terminated(result, out, "E", command, "garbage", GARBAGE, "garbage")


def test_play_with_a_fallback_goes_on_and_notes_the_takeover(tmp_path: Path) -> None:
    out = tmp_path / "game.txt"
    command = misbehave("silent")
    result = play(out, ["3"], f"--seat=E=cmd:{command}", "--on-bot-failure", "normal", "--bot-timeout", "0.3")
    no_traceback(result)
    assert result.exit_code == EXIT_UNFINISHED, result.output  # input ran out: saved
    notes = takeover_notes(out, "E", "normal")
    assert notes == [
        f'note E "the program failed (timeout: gave no answer to the bid request within 0.3 s); '
        f"the normal bot decided {notes[0].split(' decided ')[1]}"
    ]
    assert "South to lead" in result.stdout
    assert lines(out)[-1] == "end *"


# ---------------------------------------------------------------------------- usage


@pytest.mark.parametrize("value", ["-1", "0", "abc", "", "nan", "inf", "1e400", "86401"])
@pytest.mark.parametrize("command", ["play", "run", "resume"])
def test_bad_bot_timeouts_are_usage_errors(unfinished: Path, command: str, value: str) -> None:
    before = unfinished.read_bytes()
    args = {"play": ["play"], "run": ["run", str(SCRIPT)], "resume": ["resume", str(unfinished)]}[command]
    result = run_cli([*args, "--seat=E=cmd:python3 -c pass", "--bot-timeout", value], input="")
    no_traceback(result)
    assert result.exit_code == EXIT_USAGE, result.output
    assert "'--bot-timeout'" in result.stderr
    assert unfinished.read_bytes() == before


@pytest.mark.parametrize("command", ["play", "run", "resume"])
def test_unknown_fallback_levels_are_usage_errors(unfinished: Path, command: str) -> None:
    args = {"play": ["play"], "run": ["run", str(SCRIPT)], "resume": ["resume", str(unfinished)]}[command]
    result = run_cli([*args, "--on-bot-failure", "genius"], input="")
    assert result.exit_code == EXIT_USAGE, result.output
    assert "'--on-bot-failure'" in result.stderr
