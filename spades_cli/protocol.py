"""The bot protocol: any program can take a seat, and our bots can sit at other tables.

Both sides of the line-based protocol described in ``docs/bot-protocol.md`` live here:

* the **table side**, :class:`ExternalController`, a match controller that starts a
  program, checks its handshake and asks it for each decision of its seat. It never
  trusts the program: a bad, illegal or missing answer, a crash or a flood of output
  ends in :class:`BotFailure` (or, with ``on_failure=LEVEL``, a built-in bot decides
  and a :class:`Takeover` is recorded). It never blocks past the time limit and always
  kills and reaps the program's whole process group;
* the **bot side**, :func:`serve`, which answers requests with any
  :class:`~spades_cli.bots.Bot` (``spades bot --level LEVEL``);
* the **codec** shared by both: :func:`format_request` writes one seat's whole view, the
  rules and the decision's generator key; :func:`parse_request` rebuilds an equal
  ``Observation`` and equal ``Rules`` from it.
"""

from __future__ import annotations

import contextlib
import os
import random
import select
import selectors
import shlex
import signal
import subprocess
import sys
import threading
import time
import traceback
import weakref
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from spades_cli import __version__
from spades_cli.bots import LEVELS
from spades_cli.engine import (
    BID,
    DECLARE,
    DRAFT,
    EXCHANGE,
    PLAY,
    HandResult,
    IllegalAction,
    Observation,
    Phase,
    Rules,
    Trick,
    card_str,
    parse_card,
    score_side,
)
from spades_cli.engine.cards import CardParseError
from spades_cli.engine.rules import SEAT_NAMES_2, SEAT_NAMES_4
from spades_cli.engine.state import NUM_ACTIONS
from spades_cli.errors import EXIT_ILLEGAL, SpadesError, UsageError
from spades_cli.game.events import Emit, Noted, Terminated
from spades_cli.notation import NotationError, action_text, parse_action
from spades_cli.presets import rules_from_dict
from spades_cli.rulecodec import RuleValueError, flat_rules, parse_value, put
from spades_cli.seats import DEFAULT_TIMEOUT, RecordSink

if TYPE_CHECKING:
    from spades_cli.bots import Bot
    from spades_cli.match import Match

PROTOCOL_VERSION = 1
HELLO = "spades-protocol"
STARTUP_TIMEOUT = 10.0  # the handshake may take this long (or the decision limit if longer)
MAX_LINE = 64 * 1024  # longest line a program may send
MAX_OUTPUT = 1024 * 1024  # most bytes a program may send for one decision
LOG_LIMIT = 4 * 1024 * 1024  # most bytes of a program's stderr kept in its log
RETIRE_AFTER = 3  # failures in a row after which the fallback plays the rest of the game
QUIT_GRACE = 0.5  # seconds a program has to exit after "quit"
_CHUNK = 65536

# The decision a request asks for, by engine phase (R-2P-2 draft, R-2P-3 double nil and
# exchange, R-C-7 bid, R-C-3 card).
KIND_OF_PHASE = {DRAFT: "draft", DECLARE: "double-nil", EXCHANGE: "exchange", BID: "bid", PLAY: "card"}
PHASE_OF_KIND = {kind: phase for phase, kind in KIND_OF_PHASE.items()}

_CARD_TEXT = tuple(card_str(c) for c in range(52))
_CARD_OF_TEXT = {text: c for c, text in enumerate(_CARD_TEXT)}
_ACTION_TEXT = tuple(action_text(a) for a in range(NUM_ACTIONS))
_ACTION_OF_TEXT = {text: a for a, text in enumerate(_ACTION_TEXT)}


# --------------------------------------------------------------------------- errors


class BotFailure(SpadesError):
    """An external program failed to decide for its seat; the game ends (exit code 1).

    ``kind`` is one word (``start``, ``handshake``, ``timeout``, ``crash``, ``overflow``,
    ``garbage``, ``unsolicited``, ``unreadable``, ``illegal``, ``refused``) and ``reason``
    one sentence saying what happened; both belong in the transcript's termination record.
    """

    exit_code = EXIT_ILLEGAL

    def __init__(self, seat: int | None, seat_name: str | None, kind: str, reason: str, label: str) -> None:
        who = f"seat {seat_name}" if seat_name is not None else "the bot"
        super().__init__(f"{who} ({label}) failed: {reason}")
        self.seat = seat
        self.seat_name = seat_name
        self.kind = kind
        self.reason = reason
        self.label = label

    @property
    def record(self) -> str:
        """The reason as the transcript's termination record gives it."""
        return f"{self.label} failed ({self.kind}): {self.reason}"


class ProtocolError(ValueError):
    """A request (bot side) that cannot be read."""


