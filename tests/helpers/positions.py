"""Builders for the bot tests (no tests here): real engine states with chosen hands."""

from __future__ import annotations

import random

from helpers.engine import W, cards
from spades_cli.engine import (
    BID_BASE,
    CHANCE,
    DEAL,
    PLAY,
    Rules,
    State,
    deck_for,
)


def deal_4p(
    rules: Rules,
    dealer: int,
    hands: dict[int, str],
    scores: tuple[int, int] = (0, 0),
    bags: tuple[int, int] = (0, 0),
) -> State:
    """A four-player state just dealt, each seat holding exactly the 13 cards given (with
    the running totals given)."""
    full = {s: cards(t) for s, t in hands.items()}
    assert sorted(c for h in full.values() for c in h) == list(range(52)), "hands must be the whole deck"
    deck = [0] * 52
    for k in range(4):
        deck[k::4] = full[(dealer + 1 + k) % 4]
    state = State(rules, dealer, scores=scores, bags=bags)
    state.deal(deck)
    return state


def position_4p(
    rules: Rules,
    hands: dict[int, str],
    bids: dict[int, int],
    plays: str = "",
    *,
    dealer: int = W,
    scores: tuple[int, int] = (0, 0),
    bags: tuple[int, int] = (0, 0),
) -> State:
    """Deal, bid in turn (from ``bids`` per seat, stopping at the first seat not given),
    then play ``plays`` in turn.

    ``scores`` and ``bags`` set the running totals as if earlier hands had been played.
    """
    state = deal_4p(rules, dealer, hands, scores, bags)
    while state.phase != PLAY and state.current_player() in bids:
        state.apply(BID_BASE + bids[state.current_player()])
    for c in cards(plays):
        state.apply(c)
    return state


def random_position(rules: Rules, seed: int, actions: int) -> State:
    """A game advanced ``actions`` random legal actions from a seeded deal."""
    rng = random.Random(seed)
    state = State(rules, seed % rules.players)
    done = 0
    while not state.is_terminal() and done < actions:
        if state.current_player() == CHANCE:
            if state.phase == DEAL:
                state.deal(deck_for(seed, state.hand_no))
            else:
                state.apply(rng.choice(state.legal_actions()))
            continue
        state.apply(rng.choice(state.legal_actions()))
        done += 1
    return state


# The first hand of seed 108 as the normal bot played it (before its card play changed
# in issue 31), to the 44th card: East to play, two tricks left (the solver and the
# analysis tests work this position by hand).
HAND_108 = {
    0: "4C 7C 9C QC AC 3D JD 2H 7H 5S 7S TS KS",
    1: "3C 6C 8C JC 6D 9D 5H 6H 8H 2S 9S JS QS",
    2: "2C 5C 7D 8D TD QD KD AD QH 4S 6S 8S AS",
    3: "TC KC 2D 4D 5D 3H 4H 9H TH JH KH AH 3S",
}
PLAYS_108 = (
    "3C 2C KC AC QC 6C 5C TC 4C JC 4S 2D QD 4D 3D 6D AS 3S 5S 2S 7D 5D JD 9D "
    "2H 5H QH KH 3H 7H 6H AD KS 9S 6S 4H 7C 8C 8S 9H 8D TH 7S JS"
)


def hand_108(rules: Rules) -> State:
    """Seed 108's first hand, two tricks from its end, East to play (``HAND_108``)."""
    return position_4p(rules, HAND_108, {1: 2, 2: 4, 3: 2, 0: 2}, PLAYS_108, dealer=0)
