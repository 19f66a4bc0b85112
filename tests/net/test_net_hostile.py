"""A hostile peer on 127.0.0.1, on either side of the table: text that is no text, control
characters for the other terminals, numbers no game reaches, floods. Every wait is bounded,
every socket is on the loopback interface."""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from helpers.net import DEADLINE, Player, host_table, raw_client, read_all, rules

from spades_cli.engine.text import safe_line
from spades_cli.net import wire
from spades_cli.net.client import MAX_BACKLOG, Connection
from spades_cli.net.server import SeatLost
from spades_cli.protocol import rules_lines

# What may not reach a terminal raw: C0 controls but the line end, DEL, C1 controls, the
# marks that reverse the text, zero-width characters, lone surrogates.
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff\ud800-\udfff]")
NASTY = "\x1b]0;owned\x07 \x1b[2J \x9b31m red \u202eevil\u202c \x00nul zero\u200bwidth"


def hello(token: str) -> bytes:
    return wire.encode({"type": "hello", "protocol": wire.HELLO, "version": wire.VERSION, "token": token})


def wait_until(check: Callable[[], bool], timeout: float = DEADLINE) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.02)
    raise AssertionError("timed out")


def seated(address: tuple[str, int], token: str) -> socket.socket:
    sock = raw_client(address)
    sock.sendall(hello(token))
    return sock


def read_until(sock: socket.socket, marker: bytes, deadline: float = 10.0) -> bytes:
    """What the host sends until ``marker`` shows (or it closes; bounded in time)."""
    sock.settimeout(0.2)
    data = b""
    end = time.monotonic() + deadline
    while time.monotonic() < end and marker not in data:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            continue
        except OSError:
            break
        if not chunk:
            break
        data += chunk
    return data


# ----------------------------------------------------------------------- 1. lone surrogates


def test_the_wire_encoder_cannot_fail_and_the_decoder_refuses_a_lone_surrogate() -> None:
    line = wire.encode({"type": "say", "text": "\ud800", "\udfff": ["\ud83d"]})
    assert line.endswith(b"\n")
    with pytest.raises(wire.WireError, match="lone surrogate"):
        wire.decode(line)
    with pytest.raises(wire.WireError, match="lone surrogate"):
        wire.decode(b'{"type": "\\ud800"}\n')
    assert wire.decode(b'{"type": "say", "text": "\\ud83d\\ude00 \\\\ud800"}')["text"] == "\U0001f600 \\ud800"
    assert wire.decode(wire.encode({"type": "say", "text": "é ♠"}))["text"] == "é ♠"


