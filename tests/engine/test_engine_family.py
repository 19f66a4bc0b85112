"""The Spades family (issue 30): seats, sides, decks, trump orders, bidding rules, scoring
and leads of the variants, each checked against the rule it implements (docs/rules.md,
"The Spades family") and the worked examples of the variants reference (E-*)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

import pytest
from helpers.engine import E, N, S, W, bid_all, cards, labels, play
from helpers.engine import deal_hands as deal

from spades_cli.engine import BID_BASE, BIG_JOKER, LITTLE_JOKER, IllegalAction, Rules, State, score_side
from spades_cli.engine.chance import deck_for
from spades_cli.engine.play import card_order, deck_cards, trick_winner
from spades_cli.engine.rules import BiddingRules, BostonRules, DeckRules, PlayRules, RulesProblems
from spades_cli.presets import load_rules

FOUR = Rules()


def with_deck(rules: Rules, **deck: object) -> Rules:
    return dataclasses.replace(rules, deck=dataclasses.replace(rules.deck, **deck))  # type: ignore[arg-type]


# --------------------------------------------------------------------------- seats, decks


def test_r_ct_1_cutthroat_deals_17_each_from_51_cards() -> None:
    """R-CT-1, R-H-32: three players, the two of clubs out, 17 cards each, a side each."""
    rules = load_rules("cutthroat")
    assert (rules.players, rules.sides, rules.hand_size) == (3, 3, 17)
    assert 0 not in deck_cards(rules) and len(deck_cards(rules)) == 51
    state = State(rules, 0)
    state.deal(deck_for("ct", 0, deck_cards(rules)))
    assert [len(state.hand_of(s)) for s in range(3)] == [17, 17, 17]
    assert state.scores == [0, 0, 0] and rules.side_name(2) == "S"


def test_r_ct_1_a_deck_that_does_not_share_out_is_refused() -> None:
    """R-CT-1, R-J-2: 52 cards among three, or 54 among four, cannot be dealt."""
    with pytest.raises(RulesProblems, match="do not deal evenly"):
        Rules(players=3)
    with pytest.raises(RulesProblems, match="do not deal evenly"):
        Rules(deck=DeckRules(jokers=True, trumps="BJ LJ"))
    assert Rules(players=3, deck=DeckRules(jokers=True, trumps="BJ LJ")).hand_size == 18


def test_r_ct_3_cutthroat_bids_run_to_17() -> None:
    """R-CT-3: bids from nil to the hand size, each seat's own."""
    state = State(load_rules("cutthroat"), 0)
    state.deal(deck_for("b", 0, deck_cards(state.rules)))
    assert list(state.legal_actions()) == [BID_BASE + b for b in range(18)]


def test_r_ct_6_the_three_of_clubs_leads_when_the_two_is_out() -> None:
    """R-CT-6: with the two of clubs removed its holder's lead is the three."""
    rules = dataclasses.replace(load_rules("cutthroat"), play=PlayRules(two_of_clubs_leads=True))
    state = deal(rules, 0, {2: cards("3C 4C")})
    bid_all(state, {0: 3, 1: 3, 2: 3})
    assert state.current_player() == 2 and list(state.legal_actions()) == cards("3C")


def test_r_ct_7_each_cutthroat_player_scores_alone() -> None:
    """R-CT-7: a made bid scores ten a trick and a bag per overtrick, for the player alone."""
    rules = load_rules("cutthroat")
    r = score_side(rules, [5, 4, 8], [False] * 3, [6, 3, 8], [0], 0, 0)
    assert (r.points, r.bags) == (51, 1)
    assert score_side(rules, [5, 4, 8], [False] * 3, [6, 3, 8], [1], 0, 0).points == -40


