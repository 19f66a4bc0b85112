"""The double-dummy solvers on the family's decks, trump orders and seats (issue 30): the
Python solver, the C search core and a plain minimax over the engine's own moves agree
on small endings of every shipped preset that changes the cards or the sides."""

from __future__ import annotations

import dataclasses

import pytest
from helpers.solver import brute, brute_value, random_ending

from spades_cli.engine import PLAY, State, parse_card
from spades_cli.engine.cards import BIG_JOKER, LITTLE_JOKER, SPADES
from spades_cli.engine.rules import PlayRules
from spades_cli.presets import load_rules
from spades_cli.repl.claim import Claim
from spades_cli.solver import fast
from spades_cli.solver.deck import SLOTS, solver_deck
from spades_cli.solver.fast import FastSolver
from spades_cli.solver.outcome import Outcome
from spades_cli.solver.search import Solver

JOKERS = load_rules("jokers")
JJDD = load_rules("joker-joker-deuce-deuce")


def _endings(rules_name: str, left: int, cards: tuple[int, ...] = (), count: int = 3) -> list[State]:
    """``count`` endings of ``left`` tricks dealt from seeds 1.. (the first ones that still
    hold every card of ``cards``, when given)."""
    rules = load_rules(rules_name)
    out: list[State] = []
    seed = 0
    while len(out) < count:
        seed += 1
        st = random_ending(rules, seed, left)
        held = 0
        for h in st.hands:
            held |= h
        if st.phase == PLAY and all(held >> c & 1 for c in cards):
            out.append(st)
    return out


def _check(state: State, value: str) -> None:
    """Every side's value of every legal card: the Python solver's, the C core's and
    minimax's the same."""
    rules = state.rules
    for side in range(rules.sides):
        oc = Outcome(state, side, value=value)
        values = oc.solver(state).move_values()
        want = {}
        for card in state.legal_actions():
            child = state.clone()
            child.apply(card)
            want[card] = brute(child, side, brute_value(oc))
        assert values == want, (rules.name, side, value)
        if fast.available():
            core = FastSolver(state, side, oc.groups, oc.table, oc.keen, oc.linear)
            assert core.move_values() == want, (rules.name, side, value)


def test_r_j_1_the_jokers_are_the_two_top_spades_of_the_solvers_deck() -> None:
    """R-J-1, R-J-2: Big Joker above Little Joker above the ace of spades; 2C and 2D out."""
    deck = solver_deck(JOKERS)
    assert deck.slot(BIG_JOKER) == SPADES * SLOTS + 14
    assert deck.slot(LITTLE_JOKER) == SPADES * SLOTS + 13
    assert deck.slot(parse_card("AS")) == SPADES * SLOTS + 12
    assert deck.slot(parse_card("3C")) == 0  # the two of clubs is out: the three is lowest
    with pytest.raises(ValueError, match="not a card of this deck"):
        deck.slot(parse_card("2D"))


def test_r_j_8_r_j_10_the_two_of_diamonds_is_a_spade_above_the_two_of_spades() -> None:
    """R-J-8, R-J-9, R-J-10: BJ > LJ > 2D > 2S > AS, all 16 of them spades; 2H and 2C out."""
    deck = solver_deck(JJDD)
    top = [deck.card(SPADES * SLOTS + k) for k in range(16)][::-1]
    assert top[:5] == [BIG_JOKER, LITTLE_JOKER, parse_card("2D"), parse_card("2S"), parse_card("AS")]
    assert top[-1] == parse_card("3S")
    assert deck.slot(parse_card("3D")) == 1 * SLOTS  # diamonds start at the three


@pytest.mark.parametrize("value", ["tricks", "points"])
def test_r_j_1_jokers_endings_agree_with_brute_force(value: str) -> None:
    """R-J-1: endings where a joker is still out, solved three ways."""
    for state in _endings("jokers", 3, (BIG_JOKER,)):
        _check(state, value)


