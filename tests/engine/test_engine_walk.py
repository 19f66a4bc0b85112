"""One walk of a game's history (engine/walk.py).

Random games are played step by step; the walk of their recorded decks and actions,
cut anywhere, must give the state the step-by-step game had at that point. (That no
module imports another in a cycle is tests/structure/test_import_cycles.py's.)
"""

from __future__ import annotations

import dataclasses
import random

from helpers.engine import FOUR, TWO
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spades_cli.engine import DEAL, Rules, State, deck_for
from spades_cli.engine.rules import BlindNilRules, PlayRules
from spades_cli.engine.walk import Walk, replayed, walk

RULE_SETS = [
    FOUR,
    TWO,
    dataclasses.replace(FOUR, blind_nil=BlindNilRules(enabled=True)),
    dataclasses.replace(FOUR, play=PlayRules(two_of_clubs_leads=True, no_spades_first_trick=True)),
    dataclasses.replace(TWO, play=PlayRules(spades_break=False)),
]


def _signature(state: State) -> tuple[object, ...]:
    """Everything a seat or a reader of the state can see."""
    n = state.n
    return (
        state.phase,
        state.current_player(),
        tuple(state.history),
        tuple(state.hands),
        tuple(state.results),
        tuple(state.scores),
        tuple(state.bags),
        state.last_trick,
        tuple(state.legal_actions()),
        tuple(state.observation(s) for s in range(n)),
    )


def _play(rules: Rules, seed: int, hands: int) -> tuple[int, list[tuple[int, ...]], list[int], list[State]]:
    """A random game of up to ``hands`` hands: its first dealer, its decks, the seat that
    took each action and the state after each action (the next hand dealt, as a game
    deals it, when one was)."""
    rng = random.Random(seed)
    dealer = rng.randrange(rules.players)
    state = State(rules, dealer)
    decks: list[tuple[int, ...]] = []
    seats: list[int] = []
    after: list[State] = []
    while not state.is_terminal() and len(state.results) < hands:
        if state.phase == DEAL:
            decks.append(tuple(deck_for(str(seed), len(decks))))
            state.deal(decks[-1])
            if after:
                after[-1] = state.clone()
            continue
        seats.append(state.current_player())
        state.apply(rng.choice(state.legal_actions()))
        after.append(state.clone())
    return dealer, decks, seats, after


@settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(RULE_SETS), seed=st.integers(0, 10**6), hands=st.integers(1, 2), data=st.data())
def test_the_walk_gives_the_state_of_step_by_step_play(
    rules: Rules, seed: int, hands: int, data: st.DataObject
) -> None:
    dealer, decks, seats, after = _play(rules, seed, hands)
    history = after[-1].history
    cut = data.draw(st.integers(1, len(history)))
    assert _signature(replayed(rules, dealer, decks, history[:cut]).state) == _signature(after[cut - 1])
    # Each step gives its action's seat and phase, and there is a deal where each hand begins.
    steps = list(walk(rules, dealer, decks, history))
    assert [s.action for s in steps if s.phase != DEAL] == history
    assert [s.seat for s in steps if s.phase != DEAL] == seats
    assert sum(1 for s in steps if s.phase == DEAL) == len(decks)
    assert _signature(steps[-1].state) == _signature(after[-1])
    w = Walk(rules, dealer, decks)
    assert [w.apply(a).seat for a in history] == seats