def test_r_i_1_solo_four_players_score_alone() -> None:
    """R-I-1, R-H-23: four sides of one; no partner key in the bids."""
    rules = load_rules("solo")
    assert rules.sides == 4 and [rules.side_of(s) for s in range(4)] == [0, 1, 2, 3]
    with pytest.raises(RulesProblems, match="solo"):
        Rules(players=3, solo=True, deck=DeckRules(removed="2C"))
    state = deal(rules, 0, {})
    bid_all(state, {E: 1, S: 2, W: 3, N: 4})
    assert state.bids == [4, 1, 2, 3]


def test_r_j_1_jokers_rank_above_the_ace_of_spades() -> None:
    """R-J-1, R-H-33, R-H-34: Big Joker > Little Joker > ace of spades; they are cards 53 / 52."""
    rules = load_rules("jokers")
    order = card_order(rules)
    a_s, k_h = cards("AS KH")
    assert trick_winner([k_h, a_s, LITTLE_JOKER, BIG_JOKER], order) == 3
    assert trick_winner([k_h, LITTLE_JOKER, a_s], order) == 1
    assert labels([LITTLE_JOKER, BIG_JOKER]) == ["LJ", "BJ"] and cards("bj lj") == [BIG_JOKER, LITTLE_JOKER]


def test_r_j_2_four_players_take_out_two_deuces_for_the_jokers() -> None:
    """R-J-2, R-H-32: 2C and 2D out, the jokers in: 52 cards, 13 each."""
    rules = load_rules("jokers")
    deck = deck_cards(rules)
    assert len(deck) == 52 and rules.hand_size == 13
    assert not set(cards("2C 2D")) & set(deck) and {LITTLE_JOKER, BIG_JOKER} <= set(deck)


def test_r_j_8_r_j_9_the_jjdd_order_and_deck() -> None:
    """R-J-8, R-J-9: BJ > LJ > 2D > 2S > AS; 2H and 2C out; spades 16 cards."""
    rules = load_rules("joker-joker-deuce-deuce")
    order = card_order(rules)
    two_d, two_s, a_s = cards("2D 2S AS")
    assert trick_winner([a_s, two_s, two_d, LITTLE_JOKER], order) == 3
    assert trick_winner([a_s, two_s], order) == 1 and trick_winner([two_s, two_d], order) == 1
    assert sum(1 for c in deck_cards(rules) if order.suit[c] == 3) == 16
    assert not set(cards("2H 2C")) & set(deck_cards(rules))


def test_r_j_10_the_two_of_diamonds_follows_spades() -> None:
    """R-J-10: spades led, a hand holding the 2D (and diamonds) must play it; it trumps diamonds."""
    rules = load_rules("joker-joker-deuce-deuce")
    state = deal(rules, W, {N: cards("5S 6S"), E: cards("2D 9D 4H"), S: cards("7S"), W: cards("8S")})
    bid_all(state, {N: 3, E: 3, S: 3, W: 3})
    state.broken = True  # (spades broken earlier)
    play(state, "5S")
    assert list(state.legal_actions()) == cards("2D")
    with pytest.raises(IllegalAction) as caught:
        state.apply(cards("9D")[0])
    assert caught.value.rule_id == "R-C-3"


def test_r_j_10_a_joker_lead_is_a_spade_lead() -> None:
    """R-J-10, R-C-6: spades unbroken, a joker may not lead while the leader holds another suit."""
    rules = load_rules("jokers")
    state = deal(rules, W, {N: [BIG_JOKER, *cards("3H")]})
    bid_all(state, {N: 3, E: 3, S: 3, W: 3})
    assert BIG_JOKER not in state.legal_actions() and cards("3H")[0] in state.legal_actions()


def test_r_j_17_deuces_high_without_jokers() -> None:
    """R-J-17: the four deuces above the ace of spades, 2H highest."""
    rules = with_deck(FOUR, trumps="2H 2C 2D 2S")
    order = card_order(rules)
    two_h, two_c, a_s = cards("2H 2C AS")
    assert trick_winner([a_s, two_c, two_h], order) == 2 and trick_winner([two_c, a_s], order) == 0


