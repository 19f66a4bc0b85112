"""The joined seat's side: a connection to the host and a session for the prompt.

:class:`Connection` is a plain socket (TLS when asked) with a reader thread that turns
lines into messages. :class:`RemoteSession` offers the prompt and batch mode of
``spades play`` (:mod:`spades_cli.repl`) the same interface as a local
:class:`~spades_cli.repl.PlaySession`, but works from the seat's view as the host sends
it: it shows the events as they come and hands each move to the host, which decides.
It is the joined seat's :class:`~spades_cli.session.SeatView`, so the commands of
:mod:`spades_cli.session.commands` answer as they do at a local seat.
"""

from __future__ import annotations

import contextlib
import dataclasses
import queue
import random
import select
import signal
import socket
import ssl
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from spades_cli import __version__, view
from spades_cli.engine import (
    CARD_PHASES,
    DRAW,
    PASS,
    PLAY,
    HandResult,
    Observation,
    Phase,
    Rules,
    Trick,
    parse_card,
)
from spades_cli.engine.cards import is_card
from spades_cli.engine.notation import action_text, parse_action
from spades_cli.engine.rules import SEAT_WORDS
from spades_cli.engine.text import safe_line
from spades_cli.errors import EXIT_OK, EXIT_UNFINISHED, Stopped, UsageError, on_signals
from spades_cli.game.events import Decided, HandStarted, TrickWon
from spades_cli.i18n import _, canonical, seat_word
from spades_cli.net import wire
from spades_cli.session import moves
from spades_cli.session.commands import LEAVE_WORDS, answer, default_hint_level
from spades_cli.session.output import (
    ERROR,
    GAME,
    GAP,
    HAND,
    INFO,
    MOVE,
    OWN,
    REPLY,
    TABLE,
    TRICK,
    Output,
    error,
)
from spades_cli.view import Fragments, Look, narrate, text
from spades_cli.view.narrate import HIDDEN

MAX_IN = 4 * 1024 * 1024  # longest line accepted from the host
MAX_BACKLOG = 1024 * 1024  # bytes of messages received and not yet read, at most
RECV_SIZE = 65536
TLS_READ_WAIT = 0.05  # seconds a TLS read may hold the connection's lock
TLS_SEND_WAIT = 30.0  # seconds a send may wait for the host to take the bytes
_PHASES = {str(phase): phase for phase in Phase}


class ConnectionLost(Exception):
    """The host closed the connection (or it broke)."""


class Inbox:
    """The messages received and not yet read: at most :data:`MAX_BACKLOG` bytes of them.
    Past that the reader thread waits for the session to read (the host's buffer for this
    seat fills meanwhile and the host cuts it off), so a host that floods the seat while
    its player thinks at the prompt costs it no more memory than that."""

    def __init__(self, limit: int = MAX_BACKLOG) -> None:
        self.limit = limit
        self.held = 0  # the bytes of the messages waiting
        self._items: queue.SimpleQueue[tuple[dict[str, Any] | None, int]] = queue.SimpleQueue()  # signal-safe
        self._room = threading.Condition()

    def put(self, msg: dict[str, Any] | None, size: int = 0) -> None:
        """Add a message of ``size`` bytes (waits while the backlog is full; the end of the
        connection, None, never waits)."""
        with self._room:
            while msg is not None and self.held >= self.limit:
                self._room.wait()
            self.held += size
        self._items.put((msg, size))

    def get(self, timeout: float | None = None) -> dict[str, Any] | None:
        """The next message (None: the connection ended); queue.Empty after ``timeout``."""
        return self._taken(self._items.get(timeout=timeout))

    def get_nowait(self) -> dict[str, Any] | None:
        return self._taken(self._items.get_nowait())

    def _taken(self, item: tuple[dict[str, Any] | None, int]) -> dict[str, Any] | None:
        msg, size = item
        with self._room:
            self.held -= size
            self._room.notify()
        return msg

    def empty(self) -> bool:
        return self._items.empty()


