"""The double-dummy solver (spades_cli.solver.search) against a brute-force search of
the engine's own game tree on small endings, under random rule options (R-C-3 follow
suit, R-C-4 trick winner, R-C-6 breaking spades, the first-trick house rules), and on
a position where only the double-dummy view finds the card that makes the contract."""

from __future__ import annotations

import random
from typing import Any

import pytest
from helpers.positions import hand_108
from helpers.solver import FOUR, TWO, brute, brute_value, random_ending, variant
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spades_cli.bots.normal import NormalBot
from spades_cli.engine import PLAY, rng_for
from spades_cli.presets import rules_from_dict, rules_to_dict
from spades_cli.solver.outcome import Outcome
from spades_cli.solver.search import SearchLimit, Solver, trick_table


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    players=st.sampled_from([2, 4]),
    spades_break=st.booleans(),
    no_spades_first=st.booleans(),
    points=st.booleans(),
)
def test_solver_agrees_with_brute_force_on_small_endings(
    seed: int, players: int, spades_break: bool, no_spades_first: bool, points: bool
) -> None:
    rules = variant(
        FOUR if players == 4 else TWO, spades_break=spades_break, no_spades_first_trick=no_spades_first
    )
    state = random_ending(rules, seed, 2 if players == 4 else 4)
    side = state.current % 2
    oc = Outcome(state, side, value="points" if points else "tricks")
    value = brute_value(oc)
    assert oc.solver(state).value() == brute(state.clone(), side, value)
    # Every card's value is the brute-force value after it.
    for card, v in oc.solver(state).move_values().items():
        child = state.clone()
        child.apply(card)
        assert v == brute(child, side, value)


def test_first_trick_rules_are_respected_from_the_deal() -> None:
    # R-C-6 / R-4P-5: a two-card-per-seat ending is small; a whole deal under a budget
    # either solves or says so, never answers wrongly.
    state = random_ending(FOUR, 5, 13)
    solver = Solver(state, 0, [0, 1, 0, 1], trick_table(2, [0]), None, [1.0, 0.0], 50)
    try:
        solver.value()
    except SearchLimit:
        return
    raise AssertionError("a whole deal cannot be solved in 50 positions")


def test_a_total_budget_caps_every_question_together() -> None:
    # R-C-4: every card's value of a six-trick ending asks many questions; a total
    # budget stops them all within it (one position over at most), where the budget of
    # a question alone would let each of them search that much; a total that suffices
    # changes no value.
    state = random_ending(FOUR, 11, 6)
    oc = Outcome(state, 0, value="points")
    free = oc.solver(state.clone())
    values = free.move_values()
    need = free.searched + free.nodes
    assert need > 400
    capped = oc.solver(state.clone(), need // 2, total=need // 2)
    with pytest.raises(SearchLimit):
        capped.move_values()
    assert need // 2 < capped.searched + capped.nodes <= need // 2 + 1
    roomy = oc.solver(state.clone(), 0, total=need)
    assert roomy.move_values() == values
    assert roomy.searched + roomy.nodes == need


def test_only_the_double_dummy_view_finds_the_card_that_makes_the_contract() -> None:
    # Four-player, two tricks before the end: East holds 8H and QS; E-W bid 4 and have
    # 3. The rule-based player follows with the small heart and the contract fails;
    # with every hand known, the queen of spades makes the fourth trick (R-C-4).
    state = hand_108(FOUR)
    me = state.current
    assert me == 1 and 13 - state.trick_no == 2
    obs = state.observation(me)
    normal = NormalBot().act(obs, FOUR, rng_for(0))
    oc = Outcome(state, 1, value="tricks")
    values = oc.solver(state).move_values()
    assert oc.contracts[1] == 4
    assert values[normal] < 4 <= max(values.values())
    best = max(values, key=lambda c: values[c])
    assert best != normal
    points = Outcome(state, 1, value="points").solver(state).move_values()
    assert points[best] > points[normal]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    players=st.sampled_from([2, 4]),
    spades_break=st.booleans(),
    failed_tricks=st.sampled_from(["bags", "partner", "none"]),
)
def test_one_solver_reused_position_after_position_agrees_with_brute_force(
    seed: int, players: int, spades_break: bool, failed_tricks: str
) -> None:
    # The analysis keeps one solver (one transposition table, shared by the trick and
    # the points questions) for a whole hand and loads position after position; every
    # value and every yes-or-no answer must still be the brute-force one (R-C-3, R-C-4,
    # R-C-6; nil bidders scored on their own tricks, R-4P-7).
    d: dict[str, Any] = rules_to_dict(FOUR if players == 4 else TWO)
    d["name"] = "variant"
    d["play"]["spades_break"] = spades_break
    d["nil"]["failed_tricks"] = failed_tricks if players == 4 else "none"
    rules = rules_from_dict(d, "<test>")
    state = random_ending(rules, seed, 2 if players == 4 else 3)
    points_oc = Outcome(state, 0, value="points")
    tricks_oc = Outcome(state, 0, value="tricks")
    points = points_oc.solver(state)
    tricks = tricks_oc.solver(state)
    points.share(tricks)
    rng = random.Random(seed)
    guess: float | None = None
    while state.phase == PLAY:
        points.load(state)
        tricks.load(state)
        want = brute(state.clone(), 0, brute_value(points_oc))
        guess = points.value(guess)
        assert guess == want
        assert tricks.value() == brute(state.clone(), 0, brute_value(tricks_oc))
        side = state.current % 2
        for card in points.distinct_moves():
            child = state.clone()
            child.apply(card)
            v = brute(child, 0, brute_value(points_oc))
            # Side 0 asks "at least v", side 1 "at most v": each reaches the card's value
            # and nothing better for it.
            assert points.reaches(card, v, side)
            assert not points.reaches(card, v + 1 if side == 0 else v - 1, side)
        state.apply(rng.choice(state.legal_actions()))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), seat=st.integers(0, 3), no_spades_first=st.booleans())
