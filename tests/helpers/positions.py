"""Builders for the bot tests (no tests here): real engine states with chosen hands."""

from __future__ import annotations

import random

from helpers.engine import W, cards
from spades_cli.bots.normal import NormalBot
from spades_cli.engine import (
    BID_BASE,
    CHANCE,
    DEAL,
    PLAY,
    Rules,
    State,
    deck_for,
    draw_for,
    rng_for,
)


def deal_4p(rules: Rules, dealer: int, hands: dict[int, str]) -> State:
    """A four-player state just dealt, each seat holding exactly the 13 cards given."""
    full = {s: cards(t) for s, t in hands.items()}
    assert sorted(c for h in full.values() for c in h) == list(range(52)), "hands must be the whole deck"
    deck = [0] * 52
    for k in range(4):
        deck[k::4] = full[(dealer + 1 + k) % 4]
    state = State(rules, dealer)
    state.deal(deck)
    return state


def position_4p(
    rules: Rules,
    hands: dict[int, str],
    bids: dict[int, int],
    plays: str = "",
    *,
    dealer: int = W,
    scores: tuple[int, int] = (0, 0),
    bags: tuple[int, int] = (0, 0),
) -> State:
    """Deal, bid in turn (from ``bids`` per seat, stopping at the first seat not given),
    then play ``plays`` in turn.

    ``scores`` and ``bags`` set the running totals as if earlier hands had been played.
    """
    state = deal_4p(rules, dealer, hands)
    state.scores = list(scores)
    state.bags = list(bags)
    while state.phase != PLAY and state.current_player() in bids:
        state.apply(BID_BASE + bids[state.current_player()])
    for c in cards(plays):
        state.apply(c)
    return state


def random_position(rules: Rules, seed: int, actions: int) -> State:
    """A game advanced ``actions`` random legal actions from a seeded deal."""
    rng = random.Random(seed)
    state = State(rules, seed % rules.players)
    done = 0
    while not state.is_terminal() and done < actions:
        if state.current_player() == CHANCE:
            if state.phase == DEAL:
                state.deal(deck_for(seed, state.hand_no))
            else:
                state.apply(rng.choice(state.legal_actions()))
            continue
        state.apply(rng.choice(state.legal_actions()))
        done += 1
    return state


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
        if state.phase == PLAY and len(state.plays) >= plays:
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
        return other.hands[p[1]] if p[0] == "hand" else other.own_discards[p[1]]

    def put(p: tuple[str, int], mask: int) -> None:
        if p[0] == "hand":
            other.hands[p[1]] = mask
        else:
            other.own_discards[p[1]] = mask

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
        other.discard_pile = other.own_discards[0] | other.own_discards[1]
    return other
