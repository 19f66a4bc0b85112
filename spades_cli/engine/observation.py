"""The public records of a game: a finished trick, a scored hand, and what one seat may
know (its observation). Plain values, safe to hand to bots and other programs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from spades_cli.engine.phases import Phase
from spades_cli.engine.scoring import SideResult


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
