"""The table protocol's messages and limits (``docs/table-protocol.md``).

One message is one JSON object on one line (UTF-8, ending in ``\\n``), with a ``type``
field. A seat's view is the bot protocol's view (:func:`spades_cli.protocol.format_request`)
without its ``rule`` lines, which the ``welcome`` message carries once.

Everything a peer sends is data: :func:`decode` checks the size and the shape of a line
and raises :class:`WireError` with a short reason; nothing in a message names a program
to run or a file to open.
"""

from __future__ import annotations

import hmac
import json
import os
import re
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spades_cli.engine import HandResult, Observation, Rules
from spades_cli.engine.text import excerpt
from spades_cli.errors import UsageError
from spades_cli.protocol import format_request, parse_request, rules_from_lines

VERSION = 1
HELLO = "spades-table"

MAX_LINE = 16 * 1024  # longest line a client may send (bytes, newline included)
MAX_SAY = 300  # longest chat text (characters)
MAX_PENDING = 1024 * 1024  # bytes waiting to be sent to one client before it is cut off
RATE = 20.0  # messages a client may send per second, on average ...
BURST = 40.0  # ... and in a burst
HELLO_TIMEOUT = 10.0  # seconds to say hello after connecting (the TLS handshake included)
MAX_CLIENTS = 256  # connections in handshake at once (per host): past it the oldest is dropped
MAX_PER_ADDRESS = 16  # ... and from one address
FAULT_LINES = 1.0  # console lines a second about refused connections, on average ...
FAULT_BURST = 10.0  # ... and in a burst
CHAT_RATE = 0.2  # chat lines a seat may say per second, on average ...
CHAT_BURST = 5.0  # ... and in a burst (each is a note in the transcript)
KEEPALIVE = 5.0  # seconds a seated client may be silent before the host pings it
IDLE_TIMEOUT = 15.0  # seconds of silence (pings unanswered) before the host drops it
PING_GRACE = 2.0  # seconds a ping may go unanswered before a rejoin takes the seat over

WATCH = -1  # the "seat" of a spectator


class WireError(ValueError):
    """A line that is not a message of this protocol (too long, not JSON, wrong shape)."""


def encode(msg: Mapping[str, Any]) -> bytes:
    """One message as one line. It cannot fail on text: a character UTF-8 cannot carry (a
    lone surrogate, which JSON can) goes out as its JSON escape, which :func:`decode` refuses."""
    return (json.dumps(msg, ensure_ascii=False, separators=(",", ":")) + "\n").encode(
        "utf-8", "backslashreplace"
    )


_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")  # the JSON escape of a surrogate (maybe one of a pair)


def decode(line: bytes, *, limit: int = MAX_LINE) -> dict[str, Any]:
    """A received line as a message: a JSON object with a string ``type``, whose every
    string is text (a lone surrogate, valid JSON but no character, is refused)."""
    if len(line) > limit:
        raise WireError(f"line longer than {limit} bytes")
    try:
        msg = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise WireError("not a JSON line") from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise WireError("a message is a JSON object with a 'type'")
    if _SURROGATE.search(line) and not _all_text(msg):
        raise WireError("not UTF-8 text (a lone surrogate)")
    return msg


def _all_text(value: Any) -> bool:
    """True if every string in ``value`` (keys too) is text UTF-8 can carry."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack += item.keys()
            stack += item.values()
        elif isinstance(item, list):
            stack += item
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return False
    return True


MAX_NUMBER = 1_000_000  # the largest count (a turn, a hand, a score) a peer may send


def count(value: Any, top: int = MAX_NUMBER, bottom: int = 0) -> int:
    """A whole number a peer sent, from ``bottom`` to ``top`` (WireError for anything else:
    a fraction, ``Infinity``, ``1e400``, a number of 400 digits, a string)."""
    if isinstance(value, bool) or not isinstance(value, int) or not bottom <= value <= top:
        raise WireError(f"expected a whole number from {bottom} to {top}, not {excerpt(str(value)[:50])}")
    return value


def seconds(value: Any, top: float = 86400.0) -> float:
    """A duration a peer sent, from 0 to ``top`` seconds (WireError for anything else)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= top:
        raise WireError(f"expected a number of seconds from 0 to {top:g}, not {excerpt(str(value)[:50])}")
    return float(value)


def text_field(msg: Mapping[str, Any], key: str, limit: int = MAX_SAY) -> str:
    """A short string field of a message (WireError if missing, not a string or too long)."""
    value = msg.get(key)
    if not isinstance(value, str) or len(value) > limit:
        raise WireError(f"'{key}' must be a string of at most {limit} characters")
    return value


def safe_text(value: Any, limit: int = 200) -> str:
    """What a peer sent, as it may be shown on a terminal: the one quoting policy
    (``engine.text.excerpt``: control characters and marks that reverse the text escaped,
    at most ``limit`` characters, ``...`` when cut)."""
    return excerpt(str(value), limit)


class RateLimit:
    """A token bucket: ``allow()`` is False once a peer sends faster than ``rate`` per
    second for longer than ``burst`` messages."""

    def __init__(self, rate: float = RATE, burst: float = BURST) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.when = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.when) * self.rate)
        self.when = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


# --------------------------------------------------------------------------- views


