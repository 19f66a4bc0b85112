"""Scoring and winning (R-C-8 to R-C-11, R-2P-3, R-2P-6, R-2P-8, R-4P-6 to R-4P-8) and the
scoring house rules. Every test plays whole hands through ``State.apply``: the hands are
scripted so that each seat takes the number of tricks the example needs."""

from __future__ import annotations

import dataclasses

from helpers.engine import FOUR, N2, S2, TWO, E, N, S, W, run_hand

from spades_cli.engine import OVER, Rules, State
from spades_cli.engine.rules import BagRules, BiddingRules, NilRules


def four(**kw: object) -> Rules:
    return dataclasses.replace(FOUR, **kw)  # type: ignore[arg-type]


# ----------------------------------------------------------------------- contracts and bags


def test_r_c_8_bid_7_take_8_scores_71() -> None:
    # R-4P-6: N 4 + S 3 = 7; N-S take 5 + 3 = 8.
    result = run_hand(State(FOUR, W), (5, 2, 3, 3), {N: 4, E: 2, S: 3, W: 3})
    ns, ew = result.sides
    assert (ns.contract, ns.tricks, ns.points, ns.bags, ns.made) == (7, 8, 71, 1, True)
    assert (ew.contract, ew.tricks, ew.points, ew.bags) == (5, 5, 50, 0)
    assert result.scores == (71, 50)
    # The same example for one player in the two-player game (R-2P-6).
    two = run_hand(State(TWO, N2), (8, 5), {N2: 7, S2: 5})
    assert two.scores == (71, 50) and two.sides[0].bags == 1


def test_r_c_8_team_bidding_7_and_taking_6_loses_70() -> None:
    result = run_hand(State(FOUR, W), (3, 4, 3, 3), {N: 4, E: 3, S: 3, W: 3})
    ns, ew = result.sides
    assert (ns.contract, ns.tricks, ns.points, ns.bags, ns.made) == (7, 6, -70, 0, False)
    assert ew.points == 61
    assert result.scores == (-70, 61)


def test_r_c_9_three_hand_bag_example_ends_at_21_with_1_bag() -> None:
    # R-C-9 seed example for one player: 4/7, 3/6, 4/9 -> 43, 33, 45 - 100; total 21, 1 bag carried.
    state = State(TWO, N2)
    plan = [((7, 6), {N2: 4, S2: 6}), ((6, 7), {N2: 3, S2: 7}), ((9, 4), {N2: 4, S2: 4})]
    results = [run_hand(state, counts, by_seat) for counts, by_seat in plan]
    north = [r.sides[0] for r in results]
    assert [s.points for s in north] == [43, 33, -55]
    assert [s.bags for s in north] == [3, 3, 5]
    assert [s.bags_total for s in north] == [3, 6, 1]
    assert [s.bag_penalty for s in north] == [0, 0, -100]
    assert state.scores == [21, 170] and state.bags == [1, 0]


def test_r_4p_6_team_bags_accumulate_across_hands() -> None:
    # R-4P-6 with R-C-9 per team: 4 + 4 + 3 bags = 11 -> -100 in the third hand, 1 carried.
    state = State(FOUR, N)
    run_hand(state, (6, 2, 3, 2), {N: 3, E: 2, S: 2, W: 2})
    run_hand(state, (5, 2, 4, 2), {N: 3, E: 2, S: 2, W: 2})
    third = run_hand(state, (5, 2, 3, 3), {N: 3, E: 2, S: 2, W: 3})
    assert third.sides[0].bag_penalty == -100
    assert state.bags == [1, 0]
    assert state.scores == [54 + 54 + 53 - 100, 40 + 40 + 50]


def test_r_c_9_reaching_exactly_10_bags_costs_100_and_leaves_0() -> None:
    # R-C-9: "each time the running count reaches 10": N-S bid 2 and take 12.
    result = run_hand(State(FOUR, W), (6, 1, 6, 0), {N: 1, E: 1, S: 1, W: 1})
    ns = result.sides[0]
    assert (ns.bags, ns.bag_penalty, ns.bags_total, ns.points) == (10, -100, 0, 20 + 10 - 100)
    assert result.sides[1].points == -20


# ----------------------------------------------------------------------- nil and double nil


def test_r_c_10_nil_plus_or_minus_100() -> None:
    state = State(FOUR, W)
    made = run_hand(state, (0, 4, 6, 3), {N: 0, E: 4, S: 6, W: 3})
    assert made.sides[0].nil_points == 100 and made.sides[0].points == 160
    failed = run_hand(state, (1, 3, 6, 3), {N: 0, E: 3, S: 6, W: 3})
    assert failed.sides[0].nil_points == -100
    assert failed.sides[0].points == -100 + 60 + 1  # R-4P-7: the failed nil's trick is a team bag
    two = State(TWO, N2)
    assert run_hand(two, (0, 13), {N2: 0, S2: 13}).sides[0].points == 100
    assert run_hand(two, (2, 11), {N2: 0, S2: 11}).sides[0].points == -100


