"""The transcript format: read it, write it, replay it, and play scripts written in it.

A transcript is plain UTF-8 text, one fact per line (see ``docs/transcript-format.md``)::

    [Game "spades"]            tags first: rules, seed, seats, ...
    hand 1 dealer E            then, per hand: the deck, every decision, the checks
    deck 7S 2H ...
    bids S:3 W:4 N:2 E:3
    trick 1 S: 4H 9H AH 2S won N
    result NS tricks 5 points 50 bags 0 | EW tricks 8 points 81 bags 1
    score NS 50 EW 81 bags NS 0 EW 1
    end winner NS              or ``end *`` for a game stopped before its end

Three layers live here:

- **reading** (:func:`read_transcript`, :func:`parse_transcript`): syntax only; lenient
  notation (``qs``, ``10h``), every problem collected with its line, raised together as
  one :class:`~spades_cli.errors.MultiError` (exit 2);
- **writing** (:class:`TranscriptWriter`): a Match listener that appends and flushes
  after every action, so a killed process leaves a file that replays up to its last
  action; :func:`write_transcript` is the same writer driven by a replay, which makes
  writing canonical (read then write gives back the same bytes);
- **replaying** (:func:`replay`) checks every action and every recorded result against
  the engine (illegal action or mismatch: exit 1); **scripts** (:func:`prepare_script`,
  :func:`run_script`) are transcripts with parts left out, played by ``spades run``.
"""

from __future__ import annotations

import io
import os
import re
import secrets
import typing
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from spades_cli import rulecodec
from spades_cli.engine import (
    BID,
    BID_BASE,
    BLIND,
    CHANCE,
    DEAL,
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
    IllegalAction,
    Phase,
    Rules,
    State,
    Trick,
    card_str,
    parse_card,
    rng_for,
)
from spades_cli.engine.cards import CardParseError
from spades_cli.errors import (
    EXIT_UNFINISHED,
    FileFormatError,
    IllegalActionError,
    MismatchError,
    MultiError,
    SpadesError,
    UsageError,
)
from spades_cli.match import BaseListener, Controller, Listener, Match
from spades_cli.notation import NotationError, action_text, parse_action
from spades_cli.rulecodec import flat_rules

__all__ = [
    "FORMAT_VERSION",
    "ActionInfo",
    "Follower",
    "Header",
    "ScriptExhausted",
    "Tag",
    "Transcript",
    "TranscriptWriter",
    "default_transcript_dir",
    "flat_rules",
    "game_summary",
    "match_for",
    "new_transcript_path",
    "parse_transcript",
    "prepare_script",
    "read_transcript",
    "replay",
    "run_script",
    "take_back",
    "transcript_rules",
    "write_transcript",
]

FORMAT_VERSION = "1"
HEADER_COMMENT = "# spades transcript (format: docs/transcript-format.md)"
MAX_PROBLEMS = 20
SEAT_LETTERS = ("N", "E", "S", "W")
SIDE_NAMES = ("NS", "EW", "N", "S")


class ScriptExhausted(SpadesError):
    """A scripted seat ran out of actions before the game ended (exit 3: unfinished)."""

    exit_code = EXIT_UNFINISHED


# ============================================================================ the parsed form


@dataclass(frozen=True)
class Tag:
    name: str
    values: tuple[str, ...]
    line: int


@dataclass(frozen=True)
class HandLine:
    line: int
    number: int  # 1-based
    dealer: str | None


@dataclass(frozen=True)
class DeckLine:
    line: int
    cards: tuple[int, ...]


@dataclass(frozen=True)
class DealLine:
    line: int
    seat: str
    cards: tuple[int, ...]


@dataclass(frozen=True)
class DeclareLine:
    line: int
    seat: str
    blind: bool


@dataclass(frozen=True)
class DraftLine:
    line: int
    seat: str
    keep: bool
    cards: tuple[int, int] | None  # the top card and the next one, as the line names them


@dataclass(frozen=True)
class ExchangeLine:
    line: int
    seat: str
    give: int | None  # None: "done"
    draw: int | None


@dataclass(frozen=True)
class BidsLine:
    line: int
    bids: tuple[tuple[str, int], ...]  # (seat, bid 0..13)


@dataclass(frozen=True)
class TrickLine:
    line: int
    number: int
    seat: str  # the seat of the first card on this line (the leader, unless continuing)
    cards: tuple[int, ...]
    winner: str | None


@dataclass(frozen=True)
class ResultLine:
    line: int
    sides: tuple[tuple[str, int, int, int], ...]  # (side, tricks, points, bags)


@dataclass(frozen=True)
class ScoreLine:
    line: int
    scores: tuple[tuple[str, int], ...]
    bags: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class EndLine:
    line: int
    winner: str | None  # None: "*", the game is unfinished


@dataclass(frozen=True)
class NoteLine:
    line: int
    seat: str | None
    text: str


@dataclass(frozen=True)
class SeatLine:
    line: int
    seat: str
    label: str


@dataclass(frozen=True)
class UndoLine:
    line: int
    seat: str


@dataclass(frozen=True)
class TerminatedLine:
    line: int
    seat: str | None
    reason: str


@dataclass(frozen=True)
class ActionsLine:
    """Scripts only: ``S: 4 AS KS ...``, a seat's next decisions in order."""

    line: int
    seat: str
    tokens: tuple[str, ...]


Event = (
    HandLine
    | DeckLine
    | DealLine
    | DeclareLine
    | DraftLine
    | ExchangeLine
    | BidsLine
    | TrickLine
    | ResultLine
    | ScoreLine
    | EndLine
    | NoteLine
    | SeatLine
    | UndoLine
    | TerminatedLine
    | ActionsLine
)


@dataclass
class Transcript:
    """A transcript or script as read: its tags and its body lines, each with its line number."""

    origin: str
    tags: list[Tag] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    last_line: int = 0

    def tag(self, name: str) -> Tag | None:
        for t in self.tags:
            if t.name == name:
                return t
        return None

    def tags_named(self, name: str) -> list[Tag]:
        return [t for t in self.tags if t.name == name]

    @property
    def seed(self) -> str | None:
        t = self.tag("Seed")
        return t.values[0] if t else None

    @property
    def overrides(self) -> list[str]:
        return [t.values[0] for t in self.tags_named("Set")]

    @property
    def rules_source(self) -> str | None:
        t = self.tag("Rules")
        return t.values[0] if t else None

    def seat_labels(self) -> dict[str, str]:
        return {t.values[0]: t.values[1] for t in self.tags_named("Seat")}

    @property
    def is_script(self) -> bool:
        return any(isinstance(e, ActionsLine | DealLine) for e in self.events)


# ============================================================================ reading

_KNOWN_TAGS = {
    "Game": 1,
    "Format": 1,
    "Rules": 1,
    "Set": 1,
    "Seed": 1,
    "FirstDealer": 1,
    "Seat": 2,
    "Rule": 2,
}
_SINGLE_TAGS = ("Game", "Format", "Rules", "Seed", "FirstDealer")
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
_INT = re.compile(r"[+-]?\d{1,9}\Z")
_ESCAPES = {"\\": "\\", '"': '"', "n": "\n", "r": "\r", "t": "\t"}


class _LineError(Exception):
    pass


@dataclass(frozen=True)
class _Tok:
    text: str
    quoted: bool


def _tokens(line: str) -> list[_Tok]:
    """Split a line into words and quoted strings; ``#`` outside quotes starts a comment."""
    if '"' not in line:  # the common case: plain words
        return [_Tok(w, False) for w in line.partition("#")[0].split()]
    out: list[_Tok] = []
    i, n = 0, len(line)
    while i < n:
        ch = line[i]
        if ch.isspace():
            i += 1
            continue
        if ch == "#":
            break
        if ch == '"':
            i += 1
            buf: list[str] = []
            while True:
                if i >= n:
                    raise _LineError('a quoted text is not closed (missing ")')
                ch = line[i]
                if ch == '"':
                    i += 1
                    break
                if ch == "\\":
                    if i + 1 >= n:
                        raise _LineError("a backslash ends the line inside a quoted text")
                    esc = line[i + 1]
                    if esc in _ESCAPES:
                        buf.append(_ESCAPES[esc])
                        i += 2
                        continue
                    width = {"x": 2, "u": 4}.get(esc)
                    digits = line[i + 2 : i + 2 + width] if width else ""
                    if (
                        not width
                        or len(digits) != width
                        or not all(c in "0123456789abcdefABCDEF" for c in digits)
                    ):
                        raise _LineError(f"unknown escape \\{esc} in a quoted text")
                    buf.append(chr(int(digits, 16)))
                    i += 2 + width
                    continue
                buf.append(ch)
                i += 1
            out.append(_Tok("".join(buf), True))
            continue
        j = i
        while j < n and not line[j].isspace() and line[j] not in '"#':
            j += 1
        out.append(_Tok(line[i:j], False))
        i = j
    return out


def _quote(text: str) -> str:
    out = ['"']
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\x{ord(ch):02x}")
        elif ch in "\x85\u2028\u2029":
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _seat(text: str) -> str:
    up = text.strip().upper()
    if up not in SEAT_LETTERS:
        raise _LineError(f"{text!r} is not a seat (N, E, S or W)")
    return up


def _side(text: str) -> str:
    up = text.strip().upper()
    if up not in SIDE_NAMES:
        raise _LineError(f"{text!r} is not a side (NS or EW; N or S in the two-player game)")
    return up


def _int(text: str, what: str) -> int:
    if not _INT.match(text):
        raise _LineError(f"{what}: {text!r} is not a whole number")
    return int(text)


_CANONICAL_CARDS = {card_str(c): c for c in range(52)}


def _card(text: str) -> int:
    card = _CANONICAL_CARDS.get(text)
    if card is not None:
        return card
    try:
        return parse_card(text)
    except CardParseError:
        raise _LineError(f"{text!r} is not a card (cards are written like QS, TH, 2C)") from None


