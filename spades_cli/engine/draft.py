"""The double-nil exchange that may follow the two-player draft (R-2P-3), for the
state's ``EXCHANGE`` and ``DRAW`` phases.

Cold code kept out of ``state.py``: each function takes the state (seen through
:class:`DraftTable`, the fields it reads and writes) and moves it on. The draft's own
decisions (R-2P-2, 26 a hand) stay in ``state.py``: reaching a compiled state's fields
through this protocol cost the two-player game a third of its speed.
"""

from __future__ import annotations

from typing import Final, Protocol

from spades_cli.engine.phases import Phase
from spades_cli.engine.rules import Rules

CHANCE: Final = -1  # the state's ``current`` at a chance node (a card drawn)

_EXCHANGE: Final = int(Phase.EXCHANGE)
_DRAW: Final = int(Phase.DRAW)


class DraftTable(Protocol):
    """The fields of a :class:`~spades_cli.engine.state.State` the draft and the exchange use."""

    rules: Rules
    dealer: int
    current: int
    blind: list[bool]
    _phase: int
    _discard_pile: int
    _own_discards: list[int]
    _exchanged: list[int]
    _exch_queue: list[int]
    _exch_seat: int
    _exch_count: int
    _exch_given: int

    def _hand(self, seat: int) -> int: ...
    def _put_hand(self, seat: int, mask: int) -> None: ...
    def _begin_bidding(self) -> None: ...


def end_draft(st: DraftTable) -> None:
    """After the 26th draft decision: the exchanges of the seats that declared (R-2P-3)."""
    ex = st.rules.blind_nil.exchange
    st._exch_queue = [s for s in ((st.dealer + 1) % 2, st.dealer) if st.blind[s] and ex > 0]
    next_exchanger(st)


def next_exchanger(st: DraftTable) -> None:
    if st._exch_queue:
        st.current = st._exch_queue.pop(0)
        st._exch_count = 0
        st._exch_given = 0
        st._phase = _EXCHANGE
    else:
        st._begin_bidding()


def exchange(st: DraftTable, action: int, done: bool) -> None:
    """R-2P-3: the seat gives up ``action`` (a card) for a draw, or stops (``done``)."""
    seat = st.current
    if done:
        end_exchange(st, seat)
        return
    st._put_hand(seat, st._hand(seat) & ~(1 << action))
    st._exch_given |= 1 << action
    st._exch_count += 1
    st._exchanged[seat] += 1
    st._phase = _DRAW
    st._exch_seat = seat
    st.current = CHANCE


def draw(st: DraftTable, card: int) -> None:
    """R-2P-3: the chance draw of ``card`` from the discard pile for the exchanging seat."""
    seat = st._exch_seat
    bit = 1 << card
    st._put_hand(seat, st._hand(seat) | bit)
    st._discard_pile &= ~bit
    st._own_discards[seat] &= ~bit
    st.current = seat
    if st._exch_count >= st.rules.blind_nil.exchange:
        end_exchange(st, seat)
    else:
        st._phase = _EXCHANGE


def end_exchange(st: DraftTable, seat: int) -> None:
    # R-2P-3 decision: the cards given up join the discard pile afterwards.
    st._discard_pile |= st._exch_given
    st._own_discards[seat] |= st._exch_given
    st._exch_given = 0
    next_exchanger(st)
