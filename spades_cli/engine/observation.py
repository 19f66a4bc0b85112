"""The public records of a game: a finished trick, a scored hand, and what one seat may
know (its observation). Plain values, safe to hand to bots and other programs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, NamedTuple, Protocol

from spades_cli.engine.cards import cards_in
from spades_cli.engine.phases import Phase
from spades_cli.engine.scoring import SideResult

if TYPE_CHECKING:
    from spades_cli.engine._native import i64  # a machine word once compiled (see there)

# A finished trick's winner in a state's packed winners of the hand (seats 0..3: two bits
# a trick; a hand has fewer than 28 tricks, so they fit one machine word).
WINNER_BITS: Final = 2
_WINNER_MASK: Final = (1 << WINNER_BITS) - 1
# The phases in which every seat has looked at its cards.
_LOOKED: Final = (Phase.BID, Phase.PLAY, Phase.EXCHANGE, Phase.DRAW, Phase.PASS, Phase.DISCARD)


class Trick(NamedTuple):
    leader: int
    cards: tuple[int, ...]  # in the order played, starting with the leader's card
    winner: int

    def seat_of(self, index: int, players: int) -> int:
        return (self.leader + index) % players


class HandResult(NamedTuple):
    """Everything public about a finished hand."""

    hand_no: int
    dealer: int
    bids: tuple[int, ...]  # per seat; 0 = nil
    blind: tuple[bool, ...]  # per seat: declared blind / double nil
    tricks: tuple[int, ...]  # tricks taken per seat
    sides: tuple[SideResult, ...]  # per side (Rules.sides: 2 partnerships, else one a seat)
    zero: tuple[bool, ...] = ()  # per seat: a bid of 0 made as zero, not nil (R-NV-4; () none)

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(side.score for side in self.sides)


@dataclass(frozen=True, slots=True)
class Observation:
    """What one seat may know (nothing of another seat's hidden cards)."""

    seat: int
    players: int
    phase: Phase
    hand_no: int
    dealer: int
    current: int  # seat on turn (CHANCE / TERMINAL for none)
    looked: bool  # False while a seat deciding on blind nil has not seen its cards
    hand: tuple[int, ...]
    draft_card: int | None  # 2P: the card this seat just drew and must keep or discard
    own_discards: tuple[int, ...]  # 2P: the cards this seat put in the discard pile
    exchanged: tuple[int, ...]  # per seat: cards swapped in the exchange (public count)
    declared: tuple[bool, ...]  # per seat: double / blind nil declared
    bids: tuple[int | None, ...]  # per seat, None = not yet
    tricks: tuple[Trick, ...]  # finished tricks of this hand
    current_trick: tuple[int, ...]  # cards played to the trick in progress
    leader: int  # leader of the trick in progress
    tricks_won: tuple[int, ...]
    spades_broken: bool
    scores: tuple[int, ...]  # per side (Rules.sides)
    bags: tuple[int, ...]
    results: tuple[HandResult, ...]  # earlier hands
    legal: tuple[int, ...]  # legal actions if this seat is on turn
    zero: tuple[bool, ...] = ()  # per seat: a bid of 0 made as zero, not nil (R-NV-4; () none)


def zero_at(zero: tuple[bool, ...], seat: int) -> bool:
    """R-NV-4: did ``seat`` bid zero (not nil), by an observation's or a result's ``zero``?"""
    return seat < len(zero) and zero[seat]


def hand_tricks(leader: int, cards: list[int], at: int, n: int, count: int, winners: i64) -> list[Trick]:
    """The ``count`` finished tricks of a hand: ``leader`` led the first, ``cards[at:]``
    holds their cards in the order played (``n`` a trick) and ``winners`` each trick's
    winner, WINNER_BITS a trick."""
    out = []
    for i in range(count):
        shift: i64 = i * WINNER_BITS
        winner = winners >> shift & _WINNER_MASK
        start = at + i * n
        out.append(Trick(leader, tuple(cards[start : start + n]), winner))
        leader = winner
    return out


class Observed(Protocol):
    """What :func:`observe` reads of a :class:`~spades_cli.engine.state.State`."""

    n: int
    hand_no: int
    dealer: int
    current: int
    bids: list[int]
    blind: list[bool]
    zero: list[bool]
    leader: int
    tricks_won: list[int]
    broken: bool
    _decided: tuple[bool, ...]
    _own_discards: list[int]
    _exchanged: list[int]

    @property
    def phase(self) -> Phase: ...
    @property
    def tricks(self) -> list[Trick]: ...
    @property
    def trick(self) -> list[int]: ...
    @property
    def scores(self) -> list[int]: ...
    @property
    def bags(self) -> list[int]: ...
    @property
    def results(self) -> list[HandResult]: ...
    def hand_of(self, seat: int) -> list[int]: ...
    def draft_card(self) -> int | None: ...
    def legal_actions(self, seat: int | None = None) -> tuple[int, ...]: ...


def observe(st: Observed, seat: int) -> Observation:
    """What ``seat`` may know of the state ``st`` now: its own cards, public play, its own discards."""
    phase = st.phase
    looked = st._decided[seat] or phase in _LOOKED
    on_turn = st.current == seat
    return Observation(
        seat=seat,
        players=st.n,
        phase=phase,
        hand_no=st.hand_no,
        dealer=st.dealer,
        current=st.current,
        looked=looked,
        hand=tuple(st.hand_of(seat)) if looked else (),
        draft_card=st.draft_card() if on_turn else None,
        own_discards=tuple(cards_in(st._own_discards[seat])),
        exchanged=tuple(st._exchanged),
        declared=tuple(st.blind),
        bids=tuple(None if b < 0 else b for b in st.bids),
        tricks=tuple(st.tricks),
        current_trick=tuple(st.trick),
        leader=st.leader,
        tricks_won=tuple(st.tricks_won),
        spades_broken=st.broken,
        scores=tuple(st.scores),
        bags=tuple(st.bags),
        results=tuple(st.results),
        legal=tuple(st.legal_actions()) if on_turn else (),
        zero=tuple(st.zero) if any(z for z in st.zero) else (),
    )