def test_a_lone_surrogate_in_chat_or_in_a_type_does_not_stop_the_host(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    table = host_table(tmp_path)
    north = seated(table.address, table.token("N"))
    assert b"welcome" in read_until(north, b"welcome")
    north.sendall(b'{"type": "say", "text": "\\ud800"}\n')
    assert b"lone surrogate" in read_all(north)
    watcher = seated(table.address, table.token("watch"))
    watcher.sendall(b'{"type": "\\ud800"}\n')
    assert b"lone surrogate" in read_all(watcher)
    again = seated(table.address, table.token("N"))
    again.sendall(wire.encode({"type": "say", "text": "still here"}))
    assert b"still here" in read_until(again, b"still here")
    assert table.thread is not None and table.thread.is_alive(), table.errors
    assert not table.errors
    assert not [r for r in caplog.records if r.name == "asyncio"]
    for sock in (north, watcher, again):
        sock.close()
    table.stop()


# --------------------------------------------------------------------- 2. chat to terminals


def test_safe_line_escapes_what_a_terminal_would_act_on() -> None:
    shown = safe_line(NASTY + "\ud800\ufeff\u2066")
    assert not RAW.search(shown)
    assert "\\x1b]0;owned\\x07" in shown and "\\x9b" in shown and "\\u202e" in shown
    assert safe_line("é ♠ plain, words") == "é ♠ plain, words"


def test_chat_is_escaped_in_the_transcript_and_replay_prints_notes_escaped(
    tmp_path: Path, cli: Callable[..., Result]
) -> None:
    table = host_table(tmp_path)
    north = seated(table.address, table.token("N"))
    north.sendall(wire.encode({"type": "say", "text": NASTY}))
    echo = read_until(north, b"owned")
    chat = [json.loads(x) for x in echo.splitlines() if b'"chat"' in x]
    assert chat and not RAW.search(chat[0]["text"])
    north.close()
    table.stop()
    note = next(line for line in table.transcript.splitlines() if line.startswith("note "))
    assert "\\\\x1b]0;owned" in note and not RAW.search(note)
    # A transcript written elsewhere may carry the raw characters: replay shows them escaped.
    path = tmp_path / "hosted.txt"
    raw_note = 'note N "\\x1b]0;title\\x07 \x9b31m \u202eRLO \\x00 zero\u200bwidth"'
    path.write_text(table.transcript.replace(note, raw_note), encoding="utf-8")
    result = cli(["replay", str(path)])
    assert "title" in result.output, result.output
    assert not RAW.search(result.output.replace("\n", ""))


# ------------------------------------------------------------------- 3. a malicious host


def serve_once(lines: list[bytes], hold: float = 0.5) -> tuple[int, threading.Thread]:
    """A fake host on 127.0.0.1 that answers one hello with ``lines``, then closes."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(DEADLINE)

    def serve() -> None:
        with server:
            conn, _ = server.accept()
            with conn:
                conn.recv(4096)
                conn.sendall(b"".join(lines))
                time.sleep(hold)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return server.getsockname()[1], thread


def welcome(**changes: object) -> bytes:
    table_rules = rules()
    # The rules' name must be printable to be read at all; their description may hold anything.
    lines = [line for line in rules_lines(table_rules) if not line.startswith("rule description ")]
    lines.append(f"rule description {json.dumps(NASTY)}")
    msg: dict[str, object] = {
        "type": "welcome",
        "version": wire.VERSION,
        "seat": "S",
        "seats": list(table_rules.seat_names),
        "labels": [NASTY, "human", NASTY, "easy"],
        "rules": lines,
        "hints": True,
    }
    msg.update(changes)
    return wire.encode(msg)


def test_a_host_that_sends_control_characters_reaches_no_terminal(cli: Callable[..., Result]) -> None:
    port, thread = serve_once(
        [
            welcome(),
            wire.encode({"type": "takeover", "seat": "E", "label": NASTY}),
            wire.encode({"type": "chat", "seat": "N", "text": NASTY}),
            wire.encode({"type": "stopped", "reason": NASTY}),
        ]
    )
    result = cli(["join", f"127.0.0.1:{port}", "--token", "S-" + "1" * 32], input="rules\n")
    thread.join(DEADLINE)
    assert "played by the" in result.output, result.output
    assert "Traceback" not in result.output
    assert not RAW.search(result.output.replace("\n", "")), repr(result.output)


@pytest.mark.parametrize(
    "message",
    [
        b'{"type": "waiting", "seat": "N", "seconds": Infinity}\n',
        b'{"type": "waiting", "seat": "N", "seconds": 1e400}\n',
        b'{"type": "waiting", "seat": "N", "seconds": ' + b"9" * 401 + b"}\n",
        b'{"type": "deal", "hand": 1e400, "dealer": "N"}\n',
        b'{"type": "trick", "no": ' + b"9" * 401 + b', "leader": "N", "cards": [], "winner": "N"}\n',
        b'{"type": "hands", "hand": Infinity, "hands": {}}\n',
        b'{"type": "over", "winner": "NS", "scores": [1e400, -Infinity]}\n',
        b'{"type": "view", "view": ["request bid"], "turn": ' + b"9" * 401 + b"}\n",
    ],
)
def test_numbers_no_game_reaches_are_refused_in_one_line(cli: Callable[..., Result], message: bytes) -> None:
    port, thread = serve_once([welcome(), message])
    result = cli(["join", f"127.0.0.1:{port}", "--token", "S-" + "1" * 32])
    thread.join(DEADLINE)
    assert "Traceback" not in result.output and "OverflowError" not in result.output, result.output
    assert result.output.count("cannot read") == 1, result.output
    assert result.exit_code == 3


@pytest.mark.slow
def test_the_joined_seat_keeps_a_bounded_backlog_of_what_the_host_sends() -> None:
    """Nobody reads (the player thinks at the prompt) while the host sends 20 MB of small
    messages: the client holds at most MAX_BACKLOG bytes of them."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(DEADLINE)
    sent = [0]

    def flood() -> None:
        with server:
            conn, _ = server.accept()
            conn.settimeout(1.0)
            line = wire.encode({"type": "chat", "seat": "N", "text": "x" * 40})
            with conn:
                try:
                    for _ in range(20 * 1024 * 1024 // (len(line) * 100)):
                        conn.sendall(line * 100)
                        sent[0] += len(line) * 100
                except OSError:
                    pass  # the client stopped reading: its buffers are full

    thread = threading.Thread(target=flood, daemon=True)
    thread.start()
    conn = Connection("127.0.0.1", server.getsockname()[1])
    thread.join(DEADLINE)
    assert sent[0] < 20 * 1024 * 1024, "the client read everything it was sent"
    assert conn.inbox.held <= MAX_BACKLOG + wire.MAX_LINE
    conn.close()


# ------------------------------------------------------------------ 4. connection limits


@pytest.mark.slow
def test_idle_connections_never_keep_a_seats_player_out(tmp_path: Path) -> None:
    """300 anonymous connections that never say hello, from the player's own address:
    the player's join is still seated (the oldest idle ones make room)."""
    table = host_table(tmp_path)
    idle = [raw_client(table.address) for _ in range(300)]
    try:
        wait_until(lambda: table.host.dropped + sum(map(len, table.host.waiting.values())) >= 300)
        north = seated(table.address, table.token("N"))
        answer = read_until(north, b"welcome")
        assert b'"welcome"' in answer, answer
        assert sum(map(len, table.host.waiting.values())) <= wire.MAX_PER_ADDRESS
        north.close()
    finally:
        for sock in idle:
            sock.close()
        table.stop()


@pytest.mark.slow
def test_a_tls_connection_that_never_starts_the_handshake_is_dropped_in_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from helpers.net import certificate

    from spades_cli.net.hosting import tls_context

    monkeypatch.setattr(wire, "HELLO_TIMEOUT", 0.5)
    cert, key = certificate(tmp_path)
    table = host_table(tmp_path, ssl_context=tls_context(cert, key))
    quiet = [raw_client(table.address) for _ in range(wire.MAX_PER_ADDRESS + 4)]
    try:
        # Counted from the start: past the cap for one address the oldest are dropped ...
        wait_until(lambda: table.host.dropped >= 4)
        assert sum(map(len, table.host.waiting.values())) <= wire.MAX_PER_ADDRESS
        # ... and the others at the handshake deadline (not asyncio's 60 s).
        start = time.monotonic()
        read_all(quiet[-1], deadline=5.0)
        assert time.monotonic() - start < 3.0
        wait_until(lambda: not table.host.waiting, timeout=5.0)
    finally:
        for sock in quiet:
            sock.close()
        table.stop()


# -------------------------------------------------------- 5. dead connections, move clock


@pytest.mark.slow
def test_a_silent_connection_frees_its_seat_and_a_live_one_keeps_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(wire, "KEEPALIVE", 0.2)
    monkeypatch.setattr(wire, "IDLE_TIMEOUT", 0.8)
    table = host_table(tmp_path)
    dead = seated(table.address, table.token("N"))  # says hello, then never a word
    assert b"welcome" in read_until(dead, b"welcome")
    live = Connection(*table.address)
    live.send(json.loads(hello(table.token("S"))))
    start = time.monotonic()
    wait_until(lambda: any("silent for" in line for line in table.logs), timeout=10.0)
    dropped_after = time.monotonic() - start
    assert b'"ping"' in read_all(dead, deadline=2.0)
    again = seated(table.address, table.token("N"))
    assert b"welcome" in read_until(again, b"welcome"), "the owner's rejoin was refused"
    assert dropped_after < 5.0
    assert table.game.table.connected(2) is not None, "the live connection (it answers pings) was dropped"
    for sock in (dead, again):
        sock.close()
    live.close()
    table.stop()


@pytest.mark.slow
def test_the_move_clock_lets_the_on_leave_bot_move_for_a_player_who_does_not(tmp_path: Path) -> None:
    table = host_table(tmp_path, seed=5, on_leave="easy")
    table.game.table.move_clock = 0.3
    north = Player(table.address, table.token("N"))
    south = seated(table.address, table.token("S"))  # connected, and never moves
    north.start()
    wait_until(lambda: sum("South's move clock ran out" in x for x in table.logs) >= 3)
    assert b"your time ran out: the easy bot moved for you" in read_until(south, b"time ran out")
    south.close()
    table.stop()
    north.join(DEADLINE)
    assert [type(e) for e in table.errors] == [SeatLost]
    assert "the easy bot moves for them" in "\n".join(table.logs)


@pytest.mark.slow
def test_without_on_leave_a_move_clock_run_out_saves_and_stops_the_game(tmp_path: Path) -> None:
    table = host_table(tmp_path, seed=5)
    table.game.table.move_clock = 0.3
    quiet = [seated(table.address, table.token(s)) for s in ("N", "S")]
    table.finish()
    assert len(table.errors) == 1 and isinstance(table.errors[0], SeatLost)
    assert str(table.errors[0]).endswith("did not move within 0.3 s")
    assert table.transcript.rstrip().endswith("end *")
    for sock in quiet:
        sock.close()


# ---------------------------------------------------------------- 6. join and its signals


class Joined:
    """``spades join`` in a process of its own, its stdin and stdout a pipe (batch mode) or
    a pseudo-terminal (the prompt); its output collected."""

    def __init__(self, address: tuple[str, int], token: str, *, terminal: bool) -> None:
        import os
        import subprocess
        import sys

        args = [sys.executable, "-m", "spades_cli", "join", f"{address[0]}:{address[1]}", "--token", token]
        env = {**os.environ, "TERM": "dumb", "NO_COLOR": "1", "COLUMNS": "100", "LINES": "40"}
        self.out = b""
        if terminal:
            import pty

            master, slave = pty.openpty()
            self.proc = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave, env=env)
            os.close(slave)
            self.master = master
        else:
            self.proc = subprocess.Popen(
                args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env
            )
            assert self.proc.stdout is not None
            self.master = self.proc.stdout.fileno()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        import os

        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.out += chunk

    def wait_for(self, text: bytes) -> None:
        wait_until(lambda: text in self.out or self.proc.poll() is not None, timeout=30.0)
        assert text in self.out, self.out

    def finish(self) -> int:
        try:
            return self.proc.wait(15)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait(5)


@pytest.mark.slow
@pytest.mark.parametrize("terminal", [False, True], ids=["batch", "prompt"])
@pytest.mark.parametrize(("signame", "code"), [("SIGINT", 130), ("SIGTERM", 143), ("SIGHUP", 143)])
def test_join_ends_on_a_signal_while_it_waits_for_the_table(
    tmp_path: Path, terminal: bool, signame: str, code: int
) -> None:
    import signal

    table = host_table(tmp_path)  # North and South join: with South away the table waits
    joined = Joined(table.address, table.token("N"), terminal=terminal)
    try:
        joined.wait_for(b"Joined the table")
        wait_until(lambda: any("North joined" in line for line in table.logs))
        time.sleep(0.3)  # well inside the wait for the table
        joined.proc.send_signal(getattr(signal, signame))
        assert joined.finish() == code, joined.out
        assert b"Traceback" not in joined.out
        wait_until(lambda: any("North left" in line for line in table.logs), timeout=10.0)
        again = seated(table.address, table.token("N"))
        assert b'"welcome"' in read_until(again, b"welcome"), "the seat was not released"
        again.close()
    finally:
        joined.finish()
        table.stop()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("terminal", "signame", "code"),
    [(False, "SIGINT", 130), (False, "SIGTERM", 143), (True, "SIGTERM", 143), (True, "SIGHUP", 143)],
    ids=["batch-SIGINT", "batch-SIGTERM", "prompt-SIGTERM", "prompt-SIGHUP"],
)
def test_join_ends_on_a_signal_while_its_player_decides(
    tmp_path: Path, terminal: bool, signame: str, code: int
) -> None:
    import signal

    table = host_table(tmp_path, reconnect=30.0)
    south = Player(table.address, table.token("S"))
    south.start()
    joined = Joined(table.address, table.token("N"), terminal=terminal)
    try:
        wait_until(lambda: (t := table.game.table.turn) is not None and t.seat == 0 and t.sent_to != 0)
        joined.wait_for(b"North to bid")
        time.sleep(0.3)  # the view shown, the player asked (at the prompt, or stdin read)
        joined.proc.send_signal(getattr(signal, signame))
        assert joined.finish() == code, joined.out
        assert b"Traceback" not in joined.out
        wait_until(lambda: any("North left" in line for line in table.logs), timeout=10.0)
    finally:
        joined.finish()
        table.stop()
        south.join(DEADLINE)