def _cards(words: Sequence[str], what: str) -> tuple[int, ...]:
    cards = tuple(_card(w) for w in words)
    seen: set[int] = set()
    for c in cards:
        if c in seen:
            raise _LineError(f"{what} names {card_str(c)} twice")
        seen.add(c)
    return cards


def _words(toks: Sequence[_Tok]) -> list[str]:
    for t in toks:
        if t.quoted:
            raise _LineError(f"unexpected quoted text {_quote(t.text)}")
    return [t.text for t in toks]


def _free_text(toks: Sequence[_Tok]) -> str:
    if len(toks) == 1 and toks[0].quoted:
        return toks[0].text
    return " ".join(_words(toks))


def _parse_tag(line: str) -> tuple[str, tuple[str, ...]]:
    body = line.strip()
    if not body.endswith("]"):
        comment = body.find("#", body.rfind('"') + 1 if '"' in body else 0)
        if comment > 0 and body[:comment].rstrip().endswith("]"):
            body = body[:comment].rstrip()
        else:
            raise _LineError("a tag line must end with ]")
    toks = _tokens(body[1:-1])
    if not toks or toks[0].quoted or not _TAG_NAME.match(toks[0].text):
        raise _LineError('a tag looks like [Name "value"]')
    values = toks[1:]
    if not values:
        raise _LineError(f"tag {toks[0].text} has no value")
    for v in values:
        if not v.quoted:
            raise _LineError(f'tag values are quoted: [{toks[0].text} "..."]')
    name = toks[0].text
    want = _KNOWN_TAGS.get(name)
    if want is not None and len(values) != want:
        raise _LineError(f"tag {name} takes {want} value{'s' if want > 1 else ''}, got {len(values)}")
    return name, tuple(v.text for v in values)


_DRAFT_WORDS = {"keep": KEEP, "discard": DISCARD}


def _parse_draft(line_no: int, w: list[str]) -> DraftLine:
    if len(w) not in (3, 6):
        raise _LineError("expected 'draft SEAT keep|discard' or 'draft SEAT keep CARD discard CARD'")
    seat = _seat(w[1])
    first = _DRAFT_WORDS.get(w[2])
    if first is None:
        try:
            first = parse_action(w[2], DRAFT)
        except NotationError:
            raise _LineError(f"{w[2]!r}: a draft decision is keep or discard") from None
    cards: tuple[int, int] | None = None
    if len(w) == 6:
        second = _DRAFT_WORDS.get(w[4])
        if second is None:
            try:
                second = parse_action(w[4], DRAFT)
            except NotationError:
                second = first
        if second == first:
            raise _LineError(
                f"after {w[2]} {w[3]} comes the other decision ({'discard' if first == KEEP else 'keep'})"
            )
        top, nxt = _card(w[3]), _card(w[5])
        if top == nxt:
            raise _LineError(f"the two cards of a draft turn cannot both be {card_str(top)}")
        cards = (top, nxt)
    return DraftLine(line_no, seat, first == KEEP, cards)


def _parse_exchange(line_no: int, w: list[str]) -> ExchangeLine:
    if len(w) < 3:
        raise _LineError("expected 'exchange SEAT give CARD draw CARD' or 'exchange SEAT done'")
    seat = _seat(w[1])
    if w[2].lower() == "done" and len(w) == 3:
        return ExchangeLine(line_no, seat, None, None)
    if w[2].lower() == "draw" and len(w) == 4:  # the draw of a give line that was interrupted
        return ExchangeLine(line_no, seat, None, _card(w[3]))
    if w[2].lower() != "give" or len(w) not in (4, 6):
        raise _LineError("expected 'exchange SEAT give CARD draw CARD' or 'exchange SEAT done'")
    give = _card(w[3])
    draw = None
    if len(w) == 6:
        if w[4].lower() != "draw":
            raise _LineError(f"expected 'draw CARD' after the card given, got {w[4]!r}")
        draw = _card(w[5])
    return ExchangeLine(line_no, seat, give, draw)


def _parse_bids(line_no: int, w: list[str]) -> BidsLine:
    if len(w) < 2:
        raise _LineError("expected 'bids SEAT:BID ...', e.g. bids E:3 S:nil")
    out = []
    for item in w[1:]:
        seat_text, sep, bid_text = item.partition(":")
        if not sep or not bid_text:
            raise _LineError(f"{item!r}: a bid is written SEAT:BID, e.g. E:3 or S:nil")
        seat = _seat(seat_text)
        try:
            bid = parse_action(bid_text, BID) - BID_BASE
        except NotationError as exc:
            raise _LineError(f"{item!r}: {exc}") from None
        out.append((seat, bid))
    return BidsLine(line_no, tuple(out))


def _parse_trick(line_no: int, w: list[str]) -> TrickLine:
    if len(w) < 4 or not w[2].endswith(":"):
        raise _LineError("expected 'trick NUMBER SEAT: CARD ... [won SEAT]'")
    number = _int(w[1], "trick number")
    if not 1 <= number <= 13:
        raise _LineError(f"trick number {number} is not 1-13")
    seat = _seat(w[2][:-1])
    rest = w[3:]
    winner = None
    if len(rest) >= 2 and rest[-2].lower() == "won":
        winner = _seat(rest[-1])
        rest = rest[:-2]
    if not rest:
        raise _LineError(f"trick {number} lists no cards")
    if len(rest) > 4:
        raise _LineError(f"trick {number} lists {len(rest)} cards; a trick has at most 4")
    return TrickLine(line_no, number, seat, _cards(rest, f"trick {number}"), winner)


def _parse_result(line_no: int, w: list[str]) -> ResultLine:
    parts: list[list[str]] = [[]]
    for word in w[1:]:
        if word == "|":
            parts.append([])
        else:
            parts[-1].append(word)
    if len(parts) != 2:
        raise _LineError("expected 'result SIDE tricks N points N bags N | SIDE tricks N points N bags N'")
    sides = []
    for p in parts:
        if len(p) != 7 or [p[1].lower(), p[3].lower(), p[5].lower()] != ["tricks", "points", "bags"]:
            raise _LineError("each side reads 'SIDE tricks N points N bags N'")
        sides.append((_side(p[0]), _int(p[2], "tricks"), _int(p[4], "points"), _int(p[6], "bags")))
    return ResultLine(line_no, tuple(sides))


def _parse_score(line_no: int, w: list[str]) -> ScoreLine:
    if len(w) != 10 or w[5].lower() != "bags":
        raise _LineError("expected 'score SIDE N SIDE N bags SIDE N SIDE N'")
    scores = ((_side(w[1]), _int(w[2], "score")), (_side(w[3]), _int(w[4], "score")))
    bags = ((_side(w[6]), _int(w[7], "bags")), (_side(w[8]), _int(w[9], "bags")))
    return ScoreLine(line_no, scores, bags)


def _parse_end(line_no: int, w: list[str]) -> EndLine:
    if len(w) == 2 and w[1] == "*":
        return EndLine(line_no, None)
    if len(w) == 3 and w[1].lower() == "winner":
        return EndLine(line_no, _side(w[2]))
    raise _LineError("expected 'end winner SIDE' or 'end *'")


def _optional_seat(toks: list[_Tok]) -> tuple[str | None, list[_Tok]]:
    if toks and not toks[0].quoted and toks[0].text.upper() in SEAT_LETTERS and len(toks) > 1:
        return toks[0].text.upper(), toks[1:]
    return None, toks


def _token_is_action(token: str) -> bool:
    for phase in (BID, DECLARE, DRAFT, EXCHANGE, PLAY):
        try:
            parse_action(token, phase)
            return True
        except NotationError:
            continue
    return False


def _parse_body(line_no: int, toks: list[_Tok]) -> Event:
    head = toks[0]
    key = head.text.lower() if not head.quoted else ""
    if key == "note":
        seat, rest = _optional_seat(toks[1:])
        if not rest:
            raise _LineError('expected note [SEAT] "text"')
        return NoteLine(line_no, seat, _free_text(rest))
    if key == "terminated":
        seat, rest = _optional_seat(toks[1:])
        if not rest:
            raise _LineError('expected terminated [SEAT] "reason"')
        return TerminatedLine(line_no, seat, _free_text(rest))
    if key == "seat":
        if len(toks) < 3 or toks[1].quoted:
            raise _LineError('expected seat SEAT "player"')
        return SeatLine(line_no, _seat(toks[1].text), _free_text(toks[2:]))
    return _parse_words(line_no, _words(toks))


_FREE_TEXT_LINES = ("note", "terminated", "seat")


