"""What a player sees in batch mode (the same views as the prompt): the trick by seat with
the winning card marked, a nil's own tricks, the end-of-game table and chart, 60 columns
without a broken word, and plain ASCII in the C locale."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from spades_cli.app.setup import make_seats
from spades_cli.cli.cmd_play import seat_labels
from spades_cli.engine import PLAY
from spades_cli.engine.notation import action_text
from spades_cli.game.match import Match
from spades_cli.presets import load_rules
from spades_cli.repl.core import PlaySession, PromptSeat


def spades(args: Sequence[str], lines: Sequence[str], home: Path, **env: str) -> str:
    """Run ``spades ARGS`` with ``lines`` on stdin (a pipe: batch mode); its stdout."""
    full = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    full.update(SPADES_HOME=str(home), **env)
    typed = "".join(f"{x}\n" for x in lines).encode()
    done = subprocess.run(
        [sys.executable, "-m", "spades_cli", *args], input=typed, capture_output=True, env=full, timeout=120
    )
    assert b"Traceback" not in done.stderr
    return done.stdout.decode("utf-8")


def twin(preset: str, seed: int, overrides: Sequence[str] = ()) -> PlaySession:
    rules = load_rules(preset, overrides)
    labels = seat_labels(rules, [])
    match = Match(rules, seed, make_seats(rules, labels, human=lambda _label: PromptSeat()))
    session = PlaySession(match, {s for s, label in labels.items() if label == "human"}, symbols=False)
    session.start()
    return session


@pytest.mark.slow
def test_the_card_winning_the_trick_is_marked(tmp_path: Path) -> None:
    # Seed 7 (four-player): West leads 2♥, North 6♥, East A♥: East wins so far (R-C-4).
    out = spades(["play", "--seed", "7"], ["3", "KC", "AC", "4D"], tmp_path)
    assert "Hand 1, trick 4: West led, East is winning. South to play." in out
    assert "W 2/1  2♥               E 3/0  [A♥]" in out
    assert "            N 2/0  6♥\n" in out and "            S 3/2  ?\n" in out


def test_a_nils_own_tricks_are_shown(tmp_path: Path) -> None:
    # South bids nil and plays its highest card each time until it takes a trick (R-C-10).
    session = twin("four-player", 7)
    lines = ["nil"]
    session.handle("nil")
    while not session.state.results:
        if session.match.observation(2).tricks_won[2]:
            break
        assert session.state.phase == PLAY
        line = action_text(max(session.state.legal_actions()))
        lines.append(line)
        session.handle(line)
    out = spades(["play", "--seed", "7", "--ascii"], [*lines, "table", "bids"], tmp_path)
    assert "S nil x1" in out  # in the table view, and in the bids command
    assert "Bids/tricks: N " in out and ", S nil x1, " in out


def _whole_game(preset: str, seed: int, overrides: Sequence[str]) -> list[str]:
    session = twin(preset, seed, overrides)
    lines = []
    while not session.done:
        line = action_text(session.state.legal_actions()[0])
        lines.append(line)
        session.handle(line)
    return lines


GAME = ["--rules", "two-player", "--set", "target=60", "--seed", "5"]


def test_the_end_of_the_game_shows_the_table_the_winner_and_a_chart(tmp_path: Path) -> None:
    lines = _whole_game("two-player", 5, ["target=60"])
    out = spades(["play", *GAME], lines, tmp_path)
    end = out[out.index("Final score, hand by hand:") :]
    rows = end.splitlines()
    assert rows[1].split() == ["hand", "N", "bid", "took", "pts", "score", "S", "bid", "took", "pts", "score"]
    assert rows[2].split()[0] == "1"
    assert "The scores over the hands:" in rows
    chart = rows[rows.index("The scores over the hands:") + 1 :]
    assert chart[0].split("|")[0].strip() == "62"  # the top: the target or the highest score
    assert any(line.endswith("N = North, S = South; # = both") for line in chart)
    assert any("Game over: " in line for line in rows)


@pytest.mark.slow
def test_60_columns_no_line_longer_and_no_word_broken(tmp_path: Path) -> None:
    lines = _whole_game("two-player", 5, ["target=60"])
    wide = spades(["play", *GAME], lines, tmp_path / "a")
    narrow = spades(["play", *GAME], lines, tmp_path / "b", COLUMNS="60")
    home = str(tmp_path / "b")
    # Only a file name longer than a line may stand alone on a longer line.
    assert all(len(line) <= 60 or (home in line and len(line.split()) == 1) for line in narrow.splitlines())
    assert max(len(line) for line in wide.splitlines()) > 60  # so the width did matter

    def words(text: str, home: Path) -> list[str]:
        return [w for w in text.replace(str(home), "HOME").split() if w != "|"]

    assert words(narrow, tmp_path / "b") == words(wide, tmp_path / "a")  # only the spacing differs


def test_the_c_locale_gets_plain_ascii(tmp_path: Path) -> None:
    lines = _whole_game("two-player", 5, ["target=60"])
    out = spades(
        ["play", *GAME], [*lines[:40], "hand", "rules", "score", "help"], tmp_path, LANG="C", LC_ALL="C"
    )
    assert "Hand 1" in out and out.isascii()


def test_the_finished_trick_stays_laid_out_with_its_winner() -> None:
    # Seed 7: South leads KC, West 5C, North 4C, East 2C: South takes it (R-C-4).
    session = twin("four-player", 7)
    session.handle("3")
    tricks = [o.text for o in session.handle("KC") if o.kind == "trick"]
    assert tricks == ["Trick 1: South wins with KC.\n        N  4C\nW  5C             E  2C\n        S  [KC]"]
    session.width = 20  # narrower than the layout: one line
    tricks = [o.text for o in session.handle("AC") if o.kind == "trick"]
    assert tricks == ["Trick 2: South wins with AC.\nN  6C, E  3C, S  [AC], W  9C"]
