"""The pace of the prompt: the pause at the end of a hand, ``--fast`` and ``--speed``.

The prompt_toolkit front end is driven through a pipe input (as in test_repl_prompt);
``time.sleep`` is replaced by a recorder, so the bots' pauses are checked by their
lengths, never by the clock.
"""

from __future__ import annotations

import signal
from pathlib import Path

import pytest
from helpers.cli import run_cli
from helpers.prompt import new_session, run_keys, script_hand

from spades_cli.cli.options import SPEED_NAMES
from spades_cli.errors import EXIT_UNFINISHED, Interrupted
from spades_cli.game.run import GameRun
from spades_cli.repl.core import HAND, INFO, TABLE, Output
from spades_cli.repl.prompt import SPEEDS


@pytest.fixture
def slept(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The pauses the prompt asked for, in order (none is actually waited)."""
    pauses: list[float] = []
    monkeypatch.setattr("spades_cli.repl.prompt.time.sleep", pauses.append)
    return pauses


def after_the_hand(shown: list[Output]) -> list[Output]:
    """What was shown after the first hand's result."""
    first = next(i for i, o in enumerate(shown) if o.kind == HAND)
    return shown[first + 1 :]


def next_hand_shown(shown: list[Output]) -> bool:
    return any(o.kind == INFO and o.text.startswith("Hand 2: ") for o in shown)


def test_the_end_of_a_hand_shows_its_table_and_waits_for_enter(slept: list[float]) -> None:
    # R-C-11: after a hand that does not end the game the next one is dealt, once the
    # player has read the hand's table and pressed Enter.
    lines, _ = script_hand("four-player", 7)
    typed = "".join(f"{line}\r" for line in lines)
    session = new_session()
    code, shown = run_keys(session, typed + "\x04", fast=False)
    rest = after_the_hand(shown)
    assert rest[0].kind == TABLE and "hand" in rest[0].text and "score" in rest[0].text
    assert not next_hand_shown(shown)  # still waiting for Enter when the input ended
    assert code == EXIT_UNFINISHED and len(session.state.results) == 1
    session = new_session()
    code, shown = run_keys(session, typed + "\r\x04", fast=False)
    rest = after_the_hand(shown)
    assert rest[0].kind == TABLE and next_hand_shown(rest)  # Enter: the next hand is dealt


def test_fast_skips_the_pause_and_the_bots_pauses(slept: list[float]) -> None:
    lines, _ = script_hand("four-player", 7)
    session = new_session()
    code, shown = run_keys(session, "".join(f"{line}\r" for line in lines) + "\x04", fast=True)
    assert next_hand_shown(after_the_hand(shown))  # no Enter needed
    assert code == EXIT_UNFINISHED
    assert slept == []


@pytest.mark.parametrize("speed", SPEED_NAMES)
def test_speed_sets_how_long_the_bots_moves_stay(speed: str, slept: list[float]) -> None:
    lines, _ = script_hand("four-player", 7)
    run_keys(new_session(), "".join(f"{line}\r" for line in lines[:4]) + "\x04", fast=False, speed=speed)
    move, trick = SPEEDS[speed]
    assert slept and set(slept) == {move, trick}  # after each bot move, longer after a trick


def test_the_speed_names_are_the_prompts() -> None:
    assert set(SPEED_NAMES) == set(SPEEDS)


@pytest.mark.parametrize("command", ["play", "resume", "host", "join"])
def test_every_command_with_a_prompt_takes_speed(command: str) -> None:
    result = run_cli([command, "--help"])
    assert "--speed [slow|normal|fast]" in result.stdout and "--fast" in result.stdout


def test_resume_passes_speed_to_the_prompt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.txt"
    left = run_cli(["play", "--seed", "7", "--transcript", str(path)], input="3\n")
    assert left.exit_code == EXIT_UNFINISHED
    seen: dict[str, object] = {}

    def fake_play_match(run: GameRun, humans: object, **options: object) -> int:
        seen.update(options)
        with run:  # as play_match does: the transcript is closed
            return 0

    monkeypatch.setattr("spades_cli.repl.play_match", fake_play_match)
    result = run_cli(["resume", str(path), "--speed", "slow", "--fast"])
    assert result.exit_code == 0, result.stderr
    assert seen["speed"] == "slow" and seen["fast"] is True


def test_sigterm_during_a_bots_pause_ends_the_prompt(monkeypatch: pytest.MonkeyPatch) -> None:
    # SIGTERM or SIGHUP arrives as errors.Interrupted (a KeyboardInterrupt): while the
    # prompt pauses on a bot's move it must end the game (saved, exit 143), not be taken
    # for a Ctrl-C that only hurries the bots along.
    def signalled(_seconds: float) -> None:
        raise Interrupted(signal.SIGTERM)

    monkeypatch.setattr("spades_cli.repl.prompt.time.sleep", signalled)
    lines, _ = script_hand("four-player", 7)
    with pytest.raises(Interrupted):
        run_keys(new_session(), "".join(f"{line}\r" for line in lines[:4]) + "\x04", fast=False)
