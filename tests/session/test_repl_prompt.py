"""The prompt_toolkit front end, driven through a pipe input with a dummy output.

Keys are typed into prompt_toolkit's pipe input; what the front end shows is captured
at its ``echo`` hook. A twin session with the same seed (the bots are deterministic)
tells the tests which moves are legal and what must appear.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from helpers.prompt import new_session, run_keys, script_hand
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.data_structures import Size
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import fragment_list_to_text
from prompt_toolkit.history import FileHistory, InMemoryHistory
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from prompt_toolkit.output.vt100 import Vt100_Output

from spades_cli.app.setup import make_seats
from spades_cli.cli.cmd_play import seat_labels
from spades_cli.engine import PLAY, compiled
from spades_cli.engine.cards import card_label
from spades_cli.engine.notation import action_text
from spades_cli.errors import EXIT_UNFINISHED
from spades_cli.game.match import Match
from spades_cli.presets import load_rules
from spades_cli.repl import symbols_ok, use_color
from spades_cli.repl.completer import PlayCompleter
from spades_cli.repl.core import (
    ERROR,
    HAND,
    HANDOFF,
    OWN,
    PAUSE,
    REPLY,
    STATUS,
    TRICK,
    Output,
    PlaySession,
    PromptSeat,
)
from spades_cli.repl.prompt import PromptFrontEnd, data_dir, open_history
from spades_cli.repl.toolbar import toolbar


def visible(outputs: list[Output]) -> list[tuple[str, str]]:
    return [(o.kind, o.text) for o in outputs if o.kind not in (STATUS, PAUSE)]  # --fast: no pause


@pytest.mark.parametrize(("preset", "seed"), [("four-player", 7), ("two-player", 3)])
def test_a_whole_hand_at_the_prompt(preset: str, seed: int) -> None:
    lines, expected = script_hand(preset, seed)
    session = new_session(preset, seed)
    code, shown = run_keys(session, "".join(f"{line}\r" for line in lines) + "\x04")
    assert code == EXIT_UNFINISHED
    assert len(session.state.results) == 1
    # The prompt shows exactly what the session said (the toolbar carries the status lines).
    leave = [("info", "Game saved in /saved/game.txt\nContinue it with: spades resume /saved/game.txt")]
    assert visible(shown) == visible(expected) + leave
    assert sum(o.kind == TRICK for o in shown) == 13
    assert sum(o.kind == HAND for o in shown) == 1


def test_illegal_input_gets_one_line_and_changes_nothing() -> None:
    session = new_session()
    code, shown = run_keys(session, "pass\r3\rQS\rpass\r99\r\x04")
    # Seed 7: South leads the first trick and holds no Q♠.
    errors = [o.text for o in shown if o.kind == ERROR]
    assert errors == [
        "Nobody may pass in Spades: bid nil or 1-13",  # R-C-7
        "You do not hold QS",
        "Unknown command 'pass' (type help)",
        "'99' is not a card (try QS, 10h, Th or Q♠)",
    ]
    assert session.state.phase == PLAY and not session.state.trick
    assert code == EXIT_UNFINISHED


def test_ctrl_c_clears_the_line_and_ctrl_d_leaves() -> None:
    session = new_session()
    code, shown = run_keys(session, "zz\x03" + "3\r\x04")
    assert [o.text for o in shown if o.kind == OWN] == ["South bids 3."]
    assert not any(o.kind == ERROR for o in shown)
    assert code == EXIT_UNFINISHED
    assert shown[-1].text.startswith("Game saved in /saved/game.txt")


def test_undo_at_the_prompt() -> None:
    session = new_session(undo="always")
    twin = new_session(undo="always")
    twin.start()
    twin.handle("3")
    card = action_text(twin.state.legal_actions()[0])
    code, shown = run_keys(session, f"3\r{card}\rundo\r\x04")
    replies = [o.text for o in shown if o.kind == REPLY]
    label = card_label(twin.state.legal_actions()[0], symbols=False)
    assert len(replies) == 1 and replies[0].startswith(f"Took back South's {label} and ")
    assert session.state.history == twin.state.history
    assert code == EXIT_UNFINISHED


def test_hint_at_the_prompt() -> None:
    session = new_session()
    code, shown = run_keys(session, "3\rhint\r\x04")
    (hint,) = [o.text for o in shown if o.kind == REPLY]
    # The expert hints where the search code is compiled (it answers within a second), hard elsewhere.
    level = "expert" if compiled() else "hard"
    assert hint.startswith(f"Hint ({level} bot): play ")
    assert code == EXIT_UNFINISHED


@pytest.mark.parametrize(
    ("keys", "still_playing"),
    [("quit\ryes\r", False), ("quit\rno\r\x04", True), ("quit\r\x04", False)],
)
def test_quit_asks_to_confirm(keys: str, still_playing: bool) -> None:
    session = new_session()
    code, shown = run_keys(session, keys)
    assert code == EXIT_UNFINISHED
    texts = [o.text for o in shown]
    assert texts[-1] == "Game saved in /saved/game.txt\nContinue it with: spades resume /saved/game.txt"
    assert ("Still playing." in texts) is still_playing


def test_hot_seat_waits_for_enter_before_each_player() -> None:
    session = new_session(seats=["N=human", "S=human"])
    twin = new_session(seats=["N=human", "S=human"])
    twin.start()
    move = action_text(twin.state.legal_actions()[0])
    # Enter for the first player, a move, Enter for the second player, then end of input.
    code, shown = run_keys(session, f"\r{move}\r\r\x04")
    handoffs = [o for o in shown if o.kind == HANDOFF]
    assert len(handoffs) == 2 and handoffs[0].seat != handoffs[1].seat
    assert code == EXIT_UNFINISHED
    # End of input while waiting for the next player also leaves, saved.
    session = new_session(seats=["N=human", "S=human"])
    code, shown = run_keys(session, "\x04")
    assert code == EXIT_UNFINISHED and shown[-1].text.startswith("Game saved in")


def test_tab_completion_offers_legal_moves_and_commands() -> None:
    session = new_session()
    session.start()
    session.handle("3")
    completer = PlayCompleter(session)

    def complete(typed: str) -> list[str]:
        doc = Document(typed, len(typed))
        return [c.text for c in completer.get_completions(doc, CompleteEvent(completion_requested=True))]

    legal = [action_text(a) for a in session.state.legal_actions()]
    assert complete("k") == ["KH", "KC", "KD"]  # in the order the hand shows them
    assert complete("10") == [c for c in legal if c.startswith("T")]
    assert complete("tr") == ["tricks", "transcript"]
    assert complete("rules a") == ["all"]
    assert complete("u") == ["undo"]


def test_toolbar_shows_bids_tricks_score_and_spades() -> None:
    session = new_session()
    session.start()
    session.handle("3")
    bar = fragment_list_to_text(toolbar(session))
    first, second = bar.splitlines()
    assert first.strip() == "Hand 1 | N 2/0, E 3/0, S 3/0, W 2/0 | NS 5/0, 0 pts, 0 bags"
    assert second.strip() == "EW 5/0, 0 pts, 0 bags | spades not broken | help, Tab, Ctrl-D"


def test_toolbar_fits_60_columns() -> None:
    session = new_session()
    session.width = 60
    session.start()
    session.handle("nil")
    lines = fragment_list_to_text(toolbar(session)).splitlines()
    assert all(len(line) <= 60 for line in lines) and len(lines) <= 3
    assert "S nil/0" in lines[0]


def test_history_is_kept_in_the_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPADES_HOME", str(tmp_path / "home"))
    assert data_dir() == tmp_path / "home"
    history = open_history()
    assert isinstance(history, FileHistory)
    session = new_session()
    shown: list[Output] = []
    with create_pipe_input() as pipe:
        pipe.send_text("3\rscore\r\x04")
        PromptFrontEnd(
            session,
            color=False,
            fast=True,
            input=pipe,
            output=DummyOutput(),
            history=history,
            echo=shown.append,
        ).run()
    assert list(FileHistory(str(tmp_path / "home" / "history")).load_history_strings()) == ["score", "3"]
    monkeypatch.delenv("SPADES_HOME")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert data_dir() == tmp_path / "xdg" / "spades"


def _screen(color: bool) -> str:
    """What the prompt writes to a terminal for a session with suit symbols."""
    buffer = io.StringIO()
    output = Vt100_Output(buffer, lambda: Size(rows=24, columns=120), term="xterm")
    rules = load_rules("four-player")
    labels = seat_labels(rules, [])
    match = Match(rules, 7, make_seats(rules, labels, human=lambda _label: PromptSeat()))
    session = PlaySession(match, {2}, symbols=True)
    with create_pipe_input() as pipe:
        pipe.send_text("\x04")
        PromptFrontEnd(
            session, color=color, fast=True, input=pipe, output=output, history=InMemoryHistory()
        ).run()
    return buffer.getvalue()


def test_red_suits_in_colour_and_none_without() -> None:
    coloured = _screen(color=True)
    assert "\x1b[0;31;1mK♥" in coloured and "\x1b[0;31;1mK♦" in coloured  # red suits
    assert "\x1b[0;1mJ♠" in coloured  # black suits: the terminal's own colour, bold
    plain_screen = _screen(color=False)
    assert "South's hand: J♠ 10♠ 7♠ 3♠ 2♠  K♥ 8♥  A♣ K♣  K♦ 8♦ 6♦ 4♦" in plain_screen
    assert not re.search(r"\x1b\[[0-9;]*3[0-7][;m]", plain_screen)  # no colour codes at all


def test_colour_and_symbol_choices(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("spades_cli.repl.interactive", lambda: True)
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_color(no_color=False) is True
    assert use_color(no_color=True) is False
    monkeypatch.setenv("NO_COLOR", "1")
    assert use_color(no_color=False) is False
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setattr("spades_cli.repl.interactive", lambda: False)
    assert use_color(no_color=False) is False  # output is not a terminal
    utf8 = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    ascii_only = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    assert symbols_ok(False, utf8) is True
    assert symbols_ok(True, utf8) is False  # --ascii
    assert symbols_ok(False, ascii_only) is False  # a terminal that cannot show ♠
