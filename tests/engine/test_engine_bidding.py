"""Bidding (R-C-7, R-2P-4, R-4P-4), blind nil declarations in the four-player game and
the bidding house rules, played through ``State.apply`` with exact legal sets."""

from __future__ import annotations

import dataclasses

import pytest
from helpers.engine import FOUR, N2, S2, TWO, E, N, S, W, bids, deal_2p, run_hand

from spades_cli.engine import BID, BID_BASE, BLIND, DECLARE, NO_BLIND, PLAY, IllegalAction, Rules, State
from spades_cli.engine.rules import BiddingRules, BlindNilRules, NilRules


def fresh_4p(rules: Rules, dealer: int = N) -> State:
    state = State(rules, dealer)
    state.deal(range(52))
    return state


def with_bidding(**kw: object) -> Rules:
    return dataclasses.replace(FOUR, bidding=dataclasses.replace(FOUR.bidding, **kw))  # type: ignore[arg-type]


def test_r_4p_4_bidding_goes_clockwise_from_the_dealers_left() -> None:
    for dealer in range(4):
        state = fresh_4p(FOUR, dealer)
        order = []
        while state.phase == BID:
            order.append(state.current_player())
            state.apply(BID_BASE + 3)
        assert order == [(dealer + 1 + i) % 4 for i in range(4)]
        assert state.phase == PLAY


def test_r_c_7_one_round_no_pass_and_bids_need_not_increase() -> None:
    # R-C-7 / R-4P-4 decision: with nil on, every seat may bid nil or 1..13, whatever came before.
    state = fresh_4p(FOUR, N)
    everything = bids(*range(14))
    plan = {E: 9, S: 1, W: 0, N: 13}
    while state.phase == BID:
        assert set(state.legal_actions()) == everything  # no pass action, no raise needed
        state.apply(BID_BASE + plan[state.current_player()])
    assert state.phase == PLAY
    assert state.bids == [13, 9, 1, 0]
    with pytest.raises(IllegalAction):
        state.apply(BID_BASE + 4)  # nobody bids twice


def test_r_4p_4_basic_game_bids_one_to_thirteen() -> None:
    # R-4P-4: the seed's basic game has no nil: bids 1..13.
    rules = dataclasses.replace(FOUR, nil=NilRules(enabled=False))
    state = fresh_4p(rules)
    assert set(state.legal_actions()) == bids(*range(1, 14))
    with pytest.raises(IllegalAction):
        state.apply(BID_BASE)


def test_r_4p_4_partners_bids_add_up_to_the_contract() -> None:
    result = run_hand(State(FOUR, N), (3, 3, 4, 3), {N: 2, E: 3, S: 2, W: 4})
    assert result.sides[0].contract == 4 and result.sides[1].contract == 7


def test_r_2p_4_second_player_bids_first_any_of_0_to_13() -> None:
    # R-2P-4 seed example: Megan (the second player) bids 8, Drew bids 6.
    hands = {N2: list(range(13)), S2: list(range(13, 26))}
    state = deal_2p(TWO, N2, hands)  # N2 draws first, so S2 bids first
    assert state.phase == BID and state.current_player() == S2
    assert set(state.legal_actions()) == bids(*range(14))
    state.apply(BID_BASE + 8)
    assert state.current_player() == N2
    assert set(state.legal_actions()) == bids(*range(14))
    state.apply(BID_BASE + 6)
    assert state.phase == PLAY and state.bids == [6, 8]


def test_house_min_bid() -> None:
    # R-H-6 (bidding.min_bid)
    state = fresh_4p(with_bidding(min_bid=3))
    assert set(state.legal_actions()) == bids(0, *range(3, 14))
    two = dataclasses.replace(TWO, bidding=BiddingRules(min_bid=2))
    s2 = deal_2p(two, N2, {N2: list(range(13)), S2: list(range(13, 26))})
    assert set(s2.legal_actions()) == bids(0, *range(2, 14))


def test_house_nil_off_with_min_bid_0_makes_0_an_ordinary_bid() -> None:
    rules = dataclasses.replace(FOUR, nil=NilRules(enabled=False), bidding=BiddingRules(min_bid=0))
    state = fresh_4p(rules)
    assert set(state.legal_actions()) == bids(*range(14))


