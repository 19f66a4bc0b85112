"""A table hosted on 127.0.0.1 (never any other address) and players seated at it, for
the net tests: a hosted game on a thread, joined seats on threads, ``spades`` in a process
of its own, a test certificate, raw sockets."""

from __future__ import annotations

import re
import shutil
import socket
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from spades_cli.app.setup import choose_rules
from spades_cli.engine import Rules
from spades_cli.engine.notation import action_text
from spades_cli.game.match import BaseListener, Match
from spades_cli.net import hosting, wire
from spades_cli.net.client import Connection, RemoteSession
from spades_cli.net.server import Host
from spades_cli.presets import load_rules

LOOPBACK = "127.0.0.1"
RULES_SOURCE = "four-player"
OVERRIDES = ("target=100",)
DEADLINE = 60.0  # seconds any wait in these tests may take at most


def rules() -> Rules:
    return load_rules(RULES_SOURCE, list(OVERRIDES))


class DealtHands(BaseListener):
    """Remembers every seat's cards as dealt, hand by hand (for the privacy checks)."""

    def __init__(self) -> None:
        self.hands: list[list[set[int]]] = []

    def on_deal(self, match: Match, hand_no: int, deck: tuple[int, ...]) -> None:
        self.hands.append([set(match.state.hand_of(s)) for s in range(match.rules.players)])


@dataclass
class Hosted:
    """A table hosted on a thread of this process."""

    game: hosting.HostedGame
    host: Host
    address: tuple[str, int]
    logs: list[str]
    dealt: DealtHands
    errors: list[BaseException] = field(default_factory=list)
    thread: threading.Thread | None = None

    def token(self, letter: str) -> str:
        if letter == "watch":
            assert self.game.table.tokens.watch is not None
            return self.game.table.tokens.watch
        return self.game.table.tokens.seats[self.game.match.rules.seat_names.index(letter)]

    def finish(self, timeout: float = DEADLINE) -> None:
        assert self.thread is not None
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "the hosted game did not end in time"

    def stop(self) -> None:
        """End the game from the host's side (as a stopped host does), wait for it, close the host."""
        self.game.table.stopping = "the test is over"
        self.finish()
        self.host.stop()

    @property
    def transcript(self) -> str:
        return Path(self.game.path).read_text(encoding="utf-8")


def host_table(
    tmp_path: Path,
    seed: int = 7,
    labels: dict[str, str] | None = None,
    *,
    reconnect: float = 10.0,
    on_leave: str | None = None,
    ssl_context: ssl.SSLContext | None = None,
    source: str = RULES_SOURCE,
    overrides: Sequence[str] = OVERRIDES,
) -> Hosted:
    """Host a game (default: four-player to 100, North and South joined, easy bots East and West)."""
    choice = choose_rules(source, overrides, default=source)
    table_rules = choice.rules
    given = labels or {"N": "human", "E": "easy", "S": "human", "W": "easy"}
    seats = {table_rules.seat_names.index(k): v for k, v in given.items()}
    path = tmp_path / "hosted.txt"
    logs: list[str] = []
    game = hosting.new_game(
        choice,
        seed,
        seats,
        str(path),
        watch=True,
        on_leave=on_leave,
        reconnect=reconnect,
        hints=True,
        log=logs.append,
    )
    dealt = DealtHands()
    game.match.listeners.append(dealt)
    host = Host(ssl_context=ssl_context, log=logs.append)
    host.add(game.table)
    address = host.start(LOOPBACK, 0)
    hosted = Hosted(game, host, address, logs, dealt)

    def run() -> None:
        try:
            hosting.play(game)
        except BaseException as exc:  # recorded for the test to look at
            hosted.errors.append(exc)
        finally:
            host.stop()

    hosted.thread = threading.Thread(target=run, daemon=True)
    hosted.thread.start()
    return hosted