# ----------------------------------------------------------------- 7. the token, the logs


def test_the_token_is_taken_from_the_environment_or_asked_unseen(
    cli: Callable[..., Result], monkeypatch: pytest.MonkeyPatch
) -> None:
    import click

    import spades_cli.repl
    from spades_cli.cli.cmd_join import ask_token

    monkeypatch.delenv("SPADES_TOKEN", raising=False)
    result = cli(["join", "127.0.0.1:9"])
    assert result.exit_code == 2
    assert "SPADES_TOKEN=TOKEN, or --token TOKEN" in result.output, result.output
    asked: list[dict[str, object]] = []

    def prompt(text: str, **options: object) -> str:
        asked.append(options)
        return " S-1234 \n"

    monkeypatch.setattr(spades_cli.repl, "interactive", lambda: True)
    monkeypatch.setattr(click, "prompt", prompt)
    assert ask_token() == "S-1234"
    assert asked == [{"hide_input": True, "err": True}]


@pytest.mark.slow
def test_a_flood_of_bad_handshakes_is_a_few_console_lines(tmp_path: Path) -> None:
    table = host_table(tmp_path)
    for _ in range(60):
        sock = seated(table.address, "S-" + "0" * 32)
        read_all(sock, deadline=5.0)
        sock.close()
    time.sleep(1.0 / wire.FAULT_LINES + 0.1)  # the next refusal shown says how many were not
    read_all(seated(table.address, "S-" + "0" * 32), deadline=5.0)
    refused = [line for line in table.logs if "refused" in line]
    assert len(refused) <= wire.FAULT_BURST + 5, refused
    assert any("more connections refused or cut off" in line for line in refused)
    table.stop()


