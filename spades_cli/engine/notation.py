"""The text of actions, shared by transcripts, scripts, the prompt and the bot protocol.

Canonical forms (what transcripts and the protocol write): cards ``QS``, ``TH``, ``2C``;
bids ``0``..``13`` written ``nil`` for 0; ``keep`` / ``discard`` in the draft; ``blind`` /
``noblind`` for the double / blind nil declaration and ``blind6`` (``blind 6`` read too)
for a blind bid of six (R-BB-1); ``done`` to end an exchange early; ``zero`` for the
bid of 0 that is not nil, where the rules offer it (R-NV-4).
Reading is forgiving about cards (``qs``, ``Q♠``, ``10h``) and case, but every other answer
has one spelling, the same in every phase (``0`` is nil too). The text of an
action lives in the engine (``engine.actions``) and is re-exported here, and so is the one
quoting policy of the words given (``engine.text``: :func:`excerpt`, :func:`shown`); why an
action is illegal is the engine's too (``State.check`` raises ``IllegalAction`` with the reason).
"""

from __future__ import annotations

import typing

from spades_cli.engine import (
    BID,
    BID_BASE,
    BLIND,
    CARD_PHASES,
    DECLARE,
    DISCARD,
    DISCARD_PHASE,
    DRAFT,
    EXCHANGE,
    EXCHANGE_DONE,
    KEEP,
    MAX_BID,
    NO_BLIND,
    PASS,
    ZERO,
    Phase,
    action_label,
    action_text,
    blind_bid_action,
    parse_card,
)
from spades_cli.engine.cards import CardParseError
from spades_cli.engine.text import EXCERPT, excerpt, shown

__all__ = [
    "ANSWERS",
    "EXCERPT",
    "NotationError",
    "action_label",
    "action_text",
    "excerpt",
    "is_number",
    "parse_action",
    "shown",
    "word_problem",
]


