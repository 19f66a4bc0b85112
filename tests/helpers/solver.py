"""Endings and a brute-force search for the solver tests: plain minimax over the engine's
own legal moves, the yardstick for the Python solver and the C search core."""

from __future__ import annotations

import random
from typing import Any

from spades_cli.engine import BID, BID_BASE, PLAY, Rules, State, deck_cards, deck_for
from spades_cli.presets import load_rules, rules_from_dict, rules_to_dict
from spades_cli.solver.deck import solver_deck
from spades_cli.solver.outcome import Outcome

FOUR = load_rules("four-player")
TWO = load_rules("two-player")


def variant(base: Rules, **play: Any) -> Rules:
    d: dict[str, Any] = rules_to_dict(base)
    d["name"] = "variant"
    d["play"].update(play)
    return rules_from_dict(d, "<test>")


def random_ending(rules: Rules, seed: int, left: int, bags: list[int] | None = None) -> State:
    """A hand dealt from ``seed`` and played at random (bids 3 each, N's bid nil when
    ``seed`` is odd) until ``left`` tricks remain, at a random point of a trick (any
    rules: the rules' deck and hand size); ``bags``: each side's bags before the hand."""
    rng = random.Random(seed)
    state = State(rules, seed % rules.players, bags=bags)
    state.deal(deck_for(seed, 0, deck_cards(rules)))
    size = rules.hand_size
    while state.phase != PLAY:
        legal = state.legal_actions()
        pick = [a for a in legal if a in (BID_BASE + 3, BID_BASE + 0)] if state.phase == BID else legal
        state.apply(rng.choice(pick or legal))
    stop = rng.randrange(rules.players)
    while size - state.trick_no > left or (len(state.trick) < stop and size - state.trick_no == left):
        state.apply(rng.choice(state.legal_actions()))
    return state


def brute(state: State, side: int, value: Any) -> float:
    """Plain minimax over the engine's own legal moves (no pruning, no shortcuts): the
    seats of ``side`` maximise, every other seat minimises."""
    if len(state.results) > 0:
        return float(value(state.results[-1].tricks))
    best: float | None = None
    for a in state.legal_actions():
        child = state.clone()
        child.apply(a)
        v = brute(child, side, value)
        if best is None or (v > best if state.rules.side_of(state.current) == side else v < best):
            best = v
    assert best is not None
    return best


def brute_value(oc: Outcome) -> Any:
    groups, table = oc.groups, oc.table
    radix = solver_deck(oc.rules).radix  # 14, or one more than a longer hand's tricks

    def value(tricks: tuple[int, ...]) -> float:
        index = [0] * (max(groups) + 1)
        for s, t in enumerate(tricks):
            index[groups[s]] += t
        return table[sum(k * radix**g for g, k in enumerate(index))]

    return value