def test_r_h_34_a_joker_ranked_but_not_in_the_deck_is_refused() -> None:
    """R-H-34, R-H-33: ranking a joker needs deck.jokers; a card word must be a card."""
    with pytest.raises(RulesProblems, match="not in the deck"):
        with_deck(FOUR, trumps="BJ")
    with pytest.raises(RulesProblems, match="is not a card"):
        with_deck(FOUR, removed="2X")


# --------------------------------------------------------------------------- bidding


def test_r_s_1_suicide_one_partner_nils() -> None:
    """R-S-1, R-H-28: after N's nil, S must bid a number; after E's 3, W must bid nil."""
    state = deal(load_rules("suicide"), W, {})
    state.apply(BID_BASE + 0)  # N nil
    state.apply(BID_BASE + 3)  # E 3
    assert BID_BASE not in state.legal_actions() and BID_BASE + 1 in state.legal_actions()
    state.apply(BID_BASE + 4)  # S 4
    assert list(state.legal_actions()) == [BID_BASE]
    with pytest.raises(IllegalAction) as caught:
        state.apply(BID_BASE + 2)
    assert caught.value.rule_id == "R-S-1"


def test_r_s_2_the_suicide_minimum() -> None:
    """R-S-2, R-H-29: with suicide_min 4 the first bidder picks nil or 4+."""
    rules = dataclasses.replace(FOUR, bidding=BiddingRules(suicide=True, suicide_min=4))
    state = deal(rules, W, {})
    assert list(state.legal_actions()) == [BID_BASE + b for b in (0, *range(4, 14))]
    state.apply(BID_BASE)  # N nil
    state.apply(BID_BASE + 5)  # E 5
    with pytest.raises(IllegalAction) as caught:
        state.apply(BID_BASE + 3)  # S must bid 4 or more
    assert caught.value.rule_id == "R-S-2"


def test_r_m_1_mirror_bids_the_spades_held() -> None:
    """R-M-1, R-H-27: N holds three spades: the only bid is 3; any other is refused."""
    state = deal(load_rules("mirror"), W, {N: cards("AS KS 2S 3H")})
    assert list(state.legal_actions()) == [BID_BASE + 3]
    with pytest.raises(IllegalAction) as caught:
        state.apply(BID_BASE + 4)
    assert caught.value.rule_id == "R-M-1"


def test_r_m_3_mirror_with_no_spade_bids_nil() -> None:
    """R-M-3: no spade, nil; Mirror without nil is refused (a hand could not bid)."""
    spadeless = [c for c in range(39) if c % 3 == 0][:13]
    state = deal(load_rules("mirror"), W, {N: spadeless})
    assert list(state.legal_actions()) == [BID_BASE]
    with pytest.raises(RulesProblems, match="need nil"):
        dataclasses.replace(load_rules("mirror"), nil=dataclasses.replace(FOUR.nil, enabled=False))


def test_r_w_1_whiz_bids_nil_or_the_spades_held() -> None:
    """R-W-1: with two spades, nil or 2 (jokers count as spades, R-J-10)."""
    state = deal(load_rules("whiz"), W, {N: cards("AS 2S")})
    assert list(state.legal_actions()) == [BID_BASE, BID_BASE + 2]
    assert state.spade_count(N) == 2


def test_e_mb_1_team_minimum_after_a_one_and_a_nil() -> None:
    """R-MB-1 (E-MB-1): minimum 4: N bids 1, S must bid 3 or more; after N's nil, 4 or more."""
    rules = dataclasses.replace(FOUR, bidding=BiddingRules(team_min=4))
    for first, least in ((1, 3), (0, 4)):
        state = deal(rules, W, {})
        state.apply(BID_BASE + first)
        state.apply(BID_BASE + 3)  # E
        assert min(state.legal_actions()) == BID_BASE + least


# --------------------------------------------------------------------------- scoring