def _parse_words(line_no: int, w: list[str]) -> Event:
    key = w[0].lower()
    if key in _FREE_TEXT_LINES:
        return _parse_body(line_no, [_Tok(word, False) for word in w])
    if key == "hand":
        if len(w) == 2:
            return HandLine(line_no, _hand_number(w[1]), None)
        if len(w) == 4 and w[2].lower() == "dealer":
            return HandLine(line_no, _hand_number(w[1]), _seat(w[3]))
        raise _LineError("expected 'hand NUMBER dealer SEAT'")
    if key == "deck":
        cards = _cards(w[1:], "the deck")
        if len(cards) != 52:
            raise _LineError(f"a deck lists all 52 cards, top first; this one has {len(cards)}")
        return DeckLine(line_no, cards)
    if key == "deal":
        if len(w) != 15:
            raise _LineError("expected 'deal SEAT' and the seat's 13 cards")
        return DealLine(line_no, _seat(w[1]), _cards(w[2:], f"the deal of {w[1].upper()}"))
    if key == "declare":
        if len(w) != 3:
            raise _LineError("expected 'declare SEAT blind' or 'declare SEAT noblind'")
        try:
            blind = parse_action(w[2], DECLARE) == BLIND
        except NotationError:
            raise _LineError(f"{w[2]!r}: a declaration is blind or noblind") from None
        return DeclareLine(line_no, _seat(w[1]), blind)
    if key == "draft":
        return _parse_draft(line_no, w)
    if key == "exchange":
        return _parse_exchange(line_no, w)
    if key in ("bids", "bid"):
        return _parse_bids(line_no, w)
    if key == "trick":
        return _parse_trick(line_no, w)
    if key == "result":
        return _parse_result(line_no, w)
    if key == "score":
        return _parse_score(line_no, w)
    if key == "end":
        return _parse_end(line_no, w)
    if key == "undo":
        if len(w) != 2:
            raise _LineError("expected 'undo SEAT'")
        return UndoLine(line_no, _seat(w[1]))
    seat_text, colon, first = w[0].partition(":")
    if colon and seat_text.upper() in SEAT_LETTERS:
        tokens = ([first] if first else []) + w[1:]
        if not tokens:
            raise _LineError(f"{w[0]} lists no actions")
        for t in tokens:
            if not _token_is_action(t):
                raise _LineError(
                    f"{t!r} is not an action (a card, a bid, keep, discard, blind, noblind or done)"
                )
        return ActionsLine(line_no, seat_text.upper(), tuple(tokens))
    raise _LineError(
        f"unknown line starting with {w[0]!r} (expected a [Tag], hand, deck, deal, declare, draft, "
        "exchange, bids, trick, result, score, end, note, seat, undo, terminated or SEAT: actions)"
    )


def _hand_number(text: str) -> int:
    n = _int(text, "hand number")
    if not 1 <= n <= 100_000:
        raise _LineError(f"hand number {n} is out of range")
    return n


def _decode(data: bytes, origin: str) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise FileFormatError(
            "not UTF-8 text (a transcript is plain UTF-8)", file=origin, line=line
        ) from None
    return text.removeprefix("\ufeff")


def parse_transcript(text: str, origin: str = "<transcript>") -> Transcript:
    """Parse transcript or script text; every problem is collected (MultiError, exit 2)."""
    t = Transcript(origin)
    problems: list[str] = []
    seen_single: dict[str, int] = {}
    seen_seats: dict[str, int] = {}
    in_body = False
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    t.last_line = len(lines)
    for no, raw in enumerate(lines, 1):
        line = raw.rstrip("\r")
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            if stripped.startswith("["):
                if in_body:
                    raise _LineError("tags come before the first hand: move this line to the top")
                name, values = _parse_tag(stripped)
                if name in _SINGLE_TAGS:
                    if name in seen_single:
                        raise _LineError(f"a second {name} tag (the first is on line {seen_single[name]})")
                    seen_single[name] = no
                if name == "Seat":
                    seat = _seat(values[0])
                    if seat in seen_seats:
                        raise _LineError(
                            f"a second Seat tag for {seat} (the first is on line {seen_seats[seat]})"
                        )
                    seen_seats[seat] = no
                    values = (seat, values[1])
                elif name == "FirstDealer":
                    values = (_seat(values[0]),)
                elif name == "Game" and values[0] != "spades":
                    raise _LineError(f'[Game "{values[0]}"]: this is not a spades transcript')
                elif name == "Format" and values[0] != FORMAT_VERSION:
                    raise _LineError(
                        f"format version {values[0]!r} is not supported (this program reads {FORMAT_VERSION})"
                    )
                t.tags.append(Tag(name, values, no))
                continue
            in_body = True
            if '"' not in line:  # the common case: plain words
                words = line.partition("#")[0].split()
                if words:
                    t.events.append(_parse_words(no, words))
                continue
            toks = _tokens(line)
            if not toks:
                continue
            t.events.append(_parse_body(no, toks))
        except _LineError as exc:
            problems.append(f"{origin}:{no}: {exc}")
    if problems:
        _raise_problems(problems)
    return t


def _raise_problems(problems: list[str], exit_code: int = 2) -> typing.NoReturn:
    if len(problems) > MAX_PROBLEMS:
        more = len(problems) - MAX_PROBLEMS
        problems = [*problems[:MAX_PROBLEMS], f"... and {more} more problem{'s' if more > 1 else ''}"]
    raise MultiError(problems, exit_code=exit_code)


def read_transcript(path: str | os.PathLike[str]) -> Transcript:
    """Read and parse a transcript or script file (FileFormatError / MultiError: exit 2)."""
    origin = str(path)
    try:
        data = Path(path).read_bytes()
    except IsADirectoryError:
        raise FileFormatError("is a folder, not a transcript file", file=origin) from None
    except OSError as exc:
        raise FileFormatError(f"cannot read: {exc.strerror or exc}", file=origin) from None
    return parse_transcript(_decode(data, origin), origin)


# ============================================================================ rules in tags


def transcript_rules(t: Transcript, *, required: bool = True) -> Rules | None:
    """The rules a transcript fixes: its ``[Rule]`` tags (self-contained), else its ``[Rules]``
    preset and ``[Set]`` overrides. None if it names none and ``required`` is False."""
    from spades_cli.presets import load_rules, rules_from_dict

    rule_tags = t.tags_named("Rule")
    if rule_tags:
        tree: dict[str, Any] = {}
        lines: dict[str, int] = {}
        problems: list[str] = []
        for tag in rule_tags:
            path, text = tag.values
            try:
                why = rulecodec.put(tree, path, rulecodec.parse_value(path, text))
            except rulecodec.RuleValueError as exc:
                problems.append(f"{t.origin}:{tag.line}: {path}: {exc}")
                continue
            if why is not None:
                problems.append(
                    f"{t.origin}:{tag.line}: Rule {path!r} is given twice or clashes with another key"
                )
                continue
            lines[path] = tag.line
        if problems:
            _raise_problems(problems)
        try:
            return rules_from_dict(tree, origin=t.origin)
        except MultiError as exc:
            _raise_problems([_locate_rule_problem(p, t, lines, rule_tags[0].line) for p in exc.problems])
    source = t.rules_source
    if source is None:
        if required:
            raise FileFormatError(
                'names no rules: a transcript has [Rule "key" "value"] tags or a [Rules "NAME"] tag',
                file=t.origin,
                line=1,
            )
        return None
    rules_tag = t.tag("Rules")
    line = rules_tag.line if rules_tag else 1
    try:
        return load_rules(source, t.overrides)
    except MultiError as exc:
        _raise_problems([f"{t.origin}:{line}: {p}" for p in exc.problems])
    except SpadesError as exc:
        raise FileFormatError(f"[Rules {_quote(source)}]: {exc}", file=t.origin, line=line) from None


def _locate_rule_problem(problem: str, t: Transcript, lines: Mapping[str, int], first: int) -> str:
    rest = problem.removeprefix(f"{t.origin}: ")
    path = rest.split(":", 1)[0].strip()
    line = lines.get(path)
    if line is None:
        line = next((ln for p, ln in lines.items() if path and p.startswith(path + ".")), first)
    return f"{t.origin}:{line}: {rest}"


# ============================================================================ following a match


@dataclass(frozen=True)
class ActionInfo:
    """What one applied action did, worked out from the state before and after it."""

    seat: int  # -1 for a chance draw
    action: int
    phase: Phase  # the phase the action was taken in
    hand_no: int  # 0-based hand of the action
    trick_number: int  # 1-based trick of a card play (0 otherwise)
    first_of_trick: bool
    trick: Trick | None  # the trick this card completed
    result: HandResult | None  # the hand this action ended
    game_over: bool
    draft_cards: tuple[int, int] | None  # DRAFT: the top card and the next one
    exchange_seat: int  # DRAW: the seat that drew


class Follower(BaseListener):
    """A listener that knows the state before each action, so it can tell what each did.

    Subclasses override :meth:`dealt` and :meth:`acted`. After ``match.rebuild`` (undo,
    resume) call :meth:`sync`.
    """

    def __init__(self) -> None:
        self._phase = DEAL
        self._hand_no = 0
        self._trick_no = 0
        self._trick: list[int] = []
        self._leader = 0
        self._tricks_won: list[int] = []
        self._results = 0
        self._pile_pos = 0
        self._exch_seat = -1

    def sync(self, match: Match) -> None:
        st = match.state
        self._phase = st.phase
        self._hand_no = st.hand_no
        self._trick_no = st.trick_no
        self._trick = list(st.trick)
        self._leader = st.leader
        self._tricks_won = list(st.tricks_won)
        self._results = len(st.results)
        self._pile_pos = st.pile_pos
        self._exch_seat = st.exch_seat

    def on_deal(self, match: Match, hand_no: int, deck: tuple[int, ...]) -> None:
        self.sync(match)
        self.dealt(match, hand_no, deck)

    def on_action(self, match: Match, seat: int, action: int) -> None:
        info = self._info(match, seat, action)
        self.sync(match)
        self.acted(match, info)

    def _info(self, match: Match, seat: int, action: int) -> ActionInfo:
        st = match.state
        phase = self._phase
        result = st.results[-1] if len(st.results) > self._results else None
        trick = None
        first = False
        number = 0
        if phase == PLAY:
            number = self._trick_no + 1
            first = not self._trick
            if len(self._trick) == match.rules.players - 1:
                won = result.tricks if result is not None else st.tricks_won
                winner = next(s for s in range(match.rules.players) if won[s] > self._tricks_won[s])
                trick = Trick(self._leader, (*self._trick, action), winner)
        draft = None
        if phase == DRAFT and st.deck is not None:
            draft = (st.deck[self._pile_pos], st.deck[self._pile_pos + 1])
        return ActionInfo(
            seat=seat,
            action=action,
            phase=phase,
            hand_no=self._hand_no,
            trick_number=number,
            first_of_trick=first,
            trick=trick,
            result=result,
            game_over=st.is_terminal(),
            draft_cards=draft,
            exchange_seat=self._exch_seat,
        )

    def dealt(self, match: Match, hand_no: int, deck: tuple[int, ...]) -> None:
        """Called after each deal; subclasses that show or record deals override it."""

    def acted(self, match: Match, info: ActionInfo) -> None:
        """Called after each action with what it did; subclasses override it."""


