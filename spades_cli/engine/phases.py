"""The phases of a hand, as an ``IntEnum``.

Kept apart from ``state.py`` so that the compiled engine compares plain integers on its
hot paths while everyone else sees (and compares against) the enum members. A phase
prints as its lowercase name: ``f"{Phase.PLAY}"`` is ``play``.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final


class Phase(IntEnum):
    DEAL = 0  # a chance node: the shuffle (R-4P-3, R-2P-2)
    DECLARE = 1  # double / blind nil or a blind bid declared, or not, before looking (R-2P-3, R-BB-1)
    DRAFT = 2  # 2P: keep or discard the card drawn (R-2P-2)
    EXCHANGE = 3  # 2P double nil: give up a card or stop (R-2P-3)
    DRAW = 4  # a chance node: the card drawn from the discard pile (R-2P-3)
    BID = 5  # R-C-7, R-4P-4, R-2P-4
    PLAY = 6  # R-C-3 .. R-C-6
    OVER = 7  # the game is over (R-C-11)
    PASS = 8  # after the bids: a blind nil and its partner pass cards (R-BN-4)
    DISCARD = 9  # the cards left over taken up, as many laid aside face down (R-J-6, R-J-7)

    def __str__(self) -> str:
        return self.name.lower()

    def __format__(self, spec: str) -> str:
        return format(self.name.lower(), spec)


PHASES: Final = tuple(Phase)  # PHASES[int(phase)] is the member

DEAL: Final = Phase.DEAL
DECLARE: Final = Phase.DECLARE
DRAFT: Final = Phase.DRAFT
EXCHANGE: Final = Phase.EXCHANGE
DRAW: Final = Phase.DRAW
BID: Final = Phase.BID
PLAY: Final = Phase.PLAY
OVER: Final = Phase.OVER
PASS: Final = Phase.PASS
DISCARD_PHASE: Final = Phase.DISCARD  # (``DISCARD`` is the draft's action, engine/actions.py)

# The phases whose action is a card of the hand of the seat on turn: played, given up in
# an exchange (or ``done``), passed to a partner, laid aside.
HAND_CARD_PHASES: Final = frozenset({PLAY, EXCHANGE, PASS, DISCARD_PHASE})
# Those, and the chance draw of an exchange: every phase whose action is written as a card.
CARD_PHASES: Final = HAND_CARD_PHASES | {DRAW}
