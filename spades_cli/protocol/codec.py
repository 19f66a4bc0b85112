"""The bot protocol's requests, as the table writes them and a bot reads them.

:func:`format_request` writes one seat's whole view, the rules (one ``rule`` line per
option, through :mod:`spades_cli.presets.codec`) and the decision's generator key;
:func:`parse_request` rebuilds an equal ``Observation`` and equal ``Rules`` from it. The
format is described in docs/bot-protocol.md.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from spades_cli.engine import (
    BID,
    DECLARE,
    DISCARD_PHASE,
    DRAFT,
    EXCHANGE,
    PASS,
    PLAY,
    HandResult,
    Observation,
    Phase,
    Rules,
    Trick,
    card_str,
    parse_card,
    score_side,
    zero_at,
)
from spades_cli.engine.cards import NUM_CARDS, CardParseError
from spades_cli.engine.notation import NotationError, action_text, parse_action
from spades_cli.engine.rules import SEAT_NAMES_2, SEAT_NAMES_3, SEAT_NAMES_4
from spades_cli.engine.state import NUM_ACTIONS
from spades_cli.errors import SpadesError
from spades_cli.presets import rules_from_dict
from spades_cli.presets.codec import RuleValueError, flat_rules, parse_value, put

__all__ = [
    "ACTION_TEXT",
    "DEFAULT_TIMEOUT",
    "HELLO",
    "KIND_OF_PHASE",
    "PHASE_OF_KIND",
    "PROTOCOL_VERSION",
    "ProtocolError",
    "Request",
    "RequestCache",
    "format_request",
    "parse_request",
    "rules_from_lines",
    "rules_lines",
]

PROTOCOL_VERSION = 1
DEFAULT_TIMEOUT = 5.0  # seconds a program may take per decision (--bot-timeout)
HELLO = "spades-protocol"

# The decision a request asks for, by engine phase (R-2P-2 draft, R-2P-3 double nil and
# exchange, R-C-7 bid, R-C-3 card).
KIND_OF_PHASE = {
    DRAFT: "draft",
    DECLARE: "double-nil",
    EXCHANGE: "exchange",
    BID: "bid",
    PLAY: "card",
    PASS: "pass",  # R-BN-4: a card to pass to the partner
    DISCARD_PHASE: "discard",  # R-J-6: a card of the hand to lay aside
}
PHASE_OF_KIND = {kind: phase for phase, kind in KIND_OF_PHASE.items()}

CARD_TEXT = tuple(card_str(c) for c in range(NUM_CARDS))  # the jokers too (BJ, LJ)
_CARD_OF_TEXT = {text: c for c, text in enumerate(CARD_TEXT)}
ACTION_TEXT = tuple(action_text(a) for a in range(NUM_ACTIONS))
_ACTION_OF_TEXT = {text: a for a, text in enumerate(ACTION_TEXT)}


class ProtocolError(ValueError):
    """A request (bot side) that cannot be read."""


def rules_lines(rules: Rules) -> list[str]:
    """The rules as ``rule KEY.PATH VALUE`` lines, VALUE in JSON (``true``, ``null``, ``"x"``)."""
    return [f"rule {path} {text}" for path, text in flat_rules(rules, quote_strings=True)]


def bid_token(bid: int | None, blind: bool, zero: bool = False) -> str:
    """A seat's bid as the protocol writes it: ``-``, ``nil``, ``blind``, ``blind6``, ``zero``
    (R-NV-4: a bid of 0 that is not nil) or a number."""
    if bid is None:
        return "-"
    if zero:
        return "zero"
    if blind:
        return f"blind{bid}" if bid else "blind"  # R-BB-1: a blind bid of six is blind6
    return "nil" if bid == 0 else str(bid)


def _cards_line(key: str, cards: Iterable[int]) -> str:
    text = " ".join([CARD_TEXT[c] for c in cards])
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
        lines.append(f"draft {CARD_TEXT[obs.draft_card]}")
    if obs.players == 2 or obs.own_discards:  # (R-J-6: the cards this seat laid aside)
        lines.append(_cards_line("discards", obs.own_discards))
    if obs.players == 2:
        lines.append("exchanged " + " ".join(map(str, obs.exchanged)))
    seats = range(obs.players)
    tokens = [bid_token(obs.bids[s], obs.declared[s], zero_at(obs.zero, s)) for s in seats]
    lines.append("bids " + " ".join(tokens))
    for t in obs.tricks:
        lines.append(f"trick {names[t.leader]} {' '.join([CARD_TEXT[c] for c in t.cards])} {names[t.winner]}")
    lines.append(_cards_line(f"current {names[obs.leader]}", obs.current_trick))
    lines.append("won " + " ".join(map(str, obs.tricks_won)))
    lines.append("broken yes" if obs.spades_broken else "broken no")
    lines.append("scores " + " ".join(map(str, obs.scores)))  # one per side (R-CT-7)
    lines.append("bags " + " ".join(map(str, obs.bags)))
    for r in obs.results:
        bids = " ".join(bid_token(r.bids[s], r.blind[s], zero_at(r.zero, s)) for s in seats)
        lines.append(
            f"result {r.hand_no + 1} {names[r.dealer]} bids {bids} tricks {' '.join(map(str, r.tricks))}"
        )
    lines.append("legal " + " ".join([ACTION_TEXT[a] for a in obs.legal]))
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


def rules_from_lines(lines: Sequence[str]) -> Rules:
    """The Rules of a request's ``rule`` lines (with or without the ``rule`` word);
    ProtocolError when they do not make valid rules."""
    return _rules_from_lines(tuple(line.removeprefix("rule ") for line in lines))


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


def parse_request(
    lines: Sequence[str], *, cache: RequestCache | None = None, decision: bool = True
) -> Request:
    """Read a request (``request KIND`` first; the ``end`` line may be left out).
    ``decision=False``: a view of a seat not on turn, whose ``legal`` line may be empty.

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
        obs = _read_view(fields, trick_lines, (rules_key, tuple(result_lines)), rules, phase, cache, decision)
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
    """A bid token: ``-`` (none yet), ``nil``, ``blind`` (declared blind / double nil),
    ``blind6`` (a blind bid of six), ``zero`` (R-NV-4: its 0 is no nil) or a number."""
    if token == "-":
        return None, False
    if token == "zero":
        return 0, False
    if token == "blind":
        return 0, True
    if token.startswith("blind") and token[5:].isdecimal() and token[5:].isascii():
        return int(token[5:]), True  # R-BB-1: blind6, a blind bid of six
    if token == "nil":
        return 0, False
    return int(token), False