@dataclass(frozen=True, slots=True)
class Takeover:
    """A decision the fallback bot made because the program failed (``--on-bot-failure``)."""

    seat: int
    seat_name: str
    level: str  # the built-in bot that decided
    kind: str  # the failure, as in BotFailure.kind
    reason: str
    action: int
    retired: bool  # the program was stopped: the built-in bot plays the rest of the game

    def __str__(self) -> str:
        text = (
            f"the program failed ({self.kind}: {self.reason}); the {self.level} bot "
            f"decided {action_text(self.action)} instead"
        )
        if self.retired:
            text += f" and plays seat {self.seat_name} for the rest of the game"
        return text


class _Fail(Exception):
    """Internal: one failure of the program, before it becomes BotFailure or a Takeover."""

    def __init__(self, kind: str, reason: str, *, restart: bool = False, final: bool = False) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason
        self.restart = restart  # the conversation is out of step: stop this process
        self.final = final  # starting again cannot help (the program cannot be run)


# --------------------------------------------------------------------------- codec


def rules_lines(rules: Rules) -> list[str]:
    """The rules as ``rule KEY.PATH VALUE`` lines, VALUE in JSON (``true``, ``null``, ``"x"``)."""
    return [f"rule {path} {text}" for path, text in flat_rules(rules, quote_strings=True)]


def _bid_text(bid: int | None, blind: bool) -> str:
    if bid is None:
        return "-"
    if blind:
        return "blind"
    return "nil" if bid == 0 else str(bid)


def _cards_line(key: str, cards: Iterable[int]) -> str:
    text = " ".join([_CARD_TEXT[c] for c in cards])
    return f"{key} {text}" if text else key


def format_request(obs: Observation, rules: Rules, key: str, *, rules_text: str | None = None) -> str:
    """The request for the decision ``obs`` asks of its seat, ``end`` line included.

    ``key`` names the decision's random generator (``match.rng_key("bot", seat)``: one-way,
    so it does not reveal the game's seed, which would give away the deal); ``rules_text``
    is ``"\\n".join(rules_lines(rules))`` when the caller keeps it between requests.
    """
    kind = KIND_OF_PHASE.get(obs.phase)
    if kind is None:
        raise ValueError(f"nothing to decide in the {obs.phase} phase")
    names = rules.seat_names
    lines = [f"request {kind}", rules_text if rules_text is not None else "\n".join(rules_lines(rules))]
    lines.append(f"seat {names[obs.seat]}")
    lines.append(f"deal {obs.hand_no + 1}")
    lines.append(f"dealer {names[obs.dealer]}")
    lines.append(_cards_line("hand", obs.hand))
    if obs.draft_card is not None:
        lines.append(f"draft {_CARD_TEXT[obs.draft_card]}")
    if obs.players == 2:
        lines.append(_cards_line("discards", obs.own_discards))
        lines.append("exchanged " + " ".join(map(str, obs.exchanged)))
    lines.append("bids " + " ".join(_bid_text(b, d) for b, d in zip(obs.bids, obs.declared, strict=True)))
    for t in obs.tricks:
        lines.append(
            f"trick {names[t.leader]} {' '.join([_CARD_TEXT[c] for c in t.cards])} {names[t.winner]}"
        )
    lines.append(_cards_line(f"current {names[obs.leader]}", obs.current_trick))
    lines.append("won " + " ".join(map(str, obs.tricks_won)))
    lines.append("broken yes" if obs.spades_broken else "broken no")
    lines.append(f"scores {obs.scores[0]} {obs.scores[1]}")
    lines.append(f"bags {obs.bags[0]} {obs.bags[1]}")
    for r in obs.results:
        bids = " ".join(_bid_text(b, d) for b, d in zip(r.bids, r.blind, strict=True))
        lines.append(
            f"result {r.hand_no + 1} {names[r.dealer]} bids {bids} tricks {' '.join(map(str, r.tricks))}"
        )
    lines.append("legal " + " ".join([_ACTION_TEXT[a] for a in obs.legal]))
    lines.append(f"rng {key}")
    lines.append("end\n")
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class Request:
    """A request as the bot side reads it: the decision, the seat's view, the rules."""

    kind: str
    obs: Observation
    rules: Rules
    key: str

    def rng(self) -> random.Random:
        """The generator the table's own bots would use for this decision."""
        return random.Random(self.key)