def test_r_2p_3_double_nil_plus_or_minus_200() -> None:
    state = State(TWO, S2)
    made = run_hand(state, (0, 13), {S2: 13}, blind={N2})
    assert made.blind == (True, False) and made.bids == (0, 13)
    assert made.sides[0].nil_points == 200 and made.scores == (200, 130)
    failed = run_hand(state, (1, 12), {S2: 12}, blind={N2})
    assert failed.sides[0].points == -200 and failed.sides[0].bags == 0  # R-2P-6 decision
    assert state.scores == [0, 250]


def test_r_2p_6_failed_nil_scores_only_its_penalty() -> None:
    # R-2P-6 decision (nil.failed_tricks "none"): the tricks earn nothing and are not bags.
    result = run_hand(State(TWO, N2), (4, 9), {N2: 0, S2: 9})
    assert result.sides[0].points == -100 and result.sides[0].bags == 0 and result.sides[0].tricks == 4


def test_r_4p_7_failed_nil_tricks_are_bags_not_toward_the_partner() -> None:
    # N nil takes 2; S bid 4 takes 3: S is set (-40), N -100, 2 team bags.
    result = run_hand(State(FOUR, W), (2, 4, 3, 4), {N: 0, E: 4, S: 4, W: 4})
    ns = result.sides[0]
    assert (ns.contract, ns.contract_points, ns.nil_points, ns.bags, ns.points) == (4, -40, -100, 2, -138)
    assert not ns.made
    assert (ns.tricks, ns.counted) == (5, 3)  # only S's 3 tricks count toward the contract


def test_house_failed_nil_tricks_count_for_the_partner() -> None:
    # R-H-11 (nil.failed_tricks)
    # nil.failed_tricks "partner": the same hand, but N's 2 tricks help S make 4 (5 >= 4).
    rules = four(nil=NilRules(failed_tricks="partner"))
    result = run_hand(State(rules, W), (2, 4, 3, 4), {N: 0, E: 4, S: 4, W: 4})
    ns = result.sides[0]
    assert (ns.contract_points, ns.nil_points, ns.bags, ns.points, ns.made) == (40, -100, 1, -59, True)
    assert ns.counted == 5


def test_r_4p_7_both_partners_nil_no_contract_tricks_are_bags() -> None:
    state = State(FOUR, W)
    result = run_hand(state, (0, 6, 2, 5), {N: 0, E: 6, S: 0, W: 5})
    ns = result.sides[0]
    assert (ns.contract, ns.nil_points, ns.bags, ns.points) == (0, 0, 2, 2)
    both = run_hand(state, (0, 6, 0, 7), {N: 0, E: 6, S: 0, W: 7})
    assert both.sides[0].points == 200 and both.sides[0].bags == 0


def test_house_nil_value_50() -> None:
    # R-H-10 (nil.value)
    rules = four(nil=NilRules(value=50))
    state = State(rules, W)
    assert run_hand(state, (0, 4, 6, 3), {N: 0, E: 4, S: 6, W: 3}).sides[0].points == 110
    assert run_hand(state, (1, 3, 6, 3), {N: 0, E: 3, S: 6, W: 3}).sides[0].points == -50 + 60 + 1


def test_house_nil_off_bid_0_is_an_ordinary_bid() -> None:
    # R-H-9 (nil.enabled)
    rules = four(nil=NilRules(enabled=False), bidding=BiddingRules(min_bid=0))
    result = run_hand(State(rules, W), (2, 4, 3, 4), {N: 0, E: 4, S: 4, W: 4})
    ns = result.sides[0]
    assert (ns.contract, ns.nil_points, ns.points, ns.bags) == (4, 0, 41, 1)


# ----------------------------------------------------------------------- bag options


def test_house_bag_limit_7_penalty_50() -> None:
    # R-H-18, R-H-19 (bags.limit, bags.penalty)
    rules = four(bags=BagRules(limit=7, penalty=50))
    state = State(rules, N)
    first = run_hand(state, (6, 2, 3, 2), {N: 3, E: 2, S: 2, W: 2})
    second = run_hand(state, (5, 2, 4, 2), {N: 3, E: 2, S: 2, W: 2})
    assert (first.sides[0].points, first.sides[0].bags_total) == (54, 4)
    assert (second.sides[0].points, second.sides[0].bag_penalty, second.sides[0].bags_total) == (4, -50, 1)


def test_house_bags_cost_one_point_each() -> None:
    # R-H-17 (bags.value)
    rules = four(bags=BagRules(value=-1, limit=None))
    state = State(rules, W)
    result = run_hand(state, (5, 2, 3, 3), {N: 2, E: 2, S: 3, W: 3})
    assert (result.sides[0].points, result.sides[0].bags) == (50 - 3, 3)
    for _ in range(3):
        run_hand(state, (5, 2, 3, 3), {N: 2, E: 2, S: 3, W: 3})
    assert state.scores[0] == 4 * 47 and state.bags[0] == 12  # no limit: never a penalty


