"""Transcript syntax: the line types, the tokens, and the lenient reader.

A transcript is plain UTF-8 text, one fact per line (see ``docs/transcript-format.md``)::

    [Game "spades"]            tags first: rules, seed, seats, ...
    hand 1 dealer E            then, per hand: the deck, every decision, the checks
    deck 7S 2H ...
    bids S:3 W:4 N:2 E:3
    trick 1 S: 4H 9H AH 2S won N
    result NS tricks 5 points 50 bags 0 | EW tricks 8 points 81 bags 1
    score NS 50 EW 81 bags NS 0 EW 1
    end winner NS              or ``end *`` for a game stopped before its end

Reading (:func:`read_transcript`, :func:`parse_transcript`) is syntax only: lenient
notation (``qs``, ``10h``), every problem collected with its line number and raised
together as one :class:`~spades_cli.errors.MultiError` (exit 2). What the lines mean is
checked by :mod:`spades_cli.transcript.replay` and :mod:`spades_cli.transcript.scripts`.
"""

from __future__ import annotations

import os
import re
import typing
from collections.abc import Sequence
from dataclasses import dataclass, field

from spades_cli.engine import (
    BID,
    BLIND,
    DEAL,
    DECLARE,
    DISCARD,
    DISCARD_PHASE,
    DRAFT,
    DRAW,
    EXCHANGE,
    KEEP,
    MAX_BID,
    NUM_CARDS,
    PASS,
    PLAY,
    card_str,
    parse_card,
)
from spades_cli.engine.cards import CardParseError
from spades_cli.engine.notation import NotationError, excerpt, parse_action, shown
from spades_cli.errors import FileFormatError, MultiError
from spades_cli.transcript.files import read_limited

FORMAT_VERSION = "1"
HEADER_COMMENT = "# spades transcript (format: docs/transcript-format.md)"
MAX_PROBLEMS = 20
MAX_LINE_CHARS = 64 * 1024  # the longest line read (the format's own lines are under 200)
SEAT_LETTERS = ("N", "E", "S", "W")
SIDE_NAMES = ("NS", "EW", "N", "S", "E", "W")  # partnerships, else a seat (Rules.side_name)

PHASE_WORDS = {  # what a seat gives in each phase, for messages
    DECLARE: "a double / blind nil declaration",
    DRAFT: "a draft decision",
    EXCHANGE: "an exchange",
    BID: "a bid",
    PLAY: "a card",
    DRAW: "the card drawn in an exchange",
    PASS: "a card passed to a partner",
    DISCARD_PHASE: "a card laid aside",
    DEAL: "a new hand",
}


# ---------------------------------------------------------------------------- the parsed form


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
    action: int  # BLIND, NO_BLIND or a blind bid (R-BB-1)

    @property
    def blind(self) -> bool:
        """Whether the line declares a blind / double nil."""
        return self.action == BLIND


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
class PassLine:
    line: int
    seat: str  # the seat passing the card to its partner (R-BN-4)
    card: int


@dataclass(frozen=True)
class DiscardLine:
    line: int
    seat: str  # the seat laying the card aside, out of play for the hand (R-J-6)
    card: int


@dataclass(frozen=True)
class BidsLine:
    line: int
    bids: tuple[tuple[str, int], ...]  # (seat, the bid's action: BID_BASE + n, or ZERO, R-NV-4)


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


