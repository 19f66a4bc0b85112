"""Which card a bot passes in the blind-nil partner exchange (R-BN-4).

The blind nil bidder passes its most dangerous card each time: its highest trump (a joker
or spade, R-J-1) while it has one, else its highest card. Its partner, who now holds those,
passes back its lowest card outside trumps (its lowest trump only when it has nothing
else), cards that cannot win a trick the nil bidder would take."""

from __future__ import annotations

from spades_cli.bots.view import ranks_of
from spades_cli.engine import Observation, Rules
from spades_cli.engine.cards import SPADES, is_card
from spades_cli.engine.plan import plan_for


def pass_choice(obs: Observation, rules: Rules) -> tuple[int, str]:
    """R-BN-4: the card ``obs.seat`` passes to its partner, and why."""
    order = plan_for(rules).order
    rank = ranks_of(order)
    cards = [a for a in obs.legal if is_card(a)]
    seat = obs.seat

    def weight(card: int) -> tuple[bool, int, int]:
        return order.suit[card] == SPADES, rank[card], card

    if obs.declared[seat] and obs.bids[seat] == 0:
        return max(cards, key=weight), "a blind nil passes its highest card"
    return min(cards, key=weight), "passes its lowest card back to the blind nil"
