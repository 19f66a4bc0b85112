"""Action numbers and their text.

Actions are small integers:

* ``0..53``   a card (play it; in the exchange, give it up; at a chance node, draw it);
  52 and 53 are the jokers of the variants that add them (``engine.cards``)
* ``54..72``  a bid of 0 (nil) to 18 (``BID_BASE + n``; 18: the three-player hand with jokers)
* ``KEEP`` / ``DISCARD``   the two-player draft decision on the card just drawn (R-2P-2)
* ``BLIND`` / ``NO_BLIND``  declare, or not, double nil / blind nil (R-2P-3)
* ``EXCHANGE_DONE``  stop exchanging before the limit (R-2P-3)
* ``BLIND_BID_BASE + n - 1``  declare a blind bid of ``n`` (1..18) before looking (R-BB-1)
* ``ZERO``  a bid of no tricks that is not a nil (R-NV-4, ``nil.zero``)

Canonical text (what transcripts and the protocol write): cards ``QS``, ``TH``, ``2C``;
bids ``0``..``18`` written ``nil`` for 0; ``keep`` / ``discard``; ``blind`` / ``noblind``;
``done``; ``blind6`` (no space) for a blind bid of six; ``zero`` for the zero that is not nil.
"""

from __future__ import annotations

from typing import Final

from spades_cli.engine.cards import NUM_CARDS, card_label, card_str

# The numbers are internal (transcripts and the protocol write the text): they may move.
BID_BASE: Final = NUM_CARDS
MAX_BID: Final = 18  # the largest hand of any deal (R-J-2: 54 cards among three players)
KEEP: Final = BID_BASE + MAX_BID + 1
DISCARD: Final = KEEP + 1
BLIND: Final = KEEP + 2
NO_BLIND: Final = KEEP + 3
EXCHANGE_DONE: Final = KEEP + 4
BLIND_BID_BASE: Final = KEEP + 5  # a blind bid of 1; of n: BLIND_BID_BASE + n - 1
ZERO: Final = BLIND_BID_BASE + MAX_BID  # R-NV-4: a bid of 0 that is not nil
NUM_ACTIONS: Final = ZERO + 1

_WORDS: Final = {
    KEEP: "keep",
    DISCARD: "discard",
    BLIND: "blind",
    NO_BLIND: "noblind",
    EXCHANGE_DONE: "done",
    ZERO: "zero",
}


def is_nil_bid(bid: int, blind: bool, nil_enabled: bool) -> bool:
    """R-C-10 / R-2P-3: the one nil test. A bid of 0 is a nil when declared blind (double or
    blind nil) or when nil is enabled; with nil off (and ``min_bid`` 0) it is an ordinary bid.
    ``Rules.is_nil`` asks it with the rules' ``nil.enabled``."""
    return bid == 0 and (blind or nil_enabled)


def blind_bid_action(n: int) -> int:
    """R-BB-1: the action that declares a blind bid of ``n`` (1..MAX_BID)."""
    return BLIND_BID_BASE + n - 1


def blind_bid_of(action: int) -> int:
    """R-BB-1: the number a blind-bid action declares; 0 for any other action."""
    return action - BLIND_BID_BASE + 1 if BLIND_BID_BASE <= action < ZERO else 0


def action_text(action: int) -> str:
    """Canonical text of an action (ValueError for a number that is no action)."""
    if 0 <= action < NUM_CARDS:
        return card_str(action)
    if BID_BASE <= action <= BID_BASE + MAX_BID:
        bid = action - BID_BASE
        return "nil" if bid == 0 else str(bid)
    if blind_bid_of(action):
        return f"blind{blind_bid_of(action)}"
    word = _WORDS.get(action)
    if word is None:
        raise ValueError(f"no such action: {action}")
    return word


def action_label(action: int, *, symbols: bool = True) -> str:
    """Text for people: ``Q♠``, ``10♥``, ``bid 4``, ``nil``, ``zero``, ``keep``, ``double nil``."""
    if 0 <= action < NUM_CARDS:
        return card_label(action, symbols=symbols)
    if BID_BASE <= action <= BID_BASE + MAX_BID:
        bid = action - BID_BASE
        return "nil" if bid == 0 else f"bid {bid}"
    if action == BLIND:
        return "double nil"
    if action == NO_BLIND:
        return "no double nil"
    if blind_bid_of(action):
        return f"blind {blind_bid_of(action)}"
    return action_text(action)