def _rules_from_lines(lines: tuple[str, ...]) -> Rules:
    tree: dict[str, Any] = {}
    for line in lines:
        path, _, value_text = line.partition(" ")
        value_text = value_text.strip()
        try:
            value = parse_value(path, value_text)
        except RuleValueError as exc:
            raise ProtocolError(f"rule {path}: {exc}") from None
        if isinstance(value, str) and not value_text.startswith('"'):  # strings are quoted here
            raise ProtocolError(f"rule {path}: {value_text!r} is not a JSON value")
        why = put(tree, path, value, replace=True)
        if why is not None:
            raise ProtocolError(f"rule {path}: {why}")
    try:
        return rules_from_dict(tree, "request")
    except SpadesError as exc:
        raise ProtocolError(f"bad rules: {exc}") from None


class RequestCache:
    """What a bot side may keep between requests to read them faster: the Rules of
    identical ``rule`` lines, the tricks of identical ``trick`` lines and the results of
    identical ``result`` lines. It changes nothing in what a request means (the bot
    stays stateless)."""

    __slots__ = ("results", "rules", "tricks")

    LIMIT = 64

    def __init__(self) -> None:
        self.rules: dict[tuple[str, ...], Rules] = {}
        self.tricks: dict[tuple[int, str], Trick] = {}
        self.results: dict[tuple[tuple[str, ...], tuple[str, ...]], tuple[HandResult, ...]] = {}


def parse_request(lines: Sequence[str], *, cache: RequestCache | None = None) -> Request:
    """Read a request (``request KIND`` first; the ``end`` line may be left out).

    Unknown lines are ignored (newer tables may send more). Raises ProtocolError.
    """
    if not lines:
        raise ProtocolError("empty request")
    head = lines[0].split()
    if len(head) != 2 or head[0] != "request":
        raise ProtocolError("a request starts with 'request KIND'")
    kind = head[1]
    phase = PHASE_OF_KIND.get(kind)
    if phase is None:
        raise ProtocolError(f"unknown request {kind!r} (known: {', '.join(PHASE_OF_KIND)})")
    if cache is None:
        cache = RequestCache()
    fields: dict[str, str] = {}
    rule_lines: list[str] = []
    trick_lines: list[str] = []
    result_lines: list[str] = []
    for raw in lines[1:]:
        key, _, rest = raw.strip().partition(" ")
        if key == "rule":
            rule_lines.append(rest)
        elif key == "trick":
            trick_lines.append(rest)
        elif key == "result":
            result_lines.append(rest)
        elif key == "end":
            break
        elif key:
            fields[key] = rest
    rules_key = tuple(rule_lines)
    rules = cache.rules.get(rules_key)
    if rules is None:
        rules = _rules_from_lines(rules_key)
        if len(cache.rules) >= cache.LIMIT:
            cache.rules.clear()
        cache.rules[rules_key] = rules
    try:
        obs = _read_view(fields, trick_lines, (rules_key, tuple(result_lines)), rules, phase, cache)
    except (ValueError, IndexError, KeyError) as exc:
        raise ProtocolError(str(exc)) from None
    key = fields.get("rng", "")
    if not key:
        raise ProtocolError("missing line 'rng'")
    return Request(kind, obs, rules, key)


def _card(token: str) -> int:
    c = _CARD_OF_TEXT.get(token)
    if c is None:
        try:
            c = parse_card(token)
        except CardParseError as exc:
            raise ProtocolError(str(exc)) from None
    return c


def _cards(tokens: Iterable[str]) -> tuple[int, ...]:
    return tuple([_card(t) for t in tokens])


def _bid(token: str) -> tuple[int | None, bool]:
    """A bid token: ``-`` (none yet), ``nil``, ``blind`` (declared blind / double nil) or a number."""
    if token == "-":
        return None, False
    if token == "blind":
        return 0, True
    if token == "nil":
        return 0, False
    return int(token), False


