"""The table never trusts a program: misbehaving bots end as documented, never hang the
table, and leave no process behind (docs/bot-protocol.md, "When a bot fails")."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from helpers.paths import BOT_PROGRAMS

from spades_cli.app.setup import RulesChoice, SeatOptions, make_seat, open_transcript
from spades_cli.cli.options import bot_options
from spades_cli.engine import Rules
from spades_cli.errors import UsageError
from spades_cli.game.events import Event, Noted
from spades_cli.game.match import Match
from spades_cli.game.run import GameRun
from spades_cli.game.seats import BotController, bot_log_path
from spades_cli.presets import load_rules
from spades_cli.protocol import BotFailure, ExternalController
from spades_cli.transcript import NoteLine, TerminatedLine, read_transcript, replay

BOTS = BOT_PROGRAMS
PYTHON = shlex.quote(sys.executable)


def misbehave(mode: str, after: int = 2) -> str:
    return f"{PYTHON} {shlex.quote(str(BOTS / 'misbehave.py'))} {mode} {after}"


def table(program: ExternalController, rules: Rules, seed: str = "failures") -> Match:
    """North is the program; the other seats are the normal bot."""
    others = [BotController("normal") for _ in range(rules.players - 1)]
    return Match(rules, seed, [program, *others])


def reaped(pid: int) -> bool:
    """The process has been waited for (it is not our zombie) and no longer runs."""
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return not Path(f"/proc/{pid}").exists() or _state(pid) == "Z"
    return False


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return "gone"


CASES = [
    # mode, kind, the whole reason (a regular expression)
    ("garbage", "garbage", r"sent 'hello table, how are you', which is not an answer \(= ACTION or \? \w+\)"),
    ("nonsense", "unreadable", r"answered 'banana' to a card request: 'banana' is not a card \(.*\)"),
    ("illegal", "illegal", r"answered (\w\w), which is illegal: you do not hold \1"),
    ("refuse", "refused", r"declined the card request: 'I would rather not'"),
    ("crash", "crash", r"exited with status 3"),
    ("flood", "overflow", r"sent a line longer than 64 KiB"),
    ("flood-lines", "overflow", r"sent more than 1024 KiB for one decision"),
    ("twice", "unsolicited", r"sent '= \w\w' when nothing was asked"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("mode", "kind", "reason"), CASES)
def test_a_misbehaving_program_ends_the_game_with_the_reason(mode: str, kind: str, reason: str) -> None:
    rules = load_rules("four-player")
    program = ExternalController(misbehave(mode), rules, timeout=10.0)
    match = table(program, rules)
    assert program.start() == f"misbehave {mode}"
    pid = program.pid
    assert pid is not None
    with pytest.raises(BotFailure) as caught:
        GameRun(match).play()
    failure = caught.value
    assert (failure.seat, failure.seat_name, failure.kind) == (0, "N", kind)
    assert re.fullmatch(reason, failure.reason), failure.reason
    assert failure.exit_code == 1
    assert str(failure) == f"seat N ({program.label}) failed: {failure.reason}"
    assert failure.record == f"{program.label} failed ({kind}): {failure.reason}"
    assert program.pid is None and reaped(pid)
    assert not match.finished


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["silent", "trickle"])
def test_silence_or_endless_dribble_past_the_time_limit_is_a_timeout(mode: str) -> None:
    rules = load_rules("two-player")
    with ExternalController(misbehave(mode), rules, timeout=0.5) as program:
        program.start()
        pid = program.pid
        with pytest.raises(BotFailure) as caught:
            GameRun(table(program, rules)).play()
    assert caught.value.kind == "timeout"
    assert caught.value.reason.startswith("gave no answer to the ")
    assert caught.value.reason.endswith(" request within 0.5 s")
    assert pid is not None and reaped(pid)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("command", "kind", "reason"),
    [
        (misbehave("bad-hello"), "handshake", "speaks protocol version '7'; this table speaks 1"),
        (misbehave("no-hello"), "handshake", "refused the handshake: '? unknown command'"),
        (misbehave("silent-hello"), "timeout", "gave no answer to the handshake within 0.5 s"),
        (f"{PYTHON} -c pass", "crash", "exited with status 0 during the handshake"),
        ("/nonexistent/spades-bot --fast", "start", "cannot run '/nonexistent/spades-bot --fast'"),
    ],
)
def test_a_program_that_cannot_start_or_greet_fails_at_the_handshake(
    command: str, kind: str, reason: str
) -> None:
    rules = load_rules("two-player")
    program = ExternalController(command, rules, timeout=5.0, startup_timeout=0.5, seat=1)
    with pytest.raises(BotFailure) as caught:
        program.start()
    assert (caught.value.seat_name, caught.value.kind) == ("S", kind)
    assert reason in caught.value.reason
    # The same failure when the game asks the program first.
    with pytest.raises(BotFailure) as again:
        GameRun(Match(rules, "x", [BotController("easy"), program])).play()
    assert (again.value.seat, again.value.kind) == (1, kind)
    assert program.pid is None


@pytest.mark.slow
def test_the_whole_process_group_is_killed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A program's own child processes do not outlive it."""
    marker = tmp_path / "child.pid"
    monkeypatch.setenv("ORPHAN_PID_FILE", str(marker))
    rules = load_rules("four-player")
    program = ExternalController(misbehave("orphan"), rules, timeout=1.0)
    with pytest.raises(BotFailure, match="gave no answer"):
        GameRun(table(program, rules)).play()
    child = int(marker.read_text())
    deadline = time.monotonic() + 10
    while _state(child) not in ("gone", "Z") and time.monotonic() < deadline:
        time.sleep(0.02)
    assert _state(child) in ("gone", "Z")


