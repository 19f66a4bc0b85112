"""More of the Spades family (issue 30): everyone's lowest club to the first trick (R-F-3),
blind numeric bids and a zero that is not nil, each checked against the
worked examples of the variants reference (E-F-1, E-BB-*)."""

from __future__ import annotations

import dataclasses

import pytest
from helpers.engine import E, N, S, W, bid_all, cards, deal_4p, deck_4p, labels, play, script_4p

from spades_cli.engine import (
    BID,
    BLIND,
    DECLARE,
    NO_BLIND,
    IllegalAction,
    Rules,
    State,
    action_label,
    action_text,
    blind_bid_action,
    blind_bid_of,
)
from spades_cli.engine.notation import parse_action
from spades_cli.engine.rules import (
    BiddingRules,
    BlindBidRules,
    BlindNilRules,
    DeckRules,
    PlayRules,
    RulesProblems,
)

FOUR = Rules()
LOWEST = dataclasses.replace(FOUR, play=PlayRules(two_of_clubs_leads=True, lowest_club_first_trick=True))


def test_e_f_1_everyone_plays_the_lowest_club() -> None:
    """E-F-1 (R-F-3, R-F-2, R-H-37): N leads 2C; E holding 4C 9C KC must play 4C; S with no club
    plays 7H (no spade); W plays AC and wins the trick, so W leads the second."""
    hands = {N: cards("2C"), E: cards("4C 9C KC"), S: cards("7H 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS")}
    hands[W] = cards("AC")
    state = deal_4p(LOWEST, W, hands)
    bid_all(state, {N: 3, E: 3, S: 4, W: 3})
    assert state.current_player() == N and labels(state.legal_actions()) == ["2C"]
    play(state, "2C")
    assert labels(state.legal_actions()) == ["4C"]
    with pytest.raises(IllegalAction) as caught:
        state.apply(cards("9C")[0])
    assert caught.value.rule_id == "R-F-3"
    play(state, "4C")
    assert "2S" not in labels(state.legal_actions()) and "7H" in labels(state.legal_actions())
    with pytest.raises(IllegalAction) as caught:
        state.apply(cards("2S")[0])
    assert caught.value.rule_id == "R-F-3"
    play(state, "7H")
    assert labels(state.legal_actions()) == ["AC"]
    play(state, "AC")
    assert state.current_player() == W and state.tricks_won[W] == 1
    assert len(state.legal_actions()) > 1  # the second trick is free again


def test_r_f_3_a_seat_holding_only_spades_plays_one() -> None:
    """R-F-3: a seat with neither a club nor a heart or diamond plays a spade."""
    hands = {N: cards("2C"), S: cards("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS")}
    state = deal_4p(LOWEST, W, hands)
    bid_all(state, {N: 3, E: 3, S: 4, W: 3})
    play(state, "2C")
    while state.current_player() != S:
        state.apply(state.legal_actions()[0])
    assert labels(state.legal_actions()) == labels(cards("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"))


def test_r_f_3_a_deck_without_clubs_is_refused() -> None:
    """R-F-3: a deck with no club cannot play the rule (the solvers play it:
    tests/solver/test_solver_family.py)."""
    clubs = " ".join(f"{r}C" for r in "23456789TJQKA")
    with pytest.raises(RulesProblems, match="no club to play"):
        Rules(players=3, deck=DeckRules(removed=clubs), play=PlayRules(lowest_club_first_trick=True))


# --------------------------------------------------------------------------- blind bids

BLIND_SIX = dataclasses.replace(FOUR, blind_bid=BlindBidRules(enabled=True))


def blind_hand(rules: Rules, counts: list[int], scores: tuple[int, int] = (0, 100), n: int = 6) -> State:
    """N (first to declare, W deals) bids blind ``n`` for N-S; E and W bid 3 and 3; the hand is
    played so that each seat takes ``counts`` tricks."""
    hands, seq = script_4p(W, counts)
    state = State(rules, W, scores=scores)
    state.deal(deck_4p(W, hands))
    assert state.phase == DECLARE and state.current_player() == N
    state.apply(blind_bid_action(n))
    assert state.phase == BID and state.bids[N] == state.bids[S] == n and state.blind[N] and state.blind[S]
    bid_all(state, {E: 3, W: 3})
    play(state, seq)
    return state