class _Reader:
    """Reads the view lines of one request under the rules it carries."""

    __slots__ = ("cache", "fields", "n", "names", "seat_of")

    def __init__(self, fields: dict[str, str], rules: Rules, cache: RequestCache) -> None:
        self.fields = fields
        self.n = rules.players
        self.names = rules.seat_names
        self.seat_of = _SEAT_OF[self.n]
        self.cache = cache

    def need(self, key: str) -> str:
        value = self.fields.get(key)
        if value is None:
            raise ProtocolError(f"missing line {key!r}")
        return value

    def seat(self, token: str) -> int:
        s = self.seat_of.get(token)
        if s is None:
            raise ProtocolError(f"{token!r} is not a seat (seats: {' '.join(self.names)})")
        return s

    def per_seat(self, key: str, text: str) -> list[str]:
        tokens = text.split()
        if len(tokens) != self.n:
            raise ProtocolError(f"{key}: expected {self.n} values, got {len(tokens)}")
        return tokens

    def pair(self, key: str) -> tuple[int, int]:
        tokens = self.need(key).split()
        if len(tokens) != 2:
            raise ProtocolError(f"{key}: expected 2 numbers (one per side), got {len(tokens)}")
        return int(tokens[0]), int(tokens[1])

    def flag(self, key: str) -> bool:
        text = self.need(key)
        if text not in ("yes", "no"):
            raise ProtocolError(f"{key}: expected yes or no, got {text!r}")
        return text == "yes"

    def trick(self, line: str) -> Trick:
        key = (self.n, line)
        trick = self.cache.tricks.get(key)
        if trick is None:
            tokens = line.split()
            if len(tokens) != self.n + 2:
                raise ProtocolError(f"trick: expected a leader, {self.n} cards and a winner")
            trick = Trick(self.seat(tokens[0]), _cards(tokens[1:-1]), self.seat(tokens[-1]))
            if len(self.cache.tricks) >= 4 * self.cache.LIMIT:
                self.cache.tricks.clear()
            self.cache.tricks[key] = trick
        return trick

    def legal(self, phase: Phase) -> tuple[int, ...]:
        legal = []
        for token in self.fields.get("legal", "").split():
            action = _ACTION_OF_TEXT.get(token)
            if action is None:
                try:
                    action = parse_action(token, phase)
                except NotationError as exc:
                    raise ProtocolError(f"legal: {exc}") from None
            legal.append(action)
        if not legal:
            raise ProtocolError("legal: no legal action listed")
        return tuple(legal)

    def results(self, key: tuple[tuple[str, ...], tuple[str, ...]], rules: Rules) -> tuple[HandResult, ...]:
        """Earlier hands; each side's score is worked out again from bids and tricks
        (R-C-8 to R-C-10, R-2P-6, R-4P-6, R-4P-7)."""
        cached = self.cache.results.get(key)
        if cached is not None:
            return cached
        n = self.n
        sides = ((0, 2), (1, 3)) if n == 4 else ((0,), (1,))
        scores, bags = [0, 0], [0, 0]
        out = []
        for line in key[1]:
            tokens = line.split()
            if len(tokens) != 2 * n + 4 or tokens[2] != "bids" or tokens[3 + n] != "tricks":
                raise ProtocolError(f"result: expected 'DEAL DEALER bids {n} bids tricks {n} numbers'")
            read = [_bid(t) for t in tokens[3:3 + n]]
            if any(b is None for b, _ in read):
                raise ProtocolError("result: every seat has a bid in a finished hand")
            bids = tuple(b or 0 for b, _ in read)
            blind = tuple(d for _, d in read)
            tricks = tuple(int(t) for t in tokens[4 + n:])
            first, second = (
                score_side(rules, bids, blind, tricks, seats, scores[i], bags[i])
                for i, seats in enumerate(sides)
            )
            scores = [first.score, second.score]
            bags = [first.bags_total, second.bags_total]
            dealer = self.seat(tokens[1])
            out.append(HandResult(int(tokens[0]) - 1, dealer, bids, blind, tricks, (first, second)))
        results = tuple(out)
        if len(self.cache.results) >= self.cache.LIMIT:
            self.cache.results.clear()
        self.cache.results[key] = results
        return results


_SEAT_OF = {len(names): {name: i for i, name in enumerate(names)} for names in (SEAT_NAMES_2, SEAT_NAMES_4)}


def _read_view(
    fields: dict[str, str],
    trick_lines: list[str],
    results_key: tuple[tuple[str, ...], tuple[str, ...]],
    rules: Rules,
    phase: Phase,
    cache: RequestCache,
) -> Observation:
    r = _Reader(fields, rules, cache)
    n = r.n
    seat_no = r.seat(r.need("seat"))
    bids = [_bid(t) for t in r.per_seat("bids", r.need("bids"))]
    current = r.need("current").split()
    if not current:
        raise ProtocolError("current: expected the leader of the trick in progress")
    draft = fields.get("draft")
    exchanged = fields.get("exchanged")
    return Observation(
        seat=seat_no,
        players=n,
        phase=phase,
        hand_no=int(r.need("deal")) - 1,
        dealer=r.seat(r.need("dealer")),
        current=seat_no,
        looked=phase != DECLARE,
        hand=_cards(fields.get("hand", "").split()),
        draft_card=_card(draft) if draft else None,
        own_discards=_cards(fields.get("discards", "").split()),
        exchanged=tuple(int(t) for t in r.per_seat("exchanged", exchanged)) if exchanged else (0,) * n,
        declared=tuple([d for _, d in bids]),
        bids=tuple([b for b, _ in bids]),
        tricks=tuple([r.trick(line) for line in trick_lines]),
        current_trick=_cards(current[1:]),
        leader=r.seat(current[0]),
        tricks_won=tuple([int(t) for t in r.per_seat("won", r.need("won"))]),
        spades_broken=r.flag("broken"),
        scores=r.pair("scores"),
        bags=r.pair("bags"),
        results=r.results(results_key, rules),
        legal=r.legal(phase),
    )