class NotationError(ValueError):
    """Text that does not name an action of the kind wanted here: the message quotes the
    word; ``hint`` says what is wanted without quoting it (for messages that already do)."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.hint = hint or message


def _no(raw: str, hint: str) -> typing.NoReturn:
    raise NotationError(f"{shown(raw)}: {hint}", hint)


# One spelling for each answer (README, "Playing"): exactly these words are read, in any
# case and with spaces, hyphens or underscores ignored ("No Blind" is noblind). Words that
# once meant different things in different phases (``n``, ``no``, ``yes``, ``pass``, ...)
# are refused with a message that names the word of the phase.
ANSWERS = {
    DECLARE: ("blind", "noblind"),
    DRAFT: ("keep", "discard"),
    EXCHANGE: ("done",),
    BID: ("nil", "zero"),
}
_WORDS = {"blind": BLIND, "noblind": NO_BLIND, "keep": KEEP, "discard": DISCARD, "done": EXCHANGE_DONE}
_DECLARE_HINT = "answer blind to declare double / blind nil, or noblind"
_DRAFT_HINT = "answer keep to keep this card and discard the next, or discard to keep the next"
_BID_HINT = "bid a number 1-13, or nil"
# Words once read as answers, which meant different things in different phases: refused,
# with the word the phase wants.
_OLD_WORDS = {
    DECLARE: dict.fromkeys(("yes", "y", "dn", "bn", "double", "doublenil", "blindnil"), "blind")
    | dict.fromkeys(("no", "n", "pass", "play", "nodoublenil", "noblindnil"), "noblind"),
    DRAFT: dict.fromkeys(("k", "take", "yes", "y"), "keep")
    | dict.fromkeys(("d", "throw", "no", "toss"), "discard"),
    EXCHANGE: dict.fromkeys(("stop", "end", "finish", "pass", "."), "done"),
    BID: {"n": "nil"},
}


PHASE_NAMES = {
    DECLARE: "declaring",
    DRAFT: "in the draft",
    EXCHANGE: "in an exchange",
    BID: "bidding",
    PASS: "passing cards to a partner",
    DISCARD_PHASE: "laying cards aside",
}


def parse_action(text: str, phase: Phase) -> int:
    """Read an action for a phase in the words of the one answer table; raise NotationError
    saying which word is wanted."""
    raw = text.strip()
    t = _compact(raw)
    if not t:
        raise NotationError("empty input")
    word = _WORDS.get(t)
    if phase == BID:
        if t == "nil":
            return BID_BASE
        if t == "zero":
            return ZERO  # R-NV-4 (the engine refuses it where the rules do not offer it)
        if is_number(t) and len(t) <= 2 and int(t) <= MAX_BID:
            return BID_BASE + int(t)
        if is_number(t):
            _not_a_bid(raw)
        if t == "pass":
            _no(raw, f"nobody may pass in Spades: {_BID_HINT}")
        if word in (BLIND, NO_BLIND) or "double" in t or "blind" in t:
            raise NotationError("double / blind nil is declared before you see your cards, not now")
        if t in _OLD_WORDS[BID] or t in _WORDS:
            _refuse(raw, t, phase, _BID_HINT)
        _not_a_bid(raw)
    if phase == DECLARE:
        if word in (BLIND, NO_BLIND):
            return word
        n = _blind_number(t)
        if n is not None:
            return blind_bid_action(n)
        return _refuse(raw, t, phase, _DECLARE_HINT)
    if phase == DRAFT:
        if word in (KEEP, DISCARD):
            return word
        return _refuse(raw, t, phase, _DRAFT_HINT)
    if phase == EXCHANGE and word == EXCHANGE_DONE:
        return EXCHANGE_DONE
    if phase == EXCHANGE and t in _OLD_WORDS[EXCHANGE]:
        _refuse(raw, t, phase, "give up a card, or answer done")
    if phase in CARD_PHASES:
        try:
            return parse_card(raw)
        except CardParseError as exc:
            if phase == EXCHANGE:
                hint = "give up a card, or answer done"
                raise NotationError(f"{exc}: {hint}", hint) from None
            raise NotationError(str(exc), "a card, such as QS, 10h, Th or Q♠") from None
    raise NotationError(f"nothing to decide in the {phase} phase")


def _blind_number(t: str) -> int | None:
    """R-BB-1: the number of a blind bid written ``blind6`` (or ``blind 6``), else None."""
    rest = t[len("blind") :].strip() if t.startswith("blind") else ""
    if is_number(rest) and len(rest) <= 2 and 1 <= int(rest) <= MAX_BID:
        return int(rest)
    return None


def is_number(text: str) -> bool:
    """Whether ``text`` is a whole number written in the digits 0-9 (``str.isdigit`` alone
    also takes ``²`` or ``٣``, which ``int`` then refuses or reads)."""
    return text.isascii() and text.isdigit()


def _compact(raw: str) -> str:
    """The word of an answer in lower case, its spaces, hyphens and underscores dropped
    (``No Blind`` is noblind); a text with a digit in it is kept as it is, so that ``1 3``
    or ``-1`` is not read as a bid of 13 or 1."""
    t = raw.lower()
    if any(ch.isdigit() for ch in t):
        return t
    return t.replace(" ", "").replace("-", "").replace("_", "")


def _not_a_bid(raw: str) -> typing.NoReturn:
    raise NotationError(
        f"{shown(raw)} is not a bid (a number 1-13, or nil)", "a bid is a number 1-13, or nil"
    )


def _refuse(raw: str, t: str, phase: Phase, hint: str) -> typing.NoReturn:
    """The one refusal of a word that is not an answer of this phase."""
    meant = _OLD_WORDS.get(phase, {}).get(t)
    if meant is not None:
        _no(raw, f"did you mean {meant}? ({hint})")
    if t in _WORDS:
        raise NotationError(f"{shown(raw)} is not an answer now: {hint}", hint)
    _no(raw, hint)


def word_problem(text: str) -> str | None:
    """None if ``text`` is an answer of some phase (the words a script's ``SEAT:`` list may
    hold); else why not, with the words it may have meant."""
    for phase in (BID, DECLARE, DRAFT, EXCHANGE):
        try:
            parse_action(text, phase)
            return None
        except NotationError:
            continue
    t = _compact(text.strip())
    meant = sorted({f"{words[t]} ({PHASE_NAMES[ph]})" for ph, words in _OLD_WORDS.items() if t in words})
    if meant:
        passing = " (nobody may pass a bid)" if t == "pass" else ""
        return f"not a move: did you mean {' or '.join(meant)}?{passing}"
    if is_number(t):
        return "not a move: a bid is a number 1-13, or nil"
    return "not a move (the moves are blind, noblind, keep, discard, done, a bid 1-13 or nil, and cards)"
