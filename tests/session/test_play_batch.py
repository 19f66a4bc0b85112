"""``spades play`` without a terminal: moves read line by line, plain text out, exit codes.

The golden outputs below are exact for their seeds: they change only when the rules
engine, the bots or the wording of the prompt change (then compare and update them).
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from spades_cli.app.setup import RulesChoice, make_seats, open_transcript
from spades_cli.cli.cmd_play import seat_labels
from spades_cli.cli.main import main
from spades_cli.engine.notation import action_text
from spades_cli.errors import EXIT_INTERRUPTED, EXIT_OK, EXIT_TERMINATED, EXIT_UNFINISHED, EXIT_USAGE
from spades_cli.game.match import Match
from spades_cli.game.run import GameRun
from spades_cli.presets import load_rules
from spades_cli.repl import PromptSeat, play_match
from spades_cli.repl.core import PlaySession
from spades_cli.transcript import TranscriptWriter, read_transcript, replay


def play(args: Sequence[str], lines: Sequence[str], home: Path) -> Result:
    runner = CliRunner()
    return runner.invoke(
        main, ["play", *args], input="".join(f"{line}\n" for line in lines), env={"SPADES_HOME": str(home)}
    )


GOLDEN_FOUR = """\
Spades, four-player rules: game to 500. Seed 7.
Seats: North normal bot, East normal bot, South you, West normal bot.
Saving the game in {path}
Type help for the commands.
Hand 1: East deals.

Hand 1 | N -, E -, S ?, W - | NS 0 pts, 0 bags | EW 0 pts, 0 bags
spades not broken
Bids: N -, E -, S ?, W - (0 of 13 bid)
South's hand: J♠ 10♠ 7♠ 3♠ 2♠  K♥ 8♥  A♣ K♣  K♦ 8♦ 6♦ 4♦
South to bid: nil or 1-13
Bids/tricks: N -, E -, S ?, W -. Sides: NS took 0, EW took 0.
South bids 3.
West bids 2.
North bids 2.
East bids 3.

Hand 1, trick 1; spades not broken. South to lead.
        N 2/0
W 2/0              E 3/0
        S 3/0  ?
NS: bid 5, took 0, 0 bags, score 0
EW: bid 5, took 0, 0 bags, score 0
South's hand: J♠ 10♠ 7♠ 3♠ 2♠  K♥ 8♥  A♣ K♣  K♦ 8♦ 6♦ 4♦
South to lead: any card but a spade (spades are not broken yet)
South leads K♣.
West plays 5♣.
North plays 4♣.
East plays 2♣.
Trick 1: South wins with K♣.
        N  4♣
W  5♣             E  2♣
        S  [K♣]

Hand 1, trick 2; spades not broken. South to lead.
        N 2/0
W 2/0              E 3/0
        S 3/1  ?
NS: bid 5, took 1, 0 bags, score 0
EW: bid 5, took 0, 0 bags, score 0
South's hand: J♠ 10♠ 7♠ 3♠ 2♠  K♥ 8♥  A♣  K♦ 8♦ 6♦ 4♦
South to lead: any card but a spade (spades are not broken yet)
Spades are not broken yet: lead another suit
South leads A♣.
West plays 9♣.
North plays 6♣.
East plays 3♣.
Trick 2: South wins with A♣.
        N  6♣
W  9♣             E  3♣
        S  [A♣]

Hand 1, trick 3; spades not broken. South to lead.
        N 2/0
W 2/0              E 3/0
        S 3/2  ?
NS: bid 5, took 2, 0 bags, score 0
EW: bid 5, took 0, 0 bags, score 0
South's hand: J♠ 10♠ 7♠ 3♠ 2♠  K♥ 8♥  K♦ 8♦ 6♦ 4♦
South to lead: any card but a spade (spades are not broken yet)
Took back South's A♣ and 3 moves after it.

Hand 1, trick 2; spades not broken. South to lead.
        N 2/0
