"""``spades play`` in a real pseudo-terminal (pexpect): the prompt, the screen, leaving.

The moves are computed from a twin session with the same seed (the bots are
deterministic). The terminal's cursor position requests are answered so that
prompt_toolkit draws its bottom toolbar as in a real terminal.
"""

from __future__ import annotations

import os
import re
import signal
import sys
from pathlib import Path

import pytest

from spades_cli.app.setup import make_seats
from spades_cli.cli.cmd_play import seat_labels
from spades_cli.engine.cards import card_label
from spades_cli.engine.notation import action_text
from spades_cli.errors import EXIT_TERMINATED
from spades_cli.game.match import Match
from spades_cli.presets import load_rules
from spades_cli.repl.core import PlaySession, PromptSeat
from spades_cli.view import plain

pexpect = pytest.importorskip("pexpect")

CPR_REQUEST = re.escape("\x1b[6n")


def twin(seed: int) -> PlaySession:
    rules = load_rules("four-player")
    labels = seat_labels(rules, [])
    match = Match(rules, seed, make_seats(rules, labels, human=lambda _label: PromptSeat()))
    session = PlaySession(match, {2}, symbols=True)
    session.start()
    return session


class Screen:
    """A spawned ``spades play`` that answers cursor position requests while waiting."""

    def __init__(self, tmp_path: Path, *args: str) -> None:
        env = dict(os.environ, SPADES_HOME=str(tmp_path / "home"), TERM="xterm")
        env.pop("NO_COLOR", None)
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "spades_cli", "play", *args],
            env=env,
            encoding="utf-8",
            timeout=30,
            dimensions=(40, 120),
        )
        self.seen = ""

    def expect(self, pattern: str) -> str:
        """Wait for ``pattern``; return the text shown since the last wait."""
        while True:
            index = self.child.expect([pattern, CPR_REQUEST])
            self.seen += self.child.before + (self.child.after if index == 0 else "")
            if index == 0:
                shown, self.seen = self.seen, ""
                return shown
            self.child.send("\x1b[30;1R")

    def send(self, text: str) -> None:
        self.child.send(text)

    def finish(self) -> int:
        self.child.expect(pexpect.EOF)
        self.child.close()
        return int(self.child.exitstatus if self.child.exitstatus is not None else -1)


@pytest.mark.slow
def test_play_cards_at_a_real_terminal_then_quit(tmp_path: Path) -> None:
    seed = 7
    game = twin(seed)
    transcript = tmp_path / "game.txt"
    screen = Screen(tmp_path, "--seed", str(seed), "--fast", "--no-color", "--transcript", str(transcript))
    shown = screen.expect(r"S bid>")
    hand = " ".join(card_label(c) for c in game.state.hand_of(2))
    assert "South to bid: nil or 1-13" in shown
    for label in hand.split():
        assert label in shown
    screen.expect(r"Hand 1 \| N -, E -, S \?, W -")  # the bottom toolbar
    screen.send("3\r")
    game.handle("3")
    screen.expect("South bids 3.")
    for _ in range(3):
        card = game.state.legal_actions()[0]
        screen.expect(r"S play>")
        screen.send(action_text(card).lower() + "\r")
        said = "leads" if not game.state.trick else "plays"
        game.handle(action_text(card))
        screen.expect(re.escape(f"South {said} {card_label(card)}."))
        screen.expect(r"Trick \d+: \w+ wins with ")
    shown = screen.expect(r"S play>")
    # The view of the table: the cards still held and, if a trick is under way, its cards.
    left = game.state.hand_of(2)
    assert f"South's hand: {plain(game.look.hand(left))}" in _lines(shown)
    assert len(left) == 10
    for _seat, card in game.state.trick_cards():
        assert card_label(card) in shown
    screen.send("quit\r")
    screen.expect(r"Leave the game\? \(yes/no\)")
    screen.send("yes\r")
    screen.expect("Continue it with: spades resume")
    assert screen.finish() == 3
    text = transcript.read_text(encoding="utf-8")
    assert "bids " in text and "trick 3 " in text and text.rstrip().endswith("end *")


@pytest.mark.slow
def test_a_closed_terminal_loses_nothing(tmp_path: Path) -> None:
    seed = 7
    game = twin(seed)
    transcript = tmp_path / "game.txt"
    screen = Screen(tmp_path, "--seed", str(seed), "--fast", "--no-color", "--transcript", str(transcript))
    screen.expect(r"S bid>")
    screen.send("3\r")
    game.handle("3")
    screen.expect(r"S play>")
    card = game.state.legal_actions()[0]
    screen.send(action_text(card) + "\r")
    screen.expect(re.escape(f"South leads {card_label(card)}."))
    screen.expect(r"S play>")
    screen.child.kill(signal.SIGHUP)
    screen.child.expect(pexpect.EOF)
    screen.child.close()
    assert screen.child.exitstatus == EXIT_TERMINATED  # SIGHUP ends the game like Ctrl-C, saved
    text = transcript.read_text(encoding="utf-8")
    assert f"trick 1 S: {action_text(card)} " in text and text.endswith("end *\n")


def _lines(shown: str) -> str:
    """The screen text with the terminal's control sequences taken out."""
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", shown).replace("\r", "")
