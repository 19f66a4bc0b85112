"""Issue 33, item 4: the draft's single keys at a terminal, ``--autoplay`` per seat
(``--seat S=human:noautoplay``) and at a joined seat."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.joined import Greeted, Line
from helpers.prompt import new_session, play_until, run_keys, texts

from spades_cli.app.launch import BotFlags, ResumedGame, resume_game
from spades_cli.app.setup import manual_seats
from spades_cli.cli.main import main
from spades_cli.engine import DISCARD, KEEP
from spades_cli.errors import EXIT_UNFINISHED, UsageError
from spades_cli.net import wire
from spades_cli.net.client import RemoteSession
from spades_cli.net.server import Table
from spades_cli.presets import load_rules
from spades_cli.repl import PromptSeat
from spades_cli.repl.core import OWN, VIEW, Output


def test_the_draft_answers_k_and_d_without_enter_at_a_terminal() -> None:
    # R-2P-2: k keeps the card drawn, d discards it, each at once (no Enter); a line that
    # starts with another letter is typed as usual ("hand" shows the cards).
    session = new_session("two-player", 3)
    run_keys(session, "noblind\rkdiscard\rdhand\r\x04")  # "discard" in full: its d answers
    mine = [a for a, s in zip(session.state.history, session._log.actors, strict=True) if s == 1]
    assert [a for a in mine if a in (KEEP, DISCARD)][:3] == [KEEP, DISCARD, DISCARD]


def test_k_and_d_are_letters_of_a_line_outside_the_draft() -> None:
    session = new_session("four-player", 7)
    _code, shown = run_keys(session, "k\r\x04")  # k is not a bid: one error line, no move
    assert session.state.history.count(KEEP) == 0 and session.state.bids[2] < 0  # not bid yet
    assert [o.kind for o in shown].count("error") == 1


def test_a_seat_with_noautoplay_types_even_its_only_legal_card() -> None:
    # Seed 7, South bids 3 and plays the first legal card: trick 6 and the last card are
    # forced (R-C-3); with autoplay on for the table but not for South, South types them.
    auto = new_session(autoplay=True)
    manual = new_session(autoplay=True)
    manual.manual = frozenset({2})
    for session in (auto, manual):
        session.start()
        session.handle("3")
    auto_shown = play_until(auto, lambda s: len(s.state.results) == 1)
    manual_shown = play_until(manual, lambda s: len(s.state.results) == 1)
    assert auto.state.history == manual.state.history
    assert sum("only legal" in t for t in texts(auto_shown, OWN)) == 2
    assert not any("only legal" in t for t in texts(manual_shown))
    assert len(texts(manual_shown, VIEW)) == len(texts(auto_shown, VIEW)) + 2


def test_noautoplay_is_a_suffix_of_a_human_seat() -> None:
    rules = load_rules("four-player")
    assert manual_seats(rules, ["S=human:noautoplay", "N=hard"]) == (["S=human", "N=hard"], {2})
    assert manual_seats(rules, ["N=human:NoAutoplay", "S=human"]) == (["N=human", "S=human"], {0})
    with pytest.raises(UsageError, match="only a human seat"):
        manual_seats(rules, ["N=hard:noautoplay"])


def _joined_at_a_forced_card(autoplay: bool) -> tuple[RemoteSession, Line, list[Output]]:
    local = new_session()
    local.start()
    local.handle("3")
    play_until(local, lambda s: len(s.state.tricks) == 5 and s.on_turn == 2)
    table = Table(local.match.rules, wire.Tokens({2: "token"}), match=local.match)
    conn = Greeted(2)
    table._greet(conn)  # type: ignore[arg-type]
    line = Line([*conn.sent, wire.decode(table.view(2, turn=True), limit=1 << 22)])
    line.inbox.put(None)  # then the connection ends
    remote = RemoteSession(line, "token", symbols=False, autoplay=autoplay)  # type: ignore[arg-type]
    return remote, line, remote.start()


def test_a_joined_seat_with_autoplay_sends_its_only_legal_card() -> None:
    _remote, line, shown = _joined_at_a_forced_card(autoplay=True)
    assert [(m["type"], m["action"]) for m in line.sent if m["type"] == "move"] == [("move", "KH")]
    assert not texts(shown, VIEW)


def test_a_joined_seat_without_autoplay_is_asked() -> None:
    _remote, line, shown = _joined_at_a_forced_card(autoplay=False)
    assert not [m for m in line.sent if m["type"] == "move"]
    assert texts(shown, VIEW)[-1].endswith("South to play: follow hearts (KH)")


def test_resume_takes_noautoplay_per_seat(tmp_path: Path) -> None:
    # The same suffix on `spades resume`: the seat is human and marked manual; a bot seat
    # with the suffix is refused before anything starts, and the file stays resumable.
    path = tmp_path / "game.txt"
    runner = CliRunner()
    played = runner.invoke(
        main,
        ["play", "--seed", "7", "--transcript", str(path)],
        input="3\n",
        env={"SPADES_HOME": str(tmp_path)},
    )
    assert played.exit_code == EXIT_UNFINISHED
    flags = BotFlags(5.0, None, 100, False, lambda _text: None)

    def resume(spec: str) -> ResumedGame:
        return resume_game(
            str(path),
            seat_specs=[spec],
            preset_files=(),
            transcript=None,
            flags=flags,
            human=lambda _l: PromptSeat(),
        )

    with pytest.raises(UsageError, match="only a human seat"):
        resume("N=hard:noautoplay")
    resumed = resume("S=human:noautoplay")
    with resumed.run:
        assert resumed.manual == {2} and resumed.humans == {2}
