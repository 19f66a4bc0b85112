"""R-NV-4: a bid of zero that is not nil (``nil.zero``, R-H-43): its action and word, where
it is legal, how it scores (worked examples, scores exact), and its problems."""

from __future__ import annotations

import dataclasses

import pytest
from helpers.engine import E, N, S, W, cards, deal_hands, deck_4p, play, script_4p

from spades_cli.engine import (
    BID,
    BID_BASE,
    NUM_ACTIONS,
    PLAY,
    ZERO,
    IllegalAction,
    Rules,
    State,
    action_label,
    action_text,
    blind_bid_of,
)
from spades_cli.engine.notation import parse_action, word_problem
from spades_cli.engine.rules import BiddingRules, NilRules, RulesProblems
from spades_cli.engine.scoring import score_side

FOUR = Rules()
ZEROS = dataclasses.replace(FOUR, nil=NilRules(zero=True))


def bid_hand(state: State, bids: dict[int, str]) -> None:
    """Bid the words of ``bids`` (``nil``, ``zero``, a number) in turn."""
    while state.phase == BID and state.current_player() in bids:
        state.apply(parse_action(bids[state.current_player()], BID))


def zero_hand(rules: Rules, counts: list[int], bids: dict[int, str]) -> State:
    """W deals; every seat bids its word of ``bids`` and takes ``counts`` tricks."""
    hands, seq = script_4p(W, counts)
    state = State(rules, W)
    state.deal(deck_4p(W, hands))
    bid_hand(state, bids)
    assert state.phase == PLAY
    play(state, seq)
    return state


def test_r_nv_4_zero_is_an_action_of_its_own_after_the_others() -> None:
    """R-NV-4: ZERO comes after the blind bids; its word is ``zero`` both ways, and it is no
    blind bid and no number."""
    assert ZERO == NUM_ACTIONS - 1 and ZERO > BID_BASE + 18
    assert action_text(ZERO) == "zero" and action_label(ZERO) == "zero"
    assert blind_bid_of(ZERO) == 0
    assert parse_action("zero", BID) == ZERO and parse_action("Zero", BID) == ZERO
    assert parse_action("0", BID) == parse_action("nil", BID) == BID_BASE  # 0 stays nil
    assert word_problem("zero") is None


def test_r_nv_4_zero_is_offered_beside_nil_only_with_the_option() -> None:
    """R-NV-4, R-H-43: off by default (the old games are unchanged); on, every seat that may
    bid nil may bid zero too, and the engine refuses it where it is not offered."""
    plain = State(FOUR, W)
    plain.deal(deck_4p(W, script_4p(W, [3, 3, 3, 4])[0]))
    assert ZERO not in plain.legal_actions()
    with pytest.raises(IllegalAction) as caught:
        plain.apply(ZERO)
    assert caught.value.rule_id == "R-NV-4"
    assert caught.value.reason.endswith("legal bids: nil, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13")
    state = State(ZEROS, W)
    state.deal(deck_4p(W, script_4p(W, [3, 3, 3, 4])[0]))
    assert state.legal_actions()[0] == BID_BASE and state.legal_actions()[-1] == ZERO
    assert state.legal_mask() >> ZERO & 1
    state.apply(ZERO)
    assert state.bids[N] == 0 and state.zero[N] and not state.blind[N]
    assert not ZEROS.is_nil(0, False, zero=True) and ZEROS.is_nil(0)


def test_r_nv_4_zero_beside_a_partner_counts_toward_the_contract() -> None:
    """R-NV-4 worked example: N zero, S 4, N takes 2 and S 3: N-S make 4 with one bag, +41
    (a nil there: -100, the 4 set -40 and two bags: -138)."""
    counts = [2, 4, 3, 4]
    state = zero_hand(ZEROS, counts, {N: "zero", E: "4", S: "4", W: "4"})
    result = state.results[-1]
    ns = result.sides[0]
    assert (ns.contract, ns.counted, ns.nil_points, ns.bags, ns.points) == (4, 5, 0, 1, 41)
    assert result.zero == (True, False, False, False) and result.bids[N] == 0
    assert state.scores == [41, 80]
    as_nil = zero_hand(ZEROS, counts, {N: "nil", E: "4", S: "4", W: "4"})
    assert as_nil.results[-1].sides[0].points == -138 and as_nil.results[-1].zero == ()