def view_lines(obs: Observation, rules: Rules, key: str) -> list[str]:
    """A seat's view as the bot protocol writes it, less the rules (sent once in ``welcome``)."""
    text = format_request(obs, rules, key or "-", rules_text="")
    return [line for line in text.splitlines() if line and line != "end"]


def read_view(lines: Sequence[str], rule_lines: Sequence[str], *, turn: bool = True) -> Observation:
    """The Observation of a ``view`` message (WireError if it cannot be read); ``turn=False``:
    the view of a seat not on turn (a seat that (re)joins), which lists no legal action."""
    if not lines or not all(isinstance(x, str) and len(x) < MAX_LINE for x in lines):
        raise WireError("a view is a list of lines")
    try:
        return parse_request([lines[0], *rule_lines, *lines[1:]], decision=turn).obs
    except ValueError as exc:
        raise WireError(f"unreadable view: {exc}") from None


def public_view(
    rule_lines: Sequence[str], seats: Sequence[str], result_lines: Sequence[str]
) -> tuple[Rules, tuple[HandResult, ...]]:
    """The rules of ``welcome`` and the finished hands of ``scored``, read by the bot
    protocol's own reader (which scores each hand again from its bids and tricks)."""
    n = len(seats)
    texts = [*rule_lines, *result_lines]
    if n not in (2, 3, 4) or not all(isinstance(x, str) and len(x) < MAX_LINE for x in texts):
        raise WireError("unreadable rules or results")
    try:
        sides = rules_from_lines(rule_lines).sides  # one score per side (R-CT-7)
    except ValueError as exc:
        raise WireError(f"unreadable rules or results: {exc}") from None
    zeros = " ".join(["0"] * sides)
    lines = [
        "request bid",
        *rule_lines,
        f"seat {seats[0]}",
        "deal 1",
        f"dealer {seats[0]}",
        "hand",
        "bids " + " ".join(["-"] * n),
        f"current {seats[0]}",
        "won " + " ".join(["0"] * n),
        "broken no",
        f"scores {zeros}",
        f"bags {zeros}",
        *result_lines,
        "legal 1",
        "rng -",
    ]
    try:
        request = parse_request(lines)
    except ValueError as exc:
        raise WireError(f"unreadable rules or results: {exc}") from None
    return request.rules, request.obs.results


# --------------------------------------------------------------------------- tokens


def new_token(prefix: str) -> str:
    """A fresh secret for one seat (or ``W`` for watching): ``S-`` and 32 hex digits."""
    return f"{prefix}-{secrets.token_hex(16)}"


def same_token(given: str, expected: str) -> bool:
    """Compare in constant time (for tokens of the same length)."""
    return hmac.compare_digest(given.encode("utf-8", "replace"), expected.encode("utf-8"))


@dataclass(frozen=True)
class Tokens:
    """The secrets of one table: one per joined seat (by seat index), one for spectators."""

    seats: dict[int, str]
    watch: str | None = None

    def find(self, given: str) -> int | None:
        """The seat ``given`` opens (``WATCH`` for spectators), or None. Every token is
        compared, each in constant time, so the time taken tells nothing."""
        found: int | None = None
        for seat, token in self.seats.items():
            if same_token(given, token):
                found = seat
        if self.watch is not None and same_token(given, self.watch):
            found = WATCH
        return found

    @classmethod
    def fresh(cls, rules: Rules, seats: Sequence[int], watch: bool) -> Tokens:
        names = rules.seat_names
        return cls({s: new_token(names[s]) for s in seats}, new_token("W") if watch else None)


def tokens_path(transcript: str) -> Path:
    """Where a table keeps its tokens: beside its transcript, readable by its owner only."""
    p = Path(transcript)
    return p.with_name(p.name + ".tokens")


def save_tokens(path: Path, rules: Rules, tokens: Tokens) -> None:
    """Write the tokens file with mode 0600 (replacing an old one)."""
    names = rules.seat_names
    data = {"format": 1, "seats": {names[s]: t for s, t in tokens.seats.items()}, "watch": tokens.watch}
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out)
            out.write("\n")
        os.replace(tmp, path)
    except OSError as exc:
        raise UsageError(f"{path}: cannot write the table's tokens: {exc.strerror or exc}") from None


def load_tokens(path: Path, rules: Rules) -> Tokens:
    """Read a tokens file written by :func:`save_tokens` (UsageError if it is not one)."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.loads(f.read(64 * 1024))
    except FileNotFoundError:
        raise UsageError(f"{path}: not found: the table's tokens are kept beside its transcript") from None
    except (OSError, ValueError) as exc:
        raise UsageError(f"{path}: cannot read the table's tokens: {exc}") from None
    except RecursionError:
        raise UsageError(f"{path}: not a tokens file of 'spades host'") from None
    bad = UsageError(f"{path}: not a tokens file of 'spades host'")
    if not isinstance(data, dict) or not isinstance(data.get("seats"), dict):
        raise bad
    seats: dict[int, str] = {}
    for name, token in data["seats"].items():
        if not isinstance(token, str) or name not in rules.seat_names:
            raise bad
        seats[rules.seat_names.index(name)] = token
    watch = data.get("watch")
    if watch is not None and not isinstance(watch, str):
        raise bad
    return Tokens(seats, watch)