def _score(rules: Rules, bids: list[int], tricks: list[int], bags: int = 0) -> tuple[int, int]:
    r = score_side(rules, bids, [False] * 4, tricks, [N, S], 0, bags)
    return r.points, r.bags_total


def test_e_t_1_ten_for_two_hundred() -> None:
    """R-T-1 (E-T-1): N 6 + S 4 = 10, taking 10: +200 (the standard rules give 100)."""
    assert _score(dataclasses.replace(FOUR, ten_for_two_hundred=True), [6, 0, 4, 0], [5, 0, 5, 3])[0] == 200
    assert _score(FOUR, [6, 0, 4, 0], [5, 0, 5, 3])[0] == 100


def test_e_t_2_the_failed_ten_and_r_t_3_exact() -> None:
    """R-T-2 (E-T-2), R-H-25: a failed ten loses the set value; R-T-3, R-H-24: exact ten only."""
    ten = dataclasses.replace(FOUR, ten_for_two_hundred=True, ten_for_two_hundred_set=200)
    assert _score(ten, [6, 0, 4, 0], [5, 0, 4, 4])[0] == -200
    assert (
        _score(dataclasses.replace(ten, ten_for_two_hundred_set=None), [6, 0, 4, 0], [5, 0, 4, 4])[0] == -100
    )
    exact = dataclasses.replace(ten, ten_for_two_hundred_exact=True)
    assert _score(exact, [7, 0, 4, 0], [6, 0, 5, 2])[0] == 110
    assert _score(dataclasses.replace(ten, ten_for_two_hundred=True), [7, 0, 4, 0], [6, 0, 5, 2])[0] == 200
    with pytest.raises(RulesProblems, match="ten_for_two_hundred"):
        dataclasses.replace(FOUR, ten_for_two_hundred_exact=True)


def test_e_b_1_a_boston_made_wins_the_game() -> None:
    """R-B-1, R-B-2 (E-B-1), R-H-35: N 7 + S 6 = 13 made: N-S win at once, whatever the score."""
    rules = dataclasses.replace(FOUR, boston=BostonRules(mode="win"))
    hands = {N: list(range(39, 52)), S: list(range(0, 13))}
    state = State(rules, W, scores=[-300, 400])
    state.deal(_deck(W, hands))
    bid_all(state, {N: 7, E: 1, S: 6, W: 1})
    while not state.is_terminal():
        state.apply(state.legal_actions()[-1] if state.current_player() == N else state.legal_actions()[0])
    assert state.results[-1].sides[0].boston and state.winner() == 0


def _deck(dealer: int, hands: Mapping[int, Sequence[int]]) -> list[int]:
    full = {s: list(hands.get(s, ())) for s in range(4)}
    rest = [c for c in range(52) if all(c not in h for h in full.values())]
    for s in range(4):
        while len(full[s]) < 13:
            full[s].append(rest.pop(0))
    deck = [0] * 52
    for k in range(4):
        deck[k::4] = full[(dealer + 1 + k) % 4]
    return deck


def test_e_b_2_a_boston_for_points_either_way() -> None:
    """R-B-2 (E-B-2), R-H-36: 13 bid and 12 taken under "points" 200: -200; made: +200."""
    rules = dataclasses.replace(FOUR, boston=BostonRules(mode="points", value=200))
    assert _score(rules, [7, 0, 6, 0], [6, 1, 6, 0])[0] == -200
    assert _score(rules, [7, 0, 6, 0], [7, 0, 6, 0])[0] == 200
    assert _score(FOUR, [7, 0, 6, 0], [6, 1, 6, 0])[0] == -130


def test_r_nv_5_a_failed_nil_beside_a_failed_two() -> None:
    """R-NV-5, R-NV-1: nil and 2, each taking one trick: -100 - 20, and the nil's trick one
    bag, worth its point under ``bags`` (-119); MSN's bag without a point is not offered."""
    assert _score(FOUR, [0, 0, 2, 0], [1, 6, 1, 5]) == (-119, 1)
    half = dataclasses.replace(FOUR, nil=dataclasses.replace(FOUR.nil, value=50))
    assert _score(half, [0, 0, 2, 0], [0, 6, 2, 5])[0] == 70