W 2/0              E 3/0
        S 3/1  ?
NS: bid 5, took 1, 0 bags, score 0
EW: bid 5, took 0, 0 bags, score 0
South's hand: J♠ 10♠ 7♠ 3♠ 2♠  K♥ 8♥  A♣  K♦ 8♦ 6♦ 4♦
South to lead: any card but a spade (spades are not broken yet)
South leads 4♦.
West plays A♦.
North plays 2♦.
East plays 3♦.
Trick 2: West wins with A♦.
          N  2♦
W  [A♦]            E  3♦
          S  4♦
West leads 2♥.
North plays 6♥.
East plays A♥.

Hand 1, trick 3: West led, East is winning. South to play.
            N 2/0  6♥
W 2/1  2♥               E 3/0  [A♥]
            S 3/1  ?
NS: bid 5, took 1, 0 bags, score 0
EW: bid 5, took 1, 0 bags, score 0
South's hand: J♠ 10♠ 7♠ 3♠ 2♠  K♥ 8♥  A♣  K♦ 8♦ 6♦
South to play: follow hearts (K♥ 8♥)
You do not hold 4♦
No hand has been scored yet (game to 500).
Game saved in {path}
Continue it with: spades resume {path}
"""


def test_the_undo_policy_is_a_tag_and_resume_keeps_it(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    result = play(["--seed", "7", "--undo", "never", "--transcript", str(path)], ["3"], tmp_path)
    assert result.exit_code == EXIT_UNFINISHED
    assert '\n[Undo "never"]\n' in path.read_text(encoding="utf-8")
    resumed = CliRunner().invoke(
        main, ["resume", str(path)], input="KC\nundo\n", env={"SPADES_HOME": str(tmp_path)}
    )
    assert "Undo is off at this table (--undo never): decisions stand.\n" in resumed.output
    default = tmp_path / "default.txt"
    play(["--seed", "7", "--transcript", str(default)], [], tmp_path)
    assert '\n[Undo "before-new-info"]\n' in default.read_text(encoding="utf-8")


def test_batch_output_is_exact_for_a_fixed_seed(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    moves = ["bids", "3", "KC", "2s", "AC", "undo", "4D", "4D", "score"]
    result = play(["--seed", "7", "--undo", "always", "--transcript", str(path)], moves, tmp_path)
    assert result.output == GOLDEN_FOUR.format(path=path)
    assert result.exit_code == EXIT_UNFINISHED
    # The transcript records the undo and replays to the same position.
    text = path.read_text(encoding="utf-8")
    assert "\nundo S\n" in text and text.endswith("end *\n")
    replayed = replay(read_transcript(path))
    assert not replayed.match.finished
    assert len(replayed.match.state.tricks) == 2 and len(replayed.match.state.trick) == 3


GOLDEN_HOT_SEAT = """\
Spades, two-player rules: game to 500. Seed 3.
Seats: North a person, South a person.
Saving the game in {path}
Type help for the commands.
Hand 1: North draws first; South bids first and leads.
North's turn: pass the keyboard to North.

Hand 1 | N -, S - | N 0 pts, 0 bags | S 0 pts, 0 bags | spades not broken
North: declare double nil before your first card? (blind or noblind)
North does not declare double nil.

North's hand: (no cards)
North draws card 1 of 13: 8♥ - keep or discard?
North discards 8♥ and keeps 2♦.
South's turn: pass the keyboard to South.

South: declare double nil before your first card? (blind or noblind)
South does not declare double nil.

South's hand: (no cards)
South draws card 1 of 13: A♠ - keep or discard?
South keeps A♠ and discards 7♦.
North's turn: pass the keyboard to North.

North's hand: 2♦
North draws card 2 of 13: 8♣ - keep or discard?
North's hand: 2♦
North's discards: 8♥
'10': answer keep to keep this card and discard the next, or discard to keep the next
North's hand: 2♦
North's discards: 8♥
North keeps 8♣ and discards K♦.
South's turn: pass the keyboard to South.

