"""Issue 33, item 6: the joined seat's own lines (arrivals, chat, the table's errors) and
``replay --step``'s keys and prompt are read in the player's language too."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pytest
from helpers.joined import Greeted, Line
from helpers.paths import TRANSCRIPTS
from helpers.prompt import new_session

from spades_cli import i18n
from spades_cli.net import wire
from spades_cli.net.client import RemoteSession
from spades_cli.net.server import Table
from spades_cli.repl.stepper import step_through
from spades_cli.transcript import read_transcript, replay


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.use("en")


def _joined(seat: int, then: list[dict[str, Any]]) -> tuple[RemoteSession, list[str]]:
    """``seat`` joins a four-player table; ``then`` follows, then the host stops."""
    local = new_session("four-player")
    local.start()
    table = Table(local.match.rules, wire.Tokens({seat: "token"}), match=local.match)
    conn = Greeted(seat)
    table._greet(conn)  # type: ignore[arg-type]
    line = Line([*conn.sent, *then, {"type": "stopped", "reason": "the test is over"}])
    remote = RemoteSession(line, "token", symbols=False)  # type: ignore[arg-type]
    return remote, [o.text for o in remote.start()]


ARRIVALS: list[dict[str, Any]] = [
    {"type": "joined", "seat": "E"},
    {"type": "chat", "seat": "E", "text": "hej"},
    {"type": "waiting", "seat": "W", "seconds": 30},
    {"type": "takeover", "seat": "W", "label": "hard"},
    {"type": "left", "seat": "E"},
]


def test_a_joined_seat_reads_its_own_lines_in_polish() -> None:
    """R-4P-1: North joins a four-player table in Polish: the welcome, the arrivals, the
    chat and the host's stop are Polish (seat names too); the wire text stays English."""
    i18n.use("pl")
    remote, shown = _joined(0, ARRIVALS)
    assert "Dołączasz do stołu (zasady four-player, gra do 500) jako Północ." in shown
    assert "Wschód dosiada się do stołu." in shown
    assert "Wschód mówi: hej" in shown
    assert "Czekamy, aż Zachód połączy się ponownie (najwyżej 30 s)." in shown
    assert "Miejsce Zachód zajmuje teraz bot hard." in shown
    assert "Wschód odchodzi od stołu." in shown
    assert "Gospodarz przerwał grę: the test is over" in shown  # the host's reason as sent
    assert not any("joined the table" in line or " says: " in line for line in shown), shown
    assert "  say TEXT    powiedz coś do stołu (trafia do zapisu gry)" in remote.extra_help


def test_a_joined_seat_reads_them_in_english_by_default() -> None:
    """R-4P-1: the same lines in English (the source text), the spectator's welcome too."""
    _, shown = _joined(0, ARRIVALS)
    assert "Joined the table (four-player rules, game to 500), playing North." in shown
    assert "East joined the table." in shown and "East says: hej" in shown
    assert "West is now played by the hard bot." in shown
    _, watching = _joined(wire.WATCH, [{"type": "takeover", "seat": "W", "label": "human"}])
    assert "Joined the table (four-player rules, game to 500), watching." in watching
    assert "West is now played by its player again." in watching


def test_a_spectator_who_speaks_is_told_so_in_persian() -> None:
    """R-4P-4: a spectator cannot speak at the table; the refusal is in Persian."""
    i18n.use("fa")
    remote, shown = _joined(wire.WATCH, [])
    assert "به میز پیوستید (قوانین four-player، بازی تا 500)، به عنوان تماشاگر." in shown
    remote.over = False  # as if the table were still on: the seat types a line
    assert [o.text for o in remote.handle("say salam")] == ["تماشاگران سر میز نمی‌توانند حرف بزنند."]


def test_replay_step_shows_its_keys_and_positions_in_japanese() -> None:
    """R-2P-2: ``replay --step`` in Japanese: the key line once, the position header,
    an unknown key's answer; the keys themselves stay the same letters."""
    i18n.use("ja")
    match = replay(read_transcript(TRANSCRIPTS / "two-player-short.txt")).match
    assert match.dealer is not None
    out = io.StringIO()
    args = (match.rules, match.dealer, match.decks, match.state.history)
    step_through(*args, io.StringIO("n\nx\ng 99\nq\n"), out, symbols=False, width=60)
    text = out.getvalue()
    assert text.startswith("キー: Enter/n 次の手、p 戻る、t/T 次/前のトリック") and "Keys:" not in text
    assert "第1回、" in text and "手中0手目: 第1回のカードが配られました。" in text
    assert "手中1手目: " in text
    assert "不明なキー 'x'。 キー: Enter/n 次の手" in text  # the keys again after an unknown one
    assert "第99回はありません。このゲームは第1回から第2回までです。" in text


def test_replay_step_prompt_in_japanese() -> None:
    """The prompt of single keys at a terminal is the language's, with the same keys."""
    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output.vt100 import Vt100_Output

    from spades_cli.repl.keys import key_reader

    i18n.use("ja")
    screen = io.StringIO()
    with create_pipe_input() as pipe:
        pipe.send_text("n")
        read = key_reader(input=pipe, output=Vt100_Output(screen, lambda: Size(24, 80), term="xterm"))
        assert read() == "n"
    assert "ステップ (n p t T h H g N e q)>" in screen.getvalue()  # its last space: a cursor move