# --------------------------------------------------------------------------- bot side


def serve(bot: Bot, stdin: IO[str], stdout: IO[str], *, name: str | None = None) -> None:
    """Answer protocol commands on ``stdin`` with ``bot`` until ``quit`` or end of input."""
    name = " ".join((name or f"spades-{bot.level} {__version__}").split()) or "unnamed"
    cache = RequestCache()

    def answer(text: str) -> None:
        stdout.write(text + "\n")
        stdout.flush()

    while True:
        line = stdin.readline()
        if not line:
            return
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        word, _, rest = text.partition(" ")
        if word == HELLO:
            version = rest.strip()
            if version.isdigit() and int(version) >= PROTOCOL_VERSION:
                answer(f"= {PROTOCOL_VERSION} {name}")
            else:
                answer(f"? unsupported protocol version {version!r} (this bot speaks {PROTOCOL_VERSION})")
        elif word == "request":
            block = [text]
            while True:
                more = stdin.readline()
                if not more:
                    return
                more = more.strip()
                if more == "end":
                    break
                block.append(more)
            answer(_answer_request(bot, block, cache))
        elif word == "quit":
            answer("= bye")
            return
        else:
            answer(f"? unknown command {word!r}")


def _answer_request(bot: Bot, block: list[str], cache: RequestCache) -> str:
    try:
        request = parse_request(block, cache=cache)
    except ProtocolError as exc:
        return f"? bad request: {exc}"
    try:
        action = bot.act(request.obs, request.rules, request.rng())
    except Exception as exc:  # a bug in the bot must not end the conversation
        traceback.print_exc(file=sys.stderr)
        return f"? the bot failed: {type(exc).__name__}: {' '.join(str(exc).split())}"
    if action not in request.obs.legal:
        return f"? the bot chose {action}, which is not legal here"
    return f"= {_ACTION_TEXT[action]}"


# --------------------------------------------------------------------------- table side


def _show(text: str, limit: int = 60) -> str:
    shown = repr(text[:limit])
    return shown + ("..." if len(text) > limit else "")


def _reap(proc: subprocess.Popen[bytes]) -> None:
    """Kill the program's whole process group and collect its exit status (no zombies)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    for pipe in (proc.stdin, proc.stdout):
        if pipe is not None:
            with contextlib.suppress(OSError):
                pipe.close()


def _pump_log(pipe: IO[bytes], log: IO[bytes]) -> None:
    """Copy a program's stderr to its log, keeping at most LOG_LIMIT bytes."""
    kept = 0
    fd = pipe.fileno()
    try:
        while True:
            chunk = os.read(fd, _CHUNK)
            if not chunk:
                break
            if kept < LOG_LIMIT:
                part = chunk[:LOG_LIMIT - kept]
                log.write(part)
                log.flush()
                kept += len(part)
                if kept >= LOG_LIMIT:
                    log.write(b"\n[spades: log truncated]\n")
                    log.flush()
    except OSError:
        pass
    finally:
        pipe.close()
        log.close()


