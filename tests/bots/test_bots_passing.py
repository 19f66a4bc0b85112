"""R-BN-4: the bots in the blind-nil partner exchange: every level passes a card of its
hand (never ``done``); the blind nil passes its highest spades first, the partner its
lowest cards outside spades back."""

from __future__ import annotations

import random

import pytest
from helpers.engine import E, N, S, W, cards, deck_4p, labels

from spades_cli.bots import LEVELS, make_bot
from spades_cli.engine import BID, BID_BASE, BLIND, DECLARE, NO_BLIND, PASS, State
from spades_cli.presets import load_rules

RULES = load_rules(
    "four-player", ["blind_nil.enabled=true", "blind_nil.behind_by=null", "blind_nil.pass_cards=2"]
)
NORTH = cards("AS QS 3S AH KH 2H 3H 4H 5H 6H 7H 8H 9H")
SOUTH = cards("KS 2S 4S AD KD 2C 3C 4C 5C 6C 7C 8C 9C")


def passing(hands: dict[int, list[int]] | None = None) -> State:
    """W deals; N bids blind nil, E, S and W bid 3: N is on turn to pass."""
    state = State(RULES, W)
    state.deal(deck_4p(W, hands or {N: NORTH, S: SOUTH}))
    while state.phase == DECLARE:
        state.apply(BLIND if state.current_player() == N else NO_BLIND)
    while state.phase == BID:
        state.apply(BID_BASE + 3)
    assert state.phase == PASS
    return state


def test_r_bn_4_normal_passes_high_spades_and_gets_low_cards_back() -> None:
    """R-BN-4: N passes AS then QS (its highest spades); S passes 2C and 3C back."""
    state = passing()
    bot = make_bot("normal")
    moved = []
    while state.phase == PASS:
        card = bot.act(state.observation(state.current_player()), RULES, random.Random(1))
        moved.append(card)
        state.apply(card)
    assert labels(moved) == ["AS", "QS", "2C", "3C"]
    assert labels(state.hand_of(N)) == labels(sorted(cards("3S AH KH 2H 3H 4H 5H 6H 7H 8H 9H 2C 3C")))


@pytest.mark.parametrize("level", LEVELS)
def test_r_bn_4_every_level_passes_a_card_of_its_hand(level: str) -> None:
    """R-BN-4: at every level, a few deals: each pass is a card the seat holds."""
    bot = make_bot(level)
    for seed in range(3):
        deck = list(range(52))
        random.Random(seed).shuffle(deck)
        state = passing({s: deck[s * 13 : (s + 1) * 13] for s in (N, E, S, W)})
        while state.phase == PASS:
            seat = state.current_player()
            card = bot.act(state.observation(seat), RULES, random.Random(seed))
            assert card in state.hand_of(seat)
            state.apply(card)
