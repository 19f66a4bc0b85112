"""More of the Spades family (issue 30): everyone's lowest club to the first trick (R-F-3),
blind numeric bids and a zero that is not nil, each checked against the
worked examples of the variants reference (E-F-1, E-BB-*)."""

from __future__ import annotations

import dataclasses

import pytest
from helpers.engine import E, N, S, W, bid_all, cards, deal_4p, labels, play

from spades_cli.engine import IllegalAction, Rules
from spades_cli.engine.plan import plan_for
from spades_cli.engine.rules import DeckRules, PlayRules, RulesProblems

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


def test_r_f_3_the_solvers_refuse_it_and_a_deck_without_clubs_is_refused() -> None:
    """R-F-3: the C search core reads no lowest-club row, so these rules are not
    'standard' (refuse_variant); a deck with no club cannot play the rule."""
    assert plan_for(FOUR).standard and not plan_for(LOWEST).standard
    clubs = " ".join(f"{r}C" for r in "23456789TJQKA")
    with pytest.raises(RulesProblems, match="no club to play"):
        Rules(players=3, deck=DeckRules(removed=clubs), play=PlayRules(lowest_club_first_trick=True))
