"""``State.last_trick``: the last finished trick (its cards in play order, leader and
winner) stays known after the hand's last trick has scored the hand, so that nobody
works the winner out by comparing trick counts; the game run's ``TrickWon`` events and
the replay's check of a trick line's winner read it."""

from __future__ import annotations

import random
from collections.abc import Iterator

from helpers.engine import (
    FOUR,
    TWO,
    E,
    N,
    S,
    W,
    bid_all,
    deal_4p,
    deck_4p,
    play,
    script_4p,
    trick_winner,
)

from spades_cli.engine import DEAL, PLAY, Phase, State, Trick, deck_for


def test_the_last_trick_of_a_hand_is_kept_after_the_hand_is_scored() -> None:
    state = State(FOUR, dealer=N)
    hands, seq = script_4p(N, [4, 3, 3, 3])  # the seat with most tricks wins the last one
    state.deal(deck_4p(N, hands))
    bid_all(state, {N: 4, E: 3, S: 3, W: 3})
    assert state.last_trick is None
    play(state, seq[:-1])
    leader = state.leader
    played = [c for _, c in state.trick_cards()]
    play(state, seq[-1:])
    assert state.phase == DEAL and len(state.results) == 1  # the hand is scored
    assert state.trick == [] and state.tricks == []
    last = state.last_trick
    assert last == Trick(leader, (*played, seq[-1]), N)
    assert last.cards[(N - leader) % 4] == 39  # N wins the last trick with the two of spades
    # Still known after the next deal, until the next trick ends; a clone knows it too.
    state.deal(deck_for("next", 1))
    assert state.last_trick == last and state.clone().last_trick == last


def random_moves(seed: int) -> Iterator[tuple[State, Phase, list[tuple[int, int]], int]]:
    """The first two hands of a random game (four-player for odd seeds, else two-player):
    after each move (deals left out), the state, the phase and the trick in progress
    (seat, card) before the move, and the action."""
    rng = random.Random(seed)
    state = State(FOUR if seed % 2 else TWO, 0)
    while not state.is_terminal() and len(state.results) < 2:
        if state.phase == DEAL:
            state.deal(deck_for(str(seed), state.hand_no))
            continue
        before, cards = state.phase, state.trick_cards()
        action = rng.choice(state.legal_actions())
        state.apply(action)
        yield state, before, cards, action


def test_every_trick_is_the_last_trick_once_finished_in_random_games() -> None:
    for seed in range(20):
        rules = FOUR if seed % 2 else TWO
        for state, before, cards, card in random_moves(seed):
            if before != PLAY or state.trick:
                continue
            last = state.last_trick
            assert last is not None
            played = [*cards, (0, card)]
            assert last.cards == tuple(c for _, c in played)
            assert last.leader == cards[0][0]
            seats = [(last.leader + i) % rules.players for i in range(rules.players)]
            assert last.winner == trick_winner(list(zip(seats, last.cards, strict=True)))
            if state.phase == PLAY:
                assert state.tricks[-1] == last
            else:  # the hand's last trick: the hand's result counts it
                assert state.results[-1].tricks[last.winner] >= 1


def test_a_state_rebuilt_from_an_observation_knows_the_last_trick() -> None:
    state = deal_4p(FOUR, N, {})
    bid_all(state, {N: 3, E: 3, S: 3, W: 4})
    for _ in range(6):
        state.apply(state.legal_actions()[0])
    obs = state.observation(E)
    rebuilt = State.from_observation(obs, state.hands[:], FOUR)
    assert rebuilt.last_trick == state.last_trick == obs.tricks[-1]


def test_the_cards_played_live_once_in_the_history_and_the_trick_views_read_it() -> None:
    """R-C-3 .. R-C-5: ``trick``, ``in_trick``, ``tricks``, ``last_trick`` and
    ``cards_played_mask`` are views of the cards in ``history``: after every card they
    agree with the cards played so far, and each view is a new list (changing it changes
    nothing)."""
    for seed in range(6):
        for state, _, _, _ in random_moves(seed):
            assert state.in_trick == len(state.trick)  # the count, with no list made
            if state.phase != PLAY:
                assert state.trick == [] and state.cards_played_mask() == 0
                continue
            n, done = state.n, len(state.tricks) * state.n
            cards = state.history[len(state.history) - done - len(state.trick) :]
            assert [c for t in state.tricks for c in t.cards] + state.trick == cards
            assert state.cards_played_mask() == sum(1 << c for c in cards)
            if state.tricks:
                assert state.last_trick == state.tricks[-1] and len(state.tricks[-1].cards) == n
            state.trick.append(99)
            assert 99 not in state.trick


def test_a_state_rebuilt_mid_trick_starts_its_history_with_the_hands_cards() -> None:
    state = deal_4p(FOUR, N, {})
    bid_all(state, {N: 3, E: 3, S: 3, W: 4})
    for _ in range(6):
        state.apply(state.legal_actions()[0])
    rebuilt = State.from_observation(state.observation(E), state.hands[:], FOUR)
    assert rebuilt.history == state.history[-6:] and rebuilt.trick == state.trick
    assert rebuilt.tricks == state.tricks and rebuilt.cards_played_mask() == state.cards_played_mask()
    card = rebuilt.legal_actions()[0]
    rebuilt.apply(card)
    state.apply(card)
    assert rebuilt.trick == state.trick and rebuilt.history == state.history[-7:]