class _Channel:
    """One running program: non-blocking pipes, deadlines, caps on what it may send."""

    def __init__(self, argv: list[str], command: str, log_path: Path | None) -> None:
        log: IO[bytes] | None = None
        if log_path is not None:
            try:
                log = open(log_path, "ab")  # noqa: SIM115 (closed by the log thread)
                log.write(f"[spades: started {command}]\n".encode())
                log.flush()
            except OSError as exc:
                if log is not None:
                    log.close()
                raise UsageError(f"cannot write the bot log {log_path}: {exc.strerror or exc}") from None
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        try:
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE if log is not None else subprocess.DEVNULL,
                bufsize=0,
                start_new_session=True,
                env=env,
            )
        except OSError as exc:
            if log is not None:
                log.close()
            raise _Fail("start", f"cannot run {command!r}: {exc.strerror or exc}", final=True) from None
        self._finalizer = weakref.finalize(self, _reap, self.proc)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.wfd = self.proc.stdin.fileno()
        self.rfd = self.proc.stdout.fileno()
        os.set_blocking(self.wfd, False)
        os.set_blocking(self.rfd, False)
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.rfd, selectors.EVENT_READ)
        self.buf = bytearray()
        self.received = 0
        self.closed = False
        self.log_thread: threading.Thread | None = None
        if log is not None:
            assert self.proc.stderr is not None
            self.log_thread = threading.Thread(
                target=_pump_log, args=(self.proc.stderr, log), name="spades-bot-log", daemon=True
            )
            self.log_thread.start()

    @property
    def alive(self) -> bool:
        return not self.closed

    def _exited(self, wait: float) -> bool:
        """Has the program exited (within ``wait`` seconds)? Never collects its status."""
        end = time.monotonic() + wait
        while True:
            try:
                info = os.waitid(os.P_PID, self.proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                return True
            if info is not None:
                return True
            if time.monotonic() >= end:
                return False
            time.sleep(0.005)

    def _gone(self) -> _Fail:
        """The program closed its output: wait briefly for it to exit and say how it ended."""
        exited = self._exited(1.0)
        self.close(polite=False)
        code = self.proc.returncode
        if not exited or code is None:
            return _Fail("crash", "closed its output", restart=True)
        if code < 0:
            try:
                sig = signal.Signals(-code).name
            except ValueError:
                sig = str(-code)
            return _Fail("crash", f"was killed by signal {sig}", restart=True)
        return _Fail("crash", f"exited with status {code}", restart=True)

    def _read_some(self, wait: float) -> bool:
        """Read what the program has sent, waiting up to ``wait`` seconds; False if nothing came."""
        if not self.sel.select(max(wait, 0.0)):
            return False
        try:
            chunk = os.read(self.rfd, _CHUNK)
        except BlockingIOError:
            return True
        except OSError:
            raise self._gone() from None
        if not chunk:
            raise self._gone()
        self.received += len(chunk)
        if self.received > MAX_OUTPUT:
            raise _Fail("overflow", f"sent more than {MAX_OUTPUT // 1024} KiB for one decision", restart=True)
        self.buf += chunk
        return True

    def _next_line(self) -> str | None:
        buf = self.buf
        end = buf.find(b"\n")
        if end < 0:
            if len(buf) > MAX_LINE:
                raise _Fail("overflow", f"sent a line longer than {MAX_LINE // 1024} KiB", restart=True)
            return None
        if end > MAX_LINE:
            raise _Fail("overflow", f"sent a line longer than {MAX_LINE // 1024} KiB", restart=True)
        line = bytes(buf[:end]).decode("utf-8", "replace").strip()
        del buf[:end + 1]
        return line

    def begin(self) -> None:
        """Start a new exchange: nothing may be waiting from the program but comments."""
        self.received = 0
        while self._read_some(0.0):
            pass
        while (line := self._next_line()) is not None:
            if line and not line.startswith("#"):
                raise _Fail("unsolicited", f"sent {_show(line)} when nothing was asked", restart=True)

    def send(self, data: bytes, deadline: float, what: str) -> None:
        view = memoryview(data)
        while view:
            try:
                written = os.write(self.wfd, view)
            except BlockingIOError:
                written = 0
            except (BrokenPipeError, ConnectionResetError):
                raise self._gone() from None
            view = view[written:]
            if view:
                wait = deadline - time.monotonic()
                if wait <= 0:
                    raise _Fail("timeout", f"did not read the {what} in time", restart=True)
                select.select([], [self.wfd], [], wait)

    def answer(self, deadline: float, limit: float, what: str) -> str:
        """The next line that is not empty or a comment, by ``deadline`` (output that keeps
        coming without an answer does not move the deadline)."""
        while True:
            line = self._next_line()
            if line is not None:
                if line and not line.startswith("#"):
                    return line
                continue
            wait = deadline - time.monotonic()
            if wait <= 0:
                raise _Fail("timeout", f"gave no answer to the {what} within {limit:g} s", restart=True)
            self._read_some(wait)

    def close(self, *, polite: bool) -> None:
        """Stop the program (asking it to quit first if ``polite``) and reap it."""
        if self.closed:
            return
        self.closed = True
        if polite and not self._exited(0.0):
            try:
                self.send(b"quit\n", time.monotonic() + 0.1, "quit")
                self._exited(QUIT_GRACE)
            except _Fail:
                pass
        self._finalizer()
        self.sel.close()
        if self.log_thread is not None:
            self.log_thread.join(timeout=1.0)


def parse_command(command: str) -> list[str]:
    """The argument vector of a ``cmd:`` program (shell-like quoting, no shell)."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise UsageError(f"cannot read the bot command {command!r}: {exc}") from None
    if not argv:
        raise UsageError("the bot command is empty (write --seat SEAT=cmd:'PROGRAM ARGS')")
    return argv


class ExternalController:
    """A seat played by a program over the bot protocol (``--seat N=cmd:'python bot.py'``).

    ``decide`` returns a legal action or raises :class:`BotFailure` (never blocks past the
    time limit, never raises anything else). With ``on_failure=LEVEL`` a built-in bot
    decides instead and a :class:`Takeover` is appended to ``takeovers``; after
    RETIRE_AFTER failures in a row the program is stopped and the built-in bot plays the
    seat for the rest of that game. ``name`` is the name the program gave in the
    handshake (after :meth:`start` or the first decision).

    ``emit`` (see :func:`spades_cli.seats.make_seat`) hears, for the record, a ``Noted``
    with the program's name after each handshake and one for every takeover, and a
    ``Terminated`` when a failure ends the game. Close the controller (or use ``with``)
    when the game is over; programs still running at exit are killed.
    """

    def __init__(
        self,
        command: str,
        rules: Rules,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        on_failure: str | None = None,
        log_path: str | Path | None = None,
        seat: int | None = None,
        startup_timeout: float | None = None,
        emit: Emit | None = None,
    ) -> None:
        self.argv = parse_command(command)
        self.command = command
        self.label = f"cmd:{command}"
        self.rules = rules
        self._fallback: Bot | None = None
        for value in (timeout, startup_timeout):
            if value is not None and not value > 0:
                raise UsageError(f"a bot time limit must be more than 0 seconds, not {value:g}")
        self.timeout = float(timeout)
        self.startup_timeout = float(startup_timeout or max(STARTUP_TIMEOUT, timeout))
        if on_failure is not None and on_failure not in LEVELS:
            raise UsageError(f"unknown bot level {on_failure!r} (levels: {', '.join(LEVELS)})")
        self.on_failure = on_failure
        self.log_path = Path(log_path) if log_path is not None else None
        self.seat = seat  # set by decide() when not given
        self.emit = emit
        self.name: str | None = None
        self.takeovers: list[Takeover] = []
        self._channel: _Channel | None = None
        self._rules_for: tuple[Rules, str] = (rules, "\n".join(rules_lines(rules)))
        self._game: weakref.ref[Match] | None = None
        self._streak = 0
        self._retired = False

    @property
    def pid(self) -> int | None:
        """The process id of the running program (None when none is running)."""
        channel = self._channel
        return channel.proc.pid if channel is not None and channel.alive else None

    # -- life cycle -------------------------------------------------------------

    def start(self) -> str:
        """Start the program and check its handshake; its name. Raises BotFailure."""
        try:
            self._open()
        except _Fail as fail:
            raise self._failure(self.seat, fail) from None
        assert self.name is not None
        return self.name

    def close(self) -> None:
        """Ask the program to quit, then kill what is left of its process group."""
        channel, self._channel = self._channel, None
        if channel is not None:
            channel.close(polite=True)

    def __enter__(self) -> ExternalController:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _open(self) -> _Channel:
        """The running program, started (and its handshake checked) if need be."""
        if self._channel is not None and self._channel.alive:
            return self._channel
        self._channel = None
        channel = _Channel(self.argv, self.command, self.log_path)
        try:
            channel.begin()
            limit = self.startup_timeout
            deadline = time.monotonic() + limit
            channel.send(f"{HELLO} {PROTOCOL_VERSION}\n".encode(), deadline, "handshake")
            line = channel.answer(deadline, limit, "handshake")
            name = _check_hello(line)
        except _Fail as fail:
            channel.close(polite=False)
            if fail.kind == "crash":
                fail.reason += " during the handshake"
            elif fail.kind not in ("timeout", "overflow"):
                fail.kind = "handshake"
            fail.restart = True
            raise
        self._channel = channel
        if self.emit is not None and name != self.name:
            self.emit(Noted(self.seat, f"played by {name} (bot protocol {PROTOCOL_VERSION}, {self.label})"))
        self.name = name
        return channel

    # -- deciding ---------------------------------------------------------------

    def decide(self, match: Match, seat: int) -> int:
        self.seat = seat
        if self._game is None or self._game() is not match:
            self._game = weakref.ref(match)
            self._streak = 0
            self._retired = False
        obs = match.observation(seat)
        if self._retired:  # already noted when the program was stopped
            return self._fallback_bot().act(obs, match.rules, match.rng("bot", seat))
        try:
            action = self._ask(match, obs, seat)
        except _Fail as fail:
            if fail.restart and self._channel is not None:
                self._channel.close(polite=False)
                self._channel = None
            if self.on_failure is None:
                self.close()
                raise self._failure(seat, fail) from None
            self._streak += 1
            if fail.final or self._streak >= RETIRE_AFTER:
                self._retired = True
                self.close()
            return self._take_over(match, obs, seat, fail)
        self._streak = 0
        return action

    def _ask(self, match: Match, obs: Observation, seat: int) -> int:
        channel = self._open()
        rules = match.rules
        if self._rules_for[0] is not rules:
            self._rules_for = (rules, "\n".join(rules_lines(rules)))
        request = format_request(obs, rules, match.rng_key("bot", seat), rules_text=self._rules_for[1])
        kind = KIND_OF_PHASE[obs.phase]
        channel.begin()
        deadline = time.monotonic() + self.timeout
        channel.send(request.encode(), deadline, f"{kind} request")
        line = channel.answer(deadline, self.timeout, f"{kind} request")
        return _check_answer(match, obs, kind, line)

    def _failure(self, seat: int | None, fail: _Fail) -> BotFailure:
        """The failure that ends the game, told to ``emit`` as the termination record."""
        name = self.rules.seat_names[seat] if seat is not None else None
        failure = BotFailure(seat, name, fail.kind, fail.reason, self.label)
        if self.emit is not None:
            self.emit(Terminated(seat, failure.record))
        return failure

    def _fallback_bot(self) -> Bot:
        if self._fallback is None:
            from spades_cli.bots import make_bot

            assert self.on_failure is not None
            self._fallback = make_bot(self.on_failure)
        return self._fallback

    def _take_over(self, match: Match, obs: Observation, seat: int, fail: _Fail) -> int:
        assert self.on_failure is not None
        action = self._fallback_bot().act(obs, match.rules, match.rng("bot", seat))
        name = match.rules.seat_names[seat]
        note = Takeover(seat, name, self.on_failure, fail.kind, fail.reason, action, self._retired)
        self.takeovers.append(note)
        if self.emit is not None:
            self.emit(Noted(seat, str(note)))
        return action


def _check_hello(line: str) -> str:
    if line.startswith("?"):
        raise _Fail("handshake", f"refused the handshake: {_show(line)}")
    if not line.startswith("="):
        raise _Fail("handshake", f"answered the handshake with {_show(line)}")
    version, _, name = line[1:].strip().partition(" ")
    if version != str(PROTOCOL_VERSION):
        raise _Fail(
            "handshake", f"speaks protocol version {_show(version)}; this table speaks {PROTOCOL_VERSION}"
        )
    name = "".join(ch for ch in name if ch.isprintable()).strip()
    return name[:80] or "unnamed"


def _check_answer(match: Match, obs: Observation, kind: str, line: str) -> int:
    if line.startswith("="):
        text = line[1:].strip()
        try:
            action = parse_action(text, obs.phase)
        except NotationError as exc:
            raise _Fail("unreadable", f"answered {_show(text)} to a {kind} request: {exc}") from None
        if action not in obs.legal:
            try:
                match.state.check(action)
            except IllegalAction as exc:
                why = exc.reason
                raise _Fail("illegal", f"answered {action_text(action)}, which is illegal: {why}") from None
        return action
    if line.startswith("?"):
        raise _Fail("refused", f"declined the {kind} request: {_show(line[1:].strip())}")
    raise _Fail("garbage", f"sent {_show(line)}, which is not an answer (= ACTION or ? ERROR)", restart=True)


@contextlib.contextmanager
def recording(
    match: Match,
    writer: RecordSink | None,
    *,
    timeout: float | None = None,
    on_failure: str | None = None,
) -> Iterator[None]:
    """Seat ``match``'s programs now that its transcript exists, run the block, stop them.

    Every seat whose label is ``cmd:PROGRAM`` gets a controller made by
    :func:`spades_cli.seats.make_seat` with ``timeout`` and ``on_failure``
    (``--bot-timeout``, ``--on-bot-failure``), its stderr log beside the transcript
    (:func:`spades_cli.seats.bot_log_path`) and its notes and termination recorded in
    ``writer``. A run that builds its seats with :func:`make_seat` from the start needs
    none of this: it only closes its programs at the end::

        with recording(match, writer, timeout=bot_timeout, on_failure=on_bot_failure):
            match.run()
    """
    from spades_cli.seats import SeatOptions, bot_log_path, make_seat, to_transcript

    rules = match.rules
    emit = to_transcript(writer, rules) if writer is not None else None
    controllers = list(match.controllers)
    programs: list[ExternalController] = []
    for seat, controller in enumerate(controllers):
        if not controller.label.startswith("cmd:"):
            continue
        log = bot_log_path(writer.path, rules.seat_names[seat]) if writer is not None else None
        options = SeatOptions(controller.label, timeout or DEFAULT_TIMEOUT, on_failure, log)
        program = make_seat(options, rules, emit, seat=seat)
        assert isinstance(program, ExternalController)
        programs.append(program)
        controllers[seat] = program
    match.controllers = controllers
    try:
        yield
    finally:
        for program in programs:
            program.close()
