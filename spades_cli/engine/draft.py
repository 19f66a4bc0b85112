"""The two-player draft and the double-nil exchange (R-2P-2, R-2P-3), for the state's
``DRAFT``, ``EXCHANGE`` and ``DRAW`` phases.

Cold code kept out of ``state.py``: each function takes the state (seen through
:class:`DraftTable`, the fields it reads and writes) and moves it on. ``state.py`` keeps
one-line methods that call these, so its hot paths never change for them.
"""

from __future__ import annotations

from typing import Final, Protocol

from spades_cli.engine.phases import Phase
from spades_cli.engine.rules import Rules

CHANCE: Final = -1  # the state's ``current`` at a chance node (a card drawn)

_DECLARE: Final = int(Phase.DECLARE)
_DRAFT: Final = int(Phase.DRAFT)
_EXCHANGE: Final = int(Phase.EXCHANGE)
_DRAW: Final = int(Phase.DRAW)


class DraftTable(Protocol):
    """The fields of a :class:`~spades_cli.engine.state.State` the draft and the exchange use."""

    rules: Rules
    dealer: int
    current: int
    blind: list[bool]
    _phase: int
    _deck: tuple[int, ...] | None
    _pile_pos: int
    _draft_turn: int
    _discard_pile: int
    _own_discards: list[int]
    _decided: list[bool]
    _exchanged: list[int]
    _exch_queue: list[int]
    _exch_seat: int
    _exch_count: int
    _exch_given: int

    def _hand(self, seat: int) -> int: ...
    def _put_hand(self, seat: int, mask: int) -> None: ...
    def _may_declare(self, seat: int) -> bool: ...
    def _begin_bidding(self) -> None: ...


def draft(st: DraftTable, keep: bool) -> None:
    """R-2P-2: the seat on turn keeps the card it drew (the next goes to the discard pile)
    or discards it (and keeps the next)."""
    seat = st.current
    deck = st._deck
    assert deck is not None
    top, nxt = deck[st._pile_pos], deck[st._pile_pos + 1]
    kept, gone = (top, nxt) if keep else (nxt, top)
    st._put_hand(seat, st._hand(seat) | 1 << kept)
    st._own_discards[seat] |= 1 << gone
    st._discard_pile |= 1 << gone
    st._pile_pos += 2
    st._draft_turn += 1
    next_draft_turn(st)


def next_draft_turn(st: DraftTable) -> None:
    """The next draft decision (a double-nil declaration first, R-2P-3), or after the
    26th the exchanges of the seats that declared."""
    if st._draft_turn == 26:
        ex = st.rules.blind_nil.exchange
        st._exch_queue = [s for s in ((st.dealer + 1) % 2, st.dealer) if st.blind[s] and ex > 0]
        next_exchanger(st)
        return
    seat = (st.dealer + st._draft_turn) % 2
    st.current = seat
    if st._draft_turn < 2 and st.rules.blind_nil.enabled and st._may_declare(seat):
        st._phase = _DECLARE
    else:
        st._decided[seat] = True
        st._phase = _DRAFT


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
