"""The cards left over after the deal, taken up and laid aside (R-J-6, R-J-7), for the
state's ``DISCARD`` phase.

With ``deck.discard`` = k, each seat is dealt the hand size one card at a time from the
dealer's left and the last k cards of the deck are left over. The dealer takes them up
(R-J-7 (a), ``deck.discard_to: two_of_clubs``: the holder of the two of clubs; the dealer
when the two of clubs is itself left over) and then, holding hand size + k cards, lays k of
them aside face down, one action per card: any card of the hand. The cards laid aside are
out of play for the hand; their owner knows them (the observation's ``own_discards``), the
other seats see only that cards were laid aside. The discard comes before the bidding, after
any declaration made before looking (R-BB-1, blind nil), or with ``deck.discard_after_bids``
(R-J-7 (b)) once every bid is made, before a blind nil's exchange (R-BN-4) and the lead.

Cold code kept out of ``state.py``: the functions take the state seen through
:class:`DiscardTable`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Protocol

from spades_cli.engine.cards import TWO_OF_CLUBS
from spades_cli.engine.phases import Phase
from spades_cli.engine.rules import Rules

_DISCARD: Final = int(Phase.DISCARD)


class DiscardTable(Protocol):
    """The fields of a :class:`~spades_cli.engine.state.State` the discard uses."""

    rules: Rules
    dealer: int
    current: int
    _phase: int
    _discarder: int
    _own_discards: list[int]

    def _hand(self, seat: int) -> int: ...
    def _put_hand(self, seat: int, mask: int) -> None: ...
    def _begin_bidding(self) -> None: ...
    def _end_bidding(self) -> None: ...


def taker(rules: Rules, dealer: int, hands: Sequence[int]) -> int:
    """R-J-6 / R-J-7 (a): the seat that takes up the cards left over, given the hands as
    dealt (without them)."""
    if rules.deck.discard_to == "two_of_clubs":
        for seat, hand in enumerate(hands):
            if hand >> TWO_OF_CLUBS & 1:
                return seat
    return dealer  # (also when the two of clubs is among the cards left over)


def take_left_over(st: DiscardTable, cards: Sequence[int]) -> None:
    """R-J-6: after the deal of ``cards`` (top first; every seat was dealt round the table,
    the cards left over too), take the last ``deck.discard`` cards back from the seats
    they fell to and give them to the taker, who must lay as many aside."""
    k = st.rules.deck.discard
    over = 0
    for c in cards[len(cards) - k :]:
        over |= 1 << c
    n = st.rules.players
    hands = [st._hand(s) & ~over for s in range(n)]
    seat = taker(st.rules, st.dealer, hands)
    hands[seat] |= over
    for s in range(n):
        st._put_hand(s, hands[s])
    st._discarder = seat


def begin_discard(st: DiscardTable, after_bids: bool) -> bool:
    """Start the discard if one is due at this point (before the bidding, or with
    ``after_bids`` at its end, R-J-7 (b)); False when there is none to make now."""
    seat = st._discarder
    if seat < 0 or st.rules.deck.discard_after_bids != after_bids:
        return False
    st._phase = _DISCARD
    st.current = seat
    return True


def discard(st: DiscardTable, card: int) -> None:
    """R-J-6: the seat on turn lays ``card`` aside face down; once it is back to the hand
    size, the bidding starts (or, after the bids, the hand goes on)."""
    seat = st.current
    hand = st._hand(seat) & ~(1 << card)
    st._put_hand(seat, hand)
    st._own_discards[seat] |= 1 << card
    if hand.bit_count() > st.rules.hand_size:
        return
    st._discarder = -1
    if st.rules.deck.discard_after_bids:
        st._end_bidding()
    else:
        st._begin_bidding()