def test_e_bg_1_the_bag_cycle() -> None:
    """R-BG-1 (E-BG-1): 8 bags and 3 more: -100, one bag left."""
    assert _score(FOUR, [3, 0, 2, 0], [4, 3, 4, 2], bags=8) == (53 - 100, 1)


def test_e_bg_2_five_bags_for_fifty() -> None:
    """R-BG-1 with limit 5 and penalty 50 (E-BG-2): 4 bags and 2 more: -50, one left."""
    rules = dataclasses.replace(FOUR, bags=dataclasses.replace(FOUR.bags, limit=5, penalty=50))
    assert _score(rules, [3, 0, 2, 0], [4, 4, 3, 2], bags=4) == (52 - 50, 1)


def test_e_bg_3_overtricks_worth_nothing() -> None:
    """R-BG-4 (E-BG-3): bags.value 0: bid 6 and take 8 for 60, the bags still counted."""
    rules = dataclasses.replace(FOUR, bags=dataclasses.replace(FOUR.bags, value=0))
    assert _score(rules, [3, 0, 3, 0], [4, 3, 4, 2]) == (60, 2)


def test_r_e_2_the_hand_limit() -> None:
    """R-E-2, R-H-26: the game ends after the hands allowed, the higher score winning."""
    rules = dataclasses.replace(FOUR, hand_limit=1)
    state = deal(rules, W, {N: list(range(39, 52))})
    bid_all(state, {N: 4, E: 1, S: 1, W: 1})
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    assert len(state.results) == 1 and state.winner() == 0


# --------------------------------------------------------------------------- leads


def test_e_l_3_a_lead_from_only_spades() -> None:
    """R-L-2 (E-L-3), R-H-30: N holds only spades and leads one: "played" breaks spades,
    "trumped" does not."""
    for breaking, broken in (("played", True), ("trumped", False)):
        rules = dataclasses.replace(FOUR, play=PlayRules(breaking=breaking))  # type: ignore[arg-type]
        state = deal(rules, W, {N: list(range(39, 52))})
        bid_all(state, {N: 4, E: 1, S: 1, W: 1})
        play(state, "2S")
        while state.trick:
            state.apply(state.legal_actions()[0])
        assert state.spades_broken() is broken


def test_r_l_5_no_spade_lead_on_the_first_trick() -> None:
    """R-L-5, R-H-31: spades may be led any time, but not to the first trick."""
    rules = dataclasses.replace(FOUR, play=PlayRules(spades_break=False, no_spade_lead_first_trick=True))
    state = deal(rules, W, {N: cards("AS 3H")})
    bid_all(state, {N: 4, E: 1, S: 1, W: 1})
    assert cards("AS")[0] not in state.legal_actions()
    with pytest.raises(IllegalAction) as caught:
        state.apply(cards("AS")[0])
    assert caught.value.rule_id == "R-L-5"


@pytest.mark.parametrize("name", ["cutthroat", "jokers", "joker-joker-deuce-deuce", "solo"])
def test_r_ct_1_a_state_is_rebuilt_from_an_observation_of_a_variant(name: str) -> None:
    """R-CT-1, R-J-2: the search bots' worlds (State.from_observation) hold the variant's
    deck and hand size: the rebuilt state offers the same legal cards."""
    rules = load_rules(name)
    state = State(rules, 0)
    state.deal(deck_for("obs", 0, deck_cards(rules)))
    while state.trick_no < 2:
        state.apply(state.legal_actions()[0])
    hands = [sum(1 << c for c in state.hand_of(s)) for s in range(rules.players)]
    world = State.from_observation(state.observation(state.current_player()), hands, rules)
    assert world.legal_actions() == state.legal_actions() and world.scores == state.scores