def test_house_team_min() -> None:
    # R-H-7 (bidding.team_min)
    # The partners' combined contract must be at least 5 (a nil adds nothing).
    rules = with_bidding(team_min=5)
    state = fresh_4p(rules, N)  # E, S, W, N
    assert set(state.legal_actions()) == bids(*range(14))  # E: partner can still make it up
    state.apply(BID_BASE + 2)  # E 2
    state.apply(BID_BASE + 0)  # S nil
    assert state.current_player() == W
    assert set(state.legal_actions()) == bids(*range(3, 14))
    state.apply(BID_BASE + 3)
    assert state.current_player() == N  # partner S bid nil: N must bid 5+
    assert set(state.legal_actions()) == bids(*range(5, 14))
    with pytest.raises(IllegalAction):
        state.apply(BID_BASE + 4)


def test_house_team_max_caps_the_partners_combined_bid() -> None:
    # R-H-8 (bidding.team_max)
    rules = with_bidding(team_max=13)
    state = fresh_4p(rules, N)
    state.apply(BID_BASE + 9)  # E
    state.apply(BID_BASE + 13)  # S
    assert set(state.legal_actions()) == bids(0, 1, 2, 3, 4)  # W: 9 + 4 = 13
    state.apply(BID_BASE + 4)
    assert set(state.legal_actions()) == bids(0)  # N: partner bid 13
    # With nil off a first bid of 13 would leave the partner nothing.
    off = dataclasses.replace(rules, nil=NilRules(enabled=False))
    assert set(fresh_4p(off).legal_actions()) == bids(*range(1, 13))


def test_bidding_rules_that_leave_a_seat_no_bid_are_refused() -> None:
    # Nil off, lowest bid 3, partners capped at 5: no pair of bids fits (the Rules refuse it).
    with pytest.raises(ValueError, match="lowest bids add up to more than the team maximum"):
        dataclasses.replace(FOUR, nil=NilRules(enabled=False), bidding=BiddingRules(min_bid=3, team_max=5))
    # Rules out of every preset's range reach the engine, which refuses them too.
    with pytest.raises(ValueError, match="no legal bid"):
        State(dataclasses.replace(FOUR, nil=NilRules(enabled=False), bidding=BiddingRules(min_bid=14)), 0)


# ----------------------------------------------------------------------- blind nil (4P house rule)

BLIND_4P = dataclasses.replace(FOUR, blind_nil=BlindNilRules(enabled=True, value=200))


def test_house_blind_nil_declared_before_looking_in_bid_order() -> None:
    # R-H-12 (blind_nil.enabled)
    state = fresh_4p(BLIND_4P, W)  # N, E, S, W
    seen = []
    while state.phase == DECLARE:
        seat = state.current_player()
        seen.append(seat)
        assert set(state.legal_actions()) == {BLIND, NO_BLIND}
        obs = state.observation(seat)
        assert not obs.looked and obs.hand == ()  # blind: she has not seen her cards
        state.apply(BLIND if seat == E else NO_BLIND)
        assert state.observation(seat).looked and len(state.observation(seat).hand) == 13
    assert seen == [N, E, S, W]
    assert state.phase == BID and state.blind == [False, True, False, False]
    order = []
    while state.phase == BID:
        order.append(state.current_player())
        state.apply(BID_BASE + 4)
    assert order == [N, S, W]  # E's blind nil is her bid
    assert state.bids == [4, 0, 4, 4]


def test_house_blind_nil_only_when_behind_by() -> None:
    # R-H-14 (blind_nil.behind_by)
    rules = dataclasses.replace(FOUR, blind_nil=BlindNilRules(enabled=True, value=200, behind_by=100))
    state = State(rules, N)
    state.deal(range(52))
    assert state.phase == BID  # 0-0: nobody is behind
    state = State(rules, N)
    # NS bid 7 and take 2 (-70); EW bid 6 and take 11 (65): NS are behind by 135.
    first = run_hand(state, (1, 6, 1, 5), {N: 4, E: 3, S: 3, W: 3})
    assert first.scores == (-70, 65)
    state.deal(range(52))  # dealer E now: S, W, N, E; only N-S may declare
    seen = []
    while state.phase == DECLARE:
        seen.append(state.current_player())
        state.apply(NO_BLIND)
    assert seen == [S, N]
    assert state.phase == BID and state.current_player() == S


def test_house_blind_nil_scores_its_value_through_play() -> None:
    # R-H-13 (blind_nil.value)
    state = State(BLIND_4P, W)
    made = run_hand(state, (4, 0, 5, 4), {N: 4, S: 5, W: 4}, blind={E})
    assert made.blind == (False, True, False, False)
    assert made.sides[1].nil_points == 200 and made.sides[1].points == 240
    failed = run_hand(state, (1, 4, 4, 4), {E: 4, S: 4, W: 3}, blind={N})
    assert failed.sides[0].nil_points == -200
    assert failed.sides[0].points == -200 + 40 + 1  # N's trick is a team bag (R-4P-7)
