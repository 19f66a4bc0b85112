"""R-BN-4: the blind-nil partner exchange (``blind_nil.pass_cards``, R-H-44): who passes,
in which order, which cards move, the hands after it, the hand scored, and its problems."""

from __future__ import annotations

import dataclasses

import pytest
from helpers.engine import E, N, S, W, cards, deck_4p, labels, play, script_4p

from spades_cli.engine import BID, BID_BASE, BLIND, DECLARE, NO_BLIND, PASS, PLAY, IllegalAction, Rules, State
from spades_cli.engine.notation import parse_action
from spades_cli.engine.rules import BlindNilRules, RulesProblems

OPEN = Rules(blind_nil=BlindNilRules(enabled=True, behind_by=None))
PASS2 = dataclasses.replace(OPEN, blind_nil=BlindNilRules(enabled=True, behind_by=None, pass_cards=2))

# The hands after the exchange are script_4p's (N takes no trick, E 3, S 6, W 4). Before
# it N held JS and AH where it now holds 2C and 5D, and S the other way round.
AFTER, SEQ = script_4p(W, [0, 3, 6, 4])
GIVE, BACK = cards("JS AH"), cards("2C 5D")
BEFORE = dict(AFTER)
BEFORE[N] = [c for c in AFTER[N] if c not in BACK] + GIVE
BEFORE[S] = [c for c in AFTER[S] if c not in GIVE] + BACK


def to_passing(rules: Rules, blind: set[int], bids: dict[int, int]) -> State:
    """W deals BEFORE; ``blind`` declare blind nil; the others bid ``bids``."""
    state = State(rules, W)
    state.deal(deck_4p(W, BEFORE))
    while state.phase == DECLARE:
        state.apply(BLIND if state.current_player() in blind else NO_BLIND)
    while state.phase == BID:
        state.apply(BID_BASE + bids[state.current_player()])
    return state


def test_r_bn_4_blind_nil_passes_two_then_partner_two_back() -> None:
    """R-BN-4 worked example: N bids blind nil, E 3, S 4, W 4. N passes JS then AH to S (one
    card per action); S, holding them, passes 2C and 5D back. N ends with 2C 5D for JS AH,
    S the other way round; E and W are untouched; then N (left of the dealer) leads."""
    state = to_passing(PASS2, {N}, {E: 3, S: 4, W: 4})
    assert state.phase == PASS and state.current_player() == N
    assert list(state.legal_actions()) == sorted(BEFORE[N])  # any card of the hand
    state.apply(cards("JS")[0])
    assert state.current_player() == N and cards("JS")[0] in state.hand_of(S)
    state.apply(cards("AH")[0])
    assert state.current_player() == S
    assert sorted(state.legal_actions()) == sorted(AFTER[S] + BACK)  # S sees what it got
    play(state, "2C 5D")
    assert state.phase == PLAY and state.current_player() == N
    assert labels(state.hand_of(N)) == labels(sorted(AFTER[N]))
    assert labels(state.hand_of(S)) == labels(sorted(AFTER[S]))
    assert state.hand_of(E) == sorted(AFTER[E]) and state.hand_of(W) == sorted(AFTER[W])
    assert len(state.history) == 4 + 3 + 4  # declarations, bids, passes


def test_r_bn_4_the_hand_after_the_exchange_is_scored() -> None:
    """R-BN-4 / R-H-13: the worked example played out: N makes its blind nil (+200), S's 4
    with 6 tricks is 42 (two bags), so NS 242; EW bid 7 and take 7: 70."""
    state = to_passing(PASS2, {N}, {E: 3, S: 4, W: 4})
    play(state, "JS AH 2C 5D")
    play(state, SEQ)
    result = state.results[0]
    assert [s.tricks for s in result.sides] == [6, 7]
    assert state.scores == [242, 70] and state.bags == [2, 0]


def test_r_bn_4_no_exchange_without_the_option_or_a_blind_nil() -> None:
    """R-BN-4 / R-H-44: pass_cards 0 (the default) or no blind nil: play starts at once."""
    assert to_passing(OPEN, {N}, {E: 3, S: 4, W: 4}).phase == PLAY
    assert to_passing(PASS2, set(), {N: 1, E: 3, S: 4, W: 4}).phase == PLAY


def test_r_bn_5_both_partners_nil_pass_nothing() -> None:
    """R-BN-5 ([S39]): a blind nil whose partner bid nil too passes no cards."""
    assert to_passing(PASS2, {N}, {E: 3, S: 0, W: 4}).phase == PLAY


def test_r_bn_4_sides_pass_in_bidding_order() -> None:
    """R-BN-4: two blind nils (N and E): N passes to S and S back, then E to W and W back."""
    state = to_passing(PASS2, {N, E}, {S: 4, W: 4})
    order = []
    while state.phase == PASS:
        order.append(state.current_player())
        state.apply(state.legal_actions()[0])
    assert order == [N, N, S, S, E, E, W, W]
    assert state.phase == PLAY


def test_r_bn_4_a_card_not_held_is_refused_and_undone_by_clone() -> None:
    """R-BN-4: only a card of the passer's hand; a clone passes on its own."""
    state = to_passing(PASS2, {N}, {E: 3, S: 4, W: 4})
    with pytest.raises(IllegalAction) as err:
        state.apply(BACK[0])  # S holds 2C
    assert "do not hold" in err.value.reason and err.value.rule_id == "R-BN-4"
    twin = state.clone()
    twin.apply(GIVE[0])
    assert GIVE[0] in state.hand_of(N) and GIVE[0] in twin.hand_of(S)
    assert parse_action("js", PASS) == GIVE[0]


def test_r_bn_4_pass_cards_problems() -> None:
    """R-H-44: the exchange needs blind nil and partners, and a count within the hand."""
    with pytest.raises(RulesProblems, match=r"blind_nil\.pass_cards: the exchange follows"):
        Rules(blind_nil=BlindNilRules(pass_cards=2))
    with pytest.raises(RulesProblems, match=r"blind_nil\.pass_cards: the cards passed must be 0 to 13"):
        Rules(blind_nil=BlindNilRules(enabled=True, pass_cards=14))
    with pytest.raises(RulesProblems, match=r"blind_nil\.pass_cards"):
        Rules(players=3, blind_nil=BlindNilRules(enabled=True, pass_cards=1))