class Connection:
    """A line-based connection to a host; messages arrive on :attr:`inbox`."""

    def __init__(
        self,
        host: str,
        port: int,
        *,
        tls: bool = False,
        cafile: str | None = None,
        context: ssl.SSLContext | None = None,
        timeout: float = 10.0,
        check: Callable[[bytes], None] | None = None,
    ) -> None:
        """``check``: called with the table's certificate (DER) once the TLS handshake is
        done, before anything is sent; what it raises closes the connection and goes on."""
        try:
            sock = socket.create_connection((host, port), timeout=timeout)
            if tls or context is not None:
                if context is None:
                    context = ssl.create_default_context(cafile=cafile)
                sock = context.wrap_socket(sock, server_hostname=host)
        except (OSError, ssl.SSLError) as exc:
            why = getattr(exc, "strerror", None) or exc
            raise UsageError(f"cannot reach the table at {host}:{port}: {why}") from None
        if check is not None:
            der = sock.getpeercert(binary_form=True) if isinstance(sock, ssl.SSLSocket) else None
            try:
                check(der or b"")
            except BaseException:
                sock.close()
                raise
        sock.settimeout(None)
        self.sock = sock
        self.inbox = Inbox()
        self.received: list[bytes] | None = None  # every line, when a test asks for them
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, name="spades-join", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        buf = b""
        try:
            while True:
                chunk = self._recv()
                if not chunk:
                    break
                buf += chunk
                while (end := buf.find(b"\n")) >= 0:
                    line, buf = buf[: end + 1], buf[end + 1 :]
                    if len(line) > MAX_IN:
                        return
                    if self.received is not None:
                        self.received.append(line)
                    msg = wire.decode(line, limit=MAX_IN)
                    if msg["type"] == "ping":  # the host's keepalive: answered here, at once
                        self.send({"type": "pong"})
                    else:
                        self.inbox.put(msg, len(line))
                if len(buf) > MAX_IN:
                    break
        except (OSError, ValueError, ConnectionLost):
            pass
        finally:
            self.inbox.put(None)

    def _recv(self) -> bytes:
        """The next bytes from the host. One TLS connection may not be read and written at
        once from two threads (OpenSSL forbids it, and it can hang or garble the stream), so
        with TLS this waits for data outside the lock and reads under it, never blocking
        there for long; the bytes already decrypted (``pending``) are taken first."""
        sock = self.sock
        if not isinstance(sock, ssl.SSLSocket):
            return sock.recv(RECV_SIZE)
        while True:
            if not sock.pending():
                select.select([sock], [], [])
            with self._lock:
                sock.settimeout(TLS_READ_WAIT)
                try:
                    return sock.recv(RECV_SIZE)
                except (ssl.SSLWantReadError, TimeoutError):
                    continue  # only a handshake message or part of a record came

    def send(self, msg: dict[str, Any]) -> None:
        data = wire.encode(msg)
        try:
            with self._lock:
                if isinstance(self.sock, ssl.SSLSocket):
                    self.sock.settimeout(TLS_SEND_WAIT)
                self.sock.sendall(data)
        except OSError:
            raise ConnectionLost from None

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(OSError):
            self.sock.close()


def _stop(signum: int) -> None:
    """End the seat's session: Ctrl-C as KeyboardInterrupt (exit 130), SIGTERM and SIGHUP as
    :class:`~spades_cli.errors.Stopped` (143)."""
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise Stopped(signum)


def score(value: Any) -> int:
    """A side's score as the host sent it (bounded: WireError for a number no game reaches)."""
    return wire.count(value, wire.MAX_NUMBER, -wire.MAX_NUMBER)


def hello(token: str) -> dict[str, Any]:
    return {
        "type": "hello",
        "protocol": wire.HELLO,
        "version": wire.VERSION,
        "token": token,
        "client": f"spades {__version__}",
    }