# ============================================================================ writing


@dataclass(frozen=True)
class Header:
    """What the tags of a transcript say."""

    rules: Rules
    seed: str | None
    first_dealer: int
    seats: tuple[str | None, ...]  # the label of each seat ("normal", "human", "cmd:...")
    rules_source: str | None = None
    overrides: tuple[str, ...] = ()
    extra_tags: tuple[Tag, ...] = ()

    def text(self) -> str:
        rules = self.rules
        names = rules.seat_names
        out = [HEADER_COMMENT, '[Game "spades"]', f"[Format {_quote(FORMAT_VERSION)}]"]
        if self.rules_source is not None:
            out.append(f"[Rules {_quote(self.rules_source)}]")
        out += [f"[Set {_quote(o)}]" for o in self.overrides]
        if self.seed is not None:
            out.append(f"[Seed {_quote(self.seed)}]")
        out.append(f"[FirstDealer {_quote(names[self.first_dealer])}]")
        out += [f"[Seat {_quote(names[s])} {_quote(label)}]" for s, label in enumerate(self.seats) if label]
        out += [f"[{tag.name} {' '.join(_quote(v) for v in tag.values)}]" for tag in self.extra_tags]
        out += [f"[Rule {_quote(k)} {_quote(v)}]" for k, v in flat_rules(rules)]
        return "\n".join(out) + "\n"


class TranscriptWriter(Follower):
    """Writes a game as it is played: a Match listener that appends and flushes every action.

    The text it writes after any action is a canonical transcript of the game so far: a
    trick, the bids or an exchange in progress is an unfinished last line, completed by
    the next appends. Use :meth:`create` to open a file, or pass any text stream.
    """

    def __init__(self, stream: TextIO, *, close_stream: bool = False) -> None:
        super().__init__()
        self.stream = stream
        self.path: str | None = None
        self._close_stream = close_stream
        self._open: str | None = None  # the kind of unfinished last line: bids, trick, exchange

    @classmethod
    def create(
        cls,
        path: str | os.PathLike[str],
        match: Match,
        *,
        rules_source: str | None,
        overrides: Sequence[str] = (),
        seats: Sequence[str | None] | None = None,
        extra_tags: Sequence[Tag] = (),
        exclusive: bool = False,
    ) -> TranscriptWriter:
        """Open ``path`` (``exclusive``: FileExistsError if it exists), write the header for
        ``match`` and attach the writer to the match as its first listener."""
        try:
            stream = open(path, "x" if exclusive else "w", encoding="utf-8", newline="\n")  # noqa: SIM115
        except FileExistsError:
            raise
        except OSError as exc:
            raise UsageError(f"{path}: cannot write the transcript: {exc.strerror or exc}") from None
        writer = cls(stream, close_stream=True)
        writer.path = str(path)
        labels = tuple(seats) if seats is not None else tuple(c.label for c in match.controllers)
        assert match.dealer is not None
        writer.write_header(
            Header(
                rules=match.rules,
                seed=str(match.seed),
                first_dealer=match.dealer,
                seats=labels,
                rules_source=rules_source,
                overrides=tuple(overrides),
                extra_tags=tuple(extra_tags),
            )
        )
        writer.sync(match)
        match.listeners.insert(0, writer)  # first: an action is recorded before anything can fail
        return writer

    @classmethod
    def for_match(
        cls,
        path: str | os.PathLike[str],
        match: Match,
        *,
        rules_source: str | None = None,
        overrides: Sequence[str] = (),
        seats: Sequence[str | None] | None = None,
    ) -> TranscriptWriter:
        """Like :meth:`create` (over any existing file), but the caller adds the writer to
        ``match.listeners`` itself (first, so that an action is recorded before anything else)."""
        writer = cls.create(path, match, rules_source=rules_source, overrides=overrides, seats=seats)
        match.listeners.remove(writer)
        return writer

    # -- output -------------------------------------------------------------------

    def _emit(self, text: str, *, keep_open: str | None = None) -> None:
        self._open = keep_open
        self.stream.write(text)
        self.stream.flush()

    def _closing(self) -> str:
        return "\n" if self._open else ""

    def write_header(self, header: Header) -> None:
        self._emit(header.text())

    def retarget(self, stream: TextIO, *, close_stream: bool = True, path: str | None = None) -> None:
        """Continue writing into another stream (resume: from memory to the file)."""
        self.stream = stream
        self._close_stream = close_stream
        self.path = path

    def close(self) -> None:
        if self._close_stream:
            self.stream.close()

    # -- listener -----------------------------------------------------------------

    def dealt(self, match: Match, hand_no: int, deck: tuple[int, ...]) -> None:
        dealer = match.rules.seat_names[match.state.dealer]
        cards = " ".join(card_str(c) for c in deck)
        self._emit(f"{self._closing()}\nhand {hand_no + 1} dealer {dealer}\ndeck {cards}\n")

    def acted(self, match: Match, info: ActionInfo) -> None:
        names = match.rules.seat_names
        phase = info.phase
        action = info.action
        if info.seat < 0:
            if self._open == "exchange":
                self._emit(f" draw {card_str(action)}\n")
            else:  # a draw after an interruption of the exchange line (not written by this writer)
                seat = names[info.exchange_seat]
                self._emit(f"{self._closing()}exchange {seat} draw {card_str(action)}\n")
            return
        seat = names[info.seat]
        if phase == DECLARE:
            self._emit(f"{self._closing()}declare {seat} {action_text(action)}\n")
        elif phase == DRAFT:
            assert info.draft_cards is not None
            top, nxt = (card_str(c) for c in info.draft_cards)
            if action == KEEP:
                self._emit(f"{self._closing()}draft {seat} keep {top} discard {nxt}\n")
            else:
                self._emit(f"{self._closing()}draft {seat} discard {top} keep {nxt}\n")
        elif phase == EXCHANGE:
            if action == EXCHANGE_DONE:
                self._emit(f"{self._closing()}exchange {seat} done\n")
            else:
                self._emit(f"{self._closing()}exchange {seat} give {card_str(action)}", keep_open="exchange")
        elif phase == BID:
            text = "" if self._open == "bids" else f"{self._closing()}bids"
            text += f" {seat}:{action_text(action)}"
            if match.state.phase == BID:
                self._emit(text, keep_open="bids")
            else:
                self._emit(text + "\n")
        elif phase == PLAY:
            text = "" if self._open == "trick" else f"{self._closing()}trick {info.trick_number} {seat}:"
            text += f" {card_str(action)}"
            if info.trick is None:
                self._emit(text, keep_open="trick")
                return
            text += f" won {names[info.trick.winner]}\n"
            if info.result is not None:
                text += _result_lines(info.result, match.rules)
            if info.game_over:
                winner = match.state.winner()
                assert winner is not None
                text += f"end winner {match.rules.side_name(winner)}\n"
            self._emit(text)

    # -- events from outside the game loop --------------------------------------------

    def note(self, seat: int | None, text: str, rules: Rules) -> None:
        who = f"{rules.seat_names[seat]} " if seat is not None else ""
        self._emit(f"{self._closing()}note {who}{_quote(text)}\n")

    def seat_changed(self, seat: int, label: str, rules: Rules) -> None:
        """From here on ``seat`` is played by ``label`` (a takeover, a resume with --seat)."""
        self._emit(f"{self._closing()}seat {rules.seat_names[seat]} {_quote(label)}\n")

    def undone(self, match: Match, seat: int) -> None:
        """Record an undo; call it after ``match.rebuild`` (see :func:`take_back`)."""
        self._emit(f"{self._closing()}undo {match.rules.seat_names[seat]}\n")
        self.sync(match)

    def terminated(self, seat: int | None, reason: str, rules: Rules) -> None:
        who = f"{rules.seat_names[seat]} " if seat is not None else ""
        self._emit(f"{self._closing()}terminated {who}{_quote(reason)}\n")

    def unfinished(self) -> None:
        """Mark the game as stopped before its end (``end *``): it can be resumed."""
        self._emit(f"{self._closing()}end *\n")


def _result_lines(result: HandResult, rules: Rules) -> str:
    sides = [
        f"{rules.side_name(i)} tricks {s.tricks} points {s.points} bags {s.bags}"
        for i, s in enumerate(result.sides)
    ]
    a, b = (rules.side_name(0), rules.side_name(1))
    s0, s1 = result.sides
    return (
        f"result {' | '.join(sides)}\n"
        f"score {a} {s0.score} {b} {s1.score} bags {a} {s0.bags_total} {b} {s1.bags_total}\n"
    )


# ============================================================================ undo


def actors(rules: Rules, dealer: int, decks: Sequence[Sequence[int]], actions: Sequence[int]) -> list[int]:
    """The seat that took each action (-1 for chance draws), replaying from the first deal."""
    state = State(rules, dealer)
    hand = 0
    out = []
    for action in actions:
        if state.phase == DEAL:
            state.deal(decks[hand])
            hand += 1
        out.append(state.current_player())
        state.apply(action)
    return out


def take_back(match: Match, seat: int) -> list[int]:
    """The actions that remain when ``seat`` takes back its last decision (and everything after
    it). ValueError if the seat has not decided anything yet. Use it as
    ``match.rebuild(take_back(match, seat))`` then ``writer.undone(match, seat)``."""
    assert match.dealer is not None
    history = list(match.state.history)
    who = actors(match.rules, match.dealer, match.decks, history)
    for i in range(len(history) - 1, -1, -1):
        if who[i] == seat:
            return history[:i]
    raise ValueError(f"{match.rules.seat_names[seat]} has no decision to take back")


# ============================================================================ replay


