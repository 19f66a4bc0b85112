"""The two-player double-nil exchange (R-2P-3), for the state's ``EXCHANGE`` and ``DRAW``
phases.

After the draft, each seat that declared double nil (the non-dealer first) may give up
cards one at a time, up to ``blind_nil.exchange``, each followed by a chance draw from the
discard pile; it may stop early (``EXCHANGE_DONE``). The cards given up join the discard
pile once the seat's exchange is over (an R-2P-3 decision), so that it never draws back a
card it gave up.

Cold code kept out of ``state.py``: the functions take the state seen through
:class:`ExchangeTable`.
"""

from __future__ import annotations

from typing import Final, Protocol

from spades_cli.engine.actions import EXCHANGE_DONE
from spades_cli.engine.phases import Phase
from spades_cli.engine.rules import Rules

_EXCHANGE: Final = int(Phase.EXCHANGE)
_DRAW: Final = int(Phase.DRAW)
_CHANCE: Final = -1  # (state.CHANCE: the seat to act at a chance node)


class ExchangeTable(Protocol):
    """The fields of a :class:`~spades_cli.engine.state.State` the exchange uses."""

    rules: Rules
    current: int
    _phase: int
    _discard_pile: int
    _own_discards: list[int]
    _exchanged: list[int]
    _exch_queue: tuple[int, ...]
    _exch_seat: int
    _exch_count: int
    _exch_given: int

    def _hand(self, seat: int) -> int: ...
    def _put_hand(self, seat: int, mask: int) -> None: ...
    def _begin_bidding(self) -> None: ...


def next_exchanger(st: ExchangeTable) -> None:
    """The next seat of ``_exch_queue`` begins its exchange; the bidding when none is left."""
    if st._exch_queue:
        st.current, st._phase = st._exch_queue[0], _EXCHANGE
        st._exch_queue = st._exch_queue[1:]
        st._exch_count = st._exch_given = 0
    else:
        st._begin_bidding()


def exchange(st: ExchangeTable, action: int) -> None:
    """R-2P-3: the seat gives up ``action`` (a card) for a draw, or stops."""
    seat = st.current
    if action == EXCHANGE_DONE:
        _end_exchange(st, seat)
        return
    st._put_hand(seat, st._hand(seat) & ~(1 << action))
    st._exch_given |= 1 << action
    st._exch_count += 1
    st._exchanged[seat] += 1
    st._phase, st._exch_seat, st.current = _DRAW, seat, _CHANCE


def draw(st: ExchangeTable, card: int) -> None:
    """R-2P-3: the chance draw of ``card`` from the discard pile for the exchanging seat."""
    seat, bit = st._exch_seat, 1 << card
    st._put_hand(seat, st._hand(seat) | bit)
    st._discard_pile &= ~bit
    st._own_discards[seat] &= ~bit
    st.current = seat
    if st._exch_count >= st.rules.blind_nil.exchange:
        _end_exchange(st, seat)
    else:
        st._phase = _EXCHANGE


def _end_exchange(st: ExchangeTable, seat: int) -> None:
    # R-2P-3 decision: the cards given up join the discard pile afterwards.
    st._discard_pile |= st._exch_given
    st._own_discards[seat] |= st._exch_given
    st._exch_given = 0
    next_exchanger(st)
