"""Action numbers and their text.

Actions are small integers:

* ``0..51``   a card (play it; in the exchange, give it up; at a chance node, draw it)
* ``52..65``  a bid of 0 (nil) to 13 (``BID_BASE + n``)
* ``KEEP`` / ``DISCARD``   the two-player draft decision on the card just drawn (R-2P-2)
* ``BLIND`` / ``NO_BLIND``  declare, or not, double nil / blind nil (R-2P-3)
* ``EXCHANGE_DONE``  stop exchanging before the limit (R-2P-3)

Canonical text (what transcripts and the protocol write): cards ``QS``, ``TH``, ``2C``;
bids ``0``..``13`` written ``nil`` for 0; ``keep`` / ``discard``; ``blind`` / ``noblind``;
``done``.
"""

from __future__ import annotations

from typing import Final

from spades_cli.engine.cards import card_label, card_str

BID_BASE: Final = 52
KEEP: Final = 66
DISCARD: Final = 67
BLIND: Final = 68
NO_BLIND: Final = 69
EXCHANGE_DONE: Final = 70
NUM_ACTIONS: Final = 71

_WORDS: Final = {KEEP: "keep", DISCARD: "discard", BLIND: "blind", NO_BLIND: "noblind", EXCHANGE_DONE: "done"}


def is_nil_bid(bid: int, blind: bool, nil_enabled: bool) -> bool:
    """R-C-10 / R-2P-3: the one nil test. A bid of 0 is a nil when declared blind (double or
    blind nil) or when nil is enabled; with nil off (and ``min_bid`` 0) it is an ordinary bid.
    ``Rules.is_nil`` asks it with the rules' ``nil.enabled``."""
    return bid == 0 and (blind or nil_enabled)


def action_text(action: int) -> str:
    """Canonical text of an action (ValueError for a number that is no action)."""
    if 0 <= action < 52:
        return card_str(action)
    if BID_BASE <= action < BID_BASE + 14:
        bid = action - BID_BASE
        return "nil" if bid == 0 else str(bid)
    word = _WORDS.get(action)
    if word is None:
        raise ValueError(f"no such action: {action}")
    return word


def action_label(action: int, *, symbols: bool = True) -> str:
    """Text for people: ``Q♠``, ``10♥``, ``bid 4``, ``nil``, ``keep``, ``double nil``."""
    if 0 <= action < 52:
        return card_label(action, symbols=symbols)
    if BID_BASE <= action < BID_BASE + 14:
        bid = action - BID_BASE
        return "nil" if bid == 0 else f"bid {bid}"
    if action == BLIND:
        return "double nil"
    if action == NO_BLIND:
        return "no double nil"
    return action_text(action)