@pytest.mark.parametrize("value", ["tricks", "points"])
def test_r_j_10_jjdd_endings_with_the_two_of_diamonds_agree(value: str) -> None:
    """R-J-8, R-J-10: the two of diamonds follows, leads and trumps as a spade; endings
    that still hold it and a joker, solved three ways."""
    for state in _endings("joker-joker-deuce-deuce", 3, (parse_card("2D"), LITTLE_JOKER)):
        _check(state, value)


@pytest.mark.parametrize("value", ["tricks", "points"])
def test_r_ct_1_cutthroat_endings_of_three_seats_agree(value: str) -> None:
    """R-CT-1, R-CT-7: three seats of 17 cards, each a side; each side's value with the
    two others playing against it."""
    for state in _endings("cutthroat", 4):
        assert state.n == 3 and 17 - state.trick_no == 4
        _check(state, value)


@pytest.mark.parametrize("value", ["tricks", "points"])
def test_r_i_1_solo_endings_of_four_sides_agree(value: str) -> None:
    """R-I-1: four seats without partners; each seat's value with the three others
    playing against it."""
    for state in _endings("solo", 3):
        _check(state, value)


@pytest.mark.parametrize("name", ["suicide", "mirror", "whiz"])
def test_r_s_1_the_bidding_variants_solve_as_the_ordinary_game(name: str) -> None:
    """R-S-1, R-M-1, R-W-1: the bids differ, the play is the ordinary game's."""
    for state in _endings(name, 3, count=2):
        _check(state, "points")


def test_r_ct_1_each_seat_s_figure_against_the_two_others_sums_to_17_at_most() -> None:
    """R-CT-1: the C core answers a nine-trick ending of three seats (each seat's tricks,
    the others against it); all three can play for their figures at once, so the
    figures and the tricks taken sum to 17 at most."""
    if not fast.available():
        pytest.skip("the C search core was not built")
    (state,) = _endings("cutthroat", 9, count=1)
    figures = []
    for side in range(3):
        oc = Outcome(state, side, value="tricks")
        figures.append(FastSolver(state, side, oc.groups, oc.table, oc.keen, oc.linear).value())
    assert all(t <= f <= t + 9 for t, f in zip(state.tricks_won, figures, strict=True))
    assert sum(figures) <= 17


def test_r_ct_1_python_and_c_agree_on_a_longer_cutthroat_ending() -> None:
    """R-CT-1: seven tricks of three seats, beyond brute force: both solvers the same."""
    if not fast.available():
        pytest.skip("the C search core was not built")
    for state in _endings("cutthroat", 7, count=2):
        for side in range(3):
            oc = Outcome(state, side, value="points")
            py = Solver(state, side, oc.groups, oc.table, oc.keen, oc.linear).move_values()
            assert FastSolver(state, side, oc.groups, oc.table, oc.keen, oc.linear).move_values() == py


def test_r_f_3_the_solvers_play_the_lowest_club_to_the_first_trick() -> None:
    """R-F-3, R-H-21: the lowest-club row (a keep of "the lowest card of the mask") is read
    by both solvers: their legal cards on the first trick are the engine's."""
    rules = dataclasses.replace(load_rules("four-player"), play=PlayRules(lowest_club_first_trick=True))
    for seed in range(4):
        state = random_ending(rules, seed, 13)
        assert state.first_trick
        oc = Outcome(state, 0, value="tricks")
        solver = oc.solver(state)
        hand = solver.hands[state.current]
        assert solver._legal(state.current, hand) == solver.deck.slots(state.legal_mask())
        if fast.available():
            core = FastSolver(state, 0, oc.groups, oc.table, oc.keen, oc.linear)
            assert sorted(core.deck.card(c) for c in core.core.legal()) == list(state.legal_actions())


def test_r_ct_1_a_cutthroat_claim_is_certain_exactly_when_minimax_says_so() -> None:
    """R-CT-1: a claim of every trick left (17-trick hands, three seats) is checked by the
    solver against the two other seats: certain exactly when minimax gives them all."""
    for state in _endings("cutthroat", 3, count=6):
        seat = state.current
        oc = Outcome(state, seat, value="tricks")
        best = brute(state, seat, brute_value(oc))
        claim = Claim(state, seat, [seat])
        assert claim.certain == (best == state.tricks_won[seat] + 17 - state.trick_no)