class _Fixed:
    """A ChanceSource that serves the deck or card the replayer puts in front of it."""

    def __init__(self) -> None:
        self.next_deck: tuple[int, ...] | None = None
        self.next_draw: int | None = None

    def deck(self, hand_no: int) -> Sequence[int] | None:
        deck, self.next_deck = self.next_deck, None
        return deck

    def draw(self, hand_no: int, index: int, pool: Sequence[int]) -> int | None:
        card, self.next_draw = self.next_draw, None
        return card


class _Recorded:
    """The controller of a seat during replay: the replayer applies recorded actions itself."""

    def __init__(self, label: str) -> None:
        self.label = label

    def decide(self, match: Match, seat: int) -> int:
        raise IllegalAction("a replayed seat decides nothing by itself")


_PHASE_WORDS = {
    DECLARE: "a double / blind nil declaration",
    DRAFT: "a draft decision",
    EXCHANGE: "an exchange",
    BID: "a bid",
    PLAY: "a card",
    DRAW: "the card drawn in an exchange",
    DEAL: "a new hand",
}


def _first_dealer(t: Transcript, rules: Rules) -> int | None:
    tag = t.tag("FirstDealer")
    name = tag.values[0] if tag else None
    if name is None:
        first = next((e for e in t.events if isinstance(e, HandLine)), None)
        name = first.dealer if first is not None and first.number == 1 else None
    if name is None:
        return None
    try:
        return rules.seat_index(name)
    except ValueError:
        line = tag.line if tag else 1
        raise FileFormatError(
            f"no seat {name} in the {rules.players}-player game", file=t.origin, line=line
        ) from None


def match_for(
    t: Transcript,
    rules: Rules,
    *,
    controllers: Sequence[Controller] | None = None,
    seed: str | None = None,
    chance: Any = None,
    listeners: Sequence[Listener] = (),
) -> Match:
    """A fresh Match with the transcript's seed and first dealer."""
    labels = t.seat_labels()
    if controllers is None:
        controllers = [_Recorded(labels.get(n, "?")) for n in rules.seat_names]
    return Match(
        rules,
        seed if seed is not None else (t.seed if t.seed is not None else ""),
        controllers,
        dealer=_first_dealer(t, rules),
        chance=chance,
        listeners=list(listeners),
    )


def header_for(t: Transcript, match: Match) -> Header:
    labels = t.seat_labels()
    assert match.dealer is not None
    known = set(_KNOWN_TAGS)
    return Header(
        rules=match.rules,
        seed=t.seed,
        first_dealer=match.dealer,
        seats=tuple(labels.get(n) for n in match.rules.seat_names),
        rules_source=t.rules_source,
        overrides=tuple(t.overrides),
        extra_tags=tuple(tag for tag in t.tags if tag.name not in known),
    )


@dataclass
class ReplayResult:
    """What a replay found: the match at the end of the transcript and what it recorded."""

    match: Match
    labels: dict[int, str]  # who plays each seat at the end (Seat tags, then seat lines)
    ended: bool  # an end line was read
    header_labels: dict[int, str] = field(default_factory=dict)  # the Seat tags
    terminated: tuple[int | None, str] | None = None
    notes: list[tuple[int | None, str]] = field(default_factory=list)


