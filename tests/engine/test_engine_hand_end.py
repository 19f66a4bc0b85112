"""A hand's end (R-C-5, R-4P-2): the per-seat lists reset in place, the trick winners
kept packed, and the results of the ended hands built only when read, the same for a
state, its clones and a replay."""

from __future__ import annotations

import itertools
import random

from helpers.engine import FOUR, TWO

from spades_cli.engine import DEAL, PLAY, Rules, State, deck_for, rng_for


def _step(state: State, rng: random.Random) -> None:
    if state.phase == DEAL:
        state.deal(deck_for("hand-end", state.hand_no, state.rules.deck_cards))
    else:
        state.apply(rng.choice(state.legal_actions()))


def _game(rules: Rules, seed: int) -> tuple[State, list[State]]:
    """A whole game of random legal moves, and clones taken along the way."""
    state = State(rules, 0)
    rng = random.Random(seed)
    clones = []
    while not state.is_terminal() and state.hand_no < 4:
        if state.phase == PLAY and rng.random() < 0.02:
            clones.append(state.clone())
        _step(state, rng)
    return state, clones


def test_r_4p_2_a_new_hand_starts_with_empty_lists_and_the_last_trick_kept() -> None:
    state = State(FOUR, 0)
    rng = random.Random(5)
    while not (state.trick_no == 12 and len(state.trick) == 3):
        _step(state, rng)
    (card,) = state.legal_actions()
    state.apply(card)
    last = state.last_trick
    assert state.phase == DEAL and state.dealer == 1 and state.hand_no == 1
    assert state.bids == [-1] * 4 and state.blind == [False] * 4 and state.zero == [False] * 4
    assert state.tricks_won == [0] * 4 and state.hands == [0] * 4 and state.tricks == []
    assert last is not None and last.cards[-1] == card and len(last.cards) == 4
    assert sum(state.results[0].tricks) == 13 and state.results[0].tricks[last.winner] >= 1


def test_r_c_5_each_trick_is_led_by_the_last_ones_winner() -> None:
    """The packed winners give the tricks back: each trick's leader won the one before."""
    state = State(FOUR, 0)
    rng = random.Random(11)
    while state.hand_no == 0 and not (state.phase == PLAY and state.trick_no == 12):
        _step(state, rng)
    tricks = state.tricks
    assert len(tricks) == 12
    for before, after in itertools.pairwise(tricks):
        assert after.leader == before.winner
    won = [0] * 4
    for t in tricks:
        won[t.winner] += 1
    assert won == state.tricks_won
    copy = state.clone()
    rebuilt = State.from_observation(state.observation(0), state.hands[:], FOUR)
    assert copy.tricks == tricks and rebuilt.tricks == tricks


def test_results_read_late_are_those_read_at_each_hands_end() -> None:
    """R-4P-2: a game's results are the same whether read after every hand or once at the
    end, and a clone taken mid-hand agrees with the game it came from."""
    for rules, seed in ((FOUR, 1), (TWO, 2)):
        state, clones = _game(rules, seed)
        watched = State(rules, 0)
        rng = random.Random(seed)
        seen = []
        while not watched.is_terminal() and watched.hand_no < 4:
            if watched.phase == PLAY and rng.random() < 0.02:
                pass  # the same draws as _game's clones
            done = len(watched.results)
            _step(watched, rng)
            if len(watched.results) > done:
                seen.append(watched.results[-1])
        assert state.results == seen and watched.history == state.history
        assert clones
        for copy in clones:
            done = len(copy.results)
            assert copy.results == state.results[:done]
            picks = rng_for("hand-end", "clone")
            while copy.phase == PLAY:
                copy.apply(picks.choice(copy.legal_actions()))
            assert len(copy.results) == done + 1 and copy.results[:done] == state.results[:done]
