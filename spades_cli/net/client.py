"""The joined seat's side: a connection to the host and a session for the prompt.

:class:`Connection` is a plain socket (TLS when asked) with a reader thread that turns
lines into messages. :class:`RemoteSession` offers the prompt and batch mode of
``spades play`` (:mod:`spades_cli.repl`) the same interface as a local
:class:`~spades_cli.repl.PlaySession`, but works from the seat's view as the host sends
it: it shows the events as they come and hands each move to the host, which decides.
"""

from __future__ import annotations

import contextlib
import queue
import select
import socket
import ssl
import threading
from collections.abc import Callable, Iterable
from typing import Any

from spades_cli import __version__, view
from spades_cli.engine import (
    BID,
    BID_BASE,
    BLIND,
    DECLARE,
    DISCARD,
    DRAFT,
    DRAW,
    EXCHANGE,
    EXCHANGE_DONE,
    KEEP,
    NO_BLIND,
    PLAY,
    HandResult,
    Observation,
    Phase,
    Rules,
    Trick,
    parse_card,
)
from spades_cli.engine.notation import NotationError, action_text, parse_action
from spades_cli.engine.rules import SEAT_WORDS
from spades_cli.errors import EXIT_OK, EXIT_UNFINISHED, UsageError
from spades_cli.net import wire
from spades_cli.repl.commands import COMMAND_NAMES, COMMANDS, find_command, help_lines
from spades_cli.repl.core import (
    ERROR,
    GAME,
    GAP,
    HAND,
    INFO,
    MOVE,
    OWN,
    REPLY,
    STATUS,
    TABLE,
    TRICK,
    VIEW,
    Output,
)
from spades_cli.view import Fragments, Look, plain, text

MAX_IN = 4 * 1024 * 1024  # longest line accepted from the host
RECV_SIZE = 65536
TLS_READ_WAIT = 0.05  # seconds a TLS read may hold the connection's lock
TLS_SEND_WAIT = 30.0  # seconds a send may wait for the host to take the bytes
_PHASES = {str(phase): phase for phase in Phase}