def test_chat_past_its_limit_is_not_recorded_and_the_joined_seat_says_so(tmp_path: Path) -> None:
    from helpers.joined import Line

    from spades_cli.net.client import RemoteSession

    table = host_table(tmp_path)
    north = seated(table.address, table.token("N"))
    for n in range(30):  # within the message rate limit, far past the chat limit
        north.sendall(wire.encode({"type": "say", "text": f"line {n}"}))
    north.sendall(wire.encode({"type": "bye"}))
    read_all(north)
    north.close()
    table.stop()
    notes = [line for line in table.transcript.splitlines() if line.startswith("note ")]
    assert 1 <= len(notes) <= wire.CHAT_BURST + 1, notes

    session = RemoteSession(Line([]), "N-x")  # type: ignore[arg-type]
    session.seat = 0
    session.chat = wire.RateLimit(wire.CHAT_RATE, 0.0)
    assert [o.text for o in session.handle("say hello")] == ["You are talking too fast: wait a moment."]


@pytest.mark.slow
def test_a_spectator_sees_the_welcome_before_the_first_event(tmp_path: Path) -> None:
    from spades_cli.net.client import RemoteSession
    from spades_cli.session.output import Output

    table = host_table(tmp_path)  # nobody else joins: no event comes
    shown: list[str] = []

    def live(outputs: list[Output]) -> None:
        shown.extend(o.text for o in outputs)

    conn = Connection(*table.address)
    session = RemoteSession(conn, table.token("watch"), symbols=False, live=live)
    watcher = threading.Thread(target=session.start, args=(["Connecting..."],), daemon=True)
    watcher.start()
    try:
        wait_until(lambda: any("watching" in line for line in shown), timeout=10.0)
        assert shown[0] == "Connecting..."
    finally:
        conn.close()
        watcher.join(DEADLINE)
        table.stop()


