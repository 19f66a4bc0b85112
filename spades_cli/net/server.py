"""The host's side of a networked table: connections, seats played from afar, events out.

Two threads share the work:

- the **network thread** runs an asyncio loop (:class:`Host`): it accepts connections,
  checks each hello (version, token), enforces the size and rate limits and writes the
  queued messages out. It never touches a game: what a client says goes into its
  table's inbox, and sending is a non-blocking write into the client's buffer (a client
  that lets more than ``MAX_PENDING`` bytes pile up is cut off, so a slow reader never
  holds anyone up);
- the **game thread** runs the one game loop (:class:`~spades_cli.game.run.GameRun`). A
  joined seat's controller (:class:`RemoteSeat`) sends the seat its view and waits for
  its move; :class:`TableEvents` turns every event of the run into events for each seat (only
  what that seat may see) and spectators. All views, notes and transcript lines are
  made on the game thread, so nothing there needs a lock but the list of connections.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import queue
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from spades_cli.engine import (
    BID,
    BID_BASE,
    BLIND,
    DEAL,
    DISCARD_PHASE,
    DRAFT,
    DRAW,
    EXCHANGE,
    EXCHANGE_DONE,
    PASS,
    PLAY,
    ZERO,
    HandResult,
    IllegalAction,
    Rules,
    sees_pass,
    zero_at,
)
from spades_cli.engine.notation import NotationError, action_text, parse_action
from spades_cli.engine.plan import plan_for
from spades_cli.engine.rules import SEAT_WORDS
from spades_cli.engine.text import safe_line
from spades_cli.errors import EXIT_UNFINISHED, SpadesError
from spades_cli.game.events import Decided, Event, GameOver, HandScored, HandStarted, TrickWon
from spades_cli.game.match import Controller, Match
from spades_cli.net import wire
from spades_cli.protocol import bid_token, rules_lines

Log = Callable[[str], None]


class SeatLost(SpadesError):
    """A joined player did not come back in time and no bot was named to take the seat."""

    exit_code = EXIT_UNFINISHED


_ids = itertools.count(1)
PING = wire.encode({"type": "ping"})


class Conn:
    """One client connection (made on the network thread; ``send`` works from any thread)."""

    def __init__(self, host: Host, writer: asyncio.StreamWriter, peer: str) -> None:
        self.id = next(_ids)
        self.host = host
        self.writer = writer
        self.peer = peer
        self.seat: int | None = None
        self.table: Table | None = None
        self.closed = False
        self.asked: int | None = None  # the decision this client was sent and has not answered
        self.greeted = False  # welcomed by the game thread: from then on it is sent the events
        self.secured = False  # the TLS handshake is done (a host with a certificate)
        self.task: asyncio.Task[None] | None = None  # the network thread's task for it
        self.heard = time.monotonic()  # when the client last sent a line
        self.pinged = 0.0  # when the host last asked it for a sign of life

    def answers(self, msg: dict[str, Any]) -> bool:
        """True for the move that answers the decision asked (it is not rate-limited: a
        scripted player may answer as fast as the table asks)."""
        if msg["type"] == "move" and self.asked is not None and msg.get("turn") == self.asked:
            self.asked = None
            return True
        return False

    def unanswered(self) -> bool:
        """True once a ping has gone ``PING_GRACE`` seconds without an answer (a live
        client answers within a round trip): a seat's player joining again takes the seat
        from such a connection at once, without waiting for ``IDLE_TIMEOUT``."""
        return self.pinged > self.heard and time.monotonic() - self.pinged >= wire.PING_GRACE

    def send(self, data: bytes) -> None:
        """Queue ``data`` for the client (thread-safe, never blocks)."""
        if not self.closed:
            self.host.loop.call_soon_threadsafe(self._push, data)

    def _push(self, data: bytes) -> None:
        if self.closed:
            return
        transport = self.writer.transport
        if transport.is_closing():
            return
        self.writer.write(data)
        if transport.get_write_buffer_size() > wire.MAX_PENDING:
            self.host.log(f"cut off {self.peer}: it does not read what it is sent")
            self.abort()

    def abort(self) -> None:
        """Close at once (the reader loop notices and tells the table)."""
        if not self.closed:
            self.closed = True
            self.writer.transport.abort()


class Host:
    """The listening socket and the network thread for any number of tables."""

    def __init__(self, *, ssl_context: ssl.SSLContext | None = None, log: Log | None = None) -> None:
        self.ssl_context = ssl_context
        self.log: Log = log or (lambda _s: None)
        self.tables: list[Table] = []
        self.loop = asyncio.new_event_loop()
        self.thread: threading.Thread | None = None
        self.server: asyncio.Server | None = None
        self.waiting: dict[str, list[Conn]] = {}  # the connections in handshake, by address, oldest first
        self.dropped = 0  # connections dropped in handshake to make room for newcomers
        self.keepalive: asyncio.Task[None] | None = None
        self.faults = wire.RateLimit(wire.FAULT_LINES, wire.FAULT_BURST)  # console lines of refusals
        self.unlogged = 0  # refusals not shown since the last one shown
        self.address: tuple[str, int] = ("", 0)

    def add(self, table: Table) -> None:
        table.host = self
        self.tables.append(table)

    def start(self, host: str = "127.0.0.1", port: int = 0) -> tuple[str, int]:
        """Bind and start serving on a thread of its own; returns the address bound."""
        ready: queue.Queue[BaseException | None] = queue.Queue()

        def run() -> None:
            asyncio.set_event_loop(self.loop)
            try:
                self.server = self.loop.run_until_complete(
                    asyncio.start_server(
                        self._client,
                        host,
                        port,
                        limit=wire.MAX_LINE,
                        reuse_address=True,
                    )
                )
            except (OSError, ValueError) as exc:
                ready.put(exc)
                return
            ready.put(None)
            self.keepalive = self.loop.create_task(self._keepalive())
            self.loop.run_forever()

        self.thread = threading.Thread(target=run, name="spades-host", daemon=True)
        self.thread.start()
        problem = ready.get()
        if problem is not None:
            raise OSError(f"cannot listen on {host}:{port}: {getattr(problem, 'strerror', None) or problem}")
        assert self.server is not None
        sock = self.server.sockets[0].getsockname()
        self.address = (str(sock[0]), int(sock[1]))
        return self.address

    def stop(self) -> None:
        """Close every connection and the listening socket, and end the network thread."""
        if self.thread is None:
            return

        async def close() -> None:
            if self.keepalive is not None:
                self.keepalive.cancel()
            if self.server is not None:
                self.server.close()
            for table in self.tables:
                for conn in table.connections():
                    conn.writer.close()
            await asyncio.sleep(0.05)  # let the last messages go out
            self.loop.stop()

        with contextlib.suppress(RuntimeError):
            asyncio.run_coroutine_threadsafe(close(), self.loop)
        self.thread.join(timeout=5)
        self.thread = None

    # -- one client, on the network thread -----------------------------------------------

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peername = writer.get_extra_info("peername")
        address = str(peername[0]) if isinstance(peername, tuple) else str(peername)
        peer = f"{address}:{peername[1]}" if isinstance(peername, tuple) else address
        conn = Conn(self, writer, peer)
        conn.task = asyncio.current_task()
        self._admit(conn, address)
        try:
            if not await self._handshake(conn, reader):
                return
            self._leave(conn, address)
            conn.heard = time.monotonic()
            limit = wire.RateLimit()
            while not conn.closed:
                msg = await self._line(reader)
                if msg is None:
                    break
                conn.heard = time.monotonic()
                if not conn.answers(msg) and not limit.allow():
                    self.log(f"cut off {conn.peer}: too many messages")
                    self._refuse(conn, "too many messages: slow down")
                    break
                assert conn.table is not None
                if msg["type"] != "pong":  # the answer to a keepalive: heard, that is all
                    conn.table.received(conn, msg)
        except wire.WireError as exc:
            self._fault(f"cut off {conn.peer}: {exc}")
            self._refuse(conn, str(exc))
        except (OSError, ssl.SSLError, asyncio.IncompleteReadError):
            pass
        finally:
            self._leave(conn, address)
            conn.closed = True
            if conn.table is not None:
                conn.table.gone(conn)
            with contextlib.suppress(Exception):
                writer.close()

    async def _handshake(self, conn: Conn, reader: asyncio.StreamReader) -> bool:
        """TLS (when the host has a certificate) and the hello, within one deadline; True
        once the connection is seated."""
        try:
            async with asyncio.timeout(wire.HELLO_TIMEOUT):
                if self.ssl_context is not None:
                    await conn.writer.start_tls(self.ssl_context)
                    conn.secured = True
                hello = await self._line(reader)
        except TimeoutError:
            if self.ssl_context is not None and not conn.secured:
                conn.abort()  # nothing can be said before the TLS handshake
            else:
                self._refuse(conn, "no hello")
            return False
        return hello is not None and self._welcome(conn, hello)

    def _admit(self, conn: Conn, address: str) -> None:
        """Count a new connection among those in handshake. An address may have
        ``MAX_PER_ADDRESS`` of them and the host ``MAX_CLIENTS``: past either, the oldest
        (of that address, else of all) is dropped, so that idle connections never keep out
        a newcomer who says hello at once (a seat's player coming back)."""
        mine = self.waiting.setdefault(address, [])
        if len(mine) >= wire.MAX_PER_ADDRESS:
            self._drop(mine[0], "too many connections from your address")
        elif sum(map(len, self.waiting.values())) >= wire.MAX_CLIENTS:
            oldest = min((c for conns in self.waiting.values() for c in conns), key=lambda c: c.id)
            self._drop(oldest, "too many connections")
        mine.append(conn)

    def _leave(self, conn: Conn, address: str) -> None:
        """No longer in handshake (seated, refused or gone)."""
        mine = self.waiting.get(address, [])
        if conn in mine:
            mine.remove(conn)
        if not mine:
            self.waiting.pop(address, None)

    def _drop(self, conn: Conn, reason: str) -> None:
        for address, conns in list(self.waiting.items()):
            if conn in conns:
                self._leave(conn, address)
        self.dropped += 1
        if self.ssl_context is not None and not conn.secured:
            conn.closed = True  # nothing can be said before the TLS handshake: it is called off
            if conn.task is not None:
                conn.task.cancel()
        else:
            self._refuse(conn, reason)

    async def _keepalive(self) -> None:
        """A seated connection that has been silent for ``KEEPALIVE`` seconds is sent a
        ``ping`` (a client answers ``pong`` at once, whatever its player is doing); one
        silent for ``IDLE_TIMEOUT`` is dropped, so that a dead connection frees its seat
        and the reconnect timeout starts."""
        while True:
            await asyncio.sleep(min(1.0, wire.KEEPALIVE / 4))
            now = time.monotonic()
            for table in self.tables:
                for conn in table.connections():
                    silent = now - conn.heard
                    if silent >= wire.IDLE_TIMEOUT:
                        self.log(f"dropped {conn.peer}: silent for {silent:.0f} s")
                        conn.abort()
                    elif silent >= wire.KEEPALIVE and conn.pinged <= conn.heard:  # none unanswered
                        conn.pinged = now
                        conn._push(PING)

    async def _line(self, reader: asyncio.StreamReader) -> dict[str, Any] | None:
        try:
            line = await reader.readline()
        except (ValueError, asyncio.LimitOverrunError):
            raise wire.WireError(f"line longer than {wire.MAX_LINE} bytes") from None
        if not line:
            return None
        if not line.endswith(b"\n"):
            return None  # the connection ended in the middle of a line
        return wire.decode(line)

    def _fault(self, line: str) -> None:
        """Log a refused or cut-off connection: a few a second at most (a flood of bad
        handshakes is one line now and then, with the count of those not shown)."""
        if not self.faults.allow():
            self.unlogged += 1
            return
        if self.unlogged:
            self.log(f"({self.unlogged} more connections refused or cut off)")
            self.unlogged = 0
        self.log(line)

    def _refuse(self, conn: Conn, reason: str) -> None:
        if not conn.closed:
            conn.writer.write(wire.encode({"type": "error", "reason": reason}))
            conn.closed = True
            conn.writer.close()

    def _welcome(self, conn: Conn, hello: dict[str, Any]) -> bool:
        if hello.get("type") != "hello" or hello.get("protocol") != wire.HELLO:
            self._fault(f"refused {conn.peer}: not a spades client")
            self._refuse(conn, f"expected a hello of the {wire.HELLO} protocol")
            return False
        if hello.get("version") != wire.VERSION:
            self._refuse(conn, f"this host speaks version {wire.VERSION} of the table protocol")
            return False
        token = hello.get("token")
        if not isinstance(token, str) or len(token) > 200:
            token = ""
        for table in self.tables:
            seat = table.tokens.find(token)
            if seat is None:
                continue
            problem = table.attach(conn, seat)
            if problem is not None:
                self._fault(f"refused {conn.peer}: {problem}")
                self._refuse(conn, problem)
                return False
            return True
        self._fault(f"refused {conn.peer}: wrong token")
        self._refuse(conn, "wrong token")
        return False


@dataclass
class _Turn:
    seat: int
    number: int  # the length of the history when the decision is asked
    sent_to: int = 0  # the connection that has been sent the view for it
    since: float | None = None  # when it was first sent (the move clock runs from then)


@dataclass
class Table:
    """The network side of one game: who is connected, the inbox, the events out."""

    rules: Rules
    tokens: wire.Tokens
    reconnect_timeout: float = 60.0
    move_clock: float | None = None  # seconds a connected player has for a decision
    on_leave: Controller | None = None  # the bot that takes a seat whose player does not come back
    hints: bool = True
    log: Log = field(default=lambda _s: None)
    note: Callable[[int | None, str], None] = field(default=lambda _seat, _text: None)
    seat_changed: Callable[[int, str], None] = field(default=lambda _seat, _label: None)
    host: Host | None = None
    match: Match | None = None
    # (a signal in a queue.Queue wait may leave its lock taken: the network thread then hangs)
    inbox: queue.SimpleQueue[tuple[str, Conn, Any]] = field(default_factory=queue.SimpleQueue)
    lock: threading.Lock = field(default_factory=threading.Lock)
    seats: dict[int, Conn] = field(default_factory=dict)
    watchers: set[Conn] = field(default_factory=set)
    turn: _Turn | None = None
    taken: set[int] = field(default_factory=set)  # seats the on-leave bot plays now
    rule_lines: list[str] = field(default_factory=list)
    stopping: str | None = None  # set (from any thread) to stop the game: the reason
    # raises when a signal asked the host to stop (noted by stop_signals, checked by the waits)
    check_stop: Callable[[], None] = field(default=lambda: None)
    chat: dict[int, wire.RateLimit] = field(default_factory=dict)  # each seat's chat limit

    def __post_init__(self) -> None:
        self.rule_lines = rules_lines(self.rules)

    # -- network thread ------------------------------------------------------------------

    def attach(self, conn: Conn, seat: int) -> str | None:
        """Seat ``conn`` (``WATCH`` for a spectator); the reason it is refused, if it is."""
        names = self.rules.seat_names
        with self.lock:
            if seat != wire.WATCH:
                held = self.seats.get(seat)
                if held is not None and not held.unanswered():
                    return f"seat {names[seat]} is already connected (token used twice)"
                if held is not None:  # a connection that does not answer its ping: dead
                    self.log(f"dropped {held.peer}: {_full(names[seat])} joined again")
                    held.abort()
                self.seats[seat] = conn
            else:
                if len(self.watchers) >= 16:
                    return "too many spectators"
                self.watchers.add(conn)
            conn.seat, conn.table = seat, self
        self.inbox.put(("join", conn, None))
        return None

    def gone(self, conn: Conn) -> None:
        with self.lock:
            if conn.seat is not None and self.seats.get(conn.seat) is conn:
                del self.seats[conn.seat]
            self.watchers.discard(conn)
        self.inbox.put(("gone", conn, None))

    def received(self, conn: Conn, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "move" and conn.seat != wire.WATCH:
            self.inbox.put(("move", conn, (msg.get("turn"), wire.text_field(msg, "action", 20))))
        elif kind == "say" and conn.seat != wire.WATCH:
            if not self._may_chat(conn.seat):
                return  # past the chat limit: neither relayed nor recorded (the client says so)
            # Kept in the transcript and shown at every seat: escaped on the way in.
            self.inbox.put(("say", conn, safe_line(" ".join(wire.text_field(msg, "text").split()))))
        elif kind == "bye":
            conn.abort()
        else:
            conn.send(wire.encode({"type": "unknown", "what": wire.safe_text(kind, 40)}))

    def _may_chat(self, seat: int | None) -> bool:
        """Each chat line is a note in the transcript: a seat may say ``CHAT_RATE`` a second
        on average (``CHAT_BURST`` at once), so chat adds at most a few hundred KiB an hour."""
        assert seat is not None
        limit = self.chat.setdefault(seat, wire.RateLimit(wire.CHAT_RATE, wire.CHAT_BURST))
        return limit.allow()

    def connections(self) -> list[Conn]:
        """The greeted connections (a newcomer gets the welcome before any event)."""
        with self.lock:
            return [c for c in (*self.seats.values(), *self.watchers) if c.greeted]

    def connected(self, seat: int) -> Conn | None:
        with self.lock:
            conn = self.seats.get(seat)
        return conn if conn is not None and conn.greeted else None

    # -- game thread ---------------------------------------------------------------------

    def broadcast(self, msg: dict[str, Any], *, players: bool = True) -> None:
        data = wire.encode(msg)
        with self.lock:
            targets = [*(self.seats.values() if players else ()), *self.watchers]
        for conn in targets:
            if conn.greeted:
                conn.send(data)

    def name(self, seat: int) -> str:
        return self.rules.seat_names[seat]

    def missing(self) -> list[int]:
        with self.lock:
            return [s for s in self.tokens.seats if s not in self.seats and s not in self.taken]

    def wait_for_players(self, deadline: float | None = None) -> bool:
        """Serve the inbox until every joined seat is connected (False at ``deadline``)."""
        while self.missing():
            self.check_stop()
            if self.stopping is not None:
                raise SeatLost(self.stopping)
            if deadline is not None and time.monotonic() >= deadline:
                return False
            self.pump(0.2)
        self.pump(0)
        return True

    def pump(self, wait: float) -> int | None:
        """Serve the inbox: greet newcomers, relay chat, note departures; return the move
        of the seat on turn if it arrived (waits up to ``wait`` seconds for the first item)."""
        try:
            kind, conn, data = self.inbox.get(timeout=wait) if wait > 0 else self.inbox.get_nowait()
        except queue.Empty:
            return None
        while True:
            action = self._serve(kind, conn, data)
            if action is not None:
                return action
            try:
                kind, conn, data = self.inbox.get_nowait()
            except queue.Empty:
                return None

    def _serve(self, kind: str, conn: Conn, data: Any) -> int | None:
        seat = conn.seat
        assert seat is not None
        who = "a spectator" if seat == wire.WATCH else _full(self.name(seat))
        if kind == "join":
            self.log(f"{who} joined from {conn.peer}")
            self._greet(conn)
            if seat != wire.WATCH:
                self.broadcast({"type": "joined", "seat": self.name(seat)})
        elif kind == "gone":
            self.log(f"{who} left")
            if seat != wire.WATCH and self.connected(seat) is None:
                self.broadcast({"type": "left", "seat": self.name(seat)})
        elif kind == "say":
            if data:
                self.note(seat, data)
                self.broadcast({"type": "chat", "seat": self.name(seat), "text": data})
        elif kind == "move":
            return self._move(conn, data)
        return None

    def _greet(self, conn: Conn) -> None:
        match = self.match
        seat = conn.seat
        assert seat is not None and match is not None
        # A program's command line stays on the host: it may name the host's files.
        labels = [_public(getattr(c, "label", "?")) for c in match.controllers]
        conn.send(
            wire.encode(
                {
                    "type": "welcome",
                    "version": wire.VERSION,
                    "seat": None if seat == wire.WATCH else self.name(seat),
                    "seats": list(self.rules.seat_names),
                    "labels": labels,
                    "rules": self.rule_lines,
                    "hints": self.hints,
                }
            )
        )
        conn.greeted = True
        state = match.state
        if seat == wire.WATCH and state.phase != DEAL and not state.is_terminal():
            for msg in self._so_far():  # a spectator sees the table at once, not at the next move
                conn.send(wire.encode(msg))
        if state.phase in (DEAL, DRAW) or state.is_terminal() or seat == wire.WATCH:
            return
        turn = self.turn
        if turn is not None and turn.seat == seat:
            turn.sent_to = 0  # the decision's view goes out again, to the new connection
        else:
            conn.send(self.view(seat, turn=False))

    def _so_far(self) -> list[dict[str, Any]]:
        """The hand in progress in public messages, for a spectator who joins in its middle:
        the deal, the bids made, the finished tricks, the cards of the trick in progress."""
        assert self.match is not None
        obs = self.match.observation(0)  # only its public parts are read
        names, n = self.rules.seat_names, self.rules.players

        def move(seat: int, phase: str, action: int) -> dict[str, Any]:
            return {"type": "move", "seat": names[seat], "phase": phase, "action": action_text(action)}

        out: list[dict[str, Any]] = [{"type": "deal", "hand": obs.hand_no + 1, "dealer": names[obs.dealer]}]
        for s in plan_for(self.rules).bid_orders[obs.dealer]:
            if obs.declared[s]:  # declared before looking, as the live stream shows it
                out.append(move(s, "declare", BLIND))
            if (b := obs.bids[s]) is not None:
                out.append(move(s, "bid", ZERO if zero_at(obs.zero, s) else BID_BASE + b))
        for no, t in enumerate(obs.tricks, 1):
            cards = [action_text(c) for c in t.cards]
            out.append(
                {
                    "type": "trick",
                    "no": no,
                    "leader": names[t.leader],
                    "cards": cards,
                    "winner": names[t.winner],
                }
            )
        return out + [move((obs.leader + i) % n, "play", c) for i, c in enumerate(obs.current_trick)]

    def view(self, seat: int, *, turn: bool) -> bytes:
        match = self.match
        assert match is not None
        key = match.rng_key("hint") if self.hints and turn else "-"
        lines = wire.view_lines(match.observation(seat), self.rules, key)
        msg: dict[str, Any] = {"type": "view", "view": lines}
        if turn:
            msg["turn"] = len(match.state.history)
        return wire.encode(msg)

    def _move(self, conn: Conn, data: Any) -> int | None:
        turn, match = self.turn, self.match
        number, text = data
        if turn is None or match is None or conn.seat != turn.seat or number != turn.number:
            return None  # a stale move (the decision was taken back, or not yet asked)
        state = match.state
        try:
            action = parse_action(text, state.phase)
        except NotationError as exc:
            conn.send(wire.encode({"type": "illegal", "reason": str(exc)}))
            return None
        try:
            state.check(action)
        except IllegalAction as exc:
            conn.send(wire.encode({"type": "illegal", "reason": exc.reason}))
            return None
        return action

    def decide(self, match: Match, seat: int) -> int:
        """The decision of a joined seat: its player's move, or the on-leave bot's."""
        self.turn = _Turn(seat, len(match.state.history))
        waiting_since: float | None = None
        try:
            while True:
                self.check_stop()
                if self.stopping is not None:
                    raise SeatLost(self.stopping)
                action = self.pump(0)  # newcomers are greeted before anything is decided
                if action is not None:
                    return action
                conn = self.connected(seat)
                if seat in self.taken:
                    if conn is None:
                        assert self.on_leave is not None
                        return self.on_leave.decide(match, seat)
                    self.taken.discard(seat)
                    self.seat_changed(seat, "human")
                    self.broadcast({"type": "takeover", "seat": self.name(seat), "label": "human"})
                if conn is None:
                    waiting_since = self._absent(seat, waiting_since)
                else:
                    waiting_since = None
                    if self.turn.sent_to != conn.id:
                        self.turn.sent_to = conn.id
                        self.turn.since = self.turn.since or time.monotonic()
                        conn.asked = self.turn.number
                        conn.send(self.view(seat, turn=True))
                    elif self._out_of_time(self.turn):
                        return self._clock_ran_out(match, seat, conn)
                action = self.pump(0.25)
                if action is not None:
                    return action
        finally:
            self.turn = None

    def _out_of_time(self, turn: _Turn) -> bool:
        return (
            self.move_clock is not None
            and turn.since is not None
            and time.monotonic() - turn.since >= self.move_clock
        )

    def _clock_ran_out(self, match: Match, seat: int, conn: Conn) -> int:
        """The move clock ran out: the ``--on-leave`` bot makes this move (the seat stays its
        player's), or without one the game is saved and stops, as when a player leaves."""
        who = _full(self.name(seat))
        if self.on_leave is None:
            raise SeatLost(f"{who} did not move within {self.move_clock:g} s")
        label = self.on_leave.label
        self.log(f"{who}'s move clock ran out: the {label} bot moves for them")
        conn.asked = None
        conn.send(
            wire.encode({"type": "error", "reason": f"your time ran out: the {label} bot moved for you"})
        )
        return self.on_leave.decide(match, seat)

    def _absent(self, seat: int, since: float | None) -> float:
        now = time.monotonic()
        if since is None:
            self.log(f"waiting for {_full(self.name(seat))} to reconnect")
            self.broadcast({"type": "waiting", "seat": self.name(seat), "seconds": self.reconnect_timeout})
            return now
        if now - since < self.reconnect_timeout:
            return since
        if self.on_leave is None:
            raise SeatLost(f"{_full(self.name(seat))} did not come back within {self.reconnect_timeout:g} s")
        label = self.on_leave.label
        self.log(f"{_full(self.name(seat))} did not come back: the {label} bot takes the seat")
        self.taken.add(seat)
        self.seat_changed(seat, label)
        self.broadcast({"type": "takeover", "seat": self.name(seat), "label": label})
        return now


def _public(label: str) -> str:
    return "program" if label.startswith("cmd:") else label


def _full(letter: str) -> str:
    return SEAT_WORDS.get(letter, letter)


class RemoteSeat:
    """The controller of a seat played from another terminal."""

    label = "human"

    def __init__(self, table: Table) -> None:
        self.table = table

    def decide(self, match: Match, seat: int) -> int:
        return self.table.decide(match, seat)


def result_line(result: HandResult, rules: Rules) -> str:
    """A finished hand as the bot protocol's ``result`` line."""
    names = rules.seat_names
    bids = " ".join(
        bid_token(bid, blind, zero_at(result.zero, s))
        for s, (bid, blind) in enumerate(zip(result.bids, result.blind, strict=True))
    )
    tricks = " ".join(map(str, result.tricks))
    return f"result {result.hand_no + 1} {names[result.dealer]} bids {bids} tricks {tricks}"


_WHY = {"interrupted": "the host was interrupted", "failed": "the host failed"}


class TableEvents:
    """Turns the run's events into messages for each seat and the spectators (subscribe it
    to the :class:`~spades_cli.game.run.GameRun`)."""

    def __init__(self, table: Table, match: Match) -> None:
        self.table = table
        self.match = match
        self.hands: list[list[int]] | None = None
        self.lines = [result_line(r, match.rules) for r in match.state.results]

    def __call__(self, e: Event) -> None:
        table, match = self.table, self.match
        names = match.rules.seat_names
        if isinstance(e, HandStarted):
            self.hands = None
            table.broadcast({"type": "deal", "hand": e.hand_no + 1, "dealer": names[e.dealer]})
        elif isinstance(e, Decided):
            self._decided(e)
        elif isinstance(e, TrickWon):
            table.broadcast(
                {
                    "type": "trick",
                    "no": e.trick_no,
                    "leader": names[e.leader],
                    "cards": [action_text(c) for _, c in e.cards],
                    "winner": names[e.winner],
                }
            )
        elif isinstance(e, HandScored):
            self.lines.append(result_line(e.result, match.rules))
            table.broadcast({"type": "scored", "results": self.lines})
            if self.hands is not None:
                shown = {names[s]: [action_text(c) for c in cards] for s, cards in enumerate(self.hands)}
                table.broadcast({"type": "hands", "hand": e.hand_no + 1, "hands": shown}, players=False)
        elif isinstance(e, GameOver):
            if e.winner is not None:
                winner, scores = match.rules.side_name(e.winner), list(match.state.scores)
                table.broadcast({"type": "over", "winner": winner, "scores": scores})
            else:
                why = table.stopping or _WHY.get(e.reason, "the host stopped")
                table.broadcast({"type": "stopped", "reason": f"{why}; the game is saved"})
        if self.hands is None and match.state.phase in (BID, PLAY):
            self.hands = [sorted(match.state.hand_of(s)) for s in range(match.rules.players)]
        table.pump(0)

    def _decided(self, e: Decided) -> None:
        table, state = self.table, self.match.state
        owner = state.exchange_seat if e.seat < 0 else e.seat
        msg: dict[str, Any] = {
            "type": "move",
            "seat": self.match.rules.seat_names[owner],
            "phase": str(e.phase),
            "action": action_text(e.action),
        }
        if (e.phase == EXCHANGE and e.action != EXCHANGE_DONE) or e.phase in (DRAW, PASS, DISCARD_PHASE):
            # A card given up, drawn, passed (R-BN-4) or laid aside (R-J-6): its owner's only.
            mine, others = msg, {**msg, "action": None}
        elif e.phase == DRAFT and (seen := state.drafted()) is not None:
            # The two cards of a draft decision (the one drawn, the next): its owner's only.
            mine, others = {**msg, "cards": [action_text(c) for c in seen]}, msg
        else:
            table.broadcast(msg)
            return
        own = table.connected(owner)
        if own is not None:
            own.send(wire.encode(mine))
        hidden = wire.encode(others)
        for conn in table.connections():
            if conn.seat != owner:  # R-BN-4: a card passed is seen by the partner too
                see = e.phase == PASS and conn.seat is not None and sees_pass(state.rules, owner, conn.seat)
                conn.send(wire.encode(mine) if see else hidden)