@pytest.mark.parametrize(
    ("counts", "points"), [([3, 3, 3, 4], 120), ([2, 4, 3, 4], -120), ([4, 3, 3, 3], 121)]
)
def test_e_bb_blind_six_pays_double_made_and_failed(counts: list[int], points: int) -> None:
    """R-BB-1, R-H-38, R-H-39: N-S blind 6 (100 behind): take 6 -> +120; take 5 -> -120;
    take 7 -> +120 and one bag."""
    state = blind_hand(BLIND_SIX, counts)
    assert state.scores[0] == points
    assert state.results[-1].bids[N] == 6 and state.results[-1].blind[N]


def test_r_bb_3_exactly_and_a_single_set() -> None:
    """R-BB-3, R-H-40, R-H-41: with ``exact`` seven tricks fail a blind six (-120); with
    ``set_double`` off a failed blind six loses 60."""
    exact = dataclasses.replace(FOUR, blind_bid=BlindBidRules(enabled=True, exact=True))
    assert blind_hand(exact, [4, 3, 3, 3]).scores[0] == -120
    single = dataclasses.replace(FOUR, blind_bid=BlindBidRules(enabled=True, set_double=False))
    assert blind_hand(single, [2, 4, 3, 4]).scores[0] == -60


def test_r_bb_1_only_a_side_behind_by_100_may_bid_blind() -> None:
    """R-BB-1, R-BB-2, R-H-42: 50 behind, no declaration is asked; 100 behind, N is asked
    and may bid blind 6 to 13 (not 5), or not; E-W, ahead, are never asked."""
    hands, _seq = script_4p(W, [3, 3, 3, 4])
    state = State(BLIND_SIX, W, scores=(0, 50))
    state.deal(deck_4p(W, hands))
    assert state.phase == BID
    state = State(BLIND_SIX, W, scores=(0, 100))
    state.deal(deck_4p(W, hands))
    assert state.phase == DECLARE
    legal = state.legal_actions()
    assert [action_text(a) for a in legal] == ["noblind"] + [f"blind{n}" for n in range(6, 14)]
    state.apply(NO_BLIND)
    assert state.phase == DECLARE and state.current_player() == S  # the partner may still
    state.apply(blind_bid_action(7))
    assert state.phase == BID and state.bids == [7, -1, 7, -1] and state.current_player() == E
    anytime = dataclasses.replace(FOUR, blind_bid=BlindBidRules(enabled=True, behind_by=None, min=4))
    state = State(anytime, W)
    state.deal(deck_4p(W, hands))
    assert blind_bid_action(4) in state.legal_actions() and blind_bid_action(3) not in state.legal_actions()


def test_r_bb_1_a_blind_nil_partner_bids_no_blind_number() -> None:
    """R-BB-1, R-H-12: after N's blind nil, S may not bid a blind number for the side."""
    rules = dataclasses.replace(
        FOUR, blind_nil=BlindNilRules(enabled=True), blind_bid=BlindBidRules(enabled=True, behind_by=None)
    )
    hands, _seq = script_4p(W, [3, 3, 3, 4])
    state = State(rules, W)
    state.deal(deck_4p(W, hands))
    state.apply(BLIND)
    assert state.current_player() == E and blind_bid_action(6) in state.legal_actions()
    state.apply(NO_BLIND)
    assert state.current_player() == S
    assert list(state.legal_actions()) == [BLIND, NO_BLIND]


def test_r_bb_1_text_and_problems() -> None:
    """R-BB-1: a blind bid is written blind6 (read as blind6 or blind 6), labelled
    'blind 6'; a least bid above the hand, or with Suicide or Mirror, is refused."""
    assert action_text(blind_bid_action(6)) == "blind6" and action_label(blind_bid_action(6)) == "blind 6"
    assert parse_action("Blind 6", DECLARE) == parse_action("blind6", DECLARE) == blind_bid_action(6)
    assert blind_bid_of(blind_bid_action(13)) == 13 and blind_bid_of(BLIND) == 0
    with pytest.raises(RulesProblems, match=r"blind_bid\.min"):
        Rules(blind_bid=BlindBidRules(enabled=True, min=14))
    with pytest.raises(RulesProblems, match="fixed by Suicide"):
        Rules(blind_bid=BlindBidRules(enabled=True), bidding=BiddingRules(suicide=True))
    with pytest.raises(RulesProblems, match="double nil only"):
        Rules(players=2, blind_bid=BlindBidRules(enabled=True))
    with pytest.raises(RulesProblems, match="team limits"):
        Rules(blind_bid=BlindBidRules(enabled=True, min=6), bidding=BiddingRules(team_max=5))