def test_a_seat_alone_with_its_partner_helping_agrees_with_brute_force(
    seed: int, seat: int, no_spades_first: bool
) -> None:
    # The analysis's per-seat figure: one seat's own tricks, its partner helping and
    # the other side against it (the seat is a group of its own, its partner with the
    # opponents in the other group).
    rules = variant(FOUR, no_spades_first_trick=no_spades_first)
    state = random_ending(rules, seed, 2)
    groups = [0 if s == seat else 1 for s in range(4)]
    solver = Solver(state, seat % 2, groups, trick_table(2, [0]), None, [1.0, 0.0])

    def own(tricks: tuple[int, ...]) -> float:
        return float(tricks[seat])

    assert solver.value() == brute(state.clone(), seat % 2, own)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    spades_break=st.booleans(),
    points=st.booleans(),
    seat=st.integers(-1, 3),
)
def test_three_trick_four_player_endings_agree_with_brute_force(
    seed: int, spades_break: bool, points: bool, seat: int
) -> None:
    # Deep enough that the transposition table is read at later tricks' starts: a bound
    # kept for one position is reused for others that share the suit lengths and the
    # owners of the cards that mattered (R-C-3 follow suit, R-C-4 the winner by rank,
    # R-C-6 breaking spades; a nil bidder's own tricks, R-4P-7). Seat -1: the side's
    # tricks or points; else that seat's own tricks, its partner helping.
    rules = variant(FOUR, spades_break=spades_break)
    state = random_ending(rules, seed, 3)
    if seat < 0:
        side = state.current % 2
        oc = Outcome(state, side, value="points" if points else "tricks")
        assert oc.solver(state).value() == brute(state.clone(), side, brute_value(oc))
        return
    groups = [0 if s == seat else 1 for s in range(4)]
    solver = Solver(state, seat % 2, groups, trick_table(2, [0]), None, [1.0, 0.0])

    def own(tricks: tuple[int, ...]) -> float:
        return float(tricks[seat])

    assert solver.value() == brute(state.clone(), seat % 2, own)


def test_above_a_floor_the_value_walk_asks_once_when_kept_and_from_the_top_when_far() -> None:
    """A position that keeps the value after its card costs one question, one step up two;
    from two steps up (a nil kept where the card broke it, say) the rest goes by quarters
    from the top: a few questions for a far value, never one question a step."""
    from spades_cli.solver.sets import greatest_reached

    values = [float(v) for v in range(100)]
    for true, most in ((10.0, 1), (11.0, 2), (12.0, 16), (60.0, 8), (99.0, 8)):
        asked: list[float] = []

        def reaches(u: float, true: float = true, asked: list[float] = asked) -> bool:
            asked.append(u)
            return true >= u

        assert greatest_reached(values, reaches, 10.0, 1) == true
        assert len(asked) <= most, (true, asked)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-200, 200), min_size=1, max_size=12, unique=True), st.data())
def test_the_value_walk_finds_the_value_and_skips_what_a_bound_answers(raw: list[int], data: Any) -> None:
    """The MTD walk (``greatest_reached``) returns the greatest value reached whatever the
    guess; given that the guess is a floor (the value after a card of the side solved for)
    it never asks about the guess, and given a ceiling it never asks above it."""
    from spades_cli.solver.sets import greatest_reached

    values = [float(v) for v in sorted(raw)]
    true = data.draw(st.sampled_from(values))
    guess = data.draw(st.sampled_from(values))
    asked: list[float] = []

    def reaches(u: float) -> bool:
        asked.append(u)
        return true >= u

    assert greatest_reached(values, reaches, guess) == true
    bound = 1 if guess <= true else -1
    asked.clear()
    assert greatest_reached(values, reaches, guess, bound) == true
    if bound > 0:
        assert guess not in asked and all(u > guess for u in asked)
    else:
        assert all(u <= guess for u in asked)
