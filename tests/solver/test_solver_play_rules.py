"""The solvers take the play rules from the engine (engine/play.py): the Python solver's
legal cards and the C search core's, handed the rules as data, are the engine's own in
every position of random hands under every combination of the play options (R-C-3
follow suit, R-C-6 breaking spades, the first-trick house rules R-H-21 and R-H-22)."""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest
from helpers.engine import FOUR, TWO

from spades_cli.engine import DEAL, PLAY, Rules, State, deck_for
from spades_cli.engine.rules import PlayRules
from spades_cli.solver import fast
from spades_cli.solver.search import Solver, trick_table

COMBOS = [PlayRules(*flags) for flags in itertools.product([True, False], repeat=3)]


def _positions(rules: Rules, seed: int) -> list[State]:
    """Every position of the play of one random hand."""
    rng = random.Random(seed)
    state = State(rules, seed % rules.players)
    state.deal(deck_for(str(seed), 0))
    out = []
    while state.phase != DEAL:
        if state.phase == PLAY:
            out.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
    return out


@pytest.mark.parametrize("play", COMBOS)
def test_the_solvers_legal_cards_are_the_engines(play: PlayRules) -> None:
    for rules in (FOUR, TWO):
        if rules.players == 2 and play.two_of_clubs_leads:
            continue  # a four-player rule
        rules = dataclasses.replace(rules, play=play)
        for seed in range(3):
            positions = _positions(rules, seed)
            table = trick_table(2, [0])
            solver = Solver(positions[0], 0, [s % 2 for s in range(rules.players)], table)
            core = (
                fast.FastSolver(positions[0], 0, [s % 2 for s in range(rules.players)], table)
                if fast.available()
                else None
            )
            for state in positions:
                solver.load(state)
                hand = solver.hands[state.current]  # in slot cards (solver/deck.py)
                assert solver._legal(state.current, hand) == solver.deck.slots(state.legal_mask())
                if core is not None:
                    core.load(state)
                    assert sorted(core.deck.card(c) for c in core.core.legal()) == list(state.legal_actions())