class ConnectionLost(Exception):
    """The host closed the connection (or it broke)."""


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
    ) -> None:
        try:
            sock = socket.create_connection((host, port), timeout=timeout)
            if tls or context is not None:
                if context is None:
                    context = ssl.create_default_context(cafile=cafile)
                sock = context.wrap_socket(sock, server_hostname=host)
        except (OSError, ssl.SSLError) as exc:
            why = getattr(exc, "strerror", None) or exc
            raise UsageError(f"cannot reach the table at {host}:{port}: {why}") from None
        sock.settimeout(None)
        self.sock = sock
        self.inbox: queue.Queue[dict[str, Any] | None] = queue.Queue()
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
                    self.inbox.put(wire.decode(line, limit=MAX_IN))
                if len(buf) > MAX_IN:
                    break
        except (OSError, ValueError):
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
        hint_level: str = "hard",
        live: Callable[[list[Output]], None] | None = None,
    ) -> None:
        self.conn = conn
        self.token = token
        self.symbols = symbols
        self.hint_level = hint_level
        self.live = live  # shows outputs as they arrive, while the session waits for the table
        self.rules: Rules | None = None
        self.rule_lines: list[str] = []
        self.look: Look | None = None
        self.seat: int | None = None
        self.hints = False
        self.obs: Observation | None = None
        self.turn: int | None = None  # the number of the decision asked of this seat
        self.key = "-"
        self.results: tuple[HandResult, ...] = ()
        self.tricks: list[Trick] = []
        self.in_trick = 0
        self.confirming = False
        self.left = False
        self.over = False
        self.finished = False
        self._out: list[Output] = []
        self.width = 80  # the columns of the output (the prompt keeps it up to date)

    # -- what the front ends ask ---------------------------------------------------------

    @property
    def done(self) -> bool:
        return self.left or self.over

    @property
    def exit_code(self) -> int:
        return EXIT_OK if self.finished else EXIT_UNFINISHED

    def start(self, intro: Iterable[str] = ()) -> list[Output]:
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
            raise UsageError("the table closed the connection before greeting")
        if first["type"] == "error":
            reason = wire.safe_text(first.get("reason", "refused"))
            raise UsageError(f"the table refused to seat you: {reason}")
        self._message(first)
        if self.rules is None:
            raise UsageError("the other side does not speak the table protocol")
        self._wait()
        return self._take()

    def handle(self, line: str) -> list[Output]:
        entry = line.strip()
        if self.done:
            return []
        if self.confirming:
            self.confirming = False
            if entry.lower() in ("y", "yes", "quit", "leave", "ok"):
                self._leave()
            else:
                self._emit(REPLY, text("Still playing."))
            return self._take()
        if not entry:
            return []
        word, _, rest = entry.partition(" ")
        if word.lower() == "say":
            self._say(rest.strip())
            return self._take()
        command = find_command(word)
        if command is not None:
            getattr(self, f"_cmd_{command.name}")(rest.strip())
        else:
            self._move(entry)
        return self._take()

    def leave(self) -> list[Output]:
        if not self.done:
            self._leave()
        return self._take()

    def take_output(self) -> list[Output]:
        return self._take()

    def prompt_text(self) -> str:
        if self.confirming:
            return "Leave the game? (yes/no) "
        if self.turn is None or self.obs is None or self.look is None or self.seat is None:
            return "> "
        declare = "double nil?" if self.obs.players == 2 else "blind nil?"
        word = {PLAY: "play", BID: "bid", DRAFT: "keep/discard", DECLARE: declare, EXCHANGE: "exchange"}
        return f"{self.look.letter(self.seat)} {word.get(self.obs.phase, self.obs.phase)}> "

    def status(self) -> list[str]:
        if self.obs is None or self.look is None:
            return []
        return view.status_parts(self.look, self.obs)

    def completions(self) -> list[tuple[str, str, str]]:
        if self.confirming:
            return [("yes", "yes", "leave the table"), ("no", "no", "keep playing")]
        out: list[tuple[str, str, str]] = []
        if self.turn is not None and self.obs is not None and self.look is not None:
            for action in self.obs.legal:
                word = action_text(action)
                label = self.look.card_text(action) if action < 52 else word
                out.append((word, label, "your move"))
        notes = {c.name: c.summary for c in COMMANDS}
        out.extend((name, name, notes[name]) for name in COMMAND_NAMES)
        out.append(("say", "say", "say something to the table"))
        return out

    # -- the table's messages --------------------------------------------------------------

    def _wait(self) -> None:
        """Show what happens at the table until this seat must decide or the game ends."""
        while not self.over and self.turn is None:
            try:
                msg = self.conn.inbox.get(timeout=0.5)
            except queue.Empty:
                continue
            if msg is None:
                self._lost()
                return
            self._message(msg)
            if self.live is not None and self._out and self.conn.inbox.empty():
                self.live(self._take())

    def _lost(self) -> None:
        self.over = True
        if not self.finished:
            self._emit(
                ERROR,
                text(
                    "The connection to the table was lost: run the same 'spades join' "
                    "command to take your seat again."
                ),
            )

    def _message(self, msg: dict[str, Any]) -> None:
        handler = getattr(self, f"_on_{msg['type']}", None)
        if handler is not None:
            try:
                handler(msg)
            except (KeyError, TypeError, ValueError, IndexError, AttributeError, AssertionError) as exc:
                self._emit(ERROR, text(f"The table sent a message this client cannot read ({exc})."))

    def _name(self, letter: Any) -> str:
        return SEAT_WORDS.get(str(letter), wire.safe_text(letter, 10))

    def _index(self, letter: Any) -> int:
        assert self.rules is not None
        return self.rules.seat_names.index(str(letter))

    def _on_welcome(self, msg: dict[str, Any]) -> None:
        self.rule_lines = [str(x) for x in msg["rules"]]
        rules, _ = wire.public_view(self.rule_lines, [str(s) for s in msg["seats"]], [])
        self.rules = rules
        self.look = Look(rules, self.symbols)
        self.seat = None if msg["seat"] is None else rules.seat_names.index(msg["seat"])
        self.hints = bool(msg.get("hints"))
        who = "watching" if self.seat is None else f"playing {self._name(msg['seat'])}"
        self._emit(INFO, text(f"Joined the table ({rules.name} rules, game to {rules.target}), {who}."))

    def _on_view(self, msg: dict[str, Any]) -> None:
        self.obs = wire.read_view(msg["view"], self.rule_lines)
        self.results = self.obs.results
        if "turn" in msg:
            self.turn = int(msg["turn"])
            self.key = next((line[4:] for line in msg["view"] if line.startswith("rng ")), "-")
            self._show_turn()

    def _show_turn(self) -> None:
        obs, look = self.obs, self.look
        assert obs is not None and look is not None and self.rules is not None
        self._emit(GAP, [])
        self._emit(STATUS, text(plain(view.status(look, obs, self.width))))
        frags: Fragments = []
        if obs.phase == PLAY:
            frags += [*view.table_view(look, obs, self.width), ("", "\n")]
        if obs.phase == BID:
            frags += text(f"Bids: {view.bids_text(look, obs)}\n")
        if obs.phase != DECLARE:
            frags += [*view.hand_line(look, obs), ("", "\n")]
        frags += view.turn_prompt(look, obs, self.rules)
        self._emit(VIEW, frags, obs.seat)

    def _on_deal(self, msg: dict[str, Any]) -> None:
        self.tricks, self.in_trick = [], 0
        self._emit(INFO, text(f"Hand {int(msg['hand'])}: {self._name(msg['dealer'])} deals.", view.TITLE))

    def _on_move(self, msg: dict[str, Any]) -> None:
        seat = self._index(msg["seat"])
        look = self.look
        assert look is not None
        mine = seat == self.seat
        kind, name, action = OWN if mine else MOVE, look.seat(seat), msg["action"]
        phase = _PHASES[str(msg["phase"])]
        if mine:
            self.turn = None
        if phase == PLAY:
            card = parse_card(str(action))
            verb = "leads" if self.in_trick == 0 else "plays"
            self.in_trick += 1
            self._emit(kind, [("", f"{name} {verb} "), look.card(card), ("", ".")])
        elif phase == BID:
            bid = parse_action(str(action), BID) - BID_BASE
            self._emit(kind, text(f"{name} bids {'nil' if bid == 0 else bid}."))
        elif phase == DECLARE:
            blind = parse_action(str(action), DECLARE) == BLIND
            what = "double nil" if self.obs is not None and self.obs.players == 2 else "blind nil"
            self._emit(kind, text(f"{name} {'declares' if blind else 'does not declare'} {what}."))
        elif phase == DRAFT:
            word = {KEEP: "keeps", DISCARD: "discards"}[parse_action(str(action), DRAFT)]
            self._emit(kind, text(f"{name} {word} the card drawn." if mine else f"{name} takes a card."))
        elif phase == EXCHANGE:
            if action is None:
                self._emit(kind, text(f"{name} gives up a card and draws one from the discard pile."))
            elif parse_action(str(action), EXCHANGE) == EXCHANGE_DONE:
                self._emit(kind, text(f"{name} keeps the other cards."))
            else:
                self._emit(kind, [("", f"{name} gives up "), look.card(parse_card(str(action))), ("", ".")])
        elif phase == DRAW and action is not None:
            self._emit(
                OWN,
                [("", f"{name} draws "), look.card(parse_card(str(action))), ("", " from the discard pile.")],
            )

    def _on_trick(self, msg: dict[str, Any]) -> None:
        look = self.look
        assert look is not None
        cards = tuple(parse_card(str(c)) for c in msg["cards"])
        trick = Trick(self._index(msg["leader"]), cards, self._index(msg["winner"]))
        self.tricks.append(trick)
        self.in_trick = 0
        winning = trick.cards[(trick.winner - trick.leader) % len(look.rules.seat_names)]
        said = f"Trick {int(msg['no'])}: {look.seat(trick.winner)} wins with "
        self._emit(TRICK, [("", said), look.card(winning), ("", ".")])

    def _on_scored(self, msg: dict[str, Any]) -> None:
        assert self.rules is not None and self.look is not None
        _, self.results = wire.public_view(
            self.rule_lines, list(self.rules.seat_names), [str(x) for x in msg["results"]]
        )
        self._emit(GAP, [])
        self._emit(HAND, view.hand_result(self.look, self.rules, self.results[-1]))
        self._emit(TABLE, view.score_table(self.look, self.rules, self.results, last=3))

    def _on_hands(self, msg: dict[str, Any]) -> None:
        look = self.look
        assert look is not None
        lines: Fragments = text(f"The hands of hand {int(msg['hand'])}:")
        for letter, cards in msg["hands"].items():
            lines += [
                ("", f"\n  {look.seat(self._index(letter))}: "),
                *look.hand([parse_card(str(c)) for c in cards]),
            ]
        self._emit(INFO, lines)

    def _on_over(self, msg: dict[str, Any]) -> None:
        self.over = self.finished = True
        rules, look = self.rules, self.look
        assert rules is not None and look is not None
        scores = (int(msg["scores"][0]), int(msg["scores"][1]))
        win = next((s for s in (0, 1) if rules.side_name(s) == msg["winner"]), None)
        self._emit(GAME, view.game_over(look, rules, self.results, win, scores, self.width))
        if win is None:
            return
        verb = "wins" if rules.players == 2 else "win"
        line = f"Game over: {look.side(win)} {verb}, {scores[win]} to {scores[1 - win]}."
        if self.seat is not None:
            line += " You win!" if rules.side_of(self.seat) == win else " You lose."
        self._emit(GAME, text(line, view.TITLE))

    def _on_stopped(self, msg: dict[str, Any]) -> None:
        self.over = True
        self._emit(INFO, text(f"The host stopped the game: {wire.safe_text(msg.get('reason', ''))}"))

    def _on_error(self, msg: dict[str, Any]) -> None:
        self._emit(ERROR, text(f"The table: {wire.safe_text(msg.get('reason', ''))}"))

    def _on_illegal(self, msg: dict[str, Any]) -> None:
        reason = wire.safe_text(msg.get("reason", ""))
        self._emit(ERROR, text(reason[:1].upper() + reason[1:] if reason else "Not legal here."))

    def _on_chat(self, msg: dict[str, Any]) -> None:
        self._emit(INFO, text(f"{self._name(msg['seat'])} says: {wire.safe_text(msg['text'], wire.MAX_SAY)}"))

    def _on_joined(self, msg: dict[str, Any]) -> None:
        self._emit(INFO, text(f"{self._name(msg['seat'])} joined the table."))

    def _on_left(self, msg: dict[str, Any]) -> None:
        self._emit(INFO, text(f"{self._name(msg['seat'])} left the table."))

    def _on_waiting(self, msg: dict[str, Any]) -> None:
        self._emit(
            INFO,
            text(f"Waiting for {self._name(msg['seat'])} to reconnect (up to {float(msg['seconds']):g} s)."),
        )

    def _on_takeover(self, msg: dict[str, Any]) -> None:
        label = str(msg["label"])[:20]
        who = "its player again" if label == "human" else f"the {label} bot"
        self._emit(INFO, text(f"{self._name(msg['seat'])} is now played by {who}."))

    # -- what the player types -----------------------------------------------------------

    def _move(self, entry: str) -> None:
        obs = self.obs
        if self.turn is None or obs is None:
            self._emit(ERROR, text("Nothing to decide now."))
            return
        words = entry.split()
        if len(words) > 1 and words[0].lower() in ("play", "lead", "bid", "give", "exchange"):
            entry = " ".join(words[1:])
        try:
            action = parse_action(entry, obs.phase)
        except NotationError as exc:
            if entry.isalpha() and len(entry) > 2:
                self._emit(ERROR, text(f"Unknown command {entry!r} (type help)"))
            else:
                msg = str(exc)
                self._emit(ERROR, text(msg[:1].upper() + msg[1:]))
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
            self._emit(ERROR, text("Spectators cannot speak at the table."))
        elif not words:
            self._emit(ERROR, text("Say what? (say TEXT)"))
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

    def _cmd_help(self, arg: str) -> None:
        lines = help_lines()
        lines.insert(-1, "  say TEXT    say something to the table (recorded in the transcript)")
        self._emit(REPLY, text("\n".join(lines)))

    def _cmd_hand(self, arg: str) -> None:
        if self.obs is None or self.look is None:
            self._emit(REPLY, text("You have no cards yet."))
            return
        self._emit(REPLY, view.hand_line(self.look, self.obs))

    def _cmd_table(self, arg: str) -> None:
        if self.obs is None or self.look is None or self.obs.phase != PLAY or self.turn is None:
            self._emit(REPLY, text("The trick in progress is shown as it is played."))
            return
        self._emit(REPLY, view.table_view(self.look, self.obs, self.width))

    def _cmd_last(self, arg: str) -> None:
        if not self.tricks or self.look is None:
            self._emit(REPLY, text("No trick of this hand has been played yet."))
            return
        self._emit(REPLY, self.look.finished_trick(len(self.tricks), self.tricks[-1]))

    def _cmd_tricks(self, arg: str) -> None:
        if not self.tricks or self.look is None:
            self._emit(REPLY, text("No trick of this hand has been played yet."))
            return
        lines: Fragments = []
        for i, trick in enumerate(self.tricks):
            lines += [*([("", "\n")] if i else []), *self.look.finished_trick(i + 1, trick)]
        self._emit(REPLY, lines)

    def _cmd_score(self, arg: str) -> None:
        if self.obs is None or self.look is None or self.rules is None:
            self._emit(REPLY, text("No hand has been scored yet."))
            return
        self._emit(REPLY, view.score_table(self.look, self.rules, self.results))

    def _cmd_bids(self, arg: str) -> None:
        if self.obs is None or self.look is None:
            self._emit(REPLY, text("Nobody has bid yet."))
            return
        bids, tricks = view.bids_text(self.look, self.obs), view.tricks_text(self.look, self.obs)
        self._emit(REPLY, text(f"Bids: {bids}. Tricks against bids: {tricks}."))

    def _cmd_rules(self, arg: str) -> None:
        if self.rules is None or self.look is None:
            return
        if arg.lower() == "all":
            from spades_cli.presets import rules_to_yaml

            self._emit(REPLY, text(rules_to_yaml(self.rules).rstrip("\n")))
            return
        self._emit(REPLY, view.rules_summary(self.look, self.rules))

    def _cmd_hint(self, arg: str) -> None:
        if self.turn is None or self.obs is None or self.rules is None:
            self._emit(REPLY, text("Nothing to decide now."))
            return
        if not self.hints:
            self._emit(REPLY, text("The host has turned hints off at this table."))
            return
        import random

        from spades_cli.bots import make_bot

        try:
            action, reason = make_bot(self.hint_level).explain(self.obs, self.rules, random.Random(self.key))
        except Exception as exc:  # a failing adviser must not end the game
            self._emit(ERROR, text(f"No hint this time ({type(exc).__name__})."))
            return
        self._emit(REPLY, text(f"Hint ({self.hint_level} bot): {_say(action)} - {reason}"))

    def _cmd_undo(self, arg: str) -> None:
        self._emit(ERROR, text("Moves cannot be taken back at a shared table."))

    def _cmd_transcript(self, arg: str) -> None:
        self._emit(REPLY, text("The host keeps the game's transcript."))

    def _cmd_quit(self, arg: str) -> None:
        self.confirming = True
        self._emit(REPLY, text("Leave the table? Type yes to leave, anything else to keep playing."))

    def _leave(self) -> None:
        self.left = True
        if self.over:
            return
        with contextlib.suppress(ConnectionLost):
            self.conn.send({"type": "bye"})
        self._emit(INFO, text("You left the table: the same 'spades join' command takes your seat again."))

    def _emit(self, kind: str, frags: Fragments, seat: int | None = None) -> None:
        self._out.append(Output(kind, frags, seat))

    def _take(self) -> list[Output]:
        out, self._out = self._out, []
        return out


def _say(action: int) -> str:
    if action < 52:
        return f"play {action_text(action)}"
    if BID_BASE <= action < BID_BASE + 14:
        bid = action - BID_BASE
        return "bid nil" if bid == 0 else f"bid {bid}"
    return {
        BLIND: "declare",
        NO_BLIND: "do not declare",
        EXCHANGE_DONE: "done",
        KEEP: "keep",
        DISCARD: "discard",
    }.get(action, action_text(action))
