"""The engine owns its rules: why a move is illegal (IllegalAction's reason and rule ID),
who wins a trick (one ``beats`` / ``trick_winner``), phases as an IntEnum, and states
rebuilt from one seat's observation for the search bots."""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest
from helpers.engine import FOUR, TWO, E, N, S, W, bid_all, cards, deal_4p, play
from helpers.engine import trick_winner as recount_winner
from helpers.positions import random_position

from spades_cli.engine import (
    BID,
    BID_BASE,
    DEAL,
    PLAY,
    IllegalAction,
    Phase,
    Rules,
    State,
    beats,
    deck_for,
    parse_card,
    trick_winner,
)
from spades_cli.engine.rules import PlayRules

ALL_FOUR = {N: 3, E: 3, S: 3, W: 3}
SPADES_AND_HEARTS = {S: cards("2S 3S 4S 5S 2H 3H 4H 5H 6H 7H 8H 9H TH")}


def reason(state: State, card: str, *, symbols: bool = False) -> tuple[str, str]:
    with pytest.raises(IllegalAction) as info:
        state.check(parse_card(card), symbols=symbols)
    # apply gives the same exception (and changes nothing)
    before = len(state.history)
    with pytest.raises(IllegalAction) as applied:
        state.apply(parse_card(card))
    assert len(state.history) == before
    assert applied.value.rule_id == info.value.rule_id
    assert str(info.value) == info.value.reason
    return info.value.reason, info.value.rule_id


def test_spade_lead_on_the_first_trick_names_the_first_trick_rule_not_broken_spades() -> None:
    # R-H-22 (no spades to the first trick) with R-H-20 off (spades_break=false, so R-C-6
    # does not apply): the spade is refused because of the first trick, not because
    # spades are unbroken (they never need breaking here).
    rules = dataclasses.replace(FOUR, play=PlayRules(spades_break=False, no_spades_first_trick=True))
    state = deal_4p(rules, E, SPADES_AND_HEARTS)  # South sits left of East: South leads
    bid_all(state, ALL_FOUR)
    assert state.current_player() == S
    why, rule = reason(state, "5S")
    assert rule == "R-H-22"
    assert "first trick" in why and "not broken" not in why
    # After the first trick a spade may be led at once (spades_break off).
    play(state, "2H")
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    leader = state.current_player()
    assert not state.trick
    spades = [c for c in state.hand_of(leader) if c >= 39]
    assert spades and set(spades) <= set(state.legal_actions())


def test_spades_not_broken_cites_r_c_6_and_follow_suit_cites_r_c_3() -> None:
    state = deal_4p(FOUR, E, SPADES_AND_HEARTS)
    bid_all(state, ALL_FOUR)
    assert reason(state, "5S") == ("spades are not broken yet: lead another suit", "R-C-6")
    play(state, "TH")
    assert state.current_player() == W
    held = [card for card in state.hand_of(W) if card // 13 == 2]
    if held:
        other = next(c for c in state.hand_of(W) if c // 13 != 2)
        why, rule = reason(state, f"{'23456789TJQKA'[other % 13]}{'CDHS'[other // 13]}")
        assert rule == "R-C-3" and why.startswith("you must follow hearts: you hold ")


def test_a_card_not_held_is_named_with_or_without_symbols() -> None:
    state = deal_4p(FOUR, E, SPADES_AND_HEARTS)
    bid_all(state, ALL_FOUR)
    assert reason(state, "AS") == ("you do not hold AS", "")
    assert reason(state, "AS", symbols=True) == ("you do not hold A♠", "")


def test_two_of_clubs_rule_and_first_trick_discard_cite_their_options() -> None:
    # R-H-21 and R-H-22 together.
    rules = dataclasses.replace(FOUR, play=PlayRules(two_of_clubs_leads=True, no_spades_first_trick=True))
    state = deal_4p(rules, W, {N: cards("2C 3C 4C"), E: cards("2S 3S 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH")})
    bid_all(state, ALL_FOUR)
    assert state.current_player() == N
    assert reason(state, "3C") == ("the two of clubs must lead the first trick", "R-H-21")
    play(state, "2C")
    assert reason(state, "2S") == (
        "spades may not be played to the first trick while you hold other cards",
        "R-H-22",
    )


def test_bids_and_phase_errors() -> None:
    rules = dataclasses.replace(FOUR, bidding=dataclasses.replace(FOUR.bidding, min_bid=2))
    state = State(rules, W)
    with pytest.raises(IllegalAction) as info:
        state.apply(BID_BASE + 3)
    assert info.value.reason == "the cards must be dealt first"
    state.deal(deck_for(1, 0))
    while state.phase != BID:
        state.apply(state.legal_actions()[-1])
    with pytest.raises(IllegalAction) as info:
        state.check(BID_BASE + 1)
    assert info.value.rule_id == "R-C-7"
    assert info.value.reason.startswith("that bid is not allowed here; legal bids:")
    with pytest.raises(IllegalAction) as info:
        state.check(parse_card("2C"))
    assert info.value.reason == "2C is not possible now (bid)"


def test_phase_is_an_int_enum_that_prints_its_name() -> None:
    state = State(FOUR, W)
    assert state.phase is Phase.DEAL and state.phase == 0 and DEAL == Phase.DEAL
    assert f"{state.phase}" == "deal" and str(PLAY) == "play"
    state.deal(deck_for(3, 0))
    assert state.phase == Phase(int(BID))  # an equal value, however obtained
    assert state.legal_actions()


def test_beats_and_trick_winner_agree_with_an_independent_recount() -> None:
    # R-C-4 over every pair and many random tricks.
    for card, best in itertools.product(range(52), repeat=2):
        if card == best:
            continue
        same = card // 13 == best // 13
        assert beats(card, best) == ((same and card > best) or (not same and card // 13 == 3))
    rng = random.Random(4)
    for _ in range(300):
        trick = rng.sample(range(52), 4)
        assert trick_winner(trick) == recount_winner(list(enumerate(trick)))


@pytest.mark.parametrize(("rules", "seed"), [(FOUR, 1), (FOUR, 2), (TWO, 3), (TWO, 4)])
def test_from_observation_with_the_true_hands_plays_on_like_the_game(rules: Rules, seed: int) -> None:
    assert isinstance(rules, Rules)
    checked = 0
    for steps in range(0, 200, 3):
        state = random_position(rules, seed, steps)
        seat = state.current_player()
        if state.phase not in (BID, PLAY) or seat < 0:
            continue
        obs = state.observation(seat)
        rebuilt = State.from_observation(obs, list(state.hands), rules)
        assert rebuilt.observation(seat) == obs
        # the same future: play the hand out on both with the same choices
        a, b = state.clone(), rebuilt
        hands_done = len(a.results)
        picks = random.Random(steps)
        while len(a.results) == hands_done:
            assert a.legal_actions() == b.legal_actions()
            act = picks.choice(a.legal_actions())
            a.apply(act)
            b.apply(act)
        assert a.results[-1] == b.results[-1]
        checked += 1
    assert checked > 15


def test_from_observation_refuses_hands_that_do_not_fit() -> None:
    state = deal_4p(FOUR, W, SPADES_AND_HEARTS)
    bid_all(state, ALL_FOUR)
    obs = state.observation(S)
    swapped = list(state.hands)
    swapped[S], swapped[N] = swapped[N], swapped[S]  # not South's own hand
    with pytest.raises(ValueError):
        State.from_observation(obs, swapped, FOUR)
    short = list(state.hands)
    short[N] &= short[N] - 1
    with pytest.raises(ValueError):
        State.from_observation(obs, short, FOUR)