class Player(threading.Thread):
    """A joined seat on a thread: it plays ``moves`` in order (else its first legal move),
    and leaves without a word after ``stop_after`` moves."""

    def __init__(
        self,
        address: tuple[str, int],
        token: str,
        moves: Sequence[str] | None = None,
        *,
        stop_after: int | None = None,
        cafile: str | None = None,
        last: bool = False,
    ) -> None:
        super().__init__(daemon=True)
        self.conn = Connection(*address, tls=cafile is not None, cafile=cafile)
        self.conn.received = []
        self.session = RemoteSession(self.conn, token, symbols=False)
        self.moves = list(moves) if moves is not None else None
        self.stop_after = stop_after
        self.pick = -1 if last else 0  # which legal move to make when none is given
        self.shown: list[str] = []
        self.made = 0
        self.error: BaseException | None = None

    def run(self) -> None:
        s = self.session
        try:
            self.shown += [o.text for o in s.start()]
            while not s.done:
                if self.stop_after is not None and self.made >= self.stop_after:
                    self.conn.close()
                    return
                assert s.obs is not None
                move = self.moves.pop(0) if self.moves else action_text(s.obs.legal[self.pick])
                self.made += 1
                self.shown += [o.text for o in s.handle(move)]
        except BaseException as exc:
            self.error = exc

    def finish(self, timeout: float = DEADLINE) -> None:
        self.join(timeout)
        assert not self.is_alive(), "the player did not finish in time"
        assert self.error is None, repr(self.error)

    def messages(self) -> Iterator[dict[str, object]]:
        assert self.conn.received is not None
        for line in list(self.conn.received):
            yield wire.decode(line, limit=1 << 22)


def certificate(tmp_path: Path) -> tuple[str, str]:
    """A self-signed certificate and key for 127.0.0.1 (skips the test without openssl)."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("no openssl to make a test certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [
            openssl,
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-days",
            "1",
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
        ],
        check=True,
        capture_output=True,
        timeout=DEADLINE,
    )
    return str(cert), str(key)


def recorded_seed(path: Path, timeout: float = DEADLINE) -> str:
    """The ``[Seed]`` a hosted game's transcript records (waits for the header)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        found = re.search(r'^\[Seed "([^"]*)"\]$', text, re.M)
        if found:
            return found.group(1)
        time.sleep(0.05)
    raise AssertionError(f"no [Seed] in {path}")


def raw_client(address: tuple[str, int]) -> socket.socket:
    sock = socket.create_connection(address, timeout=DEADLINE)
    return sock


def read_all(sock: socket.socket, deadline: float = 10.0) -> bytes:
    """What the host sends until it closes the connection (bounded in time)."""
    sock.settimeout(0.5)
    data = b""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
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


class Spawned:
    """``spades ARGS`` in a process of its own, its output collected line by line."""

    def __init__(
        self,
        args: Sequence[str],
        stdin: str | None = None,
        cwd: Path | None = None,
        *,
        feed_later: bool = False,
        env: dict[str, str] | None = None,
    ) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "spades_cli", *args],
            stdin=subprocess.PIPE if stdin is not None or feed_later else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            cwd=cwd,
            text=True,
            encoding="utf-8",
            env=env,
        )
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        if stdin is not None:
            self.feed(stdin)

    def feed(self, text: str) -> None:
        """Write ``text`` to the process's stdin and close it (``feed_later``: when the test knows it)."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(text)
        self.proc.stdin.close()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, text: str, timeout: float = DEADLINE) -> str:
        """The first line holding ``text`` (waits for it, at most ``timeout`` seconds)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for line in list(self.lines):
                if text in line:
                    return line
            if self.proc.poll() is not None and not self._reader.is_alive():
                break
            time.sleep(0.05)
        raise AssertionError(f"no line with {text!r} in:\n" + "\n".join(self.lines))

    def finish(self, timeout: float = DEADLINE) -> int:
        code = self.proc.wait(timeout)
        self._reader.join(5)
        return code

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        self._reader.join(5)

    def join_line(self, seat: str) -> tuple[str, str]:
        """The address and token of a join line (``seat`` is North, East, ..., Spectators)."""
        words = self.wait_for(f"{seat}: spades join").split()
        return words[3], words[5]

    @property
    def output(self) -> str:
        return "\n".join(self.lines)
