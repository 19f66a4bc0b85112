"""``replay --step``: every position of a recorded game, forward and back by move, trick or hand."""

from __future__ import annotations

import io
import signal
import subprocess
import sys

import pytest
from helpers.paths import TRANSCRIPTS

from spades_cli.errors import EXIT_TERMINATED
from spades_cli.repl.stepper import KEYS, Stepper, positions, step_through
from spades_cli.transcript import read_transcript, replay
from spades_cli.view import Look


def _game(name: str) -> tuple[Look, Stepper]:
    match = replay(read_transcript(TRANSCRIPTS / name)).match
    look = Look(match.rules, symbols=False)
    assert match.dealer is not None
    game = positions(match.rules, match.dealer, match.decks, match.state.history, look)
    return look, Stepper(look, game, 60)


def test_the_draft_is_shown_pick_by_pick_and_hands_shrink_card_by_card() -> None:
    _, stepper = _game("two-player-short.txt")
    shown = []
    for _ in range(3):
        stepper.move("n")
        shown.append("".join(t for _, t in stepper.show()))
    # R-2P-2: North keeps one card and discards the other, pick by pick (here it discards
    # the card drawn and keeps the next), in the words of the prompt.
    assert "North discards 10C and keeps 10D." in shown[1]
    assert "N  10D  discarded: 10C" in shown[1]
    stepper.move("t")  # the end of the first trick: each hand has 12 cards left (R-C-5)
    text = "".join(t for _, t in stepper.show())
    assert "Trick 1 (South led): S [QC], N JC - South wins with QC" in text
    hands = [line for line in text.splitlines() if line[:3] in ("N  ", "S  ")]
    assert [len(h.split()) - 1 for h in hands] == [12, 12]
    stepper.move("n")
    after = "".join(t for _, t in stepper.show())
    assert ": South leads " in after  # the first card of a trick is led, as the prompt says
    assert sum(len(line.split()) - 1 for line in after.splitlines() if line[:3] in ("N  ", "S  ")) == 23


def test_forward_and_back_by_trick_and_hand_and_jump() -> None:
    _, stepper = _game("two-player-short.txt")
    stepper.move("g 2")
    start = stepper.at
    assert stepper.game[start].hand_start and stepper.game[start].state.hand_no == 1
    stepper.move("t")
    stepper.move("t")
    second = stepper.at
    stepper.move("T")
    assert stepper.at < second and stepper.game[stepper.at].trick_end
    stepper.move("H")
    assert stepper.at == start  # the start of this hand, then of the one before
    stepper.move("H")
    assert stepper.at == 0
    assert stepper.move("g 9") == "No hand 9: this game has hands 1 to 2."
    assert stepper.move("x") == f"Unknown key 'x'. {KEYS}"
    stepper.move("e")
    end = "".join(t for _, t in stepper.show())
    assert "Hand 2 is over." in end and "score 92" in end


def test_step_through_shows_the_keys_once_and_stops_at_the_end_of_input() -> None:
    match = replay(read_transcript(TRANSCRIPTS / "four-player-short.txt")).match
    assert match.dealer is not None
    out = io.StringIO()
    step_through(
        match.rules,
        match.dealer,
        match.decks,
        match.state.history,
        io.StringIO("\nt\nh\n"),
        out,
        symbols=False,
        width=60,
    )
    text = out.getvalue()
    assert text.count("Keys: ") == 1
    assert all(len(line) <= 60 for line in text.splitlines())
    assert "Hand 1, move 0 of 56: Hand 1 is dealt." in text
    assert "Hand 1 is over." in text  # 'h' with no next hand goes to the end


@pytest.mark.slow
@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP"])
def test_a_command_without_a_game_stopped_by_a_signal_says_so_in_one_line(signame: str) -> None:
    # replay --step waits for a key: the signal comes while the command runs, not before.
    signum = getattr(signal, signame)
    proc = subprocess.Popen(
        [sys.executable, "-m", "spades_cli", "replay", "--step", str(TRANSCRIPTS / "four-player-short.txt")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    assert proc.stdout is not None
    while not (line := proc.stdout.readline()).startswith("Bids:"):
        assert line, "replay --step ended before showing the deal"
    proc.send_signal(signum)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == EXIT_TERMINATED
    assert err == f"\nspades: stopped by signal {signum}\n"


def test_step_with_stdin_closed_shows_the_start_and_ends_without_a_traceback() -> None:
    # Started with stdin closed (no input at all): as at the end of input.
    path = TRANSCRIPTS / "four-player-short.txt"
    command = f"'{sys.executable}' -m spades_cli replay --step --ascii '{path}' <&-"
    done = subprocess.run(["sh", "-c", command], capture_output=True, text=True, encoding="utf-8", timeout=60)
    assert (done.returncode, done.stderr) == (0, "")
    assert "Bids:" in done.stdout


def test_single_keys_at_a_terminal_act_without_enter() -> None:
    # Each stepper key acts at once; g N is a line; the end of input quits.
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from spades_cli.repl.keys import key_reader

    with create_pipe_input() as pipe:
        pipe.send_text("nnnt\rTg 2\rpe")
        read = key_reader(input=pipe, output=DummyOutput())
        got = [read() for _ in range(9)]
        pipe.send_text("q")
        got.append(read())
    assert got == ["n", "n", "n", "t", "", "T", "g 2", "p", "e", "q"]


def test_stepping_with_single_keys_shows_each_position() -> None:
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from spades_cli.repl.keys import key_reader

    match = replay(read_transcript(TRANSCRIPTS / "two-player-short.txt")).match
    assert match.dealer is not None
    out = io.StringIO()
    with create_pipe_input() as pipe:
        pipe.send_text("nnq")
        read = key_reader(input=pipe, output=DummyOutput())
        args = (match.rules, match.dealer, match.decks, match.state.history)
        step_through(*args, read, out, symbols=False, width=60)
    lines = io.StringIO()
    step_through(*args, io.StringIO("n\nn\nq\n"), lines, symbols=False, width=60)
    assert out.getvalue() == lines.getvalue()  # the same positions as the lines of a pipe
    assert out.getvalue().count("Hand 1, move ") == 3
