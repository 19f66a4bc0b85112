"""What a seat can work out from its observation alone: shared by every bot level.

Everything here is derived from an :class:`~spades_cli.engine.Observation` (never from
the engine's State): the cards played so far, which seats have shown a void, who is
winning the trick in progress, the cards whose place this seat does not know.
"""

from __future__ import annotations

from dataclasses import dataclass

from spades_cli.engine import BID_BASE, ZERO, Observation, Rules, zero_at
from spades_cli.engine.cards import SPADES, mask_of
from spades_cli.engine.plan import plan_for
from spades_cli.engine.play import CardOrder, beats

# Each order's ranks, with the order itself so that an id is never read for another object.
_RANKS: dict[int, tuple[CardOrder, tuple[int, ...]]] = {}


def ranks_of(order: CardOrder) -> tuple[int, ...]:
    """Each card's rank within its suit under ``order``: how many cards of its suit it
    beats (R-C-4). In a suit of the ordinary 13 cards this is ``c % 13``; a joker or a
    promoted deuce ranks above the ace of spades (R-J-1, R-J-8)."""
    got = _RANKS.get(id(order))
    if got is not None and got[0] is order:
        return got[1]
    ranks = tuple(
        (order.suit_mask[c] & ~order.beaten_by[c] & ~(1 << c)).bit_count() for c in range(len(order.suit))
    )
    _RANKS[id(order)] = (order, ranks)
    return ranks


def _rank_key(c: int, order: CardOrder | None) -> tuple[int, bool]:
    if order is None:
        return (c % 13, c // 13 == SPADES)
    return (ranks_of(order)[c], order.trump >> c & 1 == 1)


def low_card(cards: list[int] | tuple[int, ...], order: CardOrder | None = None) -> int:
    """The lowest card by rank, preferring a non-spade at equal rank (``order``: the
    rules' order of the cards, the ordinary one when None)."""
    return min(cards, key=lambda c: _rank_key(c, order))


def high_card(cards: list[int] | tuple[int, ...], order: CardOrder | None = None) -> int:
    return max(cards, key=lambda c: _rank_key(c, order))


def bid_of(action: int) -> int:
    """The number a bid action bids (R-NV-4: a zero bids 0, as a nil does)."""
    return 0 if action == ZERO else action - BID_BASE


@dataclass(slots=True)
class TableView:
    """A seat's reading of the table, computed from its observation."""

    obs: Observation
    rules: Rules
    seat: int
    n: int
    partner: int  # -1 in the two-player game
    side: int
    hand: int  # mask
    played: int  # every card played this hand, the trick in progress included
    voids: list[int]  # per seat: bit s set when that seat has shown it holds no suit s
    trick: list[tuple[int, int]]  # trick in progress as (seat, card)
    win_seat: int  # seat winning the trick in progress (-1 when it is empty)
    win_card: int
    unknown: int  # cards whose holder this seat does not know
    maybe_drawn: int  # 2P: own discards the opponent may have drawn in an exchange

    @property
    def order(self) -> CardOrder:
        """The rules' order of the cards: ``order.suit[c]`` is the suit a card follows as
        (a joker or JJDD's 2 of diamonds is a spade), ``order.trump`` the trumps."""
        return plan_for(self.rules).order

    @property
    def rank(self) -> tuple[int, ...]:
        """Each card's rank within its suit (``ranks_of``)."""
        return ranks_of(plan_for(self.rules).order)

    @property
    def led_suit(self) -> int:
        return plan_for(self.rules).order.suit[self.trick[0][1]] if self.trick else -1

    @property
    def position(self) -> int:
        """0 when leading, 1 second to play, ... n-1 last."""
        return len(self.trick)

    def seats_after(self) -> list[int]:
        """Seats still to play to this trick after this seat."""
        return [(self.seat + k) % self.n for k in range(1, self.n - len(self.trick))]

    def beats(self, card: int, best: int) -> bool:
        """R-C-4 under these rules' order of the cards (engine/play.py)."""
        return beats(card, best, plan_for(self.rules).order)

    def is_partner(self, seat: int) -> bool:
        return seat != self.seat and self.rules.side_of(seat) == self.rules.side_of(self.seat)

    def side_seats(self, side: int) -> tuple[int, ...]:
        return self.rules.side_seats(side)

    def is_nil(self, seat: int) -> bool:
        b = self.obs.bids[seat]
        return b is not None and self.rules.is_nil(b, self.obs.declared[seat], zero_at(self.obs.zero, seat))

    def contract(self, side: int) -> int:
        """The side's contract: the sum of its non-nil bids made so far."""
        total = 0
        for s in self.side_seats(side):
            b = self.obs.bids[s]
            if b is not None and not self.is_nil(s):
                total += b
        return total

    def side_tricks(self, side: int, *, with_nil: bool = False) -> int:
        """Tricks a side has taken toward its contract (a nil bidder's tricks excluded)."""
        total = 0
        for s in self.side_seats(side):
            if with_nil or not self.is_nil(s):
                total += self.obs.tricks_won[s]
        return total

    def tricks_left(self) -> int:
        return self.rules.hand_size - len(self.obs.tricks)

    def higher_outstanding(self, card: int) -> int:
        """Cards of the same suit above ``card`` that other seats may still hold."""
        order = plan_for(self.rules).order
        return (self.unknown & order.suit_mask[card] & order.beaten_by[card]).bit_count()

    def is_master(self, card: int) -> bool:
        """No unplayed card of its suit outside this hand beats it."""
        return self.higher_outstanding(card) == 0


def read_table(obs: Observation, rules: Rules) -> TableView:
    n = obs.players
    seat = obs.seat
    hand = mask_of(obs.hand)
    plan = plan_for(rules)
    suit = plan.order.suit  # each card's suit for following (the variant's trumps are spades)
    played = 0
    voids = [0] * n
    for t in obs.tricks:
        led = suit[t.cards[0]]
        for i, c in enumerate(t.cards):
            played |= 1 << c
            if suit[c] != led:
                voids[(t.leader + i) % n] |= 1 << led
    trick = [((obs.leader + i) % n, c) for i, c in enumerate(obs.current_trick)]
    win_seat, win_card = -1, -1
    if trick:
        led = suit[trick[0][1]]
        win_seat, win_card = trick[0]
        for s, c in trick:
            played |= 1 << c
            if suit[c] != led:
                voids[s] |= 1 << led
            if beats(c, win_card, plan.order):
                win_seat, win_card = s, c
    unknown = plan.deck_mask & ~hand & ~played
    maybe_drawn = 0
    own = mask_of(obs.own_discards)  # out of play (R-2P-2 the draft's, R-J-6 a deal's left over)
    if n == 2 and obs.exchanged[1 - seat]:
        # R-2P-3: an opponent who exchanged drew from the pile, maybe one of our discards.
        maybe_drawn = own & unknown
    unknown &= ~own
    # Only a failure to follow shows a void: a seat that discarded instead of trumping
    # may still hold spades (trumping is never compulsory, R-C-3).
    return TableView(
        obs=obs,
        rules=rules,
        seat=seat,
        n=n,
        partner=plan.partner[seat],
        side=rules.side_of(seat),
        hand=hand,
        played=played,
        voids=voids,
        trick=trick,
        win_seat=win_seat,
        win_card=win_card,
        unknown=unknown,
        maybe_drawn=maybe_drawn,
    )