def test_programs_left_running_are_killed_when_python_exits(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from spades_cli.presets import load_rules\n"
        "from spades_cli.protocol import ExternalController\n"
        f"p = ExternalController({misbehave('silent')!r}, load_rules('two-player'))\n"
        "p.start()\n"
        "print(p.pid, flush=True)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    pid = int(out.stdout)
    deadline = time.monotonic() + 10
    while _state(pid) not in ("gone", "Z") and time.monotonic() < deadline:
        time.sleep(0.02)
    assert _state(pid) in ("gone", "Z")


def test_with_a_fallback_the_builtin_bot_decides_and_a_repeat_offender_is_stopped() -> None:
    rules = load_rules("four-player")
    events: list[Event] = []
    program = ExternalController(misbehave("illegal"), rules, on_failure="normal", emit=events.append)
    match = table(program, rules)
    with program:
        GameRun(match).play()
    assert match.finished
    assert [(t.seat, t.kind, t.level, t.retired) for t in program.takeovers] == [
        (0, "illegal", "normal", False),
        (0, "illegal", "normal", False),
        (0, "illegal", "normal", True),
    ]
    assert re.fullmatch(
        r"the program failed \(illegal: answered (\w\w), which is illegal: you do not hold \1\); "
        r"the normal bot decided \w\w instead and plays seat N for the rest of the game",
        str(program.takeovers[-1]),
    )
    assert events[0] == Noted(0, f"played by misbehave illegal (bot protocol 1, {program.label})")
    assert events[1:] == [Noted(0, str(t)) for t in program.takeovers]


def test_after_one_crash_the_program_is_started_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MISBEHAVE_ONCE", str(tmp_path / "crashed"))
    rules = load_rules("two-player")
    program = ExternalController(misbehave("crash", after=5), rules, timeout=10.0, on_failure="easy")
    match = table(program, rules)
    with program:
        program.start()
        first = program.pid
        GameRun(match).play()
        assert program.pid not in (None, first)
    assert match.finished
    assert [(t.kind, t.reason, t.retired) for t in program.takeovers] == [
        ("crash", "exited with status 3", False)
    ]


def test_a_program_that_cannot_run_is_replaced_for_the_whole_game() -> None:
    rules = load_rules("two-player")
    program = ExternalController("/nonexistent/spades-bot", rules, on_failure="easy")
    match = table(program, rules)
    GameRun(match).play()
    assert match.finished
    assert [(t.kind, t.retired) for t in program.takeovers] == [("start", True)]


def _game_with_transcript(tmp_path: Path, command: str, **options: object) -> tuple[Path, Match, Rules]:
    rules = load_rules("four-player")
    program = ExternalController(command, rules)
    match = table(program, rules, seed="recorded")
    path = tmp_path / "game.txt"
    choice = RulesChoice(rules, "four-player", ())
    seats = [c.label for c in match.controllers]
    writer = open_transcript(str(path), match, choice, seats=seats, exclusive=False)
    run = GameRun(
        match,
        writer=writer,
        bot_timeout=options.get("timeout"),  # type: ignore[arg-type]
        on_bot_failure=options.get("on_failure"),  # type: ignore[arg-type]
    )
    with run:  # a failure is recorded, the game marked unfinished and the programs stopped
        run.play()
    return path, match, rules


def test_the_transcript_says_which_seat_failed_and_why(tmp_path: Path) -> None:
    with pytest.raises(BotFailure) as caught:
        _game_with_transcript(tmp_path, misbehave("garbage"), timeout=10.0)
    path = tmp_path / "game.txt"
    t = read_transcript(path)
    terminated = [e for e in t.events if isinstance(e, TerminatedLine)]
    assert [(e.seat, e.reason) for e in terminated] == [("N", caught.value.record)]
    assert "garbage" in caught.value.record
    notes = [e for e in t.events if isinstance(e, NoteLine)]
    label = f"cmd:{misbehave('garbage')}"
    assert [(e.seat, e.text) for e in notes] == [
        ("N", f"played by misbehave garbage (bot protocol 1, {label})")
    ]
    result = replay(t, load_rules("four-player"))
    assert result.terminated == (0, caught.value.record)
    log = (tmp_path / "game.N.log").read_text()
    assert log.startswith(f"[spades: started {misbehave('garbage')}]")


@pytest.mark.slow
def test_takeovers_are_noted_in_the_transcript_and_it_replays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MISBEHAVE_ONCE", str(tmp_path / "once"))
    path, match, rules = _game_with_transcript(
        tmp_path, misbehave("nonsense", after=3), timeout=10.0, on_failure="hard"
    )
    assert match.finished
    t = read_transcript(path)
    notes = [e.text for e in t.events if isinstance(e, NoteLine)]
    assert len(notes) == 2
    assert notes[1].startswith("the program failed (unreadable: answered 'banana' to a card request: ")
    assert "; the hard bot decided " in notes[1]
    result = replay(t, rules)
    assert result.match.finished and result.match.state.history == match.state.history


def test_the_program_s_stderr_goes_to_its_log(tmp_path: Path) -> None:
    rules = load_rules("two-player")
    log = tmp_path / "bot.log"
    with ExternalController(misbehave("stderr"), rules, log_path=log) as program:
        GameRun(table(program, rules)).play(max_actions=12)
    text = log.read_text()
    assert text.startswith(f"[spades: started {misbehave('stderr')}]\n")
    assert "debug: keep discard" in text or "debug: blind noblind" in text


def test_spades_run_stops_with_exit_1_when_a_program_fails(tmp_path: Path, cli) -> None:
    script = tmp_path / "script.txt"
    script.write_text('[Rules "four-player"]\n[Seed "cli"]\n', encoding="utf-8")
    out = tmp_path / "out.txt"
    result = cli(
        ["run", str(script), "-o", str(out), f"--seat=N=cmd:{misbehave('refuse')}"]
        + [f"--seat={s}=normal" for s in "ESW"]
    )
    assert result.exit_code == 1, result.output
    assert f"spades: seat N (cmd:{misbehave('refuse')}) failed: declined the " in result.stderr
    assert out.exists()


@pytest.mark.parametrize(
    ("command", "options", "message"),
    [
        ("", {}, "the bot command is empty"),
        ("python3 'unclosed", {}, "cannot read the bot command"),
        ("python3 bot.py", {"timeout": 0}, "a bot time limit must be more than 0 seconds, not 0"),
        ("python3 bot.py", {"on_failure": "genius"}, "unknown bot level 'genius' (levels: easy, normal"),
    ],
)
def test_bad_settings_are_usage_errors(command: str, options: dict[str, object], message: str) -> None:
    with pytest.raises(UsageError) as caught:
        ExternalController(command, load_rules("two-player"), **options)  # type: ignore[arg-type]
    assert message in caught.value.message
    assert caught.value.exit_code == 2


def test_cmd_seats_are_external_controllers_with_the_table_s_settings(tmp_path: Path) -> None:
    rules = load_rules("four-player")
    options = SeatOptions("cmd:python3 my_bot.py --deep", 2.5, "easy", tmp_path / "x.log")
    controller = make_seat(options, rules)
    assert isinstance(controller, ExternalController)
    assert controller.argv == ["python3", "my_bot.py", "--deep"]
    assert controller.label == "cmd:python3 my_bot.py --deep"
    assert controller.timeout == 2.5
    assert (controller.on_failure, controller.log_path) == ("easy", tmp_path / "x.log")
    assert bot_log_path(tmp_path / "game.txt", "E") == tmp_path / "game.E.log"
    assert bot_log_path("-", "E") is None


def test_bot_options_add_the_two_flags() -> None:
    seen: list[tuple[float, str | None]] = []

    @click.command()
    @bot_options
    def command(bot_timeout: float, on_bot_failure: str | None) -> None:
        seen.append((bot_timeout, on_bot_failure))

    runner = CliRunner()
    assert runner.invoke(command, []).exit_code == 0
    assert runner.invoke(command, ["--bot-timeout", "0.25", "--on-bot-failure", "hard"]).exit_code == 0
    assert seen == [(5.0, None), (0.25, "hard")]
    assert runner.invoke(command, ["--bot-timeout", "0"]).exit_code == 2
    assert runner.invoke(command, ["--on-bot-failure", "genius"]).exit_code == 2
