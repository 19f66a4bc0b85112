"""The scored hands (engine/ledger.py): a state rebuilt from an observation keeps the
hands finished before it, and so do its clones, when it ends a hand of its own."""

from __future__ import annotations

import random

from helpers.engine import FOUR

from spades_cli.engine import DEAL, PLAY, State, deck_for


def test_a_rebuilt_state_keeps_the_earlier_hands_when_it_ends_a_hand() -> None:
    state = State(FOUR, 0)
    rng = random.Random(3)
    while len(state.results) < 2 or state.phase != PLAY:
        if state.phase == DEAL:
            state.deal(deck_for("ledger", state.hand_no))
        else:
            state.apply(rng.choice(state.legal_actions()))
    rebuilt = State.from_observation(state.observation(0), state.hands[:], FOUR)
    for copy in (rebuilt, rebuilt.clone()):
        while copy.phase == PLAY:
            copy.apply(copy.legal_actions()[0])
        assert copy.results[:2] == state.results and len(copy.results) == 3