South's hand: A♠
South draws card 2 of 13: K♣ - keep or discard?
Game saved in {path}
Continue it with: spades resume {path}
"""


def test_hot_seat_two_player_draft_in_batch(tmp_path: Path) -> None:
    # R-2P-2 / R-2P-3: each player declares (or not) before her first card, then drafts.
    path = tmp_path / "game.txt"
    moves = ["noblind", "discard", "noblind", "keep", "hand", "10", "hand", "keep"]
    result = play(
        [
            "--rules",
            "two-player",
            "--seed",
            "3",
            "--seat",
            "N=human",
            "--seat",
            "S=human",
            "--transcript",
            str(path),
        ],
        moves,
        tmp_path,
    )
    assert result.output == GOLDEN_HOT_SEAT.format(path=path)
    assert result.exit_code == EXIT_UNFINISHED


# -- exit codes --------------------------------------------------------------------------------


def _twin(preset: str, seed: int, overrides: Sequence[str] = ()) -> PlaySession:
    rules = load_rules(preset, overrides)
    labels = seat_labels(rules, [])
    match = Match(rules, seed, make_seats(rules, labels, human=lambda _label: PromptSeat()))
    session = PlaySession(match, {s for s, label in labels.items() if label == "human"})
    session.start()
    return session


def _whole_game(preset: str, seed: int, overrides: Sequence[str]) -> list[str]:
    twin = _twin(preset, seed, overrides)
    lines = []
    while not twin.done:
        line = action_text(twin.state.legal_actions()[0])
        lines.append(line)
        twin.handle(line)
    return lines


def test_a_finished_game_exits_0_and_says_who_won(tmp_path: Path) -> None:
    # R-C-11: the game ends once a side reaches the target after a hand.
    overrides = ["target=60"]
    lines = _whole_game("two-player", 5, overrides)
    path = tmp_path / "game.txt"
    result = play(
        ["--rules", "two-player", "--set", "target=60", "--seed", "5", "--transcript", str(path)],
        lines,
        tmp_path,
    )
    assert result.exit_code == EXIT_OK
    tail = result.output.splitlines()[-3:]
    assert tail[0].startswith("Game over: ") and tail[1] == f"The game is saved in {path}"
    assert tail[2] == "Play again? (yes/no)"  # asked in batch mode too: the end of input is no
    assert path.read_text(encoding="utf-8").rstrip().splitlines()[-1].startswith("end winner ")


@pytest.mark.parametrize(
    ("answer", "code", "games"), [(None, EXIT_OK, 1), ("no", EXIT_OK, 1), ("yes", EXIT_UNFINISHED, 2)]
)
def test_play_again_is_asked_in_batch_mode_and_the_end_of_input_is_no(
    tmp_path: Path, answer: str | None, code: int, games: int
) -> None:
    # R-C-11: a finished game; "yes" deals a new game (a new seed, a new file) and reads its
    # moves from the following lines: here none, so it is left unfinished and saved (exit 3).
    lines = _whole_game("two-player", 5, ["target=60"])
    path = tmp_path / "game.txt"
    result = play(
        ["--rules", "two-player", "--set", "target=60", "--seed", "5", "--transcript", str(path)],
        [*lines, *([answer] if answer else [])],
        tmp_path,
    )
    assert result.exit_code == code
    out = result.output
    assert out.count("Play again? (yes/no)") == 1
    assert out.count("Spades, two-player rules: game to 60.") == games
    if answer == "yes":
        second = out.split("Play again? (yes/no)\n")[1]
        assert second.startswith("Spades, two-player rules: game to 60. Seed ")
        assert "Continue it with: spades resume " in out


def test_play_again_takes_only_yes_or_no(tmp_path: Path) -> None:
    # One spelling for every word at the table: "y" is refused the way a mistyped word is.
    lines = _whole_game("two-player", 5, ["target=60"])
    result = play(
        [
            "--rules",
            "two-player",
            "--set",
            "target=60",
            "--seed",
            "5",
            "--transcript",
            str(tmp_path / "g.txt"),
        ],
        [*lines, "y", "maybe", "no"],
        tmp_path,
    )
    assert result.exit_code == EXIT_OK
    tail = result.output.split("Play again? (yes/no)\n")[1]
    assert tail == "Type yes or no: did you mean 'yes'?\nType yes or no.\n"


def test_default_transcript_goes_to_the_per_user_folder(tmp_path: Path) -> None:
    result = play(["--seed", "12"], ["3"], tmp_path)
    assert result.exit_code == EXIT_UNFINISHED
    saved = tmp_path / "transcripts" / "game-12-1.txt"
    assert f"Saving the game in {saved}" in result.output
    assert read_transcript(saved).seed == "12"


def test_without_a_seed_a_fresh_one_is_used_and_recorded(tmp_path: Path) -> None:
    result = play([], [], tmp_path)
    assert result.exit_code == EXIT_UNFINISHED
    seed = result.output.splitlines()[0].split("Seed ")[1].rstrip(".")
    (saved,) = (tmp_path / "transcripts").iterdir()
    assert read_transcript(saved).seed == seed


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seat", "S=easy"], "no seat is played at the prompt: give one to a person, e.g. --seat S=human"),
        (["--seat", "X=human"], "--seat 'X=human': unknown seat 'X' (seats: N, E, S, W)"),
        (["--rules", "two-player", "--seat", "E=human"], "--seat 'E=human': unknown seat 'E' (seats: N, S)"),
        (["--seat", "N=genius"], "--seat 'N=genius': unknown player 'genius'"),
    ],
)
def test_usage_errors_exit_2_with_one_message(tmp_path: Path, args: list[str], message: str) -> None:
    result = play(args, [], tmp_path)
    assert result.exit_code == EXIT_USAGE
    assert result.output.startswith(f"spades: {message}")
    assert len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "transcripts").exists() or not any((tmp_path / "transcripts").iterdir())


def test_an_existing_transcript_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "kept.txt"
    path.write_text("precious\n", encoding="utf-8")
    result = play(["--transcript", str(path)], ["3"], tmp_path)
    assert result.exit_code == EXIT_USAGE
    assert "already exists" in result.output
    assert path.read_text(encoding="utf-8") == "precious\n"


def test_bytes_that_are_not_text_get_one_line(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(
        main, ["play", "--seed", "7", "--ascii"], input=b"\xff\xfe\n3\n", env={"SPADES_HOME": str(tmp_path)}
    )
    assert result.exit_code == EXIT_UNFINISHED
    assert "'\ufffd\ufffd' is not a bid: bid nil or 1-13" in result.output
    assert "South bids 3." in result.output


# -- a game left is continued ----------------------------------------------------------------


def test_a_game_left_at_the_prompt_continues_from_its_transcript(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Play and leave; continue from the transcript the way 'spades resume' does (replay
    # into a writer, then append), and compare with the same moves played without a break.
    lines = ["3", *_first_cards(7, 12)]
    path = tmp_path / "game.txt"
    first = play(["--seed", "7", "--transcript", str(path)], lines[:4], tmp_path)
    assert first.exit_code == EXIT_UNFINISHED
    buffer = io.StringIO()
    writer = TranscriptWriter(buffer)
    done = replay(read_transcript(path), writer=writer, keep_end=False)
    match = done.match
    match.controllers = make_seats(match.rules, done.labels, human=lambda _label: PromptSeat())
    path.write_text(buffer.getvalue(), encoding="utf-8")
    writer.retarget(open(path, "a", encoding="utf-8"), path=str(path))  # noqa: SIM115 - the writer closes it
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines[4:])))
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert play_match(done.run, {2}, batch=True) == EXIT_UNFINISHED
    straight = _twin("four-player", 7)
    for line in lines:
        straight.handle(line)
    assert match.state.history == straight.state.history
    again = replay(read_transcript(path))
    assert again.match.state.history == straight.state.history


def _first_cards(seed: int, count: int) -> list[str]:
    twin = _twin("four-player", seed)
    twin.handle("3")
    cards = []
    for _ in range(count):
        line = action_text(twin.state.legal_actions()[0])
        cards.append(line)
        twin.handle(line)
    return cards


def test_play_match_marks_the_transcript_unfinished(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = load_rules("four-player")
    labels = seat_labels(rules, [])
    match = Match(rules, 7, make_seats(rules, labels, human=lambda _label: PromptSeat()))
    path = tmp_path / "g.txt"
    seats = [labels[s] for s in range(4)]
    choice = RulesChoice(rules, "four-player", ())
    run = GameRun(match, writer=open_transcript(str(path), match, choice, seats=seats, exclusive=False))
    monkeypatch.setattr(sys, "stdin", io.StringIO("3\n"))
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert play_match(run, {2}, batch=True) == EXIT_UNFINISHED
    assert path.read_text(encoding="utf-8").endswith("end *\n")


# -- Ctrl-C in batch mode ------------------------------------------------------------------------


def _signal_mid_game(tmp_path: Path, signum: int) -> tuple[subprocess.Popen[str], str, str]:
    """Start ``spades play`` in batch mode, bid, and send ``signum`` while the game waits
    for South's card; return the process, its output and its error output."""
    path = tmp_path / "game.txt"
    env = dict(os.environ, SPADES_HOME=str(tmp_path))
    proc = subprocess.Popen(
        [sys.executable, "-m", "spades_cli", "play", "--seed", "7", "--transcript", str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
        encoding="utf-8",
        # The test runner may have been started with the signal ignored, which the game
        # (rightly) keeps, so give the child the default.
        preexec_fn=lambda: signal.signal(signum, signal.SIG_DFL),
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("3\n")
    proc.stdin.flush()
    for line in proc.stdout:
        if line.startswith("South to lead"):
            break
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=30)
    return proc, out, err


def test_ctrl_c_in_batch_mode_saves_and_exits_130(tmp_path: Path) -> None:
    proc, out, err = _signal_mid_game(tmp_path, signal.SIGINT)
    assert proc.returncode == EXIT_INTERRUPTED
    assert out.splitlines()[:1] == ["Interrupted."]
    assert "Continue it with: spades resume" in out
    assert "Traceback" not in err
    text = (tmp_path / "game.txt").read_text(encoding="utf-8")
    assert "bids " in text and text.endswith("end *\n")


def test_closed_stdin_leaves_saved_without_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    command = f"'{sys.executable}' -m spades_cli play --seed 7 --transcript '{path}' <&-"
    done = subprocess.run(
        ["sh", "-c", command],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=dict(os.environ, SPADES_HOME=str(tmp_path)),
        timeout=60,
    )
    assert done.returncode == EXIT_UNFINISHED
    assert done.stdout.endswith(f"Continue it with: spades resume {path}\n")
    assert done.stderr == ""
    assert path.read_text(encoding="utf-8").endswith("end *\n")


@pytest.mark.slow
@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP"])
def test_sigterm_and_sighup_in_batch_mode_save_with_end_and_exit_143(tmp_path: Path, signame: str) -> None:
    signum = getattr(signal, signame)
    proc, _out, err = _signal_mid_game(tmp_path, signum)
    assert proc.returncode == EXIT_TERMINATED
    assert f"stopped by signal {signum}; the game is saved" in err
    assert "Traceback" not in err
    text = (tmp_path / "game.txt").read_text(encoding="utf-8")
    assert "bids " in text and text.endswith("end *\n")