class _Replayer:
    def __init__(
        self,
        t: Transcript,
        match: Match,
        fixed: _Fixed,
        writer: TranscriptWriter | None,
        hooks: Sequence[Any],
        keep_end: bool,
    ) -> None:
        self.t = t
        self.match = match
        self.rules = match.rules
        self.fixed = fixed
        self.writer = writer
        self.hooks = hooks
        self.keep_end = keep_end
        self.seats = {name: i for i, name in enumerate(self.rules.seat_names)}
        labels = t.seat_labels()
        first = {s: labels.get(n, "?") for s, n in enumerate(self.rules.seat_names)}
        self.result = ReplayResult(match, dict(first), ended=False, header_labels=first)
        self.pending: list[str] = []  # checks due after a hand ended: "result", "score"
        self.seen_results = 0
        self.want_deck: HandLine | None = None
        self.open_trick: TrickLine | None = None  # a complete trick whose line lacked "won"

    # -- errors -------------------------------------------------------------------

    def fail(self, line: int, message: str, kind: type[SpadesError] = IllegalActionError) -> typing.NoReturn:
        raise kind(message, file=self.t.origin, line=line)

    def seat_index(self, name: str, line: int) -> int:
        seat = self.seats.get(name)
        if seat is not None:
            return seat
        try:
            return self.rules.seat_index(name)
        except ValueError:
            self.fail(
                line, f"there is no seat {name} in the {self.rules.players}-player game", FileFormatError
            )

    def side_index(self, name: str, line: int) -> int:
        for side in range(2):
            if self.rules.side_name(side) == name:
                return side
        sides = " and ".join(self.rules.side_name(s) for s in range(2))
        self.fail(line, f"there is no side {name} in this game (sides: {sides})", FileFormatError)

    def where(self) -> str:
        st = self.match.state
        if st.is_terminal():
            return "the game is over"
        if st.phase == DEAL:
            return f"hand {st.hand_no + 1} has not been dealt"
        who = self.rules.seat_names[st.current_player()] if st.current_player() >= 0 else "chance"
        if st.phase == PLAY:
            return f"hand {st.hand_no + 1}, trick {st.trick_no + 1}: {who} to play"
        return f"hand {st.hand_no + 1}: {who} to give {_PHASE_WORDS[st.phase]}"

    # -- driving ------------------------------------------------------------------

    def run(self) -> ReplayResult:
        for event in self.t.events:
            self.event(event)
        return self.result

    def event(self, e: Event) -> None:
        if self.result.ended:
            self.fail(e.line, "nothing may follow the end line", FileFormatError)
        if self.open_trick is not None:
            self.fail(
                self.open_trick.line,
                f"trick {self.open_trick.number} is complete: the line must end with 'won SEAT'",
                FileFormatError,
            )
        if self.pending and not isinstance(e, ResultLine | ScoreLine):
            self.fail(
                e.line,
                f"the {self.pending[0]} line of hand {self.match.state.results[-1].hand_no + 1} "
                "must come here",
                FileFormatError,
            )
        if self.want_deck is not None and not isinstance(e, DeckLine):
            self.fail(
                e.line,
                f"hand {self.want_deck.number}: a deck line must follow the hand line",
                FileFormatError,
            )
        if isinstance(e, HandLine):
            self.hand(e)
        elif isinstance(e, DeckLine):
            self.deck(e)
        elif isinstance(e, DeclareLine):
            self.act(e.line, e.seat, BLIND if e.blind else NO_BLIND, DECLARE)
        elif isinstance(e, DraftLine):
            self.draft(e)
        elif isinstance(e, ExchangeLine):
            self.exchange(e)
        elif isinstance(e, BidsLine):
            for seat, bid in e.bids:
                self.act(e.line, seat, BID_BASE + bid, BID)
        elif isinstance(e, TrickLine):
            self.trick(e)
        elif isinstance(e, ResultLine):
            self.check_result(e)
        elif isinstance(e, ScoreLine):
            self.check_score(e)
        elif isinstance(e, EndLine):
            self.end(e)
        elif isinstance(e, NoteLine):
            who = self.seat_index(e.seat, e.line) if e.seat else None
            self.result.notes.append((who, e.text))
            if self.writer:
                self.writer.note(who, e.text, self.rules)
            self.call("on_note", who, e.text)
        elif isinstance(e, SeatLine):
            changed = self.seat_index(e.seat, e.line)
            self.result.labels[changed] = e.label
            if self.writer:
                self.writer.seat_changed(changed, e.label, self.rules)
            self.call("on_seat", changed, e.label)
        elif isinstance(e, TerminatedLine):
            stopped = self.seat_index(e.seat, e.line) if e.seat else None
            self.result.terminated = (stopped, e.reason)
            if self.writer:
                self.writer.terminated(stopped, e.reason, self.rules)
            self.call("on_terminated", stopped, e.reason)
        elif isinstance(e, UndoLine):
            self.undo(e)
        elif isinstance(e, ActionsLine):
            self.fail(
                e.line,
                "'SEAT: actions' lines belong to scripts (spades run), not to transcripts",
                FileFormatError,
            )
        elif isinstance(e, DealLine):
            self.fail(
                e.line,
                "deal lines belong to scripts (spades run); a transcript records the deck",
                FileFormatError,
            )

    def call(self, name: str, *args: object) -> None:
        for hook in self.hooks:
            fn = getattr(hook, name, None)
            if fn is not None:
                fn(self.match, *args)

    def hand(self, e: HandLine) -> None:
        st = self.match.state
        if st.is_terminal():
            self.fail(e.line, "the game is over: no more hands")
        if st.phase != DEAL:
            self.fail(e.line, f"hand {st.hand_no + 1} is not finished ({self.where()})")
        if e.number != st.hand_no + 1:
            self.fail(e.line, f"this is hand {st.hand_no + 1}, not hand {e.number}")
        if e.dealer is not None and self.seat_index(e.dealer, e.line) != st.dealer:
            word = "first player" if self.rules.players == 2 else "dealer"
            self.fail(
                e.line,
                f"the {word} of hand {e.number} is {self.rules.seat_names[st.dealer]}, not {e.dealer}",
                MismatchError,
            )
        self.want_deck = e

    def deck(self, e: DeckLine) -> None:
        if self.want_deck is None:
            self.fail(e.line, "a deck line comes right after its hand line", FileFormatError)
        self.want_deck = None
        self.fixed.next_deck = e.cards
        self.match.resolve_chance()

    def ready(self, line: int) -> State:
        st = self.match.state
        if st.is_terminal():
            self.fail(line, "the game is over: no more actions")
        if st.phase == DEAL:
            self.fail(
                line,
                f"hand {st.hand_no + 1} has no hand and deck lines before its first action",
                FileFormatError,
            )
        if st.current_player() == CHANCE:
            self.fail(
                line,
                "the card drawn in the exchange is missing: write 'exchange SEAT give CARD draw CARD'",
                FileFormatError,
            )
        return st

    def act(self, line: int, seat_name: str, action: int, phase: Phase) -> None:
        st = self.ready(line)
        seat = self.seat_index(seat_name, line)
        names = self.rules.seat_names
        if st.phase != phase:
            self.fail(line, f"the line gives {_PHASE_WORDS[phase]}, but now {self.where()}")
        if st.current_player() != seat:
            self.fail(line, f"{seat_name} cannot act now: {self.where()}")
        try:
            st.check(action)
        except IllegalAction as exc:
            self.fail(line, f"{names[seat]} {action_text(action)} is not legal: {exc.reason}")
        self.match.apply(seat, action)
        if len(self.match.state.results) > self.seen_results:
            self.seen_results = len(self.match.state.results)
            self.pending = ["result", "score"]

    def draft(self, e: DraftLine) -> None:
        st = self.ready(e.line)
        if e.cards is not None and st.phase == DRAFT and st.deck is not None:
            top, nxt = st.deck[st.pile_pos], st.deck[st.pile_pos + 1]
            if (top, nxt) != e.cards:
                self.fail(
                    e.line,
                    f"the pile holds {card_str(top)} then {card_str(nxt)}, not "
                    f"{card_str(e.cards[0])} then {card_str(e.cards[1])}",
                    MismatchError,
                )
        self.act(e.line, e.seat, KEEP if e.keep else DISCARD, DRAFT)

    def exchange(self, e: ExchangeLine) -> None:
        if e.give is None and e.draw is None:
            self.act(e.line, e.seat, EXCHANGE_DONE, EXCHANGE)
            return
        if e.give is not None:
            self.act(e.line, e.seat, e.give, EXCHANGE)
        if e.draw is None:
            return
        st = self.match.state
        if e.give is None and (st.phase != DRAW or self.seat_index(e.seat, e.line) != st.exch_seat):
            self.fail(e.line, f"{e.seat} has no card to draw now ({self.where()})")
        if st.phase != DRAW:
            self.fail(e.line, f"{e.seat} has given all the cards allowed: nothing is drawn here")
        if not st.is_legal(e.draw):
            self.fail(e.line, f"{card_str(e.draw)} is not in the discard pile, so it cannot be drawn")
        self.fixed.next_draw = e.draw
        self.match.resolve_chance()

    def trick(self, e: TrickLine) -> None:
        st = self.ready(e.line)
        if st.phase == PLAY and e.number != st.trick_no + 1:
            self.fail(
                e.line, f"this is trick {st.trick_no + 1} of hand {st.hand_no + 1}, not trick {e.number}"
            )
        seat = e.seat
        completed: int | None = None
        n = self.rules.players
        for i, card in enumerate(e.cards):
            if completed is not None:
                self.fail(
                    e.line,
                    f"trick {e.number} was complete after {card_str(e.cards[i - 1])}: "
                    f"{card_str(card)} starts another trick (a new line)",
                )
            before = list(self.match.state.tricks_won)
            hand_before = self.match.state.hand_no
            results_before = len(self.match.state.results)
            self.act(e.line, seat, card, PLAY)
            now = self.match.state
            if len(now.results) > results_before:
                won = now.results[-1].tricks
                completed = next(s for s in range(n) if won[s] > before[s])
            elif now.hand_no == hand_before and not now.trick:
                completed = now.trick_winners[-1]
            seat = self.rules.seat_names[(self.rules.seat_index(seat) + 1) % n]
        if completed is None:
            if e.winner is not None:
                self.fail(e.line, f"trick {e.number} is not complete, yet the line names a winner")
            return
        if e.winner is None:
            self.open_trick = e
            if e is self.t.events[-1]:
                self.open_trick = None
            return
        if self.seat_index(e.winner, e.line) != completed:
            self.fail(
                e.line,
                f"trick {e.number} is won by {self.rules.seat_names[completed]}, not {e.winner}",
                MismatchError,
            )

    def _sides(self, items: Sequence[tuple[str, Any]], line: int, what: str) -> dict[int, Any]:
        out: dict[int, Any] = {}
        for name, value in items:
            side = self.side_index(name, line)
            if side in out:
                self.fail(line, f"{what} names {name} twice", FileFormatError)
            out[side] = value
        return out

    def check_result(self, e: ResultLine) -> None:
        if not self.pending or self.pending[0] != "result":
            self.fail(e.line, "a result line comes right after the last trick of a hand", FileFormatError)
        self.pending.pop(0)
        hr = self.match.state.results[-1]
        got = self._sides([(s, (t, p, b)) for s, t, p, b in e.sides], e.line, "the result")
        for side in range(2):
            r = hr.sides[side]
            tricks, points, bags = got[side]
            for what, recorded, real in (
                ("tricks", tricks, r.tricks),
                ("points", points, r.points),
                ("bags", bags, r.bags),
            ):
                if recorded != real:
                    self.fail(
                        e.line,
                        f"hand {hr.hand_no + 1}: {self.rules.side_name(side)} {what} recorded "
                        f"{recorded}, the rules give {real}",
                        MismatchError,
                    )

    def check_score(self, e: ScoreLine) -> None:
        if not self.pending or self.pending[0] != "score":
            self.fail(e.line, "a score line comes right after the result line of a hand", FileFormatError)
        self.pending.pop(0)
        hr = self.match.state.results[-1]
        scores = self._sides(e.scores, e.line, "the score")
        bags = self._sides(e.bags, e.line, "the bags")
        for side in range(2):
            r = hr.sides[side]
            name = self.rules.side_name(side)
            if scores[side] != r.score:
                self.fail(
                    e.line,
                    f"after hand {hr.hand_no + 1}: {name} score recorded {scores[side]}, "
                    f"the rules give {r.score}",
                    MismatchError,
                )
            if bags[side] != r.bags_total:
                self.fail(
                    e.line,
                    f"after hand {hr.hand_no + 1}: {name} bags recorded {bags[side]}, "
                    f"the rules give {r.bags_total}",
                    MismatchError,
                )

    def end(self, e: EndLine) -> None:
        st = self.match.state
        if e.winner is None:
            if st.is_terminal():
                winner = st.winner()
                assert winner is not None
                self.fail(
                    e.line,
                    f"the game is over ({self.rules.side_name(winner)} won), "
                    "but the end line says it is unfinished",
                    MismatchError,
                )
            if self.writer and self.keep_end:
                self.writer.unfinished()
        else:
            if not st.is_terminal():
                self.fail(
                    e.line,
                    f"the game is not over ({self.where()}), but the end line names a winner",
                    MismatchError,
                )
            side = self.side_index(e.winner, e.line)
            if side != st.winner():
                self.fail(e.line, f"{self.rules.side_name(side)} did not win", MismatchError)
        self.result.ended = True

    def undo(self, e: UndoLine) -> None:
        seat = self.seat_index(e.seat, e.line)
        if self.match.state.current_player() == CHANCE and self.match.state.phase == DRAW:
            self.fail(e.line, "the card drawn in the exchange is missing before the undo", FileFormatError)
        try:
            remaining = take_back(self.match, seat)
        except ValueError as exc:
            self.fail(e.line, str(exc))
        self.match.rebuild(remaining)
        self.seen_results = len(self.match.state.results)
        if self.writer:
            self.writer.undone(self.match, seat)
        for hook in self.hooks:
            if isinstance(hook, Follower) and hook is not self.writer:
                hook.sync(self.match)
        self.call("on_undo", seat)


def replay(
    t: Transcript,
    rules: Rules | None = None,
    *,
    listeners: Sequence[Listener] = (),
    writer: TranscriptWriter | None = None,
    keep_end: bool = True,
    controllers: Sequence[Controller] | None = None,
) -> ReplayResult:
    """Replay a transcript: every action is checked against the rules (IllegalActionError,
    exit 1), every recorded result against the engine's (MismatchError, exit 1); a missing
    or misplaced part is a FileFormatError (exit 2). Every message is ``FILE:LINE: ...``.

    ``writer`` (if given) receives the header and the whole game, which makes it
    canonical; ``keep_end=False`` leaves out an ``end *`` line (resume). ``listeners``
    follow the game as a Match listener and may also have ``on_note(match, seat, text)``,
    ``on_seat(match, seat, label)``, ``on_undo(match, seat)``, ``on_terminated(match, seat, reason)``.
    """
    if rules is None:
        found = transcript_rules(t)
        assert found is not None
        rules = found
    fixed = _Fixed()
    all_listeners: list[Listener] = list(listeners)
    match = match_for(t, rules, controllers=controllers, chance=fixed)
    if writer is not None:
        writer.write_header(header_for(t, match))
        writer.sync(match)
        all_listeners.append(writer)
    match.listeners.extend(all_listeners)
    replayer = _Replayer(t, match, fixed, writer, all_listeners, keep_end)
    try:
        return replayer.run()
    except IllegalAction as exc:  # a defect of the checks above: still name the place
        raise IllegalActionError(str(exc), file=t.origin, line=t.last_line) from None
    finally:
        match.chance = None


def write_transcript(t: Transcript, rules: Rules | None = None) -> str:
    """The canonical text of a transcript (it is replayed, so it must be legal)."""
    buf = io.StringIO()
    writer = TranscriptWriter(buf)
    replay(t, rules, writer=writer)
    return buf.getvalue()


# ============================================================================ summaries


def _side_dict(rules: Rules, values: Sequence[int]) -> dict[str, int]:
    return {rules.side_name(s): values[s] for s in range(2)}


def _seat_dict(rules: Rules, values: Sequence[Any]) -> dict[str, Any]:
    return {rules.seat_names[s]: values[s] for s in range(rules.players)}