def _zeros(tokens: Sequence[str]) -> tuple[bool, ...]:
    """R-NV-4: which of these bid tokens are a zero (``()`` when none is, as the engine gives)."""
    zero = tuple([t == "zero" for t in tokens])
    return zero if True in zero else ()


class _Reader:
    """Reads the view lines of one request under the rules it carries."""

    __slots__ = ("cache", "fields", "n", "names", "seat_of", "sides")

    def __init__(self, fields: dict[str, str], rules: Rules, cache: RequestCache) -> None:
        self.fields = fields
        self.n = rules.players
        self.sides = rules.sides
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

    def per_side(self, key: str) -> tuple[int, ...]:
        tokens = self.need(key).split()
        if len(tokens) != self.sides:
            raise ProtocolError(f"{key}: expected {self.sides} numbers (one per side), got {len(tokens)}")
        return tuple([int(t) for t in tokens])

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

    def legal(self, phase: Phase, *, required: bool = True) -> tuple[int, ...]:
        legal = []
        for token in self.fields.get("legal", "").split():
            action = _ACTION_OF_TEXT.get(token)
            if action is None:
                try:
                    action = parse_action(token, phase)
                except NotationError as exc:
                    raise ProtocolError(f"legal: {exc}") from None
            legal.append(action)
        if not legal and required:
            raise ProtocolError("legal: no legal action listed")
        return tuple(legal)

    def results(self, key: tuple[tuple[str, ...], tuple[str, ...]], rules: Rules) -> tuple[HandResult, ...]:
        """Earlier hands; each side's score is worked out again from bids and tricks
        (R-C-8 to R-C-10, R-2P-6, R-4P-6, R-4P-7)."""
        cached = self.cache.results.get(key)
        if cached is not None:
            return cached
        n = self.n
        sides = [rules.side_seats(side) for side in range(rules.sides)]
        scores, bags = [0] * len(sides), [0] * len(sides)
        out = []
        for line in key[1]:
            tokens = line.split()
            if len(tokens) != 2 * n + 4 or tokens[2] != "bids" or tokens[3 + n] != "tricks":
                raise ProtocolError(f"result: expected 'DEAL DEALER bids {n} bids tricks {n} numbers'")
            read = [_bid(t) for t in tokens[3 : 3 + n]]
            zero = _zeros(tokens[3 : 3 + n])
            if any(b is None for b, _ in read):
                raise ProtocolError("result: every seat has a bid in a finished hand")
            bids = tuple(b or 0 for b, _ in read)
            blind = tuple(d for _, d in read)
            tricks = tuple(int(t) for t in tokens[4 + n :])
            scored = tuple(
                score_side(rules, bids, blind, tricks, seats, scores[i], bags[i], zero)
                for i, seats in enumerate(sides)
            )
            scores = [s.score for s in scored]
            bags = [s.bags_total for s in scored]
            dealer = self.seat(tokens[1])
            out.append(HandResult(int(tokens[0]) - 1, dealer, bids, blind, tricks, scored, zero))
        results = tuple(out)
        if len(self.cache.results) >= self.cache.LIMIT:
            self.cache.results.clear()
        self.cache.results[key] = results
        return results


_TABLES = (SEAT_NAMES_2, SEAT_NAMES_3, SEAT_NAMES_4)
_SEAT_OF = {len(names): {name: i for i, name in enumerate(names)} for names in _TABLES}


def _read_view(
    fields: dict[str, str],
    trick_lines: list[str],
    results_key: tuple[tuple[str, ...], tuple[str, ...]],
    rules: Rules,
    phase: Phase,
    cache: RequestCache,
    decision: bool = True,
) -> Observation:
    r = _Reader(fields, rules, cache)
    n = r.n
    seat_no = r.seat(r.need("seat"))
    bid_tokens = r.per_seat("bids", r.need("bids"))
    bids = [_bid(t) for t in bid_tokens]
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
        scores=r.per_side("scores"),
        bags=r.per_side("bags"),
        results=r.results(results_key, rules),
        legal=r.legal(phase, required=decision),
        zero=_zeros(bid_tokens),
    )
