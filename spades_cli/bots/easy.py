"""The ``easy`` bot: legal, casual, beatable by a beginner.

It bids a rough count of its high cards, never bids nil or double nil, keeps high
cards in the draft, and plays simply: win the trick cheaply if it can with the suit
led, otherwise throw its lowest card. A little randomness (from the seat's seeded
generator) keeps it from being perfectly predictable.
"""

from __future__ import annotations

import random

from spades_cli.bots.discard import discard_choice
from spades_cli.bots.hand import sure_tricks
from spades_cli.bots.passing import pass_choice
from spades_cli.bots.view import high_card, low_card, ranks_of, read_table
from spades_cli.engine import (
    BID,
    BID_BASE,
    DECLARE,
    DISCARD,
    DISCARD_PHASE,
    DRAFT,
    EXCHANGE,
    EXCHANGE_DONE,
    KEEP,
    MAX_BID,
    NO_BLIND,
    PASS,
    PLAY,
    Observation,
    Rules,
)
from spades_cli.engine.cards import SPADES, is_card, mask_of
from spades_cli.engine.plan import plan_for
from spades_cli.engine.play import beats


class EasyBot:
    level = "easy"

    def act(self, obs: Observation, rules: Rules, rng: random.Random) -> int:
        return self.explain(obs, rules, rng)[0]

    def explain(self, obs: Observation, rules: Rules, rng: random.Random) -> tuple[int, str]:
        legal = obs.legal
        if not legal:
            raise ValueError("the bot was asked to act when its seat has no legal action")
        phase = obs.phase
        if phase == DECLARE and NO_BLIND in legal:
            return NO_BLIND, "never risks a double nil"
        if phase == DRAFT and obs.draft_card is not None:
            card = obs.draft_card
            if card % 13 >= 9 or card // 13 == SPADES:
                return KEEP, "keeps a high card or a spade"
            return DISCARD, "lets a low card go"
        if phase == EXCHANGE:
            cards = [a for a in legal if is_card(a)]
            if cards and high_card(cards) % 13 >= 8:
                return high_card(cards), "gives up its highest card"
            return EXCHANGE_DONE, "keeps the rest"
        if phase == PASS:
            return pass_choice(obs, rules)  # R-BN-4
        if phase == DISCARD_PHASE:
            return discard_choice(obs, rules)  # R-J-6
        if phase == BID:
            return _rough_bid(obs, rules, legal, rng)
        if phase == PLAY:
            return _simple_play(obs, rules, legal)
        return legal[0], "the only kind of move here"


def _rough_bid(obs: Observation, rules: Rules, legal: tuple[int, ...], rng: random.Random) -> tuple[int, str]:
    hand = obs.hand
    order = plan_for(rules).order
    rank = ranks_of(order)
    # A beginner's count: every ace, king and queen is a trick, plus long spades (a joker
    # counts as a card above the ace of spades, R-J-1).
    estimate = sum(1 for c in hand if rank[c] >= 10)
    estimate += max(0, sum(1 for c in hand if order.suit[c] == SPADES) - 3)
    estimate += rng.choice((-1, 0, 0, 1))
    # Even a beginner notices when the partner's bid and the opponents' leave few tricks.
    if obs.players == 4:
        said = sum(b for b in obs.bids if b is not None)
        estimate = min(estimate, rules.hand_size - said)
    # Not even a beginner bids below the top spades it holds (``hand.sure_tricks``).
    estimate = max(1, estimate, sure_tricks(mask_of(hand)))
    bids = [a - BID_BASE for a in legal if BID_BASE <= a <= BID_BASE + MAX_BID]
    non_nil = [b for b in bids if b > 0] or bids
    best = min(non_nil, key=lambda b: (abs(b - estimate), b))
    return BID_BASE + best, f"counts its aces, kings, queens and long spades: about {best}"


def _simple_play(obs: Observation, rules: Rules, legal: tuple[int, ...]) -> tuple[int, str]:
    view = read_table(obs, rules)
    cards = list(legal)
    if not view.trick:
        non_spades = [c for c in cards if view.order.suit[c] != SPADES]
        pool = non_spades or cards
        return high_card(pool, view.order), "leads its highest card"
    winners = [c for c in cards if beats(c, view.win_card, plan_for(rules).order)]
    following = [c for c in winners if view.order.suit[c] == view.led_suit]
    if following and not view.is_partner(view.win_seat):
        return low_card(following, view.order), "wins the trick as cheaply as it can"
    return low_card(cards, view.order), "throws its lowest card"