def game_summary(match: Match, labels: Mapping[int, str] | None = None, **extra: Any) -> dict[str, Any]:
    """The JSON result of ``run``, ``resume`` and ``replay``.

    Keys: rules, players, seed, first_dealer, seats, finished, winner, scores, bags,
    hands (per hand: hand, dealer, bids (0 = nil), declared, tricks per seat, points,
    bags and running scores and bags per side), in_progress, actions, and ``extra``.
    """
    rules = match.rules
    st = match.state
    winner = st.winner()
    assert match.dealer is not None
    hands = []
    for r in st.results:
        hands.append(
            {
                "hand": r.hand_no + 1,
                "dealer": rules.seat_names[r.dealer],
                "bids": _seat_dict(rules, r.bids),
                "declared": [rules.seat_names[s] for s in range(rules.players) if r.blind[s]],
                "tricks": _seat_dict(rules, r.tricks),
                "points": _side_dict(rules, [s.points for s in r.sides]),
                "bags": _side_dict(rules, [s.bags for s in r.sides]),
                "scores": _side_dict(rules, [s.score for s in r.sides]),
                "bags_total": _side_dict(rules, [s.bags_total for s in r.sides]),
            }
        )
    in_progress = None
    if not st.is_terminal() and (st.phase != DEAL or st.history):
        in_progress = {
            "hand": st.hand_no + 1,
            "phase": str(st.phase),
            "trick": st.trick_no + 1 if st.phase == PLAY else None,
        }
    out: dict[str, Any] = {
        "rules": rules.name,
        "players": rules.players,
        "seed": str(match.seed),
        "first_dealer": rules.seat_names[match.dealer],
        "seats": {
            rules.seat_names[s]: (labels or {}).get(s, match.controllers[s].label)
            for s in range(rules.players)
        },
        "finished": st.is_terminal(),
        "winner": rules.side_name(winner) if winner is not None else None,
        "scores": _side_dict(rules, st.scores),
        "bags": _side_dict(rules, st.bags),
        "hands": hands,
        "in_progress": in_progress,
        "actions": len(st.history),
    }
    out.update(extra)
    return out


# ============================================================================ scripts


@dataclass
class _Item:
    """One scripted decision of a seat."""

    line: int
    text: str | None = None  # notation to read in the phase it meets (SEAT: lists)
    action: int | None = None  # an action fixed by a transcript-style line
    phase: Phase | None = None  # the phase that line is about
    draft_cards: tuple[int, int] | None = None


@dataclass
class Script:
    """A script read for ``spades run``: per-seat queues, fixed deals and draws, checks."""

    t: Transcript
    rules: Rules
    queues: dict[int, list[_Item]]
    decks: dict[int, tuple[tuple[int, ...], int]]  # hand index -> (deck, line)
    deals: dict[int, dict[int, tuple[tuple[int, ...], int]]]  # hand -> seat -> (cards, line)
    draws: dict[tuple[int, int], list[tuple[int, int]]]  # (hand, seat) -> [(card, line)]
    dealers: dict[int, tuple[int, int]]  # hand -> (dealer seat, line)
    winners: dict[tuple[int, int], tuple[int, int]]  # (hand, trick 1-based) -> (seat, line)
    results: dict[int, ResultLine]
    scores: dict[int, ScoreLine]
    end: EndLine | None

    @property
    def scripted(self) -> list[int]:
        return [s for s, q in self.queues.items() if q]


def prepare_script(t: Transcript, rules: Rules) -> Script:
    """Collect a script's parts (FileFormatError / MultiError, exit 2, for what cannot be used)."""
    problems: list[str] = []
    s = Script(t, rules, {seat: [] for seat in range(rules.players)}, {}, {}, {}, {}, {}, {}, {}, None)
    hand = 0
    names = rules.seat_names

    def seat_of(name: str, line: int) -> int | None:
        try:
            return rules.seat_index(name)
        except ValueError:
            problems.append(f"{t.origin}:{line}: there is no seat {name} in the {rules.players}-player game")
            return None

    def side_ok(name: str, line: int) -> None:
        if name not in (rules.side_name(0), rules.side_name(1)):
            problems.append(f"{t.origin}:{line}: there is no side {name} in this game")

    def add(name: str, item: _Item) -> None:
        seat = seat_of(name, item.line)
        if seat is not None:
            s.queues[seat].append(item)

    seen_hands: set[int] = set()
    for e in t.events:
        if isinstance(e, HandLine):
            hand = e.number - 1
            if hand in seen_hands:
                problems.append(f"{t.origin}:{e.line}: hand {e.number} appears twice")
            seen_hands.add(hand)
            if e.dealer is not None:
                d = seat_of(e.dealer, e.line)
                if d is not None:
                    s.dealers[hand] = (d, e.line)
        elif isinstance(e, DeckLine):
            if hand in s.decks or hand in s.deals:
                problems.append(f"{t.origin}:{e.line}: hand {hand + 1} already has its cards fixed")
            s.decks[hand] = (e.cards, e.line)
        elif isinstance(e, DealLine):
            if rules.players == 2:
                problems.append(
                    f"{t.origin}:{e.line}: the two-player game is drafted from the pile: "
                    "fix it with a deck line"
                )
                continue
            if hand in s.decks:
                problems.append(f"{t.origin}:{e.line}: hand {hand + 1} already has a deck line")
            seat = seat_of(e.seat, e.line)
            if seat is None:
                continue
            deals = s.deals.setdefault(hand, {})
            if seat in deals:
                problems.append(
                    f"{t.origin}:{e.line}: the cards of {e.seat} in hand {hand + 1} are given twice"
                )
            taken = {c for cards, _ in deals.values() for c in cards}
            clash = [card_str(c) for c in e.cards if c in taken]
            if clash:
                problems.append(f"{t.origin}:{e.line}: {', '.join(clash)} already dealt to another seat")
            deals[seat] = (e.cards, e.line)
        elif isinstance(e, DeclareLine):
            add(e.seat, _Item(e.line, action=BLIND if e.blind else NO_BLIND, phase=DECLARE))
        elif isinstance(e, DraftLine):
            add(e.seat, _Item(e.line, action=KEEP if e.keep else DISCARD, phase=DRAFT, draft_cards=e.cards))
        elif isinstance(e, ExchangeLine):
            if e.give is None and e.draw is None:
                add(e.seat, _Item(e.line, action=EXCHANGE_DONE, phase=EXCHANGE))
            elif e.give is not None:
                add(e.seat, _Item(e.line, action=e.give, phase=EXCHANGE))
            drawer = seat_of(e.seat, e.line)
            if e.draw is not None and drawer is not None:
                s.draws.setdefault((hand, drawer), []).append((e.draw, e.line))
        elif isinstance(e, BidsLine):
            for seat_name, bid in e.bids:
                add(seat_name, _Item(e.line, action=BID_BASE + bid, phase=BID))
        elif isinstance(e, TrickLine):
            first = seat_of(e.seat, e.line)
            if first is None:
                continue
            for i, card in enumerate(e.cards):
                add(names[(first + i) % rules.players], _Item(e.line, action=card, phase=PLAY))
            if e.winner is not None:
                w = seat_of(e.winner, e.line)
                if w is not None:
                    s.winners[(hand, e.number)] = (w, e.line)
        elif isinstance(e, ActionsLine):
            for token in e.tokens:
                add(e.seat, _Item(e.line, text=token))
        elif isinstance(e, ResultLine):
            for side, *_ in e.sides:
                side_ok(side, e.line)
            s.results[hand] = e
        elif isinstance(e, ScoreLine):
            for side, _ in (*e.scores, *e.bags):
                side_ok(side, e.line)
            s.scores[hand] = e
        elif isinstance(e, EndLine):
            if e.winner is not None:
                side_ok(e.winner, e.line)
            s.end = e
        elif isinstance(e, UndoLine):
            problems.append(
                f"{t.origin}:{e.line}: undo lines are for replay; a script lists each seat's "
                "decisions in the order they are played"
            )
        # notes, seat and terminated lines say nothing a run needs
    if problems:
        _raise_problems(problems)
    return s


class _ScriptChance:
    """Decks, deals and exchange draws fixed by a script; the rest comes from the seed."""

    def __init__(self, script: Script, seed: str) -> None:
        self.script = script
        self.seed = seed
        self.match: Match | None = None
        self.line = 0
        self.used: dict[tuple[int, int], int] = {}  # scripted draws taken, per (hand, seat)

    def deck(self, hand_no: int) -> Sequence[int] | None:
        s = self.script
        if hand_no in s.decks:
            deck, self.line = s.decks[hand_no]
            return deck
        deals = s.deals.get(hand_no)
        if not deals:
            return None
        assert self.match is not None
        dealer = self.match.state.dealer
        taken = {c for cards, _ in deals.values() for c in cards}
        rest = [c for c in range(52) if c not in taken]
        rng_for(self.seed, "deal-rest", hand_no).shuffle(rest)
        order = [0] * 52
        for seat in range(4):
            k = (seat - dealer - 1) % 4
            cards = list(deals[seat][0]) if seat in deals else [rest.pop() for _ in range(13)]
            for i, c in enumerate(cards):
                order[k + 4 * i] = c
        self.line = min(line for _, line in deals.values())
        return order

    def draw(self, hand_no: int, index: int, pool: Sequence[int]) -> int | None:
        assert self.match is not None
        key = (hand_no, self.match.state.exch_seat)
        used = self.used.get(key, 0)
        draws = self.script.draws.get(key, [])
        if used < len(draws):
            self.used[key] = used + 1
            card, self.line = draws[used]
            return card
        return None


