"""Which card a bot lays aside from a hand holding the cards left over after the deal
(R-J-6), and the hand it bids on while it still holds them (R-J-7 (b)).

A seat that bid nil lays aside its most dangerous card: its highest trump (a joker or a
spade, R-J-1) while it has one, else its highest card. Any other seat keeps its trumps and
its kings and aces and lays aside the lowest card of its shortest other suit (one with no
king or ace first), the way to a void it can trump in; with nothing but trumps and high
cards left, its lowest card.
"""

from __future__ import annotations

import dataclasses

from spades_cli.bots.view import ranks_of
from spades_cli.engine import BID, Observation, Rules, zero_at
from spades_cli.engine.cards import SPADES, is_card
from spades_cli.engine.plan import plan_for

_HIGH = 11  # a side card's rank from the king up (c % 13: K = 11, A = 12)


def discard_choice(obs: Observation, rules: Rules) -> tuple[int, str]:
    """R-J-6: the card ``obs.seat`` lays aside now, and why."""
    order = plan_for(rules).order
    rank = ranks_of(order)
    cards = [a for a in obs.legal if is_card(a)]
    seat = obs.seat
    bid = obs.bids[seat]
    if bid is not None and rules.is_nil(bid, obs.declared[seat], zero_at(obs.zero, seat)):
        card = max(cards, key=lambda c: (order.suit[c] == SPADES, rank[c], c))
        return card, "a nil lays aside its most dangerous card"
    length = [0, 0, 0, 0]
    guarded = [False, False, False, False]  # a suit with a king or an ace in it
    for c in obs.hand:
        length[order.suit[c]] += 1
        guarded[order.suit[c]] |= order.suit[c] != SPADES and c % 13 >= _HIGH
    side = [c for c in cards if order.suit[c] != SPADES and c % 13 < _HIGH]
    if not side:
        return min(cards, key=lambda c: (order.suit[c] == SPADES, rank[c], c)), "lays aside its lowest card"
    card = min(side, key=lambda c: (guarded[order.suit[c]], length[order.suit[c]], rank[c], c))
    return card, "lays aside a low card of its shortest suit"


def as_kept(obs: Observation, rules: Rules) -> Observation:
    """R-J-7 (b): a bidding seat that still holds the cards left over, seen as it will be
    once it has laid aside the cards :func:`discard_choice` picks (the bids it may make
    are unchanged); any other observation as it is."""
    extra = len(obs.hand) - rules.hand_size
    if extra <= 0 or obs.phase != BID:
        return obs
    hand = list(obs.hand)
    gone: list[int] = []
    for _ in range(extra):
        now = dataclasses.replace(obs, hand=tuple(hand), legal=tuple(hand))
        card = discard_choice(now, rules)[0]
        hand.remove(card)
        gone.append(card)
    return dataclasses.replace(obs, hand=tuple(hand), own_discards=tuple(sorted(gone)))
