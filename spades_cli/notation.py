"""The text of actions, shared by transcripts, scripts, the prompt and the bot protocol.

Canonical forms (what transcripts and the protocol write): cards ``QS``, ``TH``, ``2C``;
bids ``0``..``13`` written ``nil`` for 0; ``keep`` / ``discard`` in the draft; ``blind`` /
``noblind`` for the double / blind nil declaration; ``done`` to end an exchange early.
Reading is forgiving (``qs``, ``Q♠``, ``10h``, ``double nil``, ``k``). The text of an
action lives in the engine (``engine.actions``) and is re-exported here; why an action is
illegal is the engine's too (``State.check`` raises ``IllegalAction`` with the reason).
"""

from __future__ import annotations

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
    Phase,
    action_label,
    action_text,
    parse_card,
)
from spades_cli.engine.cards import CardParseError

__all__ = ["NotationError", "action_label", "action_text", "parse_action"]


class NotationError(ValueError):
    """Text that does not name an action of the kind wanted here."""


_BID_WORDS = {"nil": 0, "zero": 0, "n": 0}
_DECLARE_YES = {"blind", "blindnil", "doublenil", "double", "yes", "y", "dn", "bn"}
_DECLARE_NO = {"noblind", "no", "n", "pass", "nodoublenil", "noblindnil", "play"}
_KEEP = {"keep", "k", "take", "yes", "y"}
_DISCARD = {"discard", "d", "throw", "no", "toss"}
_DONE = {"done", "stop", "end", "finish", "pass", "."}


def parse_action(text: str, phase: Phase) -> int:
    """Read an action forgivingly for a phase; raise NotationError saying what was expected."""
    raw = text.strip()
    t = raw.lower().replace(" ", "").replace("-", "").replace("_", "")
    if not t:
        raise NotationError("empty input")
    if phase == BID:
        if t in _BID_WORDS:
            return BID_BASE
        if t.isdigit() and 0 <= int(t) <= 13:
            return BID_BASE + int(t)
        if t in _DECLARE_YES:
            raise NotationError("double / blind nil is declared before you see your cards, not now")
        raise NotationError(f"{raw!r} is not a bid (a number 0-13, or nil)")
    if phase == DECLARE:
        if t in _DECLARE_YES:
            return BLIND
        if t in _DECLARE_NO:
            return NO_BLIND
        raise NotationError(f"{raw!r}: answer blind (declare double nil) or no")
    if phase == DRAFT:
        if t in _KEEP:
            return KEEP
        if t in _DISCARD:
            return DISCARD
        raise NotationError(f"{raw!r}: answer keep or discard")
    if phase == EXCHANGE and t in _DONE:
        return EXCHANGE_DONE
    if phase in (PLAY, EXCHANGE, DRAW):
        try:
            return parse_card(raw)
        except CardParseError as exc:
            extra = " or done" if phase == EXCHANGE else ""
            raise NotationError(f"{exc}{extra}") from None
    raise NotationError(f"nothing to decide in the {phase} phase")
