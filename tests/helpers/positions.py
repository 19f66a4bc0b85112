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
