"""The C search's walk from its first guess (spades_cli.solver.fast): with no guess, the
trick count of a whole team is asked from an estimate of the team's tricks, one step at
a time (as DDS does); the values stay the brute-force search's (R-C-4 trick winner,
R-C-3 follow suit, R-C-6 breaking spades), the questions only change order."""

from __future__ import annotations

import pytest
from helpers.solver import FOUR, brute, brute_value, random_ending, variant
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spades_cli.engine import BID_BASE, PLAY, State, deck_for
from spades_cli.presets import load_rules
from spades_cli.solver import fast as ddfast
from spades_cli.solver.fast import FastSolver, estimate_tricks, stepped
from spades_cli.solver.outcome import Outcome

pytestmark = pytest.mark.skipif(not ddfast.available(), reason="the C search core was not built")


@given(top=st.integers(0, 17), value=st.integers(0, 17), start=st.integers(0, 17))
def test_the_walk_from_any_start_finds_the_greatest_value_reached(top: int, value: int, start: int) -> None:
    values = [float(v) for v in range(top + 1)]
    value, start = min(value, top), min(start, top)
    asked: list[float] = []

    def reaches(u: float) -> bool:
        asked.append(u)
        return u <= value

    assert stepped(values, reaches, start) == value
    # one step at a time from the start (the value and the next one above asked), the
    # least value never asked
    assert len(asked) <= abs(start - value) + 2
    assert 0.0 not in asked


def _dealt(seed: int) -> State:
    state = State(load_rules("four-player"), seed % 4)
    state.deal(deck_for(seed, 0))
    while state.phase != PLAY:
        state.apply(min(a for a in state.legal_actions() if a > BID_BASE))
    return state


@pytest.mark.parametrize("seed", [17, 23])
def test_a_deal_valued_from_the_estimate_as_from_any_guess(seed: int) -> None:
    # R-C-4, R-C-6: from the deal, N-S's or E-W's tricks: the estimate's walk and the
    # halving from any guess give the same value.
    state = _dealt(seed)
    side = state.current % 2
    oc = Outcome(state, side, value="tricks")
    got = FastSolver(state, side, oc.groups, oc.table, oc.keen, oc.linear).value()
    for guess in (0.0, 6.0, 13.0):
        again = FastSolver(state, side, oc.groups, oc.table, oc.keen, oc.linear)
        assert again.value(guess) == got


def test_the_estimate_stays_within_the_tricks_left() -> None:
    for seed in range(1, 30):
        state = _dealt(seed)
        oc = Outcome(state, 0, value="tricks")
        solver = FastSolver(state, 0, oc.groups, oc.table, oc.keen, oc.linear)
        assert solver.counted_team == 0
        for side in (0, 1):
            assert 0 <= estimate_tricks(solver.hands, solver.team, side, solver.trump_suit, 13) <= 13


@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), spades_break=st.booleans())
def test_every_card_of_a_four_trick_ending_is_brute_forces(seed: int, spades_break: bool) -> None:
    # R-C-3, R-C-4, R-C-6: four tricks left (runs of equivalent cards split between
    # tricks, where what a bound depended on must cover the run's next card): the value
    # and every card's value are brute force's.
    state = random_ending(variant(FOUR, spades_break=spades_break), seed, 4)
    side = state.current % 2
    oc = Outcome(state, side, value="tricks")
    want = brute_value(oc)
    fast = FastSolver(state, side, oc.groups, oc.table, oc.keen, oc.linear)
    assert fast.value() == brute(state.clone(), side, want)
    values = fast.move_values()
    for card in state.legal_actions():
        child = state.clone()
        child.apply(card)
        assert values[card] == brute(child, side, want)


@pytest.mark.slow
@pytest.mark.parametrize("spades_break", [True, False])
def test_every_card_of_eight_trick_endings_is_the_python_solvers(spades_break: bool) -> None:
    # R-C-3, R-C-4, R-C-6: eight tricks left, each side's tricks. The sure tricks cut
    # with bounds that depend only on the top cards they counted (a seat's cashes, the
    # top spades, as many as the question needs) and the table keeps them for positions
    # that differ below those cards: every card's value is still the Python solver's.
    rules = variant(FOUR, spades_break=spades_break)
    for seed in range(20):
        state = random_ending(rules, 900 + seed, 8)
        for side in (0, 1):
            oc = Outcome(state, side, value="tricks")
            fast = FastSolver(state, side, oc.groups, oc.table, oc.keen, oc.linear)
            assert fast.move_values() == oc.solver(state).move_values()