Line = (
    HandLine
    | DeckLine
    | DealLine
    | DeclareLine
    | DraftLine
    | ExchangeLine
    | PassLine
    | DiscardLine
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
    events: list[Line] = field(default_factory=list)
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


# ---------------------------------------------------------------------------- reading

KNOWN_TAGS = {
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
_INT = re.compile(r"[+-]?[0-9]{1,9}\Z")
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
                    if 0xD800 <= int(digits, 16) <= 0xDFFF:  # half of a UTF-16 pair: no character
                        raise _LineError(f"\\{esc}{digits} is not a character (a surrogate) in a quoted text")
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


def quote(text: str) -> str:
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


MAX_MESSAGE = 200  # characters at most of what a message says about one line


def _seat(text: str) -> str:
    up = text.strip().upper()
    if up not in SEAT_LETTERS:
        raise _LineError(f"{shown(text)} is not a seat (N, E, S or W)")
    return up


def _side(text: str) -> str:
    up = text.strip().upper()
    if up not in SIDE_NAMES:
        raise _LineError(f"{shown(text)} is not a side (NS or EW; a seat in a game without partners)")
    return up


def _int(text: str, what: str) -> int:
    if not _INT.match(text):
        raise _LineError(f"{what}: {shown(text)} is not a whole number")
    return int(text)


_CANONICAL_CARDS = {card_str(c): c for c in range(NUM_CARDS)}


def _card(text: str) -> int:
    card = _CANONICAL_CARDS.get(text)
    if card is not None:
        return card
    try:
        return parse_card(text)
    except CardParseError:
        raise _LineError(f"{shown(text)} is not a card (cards are written like QS, TH, 2C)") from None


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
            raise _LineError(f"unexpected quoted text {quote(excerpt(t.text))}")
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
    want = KNOWN_TAGS.get(name)
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
            raise _LineError(f"{shown(w[2])}: a draft decision is keep or discard") from None
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
            raise _LineError(f"expected 'draw CARD' after the card given, got {shown(w[4])}")
        draw = _card(w[5])
    return ExchangeLine(line_no, seat, give, draw)


def _parse_bids(line_no: int, w: list[str]) -> BidsLine:
    if len(w) < 2:
        raise _LineError("expected 'bids SEAT:BID ...', e.g. bids E:3 S:nil")
    out = []
    for item in w[1:]:
        seat_text, sep, bid_text = item.partition(":")
        if not sep or not bid_text:
            raise _LineError(f"{shown(item)}: a bid is written SEAT:BID, e.g. E:3 or S:nil")
        seat = _seat(seat_text)
        try:
            bid = parse_action(bid_text, BID)
        except NotationError as exc:
            raise _LineError(f"{seat} {shown(bid_text)}: {exc.hint}") from None
        out.append((seat, bid))
    return BidsLine(line_no, tuple(out))


def _parse_trick(line_no: int, w: list[str]) -> TrickLine:
    if len(w) < 4 or not w[2].endswith(":"):
        raise _LineError("expected 'trick NUMBER SEAT: CARD ... [won SEAT]'")
    number = _int(w[1], "trick number")
    if not 1 <= number <= MAX_BID:
        raise _LineError(f"trick number {number} is not 1-{MAX_BID}")
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
    if not 2 <= len(parts) <= 4:
        raise _LineError("expected 'result SIDE tricks N points N bags N | SIDE tricks N points N bags N'")
    sides = []
    for p in parts:
        if len(p) != 7 or [p[1].lower(), p[3].lower(), p[5].lower()] != ["tricks", "points", "bags"]:
            raise _LineError("each side reads 'SIDE tricks N points N bags N'")
        sides.append((_side(p[0]), _int(p[2], "tricks"), _int(p[4], "points"), _int(p[6], "bags")))
    return ResultLine(line_no, tuple(sides))


def _parse_score(line_no: int, w: list[str]) -> ScoreLine:
    n = (len(w) - 2) // 4  # the sides: two, or a seat each in a game without partners
    if len(w) % 4 != 2 or not 2 <= n <= 4 or w[1 + 2 * n].lower() != "bags":
        raise _LineError("expected 'score SIDE N SIDE N bags SIDE N SIDE N'")
    scores = tuple((_side(w[1 + 2 * i]), _int(w[2 + 2 * i], "score")) for i in range(n))
    bags = tuple((_side(w[2 + 2 * n + 2 * i]), _int(w[3 + 2 * n + 2 * i], "bags")) for i in range(n))
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


def _parse_body(line_no: int, toks: list[_Tok]) -> Line:
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


def _parse_words(line_no: int, w: list[str]) -> Line:
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
        if not 48 <= len(cards) <= NUM_CARDS:  # the rules' deck: 52, or a variant's (R-CT-1, R-J-2)
            raise _LineError(f"a deck lists the rules' whole deck, top first; this one has {len(cards)}")
        return DeckLine(line_no, cards)
    if key == "deal":
        if not 15 <= len(w) <= 2 + MAX_BID:  # 13 cards, or a variant's 17 or 18 (R-CT-1)
            raise _LineError("expected 'deal SEAT' and the seat's whole hand")
        return DealLine(line_no, _seat(w[1]), _cards(w[2:], f"the deal of {w[1].upper()}"))
    if key == "declare":
        if len(w) != 3:
            raise _LineError("expected 'declare SEAT blind' or 'declare SEAT noblind'")
        try:
            action = parse_action(w[2], DECLARE)
        except NotationError:
            raise _LineError(f"{shown(w[2])}: a declaration is blind, blind6 and so on, or noblind") from None
        return DeclareLine(line_no, _seat(w[1]), action)
    if key == "draft":
        return _parse_draft(line_no, w)
    if key == "exchange":
        return _parse_exchange(line_no, w)
    if key == "pass":
        if len(w) != 3:
            raise _LineError("expected 'pass SEAT CARD' (the card SEAT passes to its partner)")
        return PassLine(line_no, _seat(w[1]), _card(w[2]))
    if key == "discard":
        if len(w) != 3:
            raise _LineError("expected 'discard SEAT CARD' (a card SEAT lays aside, out of play)")
        return DiscardLine(line_no, _seat(w[1]), _card(w[2]))
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
        # each word is checked by the script reader (a bad move is exit 1, naming the seat)
        return ActionsLine(line_no, seat_text.upper(), tuple(tokens))
    raise _LineError(
        f"unknown line starting with {shown(w[0])} (expected a [Tag], hand, deck, deal, declare, draft, "
        "exchange, bids, pass, discard, trick, result, score, end, note, seat, undo, terminated "
        "or SEAT: actions)"
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
        if len(line) > MAX_LINE_CHARS:
            too_long = f"the line is longer than {MAX_LINE_CHARS} characters"
            problems.append(f"{origin}:{no}: {too_long}: {shown(line)}")
            continue
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
                    raise _LineError(f"[Game {quote(excerpt(values[0]))}]: this is not a spades transcript")
                elif name == "Format" and values[0] != FORMAT_VERSION:
                    raise _LineError(
                        f"format version {shown(values[0])} is not supported "
                        f"(this program reads {FORMAT_VERSION})"
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
            problems.append(f"{origin}:{no}: {excerpt(str(exc), MAX_MESSAGE)}")
    if problems:
        raise_problems(problems, read=bool(t.tags or t.events))
    return t


class LineProblems(MultiError):
    """The problems of a text's lines; ``read`` is False when none of its lines read as
    a transcript line (a file of another kind)."""

    def __init__(self, problems: list[str], *, exit_code: int, read: bool) -> None:
        super().__init__(problems, exit_code=exit_code)
        self.read = read


def raise_problems(problems: list[str], exit_code: int = 2, *, read: bool = True) -> typing.NoReturn:
    if len(problems) > MAX_PROBLEMS:
        more = len(problems) - MAX_PROBLEMS
        problems = [*problems[:MAX_PROBLEMS], f"... and {more} more problem{'s' if more > 1 else ''}"]
    raise LineProblems(problems, exit_code=exit_code, read=read)


def read_transcript(path: str | os.PathLike[str]) -> Transcript:
    """Read and parse a transcript or script file (FileFormatError / MultiError: exit 2):
    a regular file within the limits of ``docs/security.md``."""
    return transcript_from_bytes(read_limited(path), str(path))


def transcript_from_bytes(data: bytes, origin: str) -> Transcript:
    """Parse the bytes of a transcript or script file (FileFormatError / MultiError: exit 2)."""
    return parse_transcript(_decode(data, origin), origin)


# ============================================================================ rules in tags
