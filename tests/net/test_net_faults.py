"""Faults at a table on 127.0.0.1: wrong and reused tokens, players who drop and come back
(or do not), a host killed and resumed, and clients that flood, babble or stay silent.
Every wait is bounded in time."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from helpers.net import DEADLINE, Player, Spawned, host_table, raw_client, read_all

from spades_cli.app.setup import choose_rules
from spades_cli.errors import Interrupted
from spades_cli.net import hosting, wire
from spades_cli.net.server import SeatLost
from spades_cli.transcript import read_transcript, replay, transcript_rules


def wait_until(check: Callable[[], bool], timeout: float = DEADLINE) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.02)
    raise AssertionError("timed out")


def hello(token: str) -> bytes:
    return wire.encode({"type": "hello", "protocol": wire.HELLO, "version": wire.VERSION, "token": token})


def finished_cleanly(path: Path) -> bool:
    t = read_transcript(path)
    r = transcript_rules(t)
    assert r is not None
    return replay(t, r).run.match.finished


def test_a_wrong_token_is_refused_and_logged(tmp_path: Path, cli: Callable[..., Result]) -> None:
    table = host_table(tmp_path)
    host, port = table.address
    result = cli(["join", f"{host}:{port}", "--token", "S-" + "0" * 32])
    assert result.exit_code == 2
    assert "refused to seat you: wrong token" in result.output
    assert any("wrong token" in line and "refused 127.0.0.1" in line for line in table.logs)
    table.host.stop()


def test_a_token_in_use_is_refused(tmp_path: Path) -> None:
    table = host_table(tmp_path)
    north = raw_client(table.address)
    north.sendall(hello(table.token("N")))
    wait_until(lambda: any("North joined" in line for line in table.logs))
    sock = raw_client(table.address)
    sock.sendall(hello(table.token("N")))
    answer = read_all(sock)
    assert b"already connected" in answer
    assert any("token used twice" in line for line in table.logs)
    sock.close()
    north.close()
    table.host.stop()


@pytest.mark.slow
def test_a_player_who_drops_mid_trick_comes_back_and_the_game_goes_on(tmp_path: Path) -> None:
    table = host_table(tmp_path, seed=9)
    north = Player(table.address, table.token("N"))
    south = Player(table.address, table.token("S"), stop_after=3)
    north.start()
    south.start()
    south.finish()
    wait_until(lambda: any("waiting for South to reconnect" in line for line in table.logs))
    assert table.game.match.state.trick_cards(), "South left in the middle of a trick"
    again = Player(table.address, table.token("S"))
    again.start()
    again.finish()
    north.finish()
    table.finish()
    assert not table.errors
    assert any("Waiting for South to reconnect" in line for line in north.shown)
    assert finished_cleanly(tmp_path / "hosted.txt")
    assert "seat S" not in table.transcript  # the same player kept the seat


@pytest.mark.slow
def test_a_player_who_does_not_come_back_is_replaced_by_the_on_leave_bot(tmp_path: Path) -> None:
    table = host_table(tmp_path, seed=9, reconnect=0.3, on_leave="easy")
    north = Player(table.address, table.token("N"))
    south = Player(table.address, table.token("S"), stop_after=3)
    north.start()
    south.start()
    north.finish()
    table.finish()
    assert not table.errors
    assert any("waiting for South to reconnect" in line for line in table.logs)
    assert 'seat S "easy"' in table.transcript
    assert any("South is now played by the easy bot" in line for line in north.shown)
    assert finished_cleanly(tmp_path / "hosted.txt")


@pytest.mark.slow
def test_without_on_leave_the_game_is_saved_unfinished(tmp_path: Path) -> None:
    table = host_table(tmp_path, seed=9, reconnect=0.3)
    north = Player(table.address, table.token("N"))
    south = Player(table.address, table.token("S"), stop_after=3)
    north.start()
    south.start()
    north.finish()
    table.finish()
    assert [type(e) for e in table.errors] == [SeatLost]
    assert table.transcript.rstrip().endswith("end *")
    assert north.session.exit_code == 3
    assert any("The host stopped the game" in line for line in north.shown)
    assert wire.tokens_path(str(tmp_path / "hosted.txt")).exists()  # kept for --resume


@pytest.mark.slow
def test_a_host_killed_and_resumed_continues_with_the_same_tokens(tmp_path: Path) -> None:
    path = tmp_path / "killed.txt"
    host = Spawned(
        [
            "host",
            "--seed",
            "4",
            "--seat",
            "N=human",
            "--seat",
            "S=human",
            "--seat",
            "E=easy",
            "--seat",
            "W=easy",
            "--set",
            "target=100",
            "--transcript",
            str(path),
        ]
    )
    try:
        address, north_token = host.join_line("North")
        _, south_token = host.join_line("South")
        where = address.rpartition(":")
        players = [Player((where[0], int(where[2])), t) for t in (north_token, south_token)]
        for p in players:
            p.start()
        wait_until(lambda: path.read_text().count("trick ") >= 6)
    finally:
        host.kill()  # SIGKILL: no chance to write anything more
    for p in players:
        p.finish()
        assert p.session.exit_code == 3
    assert "end" not in path.read_text().splitlines()[-1]
    again = Spawned(["host", "--resume", str(path)])
    try:
        address, north_again = again.join_line("North")
        _, south_again = again.join_line("South")
        assert (north_again, south_again) == (north_token, south_token)
        where = address.rpartition(":")
        players = [Player((where[0], int(where[2])), t) for t in (north_token, south_token)]
        for p in players:
            p.start()
        for p in players:
            p.finish()
        assert again.finish() == 0, again.output
    finally:
        again.kill()
    assert finished_cleanly(path)
    assert "end winner" in path.read_text()


def test_a_flooding_client_is_cut_off_while_the_game_goes_on(tmp_path: Path) -> None:
    table = host_table(tmp_path, seed=2)
    north = Player(table.address, table.token("N"))
    south = Player(table.address, table.token("S"))
    north.start()
    south.start()
    flood = raw_client(table.address)
    flood.sendall(hello(table.token("watch")))
    line = wire.encode({"type": "say", "text": "spam"})
    with pytest.raises(OSError):
        for _ in range(100_000):  # bounded: the host cuts it off long before
            flood.sendall(line * 50)
    assert b"too many messages" in read_all(flood)
    north.finish()
    south.finish()
    table.finish()
    assert not table.errors
    assert any("too many messages" in line for line in table.logs)
    assert finished_cleanly(tmp_path / "hosted.txt")
    assert "spam" not in table.transcript


@pytest.mark.parametrize(
    ("sent", "why"),
    [
        (b"GET / HTTP/1.1\r\n\r\n", b"not a JSON line"),
        (b'{"type": "hello", "protocol": "other"}\n', b"expected a hello"),
        (b'{"type": "hello", "protocol": "spades-table", "version": 99, "token": "x"}\n', b"version 1"),
        (b"x" * (wire.MAX_LINE + 10), b"longer than"),
    ],
)
def test_garbage_is_answered_and_cut_off(tmp_path: Path, sent: bytes, why: bytes) -> None:
    table = host_table(tmp_path)
    sock = raw_client(table.address)
    sock.sendall(sent)
    answer = read_all(sock)
    assert why in answer
    assert json.loads(answer.splitlines()[0])["type"] == "error"
    table.host.stop()


def test_a_silent_client_is_dropped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wire, "HELLO_TIMEOUT", 0.3)
    table = host_table(tmp_path)
    sock = raw_client(table.address)
    assert b"no hello" in read_all(sock)
    table.host.stop()


@pytest.mark.parametrize(
    "answer",
    [
        b'{"type": "view", "view": ["nonsense"]}\n',
        b"HTTP/1.1 200 OK\r\n\r\n",
        b'{"type": "welcome", "rules": 3}\n',
    ],
)
def test_join_survives_a_table_that_talks_nonsense(cli: Callable[..., Result], answer: bytes) -> None:
    """What a host sends is data too: nonsense ends in one line and exit code 2."""
    import socket
    import threading

    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(DEADLINE)

    def serve() -> None:
        with server:
            conn, _ = server.accept()
            with conn:
                conn.recv(4096)
                conn.sendall(answer)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    port = server.getsockname()[1]
    result = cli(["join", f"127.0.0.1:{port}", "--token", "N-" + "1" * 32])
    thread.join(DEADLINE)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output


def test_a_client_that_does_not_read_is_cut_off() -> None:
    """Sending never blocks the game: past MAX_PENDING bytes waiting for a client that does
    not read, the host drops that client (and nobody else)."""
    from spades_cli.net.server import Conn, Host

    class Transport:
        def __init__(self) -> None:
            self.size = 0
            self.aborted = False

        def is_closing(self) -> bool:
            return self.aborted

        def get_write_buffer_size(self) -> int:
            return self.size

        def abort(self) -> None:
            self.aborted = True

    class Writer:
        def __init__(self) -> None:
            self.transport = Transport()

        def write(self, data: bytes) -> None:
            self.transport.size += len(data)

    logs: list[str] = []
    host = Host(log=logs.append)
    slow, fine = Writer(), Writer()
    slow_conn, fine_conn = Conn(host, slow, "slow"), Conn(host, fine, "fine")  # type: ignore[arg-type]
    chunk = wire.encode({"type": "say", "text": "x" * 200})
    for _ in range(wire.MAX_PENDING // len(chunk) + 2):
        slow_conn._push(chunk)
    fine_conn._push(chunk)
    assert slow.transport.aborted and slow_conn.closed
    assert not fine.transport.aborted
    assert logs == ["cut off slow: it does not read what it is sent"]


@pytest.mark.slow
def test_sigterm_saves_the_hosted_game(tmp_path: Path) -> None:
    """SIGTERM (or SIGHUP) stops the host like Ctrl-C: the transcript ends with 'end *' and
    the tokens stay for --resume."""
    path = tmp_path / "stopped.txt"
    host = Spawned(["host", "--seed", "4", "--seat", "S=human", "--transcript", str(path)])
    try:
        host.wait_for("Waiting for South to join.")
        host.proc.terminate()
        assert host.finish() == 143, host.output
    finally:
        host.kill()
    assert path.read_text().rstrip().endswith("end *")
    assert wire.tokens_path(str(path)).exists()


def test_a_signal_stops_the_hosted_table_between_two_actions(tmp_path: Path) -> None:
    """SIGTERM while the table waits for South is noted, and the wait stops at its next
    check: the game is saved with 'end *', the stop comes from the run's check (not from
    inside the table's queue, which a signal could leave locked), and the queue still works
    for the network thread afterwards."""
    choice = choose_rules("four-player", ("target=100",), default="four-player")
    path = tmp_path / "hosted.txt"
    logs: list[str] = []
    game = hosting.new_game(
        choice,
        7,
        {0: "easy", 1: "easy", 2: "human", 3: "easy"},
        str(path),
        watch=False,
        on_leave=None,
        reconnect=10.0,
        hints=True,
        log=logs.append,
    )
    sent = threading.Event()

    def terminate_when_waiting() -> None:
        end = time.monotonic() + DEADLINE
        while not any("Waiting for South" in line for line in logs) and time.monotonic() < end:
            time.sleep(0.01)
        os.kill(os.getpid(), signal.SIGTERM)
        sent.set()

    threading.Thread(target=terminate_when_waiting, daemon=True).start()
    with pytest.raises(Interrupted) as caught:
        hosting.play(game)
    assert sent.is_set() and caught.value.signum == signal.SIGTERM
    assert traceback.extract_tb(caught.value.__traceback__)[-1].name == "stop_if_asked"
    assert path.read_text().rstrip().endswith("end *")
    put = threading.Thread(target=game.table.inbox.put, args=(("gone", None, None),))
    put.start()
    put.join(DEADLINE)
    assert not put.is_alive() and game.table.inbox.get_nowait()[0] == "gone"
