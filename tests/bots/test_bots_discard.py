"""R-J-6 / R-J-7: the bots and the cards left over: every level lays aside cards of its own
hand; a nil lays aside its most dangerous cards, anyone else keeps trumps and high cards; a
seat bidding before its discard bids on the cards it will keep; the search bots' sampled
deals leave the cards laid aside out of play (known to their owner only)."""

from __future__ import annotations

import random

import pytest
from helpers.engine import E, N, S, W, cards, labels

from spades_cli.app.setup import make_controller
from spades_cli.bots import LEVELS, make_bot
from spades_cli.bots.determinize import sample_worlds
from spades_cli.bots.discard import as_kept, discard_choice
from spades_cli.bots.view import read_table
from spades_cli.engine import BID, BID_BASE, DISCARD_PHASE, PLAY, State
from spades_cli.engine.cards import mask_of
from spades_cli.game.match import Match
from spades_cli.game.run import GameRun
from spades_cli.presets import load_rules

RULES = load_rules("jokers-discard")
AFTER = load_rules("jokers-discard", ["deck.discard_after_bids=true"])


def dealt(rules: object, south: list[int], seed: int = 0) -> State:
    """S deals; S holds ``south`` (fifteen cards: its thirteen and the two left over)."""
    assert len(south) == 15
    rest = [c for c in RULES.deck_cards if c not in south]
    random.Random(seed).shuffle(rest)
    hands = {W: rest[0:13], N: rest[13:26], E: rest[26:39], S: south[:13]}
    deck = [0] * 52
    for k, seat in enumerate((W, N, E, S)):
        deck[k::4] = hands[seat]
    state = State(rules, S)  # type: ignore[arg-type]
    state.deal(deck + south[13:])
    return state


SOUTH = cards("BJ AS KS 5S AH 7H 3H KD 9D 8D 4D 2D 6C 4C") + cards("TC")


def test_r_j_6_normal_keeps_trumps_and_heads_for_a_void() -> None:
    """R-J-6: S (no bid yet) lays aside 4C then 6C: clubs, its shortest suit with no king
    or ace (hearts, as short, keeps AH guarded), lowest first; trumps and high cards stay."""
    state = dealt(RULES, SOUTH)
    bot = make_bot("normal")
    laid = []
    while state.phase == DISCARD_PHASE:
        card = bot.act(state.observation(S), RULES, random.Random(1))
        laid.append(card)
        state.apply(card)
    assert labels(laid) == ["4C", "6C"]
    assert state.phase == BID and {"BJ", "AS", "KS", "AH", "KD"} <= set(labels(state.hand_of(S)))


def test_r_j_7_b_a_nil_lays_aside_its_most_dangerous_cards() -> None:
    """R-J-7 (b): after the bids S, who bid nil, lays aside BJ and then AS."""
    state = dealt(AFTER, SOUTH)
    while state.phase == BID:
        state.apply(BID_BASE + (0 if state.current_player() == S else 3))
    assert state.phase == DISCARD_PHASE
    laid = []
    while state.phase == DISCARD_PHASE:
        card, _why = discard_choice(state.observation(S), AFTER)
        laid.append(card)
        state.apply(card)
    assert labels(laid) == ["BJ", "AS"] and state.phase == PLAY


def test_r_j_7_b_a_bid_before_the_discard_is_made_on_the_cards_kept() -> None:
    """R-J-7 (b): S, bidding on fifteen, is seen as holding the thirteen it will keep, the
    two it will lay aside known to it as out of play."""
    state = dealt(AFTER, SOUTH)
    while state.current_player() != S:
        state.apply(BID_BASE + 3)
    obs = state.observation(S)
    kept = as_kept(obs, AFTER)
    assert len(obs.hand) == 15 and len(kept.hand) == 13
    assert labels(kept.own_discards) == ["4C", "6C"] and kept.legal == obs.legal
    assert as_kept(kept, AFTER) is kept


@pytest.mark.parametrize(
    "level", [pytest.param(x, marks=pytest.mark.slow) if x in ("hard", "expert") else x for x in LEVELS]
)
@pytest.mark.parametrize("rules", [RULES, AFTER], ids=["before", "after"])
def test_r_j_6_every_level_plays_a_hand_with_a_discard(level: str, rules: object) -> None:
    """R-J-6 / R-J-7: one hand, four bots of a level: each discard is a card of the hand and
    the hand is played to its end (the engine refuses any illegal move)."""
    rules = load_rules(
        "jokers-discard", ["hand_limit=1", *(["deck.discard_after_bids=true"] if rules is AFTER else [])]
    )
    match = Match(rules, "discard-bots", [make_controller(level, rules) for _ in range(4)])
    GameRun(match).play(max_actions=400)
    assert match.finished and len(match.state.results) == 1
    assert sum(match.state.results[0].tricks) == 13


def test_r_j_6_sampled_deals_leave_the_cards_laid_aside_out_of_play() -> None:
    """R-J-6: W's worlds deal 39 of the 41 cards it has not seen (two are out of play,
    unknown); S's worlds never give anyone the cards S laid aside."""
    state = dealt(RULES, SOUTH)
    laid = mask_of(cards("4C 6C"))
    for c in cards("4C 6C"):
        state.apply(c)
    for _ in range(4):
        state.apply(BID_BASE + 3)
    rng = random.Random(3)
    for seat in (W, S):
        view = read_table(state.observation(seat), RULES)
        worlds = sample_worlds(view, rng, 6)
        assert worlds
        for hands in worlds:
            assert [h.bit_count() for h in hands] == [13, 13, 13, 13]
            held = 0
            for h in hands:
                held |= h
            assert (mask_of(RULES.deck_cards) & ~held).bit_count() == 2
            if seat == S:
                assert not held & laid
            State.from_observation(state.observation(seat), hands, RULES)
