"""The text of actions, shared by transcripts, scripts, the prompt and the bot protocol.

Canonical forms (what transcripts and the protocol write): cards ``QS``, ``TH``, ``2C``;
bids ``0``..``13`` written ``nil`` for 0; ``keep`` / ``discard`` in the draft; ``blind`` /
``noblind`` for the double / blind nil declaration; ``done`` to end an exchange early.
Reading is forgiving (``qs``, ``Q♠``, ``10h``, ``double nil``, ``k``).
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
    State,
    card_label,
    card_str,
    parse_card,
)
from spades_cli.engine.cards import SUIT_MASKS, SUIT_NAMES, CardParseError, cards_in

_WORDS = {KEEP: "keep", DISCARD: "discard", BLIND: "blind", NO_BLIND: "noblind", EXCHANGE_DONE: "done"}


class NotationError(ValueError):
    """Text that does not name an action of the kind wanted here."""


def action_text(action: int) -> str:
    """Canonical text of an action."""
    if 0 <= action < 52:
        return card_str(action)
    if BID_BASE <= action < BID_BASE + 14:
        bid = action - BID_BASE
        return "nil" if bid == 0 else str(bid)
    if action in _WORDS:
        return _WORDS[action]
    raise ValueError(f"no such action: {action}")


def action_label(action: int, *, symbols: bool = True) -> str:
    """Text for people: ``Q♠``, ``10♥``, ``bid 4``, ``nil``, ``keep``."""
    if 0 <= action < 52:
        return card_label(action, symbols=symbols)
    if BID_BASE <= action < BID_BASE + 14:
        bid = action - BID_BASE
        return "nil" if bid == 0 else f"bid {bid}"
    return {BLIND: "double nil", NO_BLIND: "no double nil"}.get(action, action_text(action))


_BID_WORDS = {"nil": 0, "zero": 0, "n": 0}
_DECLARE_YES = {"blind", "blindnil", "doublenil", "double", "yes", "y", "dn", "bn"}
_DECLARE_NO = {"noblind", "no", "n", "pass", "nodoublenil", "noblindnil", "play"}
_KEEP = {"keep", "k", "take", "yes", "y"}
_DISCARD = {"discard", "d", "throw", "no", "toss"}
_DONE = {"done", "stop", "end", "finish", "pass", "."}


def parse_action(text: str, phase: str) -> int:
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


def explain_illegal(state: State, action: int, *, symbols: bool = True) -> str:
    """One line saying why ``action`` is not legal for the seat on turn."""
    phase = state.phase
    seat = state.current_player()
    if phase == PLAY and 0 <= action < 52:
        hand = state.hands[seat]
        if not hand >> action & 1:
            return f"you do not hold {card_label(action, symbols=symbols)}"
        trick = state.trick
        if trick:
            led = trick[0] // 13
            follow = hand & SUIT_MASKS[led]
            if follow:
                held = " ".join(card_label(c, symbols=symbols) for c in reversed(cards_in(follow)))
                return f"you must follow {SUIT_NAMES[led]}: you hold {held}"
            return "spades may not be played to the first trick while you hold other cards"
        if state.rules.play.two_of_clubs_leads and state.tricks == [] and hand & 1:
            return "the two of clubs must lead the first trick"
        return "spades are not broken yet: lead another suit"
    if phase == BID and action >= BID_BASE:
        legal = [a - BID_BASE for a in state.legal_actions()]
        shown = ", ".join("nil" if b == 0 else str(b) for b in legal)
        return f"that bid is not allowed here; legal bids: {shown}"
    if phase == EXCHANGE and 0 <= action < 52:
        return f"you do not hold {card_label(action, symbols=symbols)}"
    return f"{action_label(action, symbols=symbols)} is not possible now ({phase})"
