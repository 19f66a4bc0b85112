"""A hand part played by normal bots, and the same game with the cards a seat cannot see
moved around consistently with what it has seen (for the bot, solver and analysis tests)."""

from __future__ import annotations

import random

from spades_cli.bots.normal import NormalBot
from spades_cli.engine import CHANCE, DEAL, PLAY, Rules, State, deck_for, draw_for, rng_for


def mid_hand(rules: Rules, seed: int, plays: int) -> State:
    """A hand played by normal bots until ``plays`` cards are on the table."""
    bot = NormalBot()
    state = State(rules, seed % rules.players)
    draws = 0
    while True:
        seat = state.current_player()
        if seat == CHANCE:
            if state.phase == DEAL:
                state.deal(deck_for(seed, state.hand_no))
            else:
                state.apply(draw_for(seed, state.hand_no, draws, state.legal_actions()))
                draws += 1
            continue
        if state.phase == PLAY and state.cards_played_mask().bit_count() >= plays:
            return state
        state.apply(bot.act(state.observation(seat), rules, rng_for(seed, len(state.history))))


def shown_voids(state: State) -> list[int]:
    voids = [0] * state.n
    for t in state.tricks:
        led = t.cards[0] // 13
        for i, c in enumerate(t.cards):
            if c // 13 != led:
                voids[(t.leader + i) % state.n] |= 1 << led
    for seat, c in state.trick_cards():
        if c // 13 != state.trick[0] // 13:
            voids[seat] |= 1 << (state.trick[0] // 13)
    return voids


def reshuffle_hidden(state: State, me: int, rng: random.Random) -> State:
    """The same game from ``me``'s point of view with the other seats' cards moved around:
    swaps of two hidden cards between places that may each hold the other's suit."""
    other = state.clone()
    voids = shown_voids(state)
    # Places a hidden card can be: another seat's hand, or (2P) the opponent's discards.
    places: list[tuple[str, int]] = [("hand", s) for s in range(state.n) if s != me]
    if state.n == 2:
        places.append(("discard", 1 - me))

    def get(p: tuple[str, int]) -> int:
        return other.hands[p[1]] if p[0] == "hand" else other._own_discards[p[1]]

    def put(p: tuple[str, int], mask: int) -> None:
        if p[0] == "hand":
            other.hands[p[1]] = mask
        else:
            other._own_discards[p[1]] = mask

    def may_hold(p: tuple[str, int], card: int) -> bool:
        return p[0] == "discard" or not voids[p[1]] >> (card // 13) & 1

    swaps = 0
    for _ in range(400):
        a, b = rng.sample(places, 2)
        ca = [c for c in range(52) if get(a) >> c & 1]
        cb = [c for c in range(52) if get(b) >> c & 1]
        if not ca or not cb:
            continue
        x, y = rng.choice(ca), rng.choice(cb)
        if x // 13 == y // 13 or not (may_hold(b, x) and may_hold(a, y)):
            continue
        put(a, get(a) & ~(1 << x) | 1 << y)
        put(b, get(b) & ~(1 << y) | 1 << x)
        swaps += 1
    assert swaps > 10
    if state.n == 2:
        other._discard_pile = other._own_discards[0] | other._own_discards[1]
    return other