class RemoteSession:
    """One seat of a table hosted elsewhere, for the front ends of :mod:`spades_cli.repl`."""

    def __init__(
        self,
        conn: Connection,
        token: str,
        *,
        symbols: bool = True,
        hint_level: str | None = None,
        live: Callable[[list[Output]], None] | None = None,
        autoplay: bool = False,
    ) -> None:
        self.conn = conn
        self.autoplay = autoplay  # play this seat's only legal card for it (--autoplay)
        self._forced = False  # the move sent is such a card
        self.token = token
        self.symbols = symbols
        self.hint_level = hint_level or default_hint_level()
        self.live = live  # shows outputs as they arrive, while the session waits for the table
        self.transcript_path: str | None = None  # the host keeps the transcript
        self.shared = True
        self.extra_help: tuple[str, ...] = (
            "  say TEXT    " + _("say something to the table (recorded in the transcript)"),
        )
        self._rules: Rules | None = None
        self.rule_lines: list[str] = []
        self._look: Look | None = None
        self.seat: int | None = None
        self.labels: dict[int, str] = {}  # who plays each seat ("human", "hard", ...)
        self.hints = False
        self.obs: Observation | None = None
        self.turn: int | None = None  # the number of the decision asked of this seat
        self.key = "-"
        self.results: tuple[HandResult, ...] = ()
        self.hand_no = 0
        self.tricks: list[Trick] = []  # the finished tricks of this hand
        self.previous: tuple[Trick, int] | None = None  # the last trick of the previous hand
        self.in_trick = 0
        self._last_status = ""
        self.confirming = False
        self.left = False
        self.over = False
        self.finished = False
        self._out: list[Output] = []
        self.width = 80  # the columns of the output (the prompt keeps it up to date)
        self.signalled: int | None = None  # the signal that ended a wait (see _stoppable)
        self.chat = wire.RateLimit(wire.CHAT_RATE, wire.CHAT_BURST)

    # -- what the front ends ask ---------------------------------------------------------

    @contextlib.contextmanager
    def _stoppable(self) -> Iterator[None]:
        """While the seat waits for the table (or a command is answered) nothing is
        recorded here: the host keeps the transcript. So Ctrl-C, SIGTERM and SIGHUP end
        the wait at once; the front end leaves, the connection is closed and the seat is
        free for its player to join again. The signal is kept too, for a front end that
        takes an interrupt while it shows what came (``live``) as "show the rest at once"."""

        def stop(signum: int, frame: Any) -> None:
            self.signalled = signum
            _stop(signum)

        with on_signals(stop, ("SIGINT", "SIGTERM", "SIGHUP")):
            yield

    @property
    def done(self) -> bool:
        return self.left or self.over

    @property
    def rules(self) -> Rules:
        assert self._rules is not None, "the table has not welcomed this seat"
        return self._rules

    @property
    def look(self) -> Look:
        assert self._look is not None, "the table has not welcomed this seat"
        return self._look

    @property
    def exit_code(self) -> int:
        return EXIT_OK if self.finished else EXIT_UNFINISHED

    def start(self, intro: Iterable[str] = ()) -> list[Output]:
        with self._stoppable():
            return self._start(intro)

    def _start(self, intro: Iterable[str]) -> list[Output]:
        for line in intro:
            self._emit(INFO, text(line))
        try:
            self.conn.send(hello(self.token))
        except ConnectionLost:
            raise UsageError("the table closed the connection") from None
        try:
            first = self.conn.inbox.get(timeout=30)
        except queue.Empty:
            raise UsageError("the table did not answer within 30 seconds") from None
        if first is None:
            plain = not isinstance(getattr(self.conn, "sock", None), ssl.SSLSocket)
            why = " (a table that speaks TLS? give the whole join line)" if plain else ""
            raise UsageError("the table closed the connection before greeting" + why)
        if first["type"] == "error":
            reason = wire.safe_text(first.get("reason", "refused"))
            raise UsageError(f"the table refused to seat you: {reason}")
        self._message(first)
        if self._rules is None:
            raise UsageError("the other side does not speak the table protocol")
        self._wait()
        return self._take()

    def handle(self, line: str) -> list[Output]:
        with self._stoppable():
            return self._handle(line)

    def _handle(self, line: str) -> list[Output]:
        entry = line.strip()
        if self.done:
            return []
        if self.confirming:
            self.confirming = False
            if canonical(entry).lower() in LEAVE_WORDS:
                self._leave()
            else:
                self._emit(REPLY, text(_("Still playing.")))
            return self._take()
        if not entry:
            return []
        word, _sep, rest = entry.partition(" ")
        if word.lower() == "say":
            self._say(rest.strip())
            return self._take()
        shown = answer(self, entry)  # a handler may take what was shown: so not `+=` at once
        if shown is None:
            self._move(entry)
        else:
            self._out += shown
        return self._take()

    def leave(self) -> list[Output]:
        if not self.done:
            self._leave()
        return self._take()

    def take_output(self) -> list[Output]:
        return self._take()

    def prompt_text(self) -> str:
        if self.confirming:
            return _("Leave the game? (yes/no)") + " "
        obs = self.deciding()
        if obs is None or self.seat is None:
            return "> "
        return f"{self.look.letter(self.seat)} {moves.prompt_word(obs.phase, obs.players)}> "

    def status(self) -> list[str]:
        if self.obs is None or self._look is None:
            return []
        return view.status_parts(self.look, self.obs)

    def completions(self) -> list[tuple[str, str, str]]:
        if self.confirming:
            return [("yes", "yes", _("leave the table")), ("no", "no", _("keep playing"))]
        out = moves.completions(self.look, self.rules, self.deciding())
        out.append(("say", "say", _("say something to the table")))
        return out

    # -- what the commands ask (the SeatView of spades_cli.session) ----------------------

    def observation(self) -> Observation | None:
        return self.obs

    def deciding(self) -> Observation | None:
        return self.obs if self.turn is not None else None

    def up_to_date(self) -> bool:
        return self.turn is not None

    def hand_tricks(self) -> list[Trick]:
        return self.tricks

    def previous_trick(self) -> tuple[Trick, int] | None:
        return self.previous

    def hands_scored(self) -> tuple[HandResult, ...]:
        return self.results

    def hint_rng(self) -> random.Random | None:
        return random.Random(self.key) if self.hints else None

    def take_back(self) -> list[Output]:
        return [error(_("Moves cannot be taken back at a shared table."))]

    def claim(self) -> list[Output]:
        return [error(_("Claims are checked with every hand known: not at a shared table."))]

    # -- the table's messages --------------------------------------------------------------

    def _wait(self) -> None:
        """Show what happens at the table until this seat must decide or the game ends."""
        while not self.over and self.turn is None:
            if self.live is not None and self._out and self.conn.inbox.empty():
                self.live(self._take())  # what came so far (the welcome too) before waiting
                if self.signalled is not None:
                    _stop(self.signalled)
            try:
                msg = self.conn.inbox.get(timeout=0.5)
            except queue.Empty:
                continue
            if msg is None:
                self._lost()
                return
            self._message(msg)

    def _lost(self) -> None:
        self.over = True
        if not self.finished:
            self._emit(
                ERROR,
                text(
                    _(
                        "The connection to the table was lost: run the same 'spades join' "
                        "command to take your seat again."
                    )
                ),
            )

    def _message(self, msg: dict[str, Any]) -> None:
        handler = getattr(self, f"_on_{msg['type']}", None)
        if handler is not None:
            try:
                handler(msg)
            except (KeyError, TypeError, ValueError, IndexError, AttributeError, AssertionError) as exc:
                self._emit(
                    ERROR,
                    text(_("The table sent a message this client cannot read ({why}).").format(why=exc)),
                )

    def _name(self, letter: Any) -> str:
        if str(letter) in SEAT_WORDS:
            return seat_word(str(letter), SEAT_WORDS[str(letter)])
        return wire.safe_text(letter, 10)

    def _index(self, letter: Any) -> int:
        return self.rules.seat_names.index(str(letter))

    def _on_welcome(self, msg: dict[str, Any]) -> None:
        self.rule_lines = [str(x) for x in msg["rules"]]
        rules, _seats = wire.public_view(self.rule_lines, [str(s) for s in msg["seats"]], [])
        # The rules' description (their name is checked to be printable) is shown escaped.
        rules = dataclasses.replace(rules, description=safe_line(rules.description))
        self._rules = rules
        self._look = Look(rules, self.symbols)
        self.seat = None if msg["seat"] is None else rules.seat_names.index(msg["seat"])
        self.labels = {s: wire.safe_text(label, 20) for s, label in enumerate(msg.get("labels", ()))}
        self.hints = bool(msg.get("hints"))
        if self.seat is None:
            said = _("Joined the table ({rules} rules, game to {target}), watching.")
        else:
            said = _("Joined the table ({rules} rules, game to {target}), playing {seat}.")
        seat = "" if self.seat is None else self._name(msg["seat"])
        self._emit(INFO, text(said.format(rules=rules.name, target=rules.target, seat=seat)))

    def _on_view(self, msg: dict[str, Any]) -> None:
        self.obs = wire.read_view(msg["view"], self.rule_lines, turn="turn" in msg)
        self.results = self.obs.results
        self.hand_no = self.obs.hand_no
        self.tricks = list(self.obs.tricks)  # what a seat (re)joining mid-hand knows of it
        self.in_trick = len(self.obs.current_trick)
        if "turn" in msg:
            self.turn = wire.count(msg["turn"])
            self.key = next((line[4:] for line in msg["view"] if line.startswith("rng ")), "-")
            if not self._play_forced():
                self._show_turn()

    def _play_forced(self) -> bool:
        """With ``--autoplay``, play this seat's only legal card at once (the move's line
        says so); whether it was played."""
        obs = self.obs
        cards = [a for a in obs.legal if is_card(a)] if obs is not None and obs.phase == PLAY else []
        if not self.autoplay or len(cards) != 1 or len(obs.legal if obs else ()) != 1:
            return False
        try:
            self.conn.send({"type": "move", "turn": self.turn, "action": action_text(cards[0])})
        except ConnectionLost:
            self._lost()
            return True
        self.turn, self._forced = None, True
        return True

    def _show_turn(self) -> None:
        assert self.obs is not None
        shown, self._last_status = moves.turn_view(self.look, self.obs, self.width, self._last_status)
        self._out += shown

    def _on_deal(self, msg: dict[str, Any]) -> None:
        self.tricks, self.in_trick, self.hand_no = [], 0, wire.count(msg["hand"], bottom=1) - 1
        dealt = HandStarted(self.hand_no, self._index(msg["dealer"]), ())
        self._emit(INFO, text(narrate.dealt(self.look, dealt), view.TITLE))

    def _on_move(self, msg: dict[str, Any]) -> None:
        """A seat decided: the move as the event a local game emits, told by the narrator."""
        owner = self._index(msg["seat"])
        phase = _PHASES[str(msg["phase"])]
        raw = msg["action"]
        if raw is None:
            action = HIDDEN
        elif phase in CARD_PHASES and str(raw) != "done":
            action = parse_card(str(raw))
        else:
            action = parse_action(str(raw), phase)
        private = owner == self.seat
        if private:
            self.turn = None
        private = private or (phase == PASS and action != HIDDEN)  # R-BN-4: the partner sees it
        lead = phase == PLAY and self.in_trick == 0
        if phase == PLAY:
            self.in_trick += 1
        e = Decided(-1 if phase == DRAW else owner, action, phase, self.hand_no)
        draft = [parse_card(str(c)) for c in msg.get("cards", ())][:2] if private else []
        declined = private or self.labels.get(owner) == "human"
        forced, self._forced = private and self._forced, self._forced and not private
        said = narrate.move(
            self.look,
            e,
            lead=lead,
            private=private,
            declined=declined,
            draft=draft,
            owner=owner,
            forced=forced,
        )
        if said is not None:
            self._emit(OWN if private else MOVE, said)

    def _on_trick(self, msg: dict[str, Any]) -> None:
        cards = tuple(parse_card(str(c)) for c in msg["cards"])
        trick = Trick(self._index(msg["leader"]), cards, self._index(msg["winner"]))
        self.tricks.append(trick)
        self.in_trick = 0
        n = self.rules.players
        played = tuple((trick.seat_of(i, n), c) for i, c in enumerate(cards))
        no = wire.count(msg["no"], self.rules.hand_size, 1)
        e = TrickWon(self.hand_no, no, trick.leader, played, trick.winner)
        self._emit(TRICK, narrate.trick_shown(self.look, e, self.width))
        if len(self.tricks) == self.rules.hand_size:  # the hand's last trick: now the previous
            self.previous, self.tricks = (trick, self.hand_no), []

    def _on_scored(self, msg: dict[str, Any]) -> None:
        _rules, self.results = wire.public_view(
            self.rule_lines, list(self.rules.seat_names), [str(x) for x in msg["results"]]
        )
        self._emit(GAP, [])
        self._emit(HAND, view.hand_result(self.look, self.rules, self.results[-1]))
        self._emit(TABLE, view.score_table(self.look, self.rules, self.results, last=3))

    def _on_hands(self, msg: dict[str, Any]) -> None:
        look = self.look
        lines: Fragments = text(_("The hands of hand {no}:").format(no=wire.count(msg["hand"], bottom=1)))
        for letter, cards in msg["hands"].items():
            lines += [
                ("", f"\n  {look.seat(self._index(letter))}: "),
                *look.hand([parse_card(str(c)) for c in cards]),
            ]
        self._emit(INFO, lines)

    def _on_over(self, msg: dict[str, Any]) -> None:
        rules, look = self.rules, self.look
        scores = tuple(score(msg["scores"][s]) for s in range(rules.sides))
        self.over = self.finished = True
        win = next((s for s in range(rules.sides) if rules.side_name(s) == msg["winner"]), None)
        self._emit(GAME, view.game_over(look, rules, self.results, win, scores, self.width))
        if win is not None:
            self._emit(GAME, text(narrate.game_won(look, win, scores, self.seat), view.TITLE))

    def _on_stopped(self, msg: dict[str, Any]) -> None:
        self.over = True
        reason = wire.safe_text(msg.get("reason", ""))
        self._emit(INFO, text(_("The host stopped the game: {reason}").format(reason=reason)))

    def _on_error(self, msg: dict[str, Any]) -> None:
        self._emit(ERROR, text(_("The table: {reason}").format(reason=wire.safe_text(msg.get("reason", "")))))

    def _on_illegal(self, msg: dict[str, Any]) -> None:
        reason = wire.safe_text(msg.get("reason", ""))
        self._emit(ERROR, text(reason[:1].upper() + reason[1:] if reason else _("Not legal here.")))

    def _on_chat(self, msg: dict[str, Any]) -> None:
        said = wire.safe_text(msg["text"], wire.MAX_SAY)
        self._emit(INFO, text(_("{seat} says: {text}").format(seat=self._name(msg["seat"]), text=said)))

    def _on_joined(self, msg: dict[str, Any]) -> None:
        self._emit(INFO, text(_("{seat} joined the table.").format(seat=self._name(msg["seat"]))))

    def _on_left(self, msg: dict[str, Any]) -> None:
        self._emit(INFO, text(_("{seat} left the table.").format(seat=self._name(msg["seat"]))))

    def _on_waiting(self, msg: dict[str, Any]) -> None:
        seconds = wire.seconds(msg["seconds"])
        said = _("Waiting for {seat} to reconnect (up to {seconds} s).")
        self._emit(INFO, text(said.format(seat=self._name(msg["seat"]), seconds=f"{seconds:g}")))

    def _on_takeover(self, msg: dict[str, Any]) -> None:
        label = wire.safe_text(msg["label"], 20)
        self.labels[self._index(msg["seat"])] = label
        if label == "human":
            said = _("{seat} is now played by its player again.")
        else:
            said = _("{seat} is now played by the {label} bot.")
        self._emit(INFO, text(said.format(seat=self._name(msg["seat"]), label=label)))

    # -- what the player types -----------------------------------------------------------

    def _move(self, entry: str) -> None:
        obs = self.obs
        if self.turn is None or obs is None:
            self._emit(ERROR, text(_("Nothing to decide now.")))
            return
        action = moves.read_move(entry, obs, self.look)
        if isinstance(action, str):
            self._out.append(error(action))
            return
        try:
            self.conn.send({"type": "move", "turn": self.turn, "action": action_text(action)})
        except ConnectionLost:
            self._lost()
            return
        self._await_answer()

    def _await_answer(self) -> None:
        """After a move: an ``illegal`` answer keeps the turn; the move itself ends it."""
        turn = self.turn
        while not self.over and self.turn == turn:
            msg = self.conn.inbox.get()
            if msg is None:
                self._lost()
                return
            self._message(msg)
            if msg["type"] == "illegal":
                return
        self._wait()

    def _say(self, words: str) -> None:
        if self.seat is None:
            self._emit(ERROR, text(_("Spectators cannot speak at the table.")))
        elif not words:
            self._emit(ERROR, text(_("Say what? (say TEXT)")))
        elif not self.chat.allow():  # the host's own limit: past it, it drops the line
            self._emit(ERROR, text(_("You are talking too fast: wait a moment.")))
        else:
            with contextlib.suppress(ConnectionLost):
                self.conn.send({"type": "say", "text": words[: wire.MAX_SAY]})
            self._drain(0.5)  # the table's echo of it, so the line shows at once

    def _drain(self, wait: float) -> None:
        """Show what the table said meanwhile (chat, arrivals), waiting up to ``wait`` seconds
        for the first message; never past a decision of this seat."""
        try:
            msg = self.conn.inbox.get(timeout=wait)
        except queue.Empty:
            return
        while True:
            if msg is None:
                self._lost()
                return
            self._message(msg)
            try:
                msg = self.conn.inbox.get_nowait()
            except queue.Empty:
                return

    def _leave(self) -> None:
        self.left = True
        if self.over:
            return
        with contextlib.suppress(ConnectionLost):
            self.conn.send({"type": "bye"})
        self._emit(INFO, text(_("You left the table: the same 'spades join' command takes your seat again.")))

    def _emit(self, kind: str, frags: Fragments, seat: int | None = None) -> None:
        self._out.append(Output(kind, frags, seat))

    def _take(self) -> list[Output]:
        out, self._out = self._out, []
        return out