@pytest.mark.slow
def test_a_rejoin_takes_the_seat_from_a_connection_that_does_not_answer_its_ping(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(wire, "KEEPALIVE", 0.2)
    monkeypatch.setattr(wire, "PING_GRACE", 0.3)
    monkeypatch.setattr(wire, "IDLE_TIMEOUT", 60.0)  # not dropped for silence in this test
    table = host_table(tmp_path)
    dead = seated(table.address, table.token("N"))
    assert b'"ping"' in read_until(dead, b'"ping"')
    live = Connection(*table.address)  # South's own client answers its pings ...
    live.send(json.loads(hello(table.token("S"))))
    wait_until(lambda: table.game.table.connected(2) is not None)
    time.sleep(0.8)
    too_soon = seated(table.address, table.token("S"))
    assert b"already connected" in read_all(too_soon)  # ... so its seat stays its own
    time.sleep(0.3)
    again = seated(table.address, table.token("N"))
    assert b'"welcome"' in read_until(again, b"welcome"), "the rejoin was refused"
    assert any("North joined again" in line for line in table.logs)
    for sock in (dead, again, too_soon):
        sock.close()
    live.close()
    table.stop()


def test_past_the_global_cap_the_oldest_connection_in_handshake_is_dropped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(wire, "MAX_PER_ADDRESS", 100)
    monkeypatch.setattr(wire, "MAX_CLIENTS", 10)
    table = host_table(tmp_path)
    idle = [raw_client(table.address) for _ in range(20)]
    try:
        wait_until(lambda: table.host.dropped >= 10)
        assert sum(map(len, table.host.waiting.values())) == 10
        assert b"too many connections" in read_all(idle[0], deadline=5.0)
        north = seated(table.address, table.token("N"))
        assert b'"welcome"' in read_until(north, b"welcome")
        north.close()
    finally:
        for sock in idle:
            sock.close()
        table.stop()