class _ScriptController:
    """Plays a seat's scripted decisions in order; when they run out, the ``then`` bot (if any)."""

    def __init__(
        self, script: Script, seat: int, then: Controller | None, on_takeover: Callable[[int, str], None]
    ) -> None:
        self.script = script
        self.seat = seat
        self.items = script.queues[seat]
        self.pos = 0
        self.then = then
        self.on_takeover = on_takeover
        self.label = "script"

    def fail(self, line: int, message: str, kind: type[SpadesError] = IllegalActionError) -> typing.NoReturn:
        raise kind(message, file=self.script.t.origin, line=line)

    def decide(self, match: Match, seat: int) -> int:
        rules = match.rules
        name = rules.seat_names[seat]
        st = match.state
        if self.pos >= len(self.items):
            if self.then is not None:
                if self.pos == len(self.items):
                    self.pos += 1
                    self.on_takeover(seat, self.then.label)
                return self.then.decide(match, seat)
            last = self.items[-1].line if self.items else self.script.t.last_line
            where = f"hand {st.hand_no + 1}" + (f", trick {st.trick_no + 1}" if st.phase == PLAY else "")
            raise ScriptExhausted(
                f"{name} has no scripted action left ({where}, {_PHASE_WORDS[st.phase]} wanted); "
                "--then LEVEL lets a bot finish the game",
                file=self.script.t.origin,
                line=last,
            )
        item = self.items[self.pos]
        self.pos += 1
        if item.action is not None:
            action = item.action
            if item.phase is not None and item.phase != st.phase:
                self.fail(
                    item.line,
                    f"{name}'s next scripted action is {_PHASE_WORDS[item.phase]}, "
                    f"but {name} must now give {_PHASE_WORDS[st.phase]} (hand {st.hand_no + 1})",
                )
        else:
            assert item.text is not None
            try:
                action = parse_action(item.text, st.phase)
            except NotationError as exc:
                self.fail(
                    item.line,
                    f"{name} {item.text!r}: {exc} (hand {st.hand_no + 1}, {_PHASE_WORDS[st.phase]} wanted)",
                )
        if item.draft_cards is not None and st.deck is not None:
            top, nxt = st.deck[st.pile_pos], st.deck[st.pile_pos + 1]
            if (top, nxt) != item.draft_cards:
                self.fail(
                    item.line,
                    f"the pile holds {card_str(top)} then {card_str(nxt)}, not "
                    f"{card_str(item.draft_cards[0])} then {card_str(item.draft_cards[1])}",
                    MismatchError,
                )
        try:
            st.check(action)
        except IllegalAction as exc:
            self.fail(
                item.line, f"{name} {action_text(action)} is not legal in hand {st.hand_no + 1}: {exc.reason}"
            )
        return action

    def leftover(self) -> _Item | None:
        return self.items[self.pos] if self.pos < len(self.items) else None


class _ScriptChecks(Follower):
    """Checks a script's recorded winners, results, scores, dealers and end against the game."""

    def __init__(self, script: Script) -> None:
        super().__init__()
        self.script = script

    def fail(self, line: int, message: str) -> typing.NoReturn:
        raise MismatchError(message, file=self.script.t.origin, line=line)

    def dealt(self, match: Match, hand_no: int, deck: tuple[int, ...]) -> None:
        want = self.script.dealers.get(hand_no)
        if want is not None and want[0] != match.state.dealer:
            names = match.rules.seat_names
            self.fail(
                want[1],
                f"the dealer of hand {hand_no + 1} is {names[match.state.dealer]}, not {names[want[0]]}",
            )

    def acted(self, match: Match, info: ActionInfo) -> None:
        rules = match.rules
        s = self.script
        if info.trick is not None:
            want = s.winners.get((info.hand_no, info.trick_number))
            if want is not None and want[0] != info.trick.winner:
                self.fail(
                    want[1],
                    f"trick {info.trick_number} of hand {info.hand_no + 1} is won by "
                    f"{rules.seat_names[info.trick.winner]}, not {rules.seat_names[want[0]]}",
                )
        r = info.result
        if r is not None:
            line = s.results.get(r.hand_no)
            if line is not None:
                for side, tricks, points, bags in line.sides:
                    i = 0 if side == rules.side_name(0) else 1
                    real = r.sides[i]
                    if (tricks, points, bags) != (real.tricks, real.points, real.bags):
                        self.fail(
                            line.line,
                            f"hand {r.hand_no + 1}: {side} took {real.tricks} tricks for "
                            f"{real.points} points and {real.bags} bags, not {tricks}, {points} and {bags}",
                        )
            sc = s.scores.get(r.hand_no)
            if sc is not None:
                for side, score in sc.scores:
                    i = 0 if side == rules.side_name(0) else 1
                    if score != r.sides[i].score:
                        self.fail(
                            sc.line, f"after hand {r.hand_no + 1}: {side} has {r.sides[i].score}, not {score}"
                        )
                for side, bags in sc.bags:
                    i = 0 if side == rules.side_name(0) else 1
                    if bags != r.sides[i].bags_total:
                        self.fail(
                            sc.line,
                            f"after hand {r.hand_no + 1}: {side} has {r.sides[i].bags_total} "
                            f"bags, not {bags}",
                        )
        if info.game_over and s.end is not None and s.end.winner is not None:
            winner = match.state.winner()
            assert winner is not None
            if rules.side_name(winner) != s.end.winner:
                self.fail(s.end.line, f"{rules.side_name(winner)} won the game, not {s.end.winner}")


@dataclass
class RunSetup:
    """Everything ``spades run`` decided before the first card: the match and who plays."""

    match: Match
    script: Script
    labels: dict[int, str]  # as recorded in the transcript header
    controllers: dict[int, _ScriptController]


def setup_script_run(
    script: Script,
    *,
    seed: str,
    players: Mapping[int, Controller],
    then: Controller | None,
    listeners: Sequence[Listener] = (),
    on_takeover: Callable[[int, str], None] | None = None,
) -> RunSetup:
    """Build the Match of a script run: scripted seats from their queues, the others from
    ``players`` (UsageError naming a seat that has neither)."""
    rules = script.rules
    t = script.t
    names = rules.seat_names
    takeover = on_takeover or (lambda seat, label: None)
    controllers: list[Controller] = []
    labels: dict[int, str] = {}
    scripted: dict[int, _ScriptController] = {}
    for seat in range(rules.players):
        if script.queues[seat]:
            if seat in players:
                line = script.queues[seat][0].line
                raise UsageError(
                    f"{names[seat]} has scripted actions here, so --seat {names[seat]}=... cannot play it; "
                    "--then LEVEL lets a bot finish for a scripted seat",
                    file=t.origin,
                    line=line,
                )
            c = _ScriptController(script, seat, then, takeover)
            scripted[seat] = c
            controllers.append(c)
            labels[seat] = "script"
        elif seat in players:
            controllers.append(players[seat])
            labels[seat] = players[seat].label
        else:
            raise UsageError(
                f"seat {names[seat]} has no scripted actions in this script: "
                f"give it a player with --seat {names[seat]}=LEVEL",
                file=t.origin,
                line=max(t.last_line, 1),
            )
    chance = _ScriptChance(script, seed)
    checks = _ScriptChecks(script)
    first = script.dealers.get(0)
    dealer = _first_dealer(t, rules)
    if dealer is None and first is not None:
        dealer = first[0]
    match = Match(rules, seed, controllers, dealer=dealer, chance=chance, listeners=[checks, *listeners])
    chance.match = match
    return RunSetup(match, script, labels, scripted)


def run_script(setup: RunSetup, *, max_actions: int | None = None, max_hands: int | None = None) -> Match:
    """Play a prepared script run to the end (or until ``max_hands`` hands are over). Errors
    name the script's line: an illegal or unreadable scripted action, a recorded result that
    differs (exit 1), a scripted seat that ran out without ``--then`` (ScriptExhausted, exit 3)."""
    match = setup.match
    t = setup.script.t
    chance = match.chance
    done = 0
    while not match.finished:
        if max_hands is not None and len(match.state.results) >= max_hands:
            return match
        at_chance = match.state.current_player() == CHANCE
        try:
            match.step()
        except IllegalAction as exc:
            if at_chance and isinstance(chance, _ScriptChance) and chance.line:
                raise IllegalActionError(
                    f"the script's cards cannot be used: {exc}", file=t.origin, line=chance.line
                ) from None
            seat = match.state.current_player()
            who = match.rules.seat_names[seat] if seat >= 0 else "chance"
            label = match.controllers[seat].label if seat >= 0 else ""
            raise IllegalActionError(
                f"{who} ({label}) chose an illegal action: {exc}", file=t.origin, line=t.last_line
            ) from None
        done += 1
        if max_actions is not None and done >= max_actions:
            return match
    for seat, c in setup.controllers.items():
        item = c.leftover()
        if item is not None:
            what = item.text if item.text is not None else action_text(item.action or 0)
            raise MismatchError(
                f"the game ended before {match.rules.seat_names[seat]}'s scripted action {what!r} was played",
                file=t.origin,
                line=item.line,
            )
    return match


# ============================================================================ where transcripts go


def default_transcript_dir() -> Path:
    """``$SPADES_HOME/transcripts``, else ``$XDG_DATA_HOME/spades/transcripts``, else
    ``~/.local/share/spades/transcripts``."""
    home = os.environ.get("SPADES_HOME")
    if home:
        return Path(home) / "transcripts"
    xdg = os.environ.get("XDG_DATA_HOME")
    if xdg:
        return Path(xdg) / "spades" / "transcripts"
    return Path.home() / ".local" / "share" / "spades" / "transcripts"


_SAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def new_transcript_path(seed: str, folder: Path | None = None) -> Iterator[Path]:
    """Candidate file names ``game-<seed>-<n>.txt`` in the default folder (created if needed);
    open each with exclusive creation and take the first that does not exist yet."""
    where = folder if folder is not None else default_transcript_dir()
    try:
        where.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"{where}: cannot create the transcript folder: {exc.strerror or exc}") from None
    stem = _SAFE.sub("_", seed)[:40].strip("._") or "game"
    n = 1
    while True:
        yield where / f"game-{stem}-{n}.txt"
        n += 1


def new_seed() -> str:
    """A fresh seed for a game that was given none (recorded in its transcript)."""
    # 64 bits: an external bot must not be able to find the seed (and so every
    # deal) by trying seeds against its own cards.
    return str(secrets.randbits(64))
