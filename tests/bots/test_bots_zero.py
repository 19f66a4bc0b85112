"""R-NV-4: the bots and the zero that is not nil (``nil.zero``): legal at every level, bid
by the normal bot where it is the sensible bid, never where it is not offered."""

from __future__ import annotations

import random

import pytest
from helpers.engine import N, W, cards, deal_hands

from spades_cli.bots import LEVELS, make_bot
from spades_cli.engine import BID, BID_BASE, ZERO
from spades_cli.presets import load_rules

# No spade, and tricks a nil could not dodge (two aces and two kings).
STRONG_WITHOUT_SPADES = cards("AH KH AD KD 2C 3C 4C 5C 6C 7C 8C 9C TC")


def test_r_nv_4_a_mirror_hand_without_spades_bids_zero_not_a_doomed_nil() -> None:
    """R-NV-4, R-M-3: in Mirror with zero offered a seat without spades bids 0; the normal
    bot, holding tricks, makes it a zero (which cannot fail), not a nil (-100 for them)."""
    rules = load_rules("mirror", overrides=["nil.zero=true"])
    state = deal_hands(rules, W, {N: STRONG_WITHOUT_SPADES})
    obs = state.observation(N)
    assert obs.legal == (BID_BASE, ZERO)
    action = make_bot("normal").act(obs, rules, random.Random(1))
    assert action == ZERO
    plain = load_rules("mirror")
    state = deal_hands(plain, W, {N: STRONG_WITHOUT_SPADES})
    assert make_bot("normal").act(state.observation(N), plain, random.Random(1)) == BID_BASE


@pytest.mark.parametrize("level", [lv for lv in LEVELS if lv not in ("hard", "expert")])
def test_r_nv_4_every_bid_is_legal_with_zero_offered(level: str) -> None:
    """R-NV-4: with zero offered every bot's bid of a few deals is one of the legal bids."""
    rules = load_rules("four-player", overrides=["nil.zero=true"])
    bot = make_bot(level)
    for seed in range(6):
        state = deal_hands(rules, W, {N: STRONG_WITHOUT_SPADES} if seed % 2 else {})
        while state.phase == BID:
            obs = state.observation(state.current_player())
            action = bot.act(obs, rules, random.Random(seed))
            assert action in obs.legal
            state.apply(action)