def test_house_no_bags() -> None:
    # R-H-16 (bags.enabled)
    rules = four(bags=BagRules(enabled=False))
    state = State(rules, W)
    for _ in range(3):
        result = run_hand(state, (9, 1, 2, 1), {N: 2, E: 1, S: 2, W: 1})
        assert (result.sides[0].points, result.sides[0].bags) == (40, 0)
    assert state.scores == [120, 60] and state.bags == [0, 0]  # 21 overtricks, no penalty


def test_house_ten_for_two_hundred() -> None:
    # R-H-5 (ten_for_two_hundred)
    rules = four(ten_for_two_hundred=True)
    state = State(rules, W)
    assert run_hand(state, (5, 1, 5, 2), {N: 5, E: 1, S: 5, W: 2}).sides[0].points == 200
    assert run_hand(state, (6, 1, 5, 1), {N: 5, E: 1, S: 5, W: 1}).sides[0].points == 201
    assert run_hand(state, (5, 2, 4, 2), {N: 5, E: 1, S: 5, W: 1}).sides[0].points == -100
    plain = run_hand(State(FOUR, W), (5, 1, 5, 2), {N: 5, E: 1, S: 5, W: 2})
    assert plain.sides[0].points == 100


# ----------------------------------------------------------------------- winning


NIL_6_7 = ((0, 0, 6, 7), {N: 0, E: 0, S: 6, W: 7})  # N-S 160, E-W 170
NIL_7_6 = ((0, 0, 7, 6), {N: 0, E: 0, S: 7, W: 6})  # N-S 170, E-W 160
PLAIN_6_7 = ((3, 3, 3, 4), {N: 3, E: 3, S: 3, W: 4})  # N-S 60, E-W 70


def play_plan(state: State, plan: list[tuple[tuple[int, ...], dict[int, int]]]) -> list[tuple[int, int]]:
    out = []
    for counts, by_seat in plan:
        assert not state.is_terminal()
        out.append(run_hand(state, counts, by_seat).scores)
    return out


def test_r_c_11_both_sides_over_500_in_one_hand_higher_wins() -> None:
    # R-C-11 / R-4P-8: 390-400 after three hands, then 550-570: E-W win.
    state = State(FOUR, N)
    scores = play_plan(state, [NIL_6_7, NIL_7_6, PLAIN_6_7, NIL_6_7])
    assert scores == [(160, 170), (330, 330), (390, 400), (550, 570)]
    assert state.is_terminal() and state.phase == OVER and state.winner() == 1
    assert list(state.legal_actions()) == [] and state.current_player() < 0


def test_r_c_11_tie_at_500_or_more_plays_another_hand() -> None:
    state = State(FOUR, N)
    scores = play_plan(state, [NIL_6_7, NIL_7_6, PLAIN_6_7, NIL_7_6])
    assert scores[-1] == (560, 560)
    assert not state.is_terminal() and state.winner() is None and state.hand_no == 4
    play_plan(state, [PLAIN_6_7])
    assert state.scores == [620, 630] and state.is_terminal() and state.winner() == 1


def test_r_c_11_reaching_500_ends_the_game() -> None:
    state = State(FOUR, N)
    scores = play_plan(state, [NIL_7_6, NIL_7_6, NIL_7_6])
    assert scores[-1] == (510, 480)
    assert state.is_terminal() and state.winner() == 0 and len(state.results) == 3


def test_r_2p_8_two_player_game_to_500() -> None:
    state = State(TWO, N2)
    for _ in range(3):
        run_hand(state, (0, 13), {S2: 13}, blind={N2})  # +200 double nil, S +130
    assert state.scores == [600, 390] and state.is_terminal() and state.winner() == 0


def test_house_losing_score() -> None:
    # R-H-2 (losing_score)
    rules = four(losing_score=-200)
    state = State(rules, N)
    first = run_hand(state, (0, 7, 0, 6), {N: 7, E: 7, S: 6, W: 6})
    assert first.scores == (-130, 130) and not state.is_terminal()
    run_hand(state, (0, 7, 0, 6), {N: 7, E: 7, S: 6, W: 6})
    assert state.scores == [-260, 260] and state.is_terminal() and state.winner() == 1


def test_house_mercy() -> None:
    # R-H-3 (mercy)
    rules = four(mercy=300)
    state = State(rules, N)
    run_hand(state, (0, 7, 0, 6), {N: 4, E: 7, S: 3, W: 6})
    assert state.scores == [-70, 130] and not state.is_terminal()
    run_hand(state, (0, 7, 0, 6), {N: 4, E: 7, S: 3, W: 6})
    assert state.scores == [-140, 260] and state.is_terminal() and state.winner() == 1