def test_r_nv_4_zero_can_not_fail_and_its_tricks_are_bags_past_the_contract() -> None:
    """R-NV-4: both partners zero, taking 2 and 3: no contract, five bags (+5); a zero that
    takes none beside a 3 made exactly: +30 and nothing for the zero."""
    state = zero_hand(ZEROS, [2, 4, 3, 4], {N: "zero", E: "4", S: "zero", W: "4"})
    ns = state.results[-1].sides[0]
    assert (ns.contract, ns.made, ns.bags, ns.points) == (0, True, 5, 5)
    state = zero_hand(ZEROS, [0, 5, 3, 5], {N: "zero", E: "5", S: "3", W: "5"})
    assert state.results[-1].sides[0].points == 30
    assert score_side(ZEROS, [0, 5, 3, 5], [False] * 4, [0, 5, 3, 5], [0, 2], 0, 0, [True] * 4).points == 30


def test_r_nv_4_zero_alone_scores_its_tricks_as_bags() -> None:
    """R-NV-4, R-CT-7: in cutthroat a zero that takes two tricks scores +2, two bags."""
    cut = Rules(players=3, deck=dataclasses.replace(FOUR.deck, removed="2C"), nil=NilRules(zero=True))
    side = score_side(cut, [0, 5, 6], [False] * 3, [2, 6, 9], [0], 0, 0, [True, False, False])
    assert (side.contract, side.bags, side.points, side.nil_points) == (0, 2, 2, 0)
    as_nil = score_side(cut, [0, 5, 6], [False] * 3, [2, 6, 9], [0], 0, 0)
    assert as_nil.points == -100 + 2


def test_r_nv_4_the_team_minimum_holds_for_zero_as_for_nil() -> None:
    """R-NV-4, R-MB-1: with a team minimum of 4, after N's 1 S may bid neither nil nor zero;
    after N's zero S bids 4 or more, as after a nil."""
    rules = dataclasses.replace(ZEROS, bidding=BiddingRules(team_min=4))
    state = State(rules, W)
    state.deal(deck_4p(W, script_4p(W, [3, 3, 3, 4])[0]))
    bid_hand(state, {N: "1", E: "3"})
    assert state.current_player() == S
    assert ZERO not in state.legal_actions() and BID_BASE not in state.legal_actions()
    state = State(rules, W)
    state.deal(deck_4p(W, script_4p(W, [3, 3, 3, 4])[0]))
    bid_hand(state, {N: "zero", E: "3"})
    assert labels_of_bids(state.legal_actions()) == [str(n) for n in range(4, 14)]


def labels_of_bids(actions: list[int]) -> list[str]:
    return [action_text(a) for a in actions]


def test_r_nv_4_in_whiz_and_mirror_only_a_hand_without_spades_may_bid_zero() -> None:
    """R-NV-4, R-W-1, R-M-3: a seat with no spade may bid nil or zero (0 either way); one
    with spades bids its count (Whiz: or nil), never zero."""
    no_spade = cards("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")
    for mode, with_spades in (("whiz", ["nil", "3"]), ("mirror", ["3"])):
        rules = dataclasses.replace(ZEROS, bidding=BiddingRules(mode=mode))
        state = deal_hands(rules, W, {N: no_spade, E: cards("AS KS QS")})
        assert state.current_player() == N and state.spade_count(N) == 0
        assert labels_of_bids(state.legal_actions()) == ["nil", "zero"]
        state.apply(ZERO)
        assert state.spade_count(E) == 3
        assert labels_of_bids(state.legal_actions()) == with_spades
        with pytest.raises(IllegalAction):
            state.apply(ZERO)


def test_r_nv_4_problems() -> None:
    """R-NV-4: zero beside nil needs nil (with nil off min_bid 0 is that bid already) and
    is refused in Suicide."""
    with pytest.raises(RulesProblems, match=r"nil\.zero"):
        Rules(nil=NilRules(enabled=False, zero=True))
    with pytest.raises(RulesProblems, match=r"nil\.zero: in Suicide"):
        Rules(nil=NilRules(zero=True), bidding=BiddingRules(suicide=True))


def test_r_nv_4_a_state_rebuilt_from_an_observation_keeps_the_zero() -> None:
    """R-NV-4: the observation shows who bid zero; a state built from it scores it as zero."""
    hands, seq = script_4p(W, [2, 4, 3, 4])
    state = State(ZEROS, W)
    state.deal(deck_4p(W, hands))
    bid_hand(state, {N: "zero", E: "4", S: "4", W: "4"})
    play(state, seq[:4])
    obs = state.observation(E)
    assert obs.zero == (True, False, False, False)
    rebuilt = State.from_observation(obs, state.hands, ZEROS)
    assert rebuilt.zero == [True, False, False, False]
    play(rebuilt, seq[4:])
    assert rebuilt.results[-1].sides[0].points == 41
