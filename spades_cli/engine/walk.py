"""One walk of a game's history: the recorded decks and actions replayed from the first deal.

Undo, resume, ``replay --step``, hindsight analysis and the prompt's memory of the hand
all rebuild a game from what was recorded: the deck of each hand (the shuffle is not an
action, see :meth:`State.deal`) and the actions in order, chance draws included. They
walk it here, so the game is rebuilt one way: the same decks and actions give the same
state.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple, final

from spades_cli.engine.phases import DEAL, DRAW, Phase
from spades_cli.engine.rules import Rules
from spades_cli.engine.state import CHANCE, State


class Step(NamedTuple):
    """One step of the walk: a deal (``phase`` DEAL, ``action`` -1, ``seat`` CHANCE) or an
    action of the history taken by ``seat`` (CHANCE for a draw) in ``phase``. The state
    is the walk's own, already past the step (clone it to keep it)."""

    state: State
    seat: int
    action: int
    phase: Phase


@final
class Walk:
    """A game rebuilt step by step from ``decks`` (each hand's deck, in order) under
    ``rules`` with the first dealer ``dealer``."""

    def __init__(self, rules: Rules, dealer: int, decks: Sequence[Sequence[int]]) -> None:
        self.state = State(rules, dealer)
        self.decks = decks
        self.dealt = 0  # the decks dealt so far
        self.draws = 0  # the cards drawn by chance in the hand so far

    def deal(self) -> bool:
        """Deal the next recorded deck if the state waits for one; True if it did."""
        if self.state.phase != DEAL or self.dealt >= len(self.decks):
            return False
        self.state.deal(self.decks[self.dealt])
        self.dealt += 1
        self.draws = 0
        return True

    def apply(self, action: int) -> Step:
        """The next action of the history (its hand dealt first, when it waits for that)."""
        state = self.state
        if state.phase == DEAL and not self.deal():
            raise ValueError(f"no deck recorded for hand {state.hand_no + 1}")
        seat = state.current_player()
        phase = state.phase
        if phase == DRAW:
            self.draws += 1
        state.apply(action)
        return Step(state, seat, action, phase)


def walk(rules: Rules, dealer: int, decks: Sequence[Sequence[int]], actions: Sequence[int]) -> Iterator[Step]:
    """Every step of a recorded game: each deal and each action, in order, ending with the
    deal of the next hand when its deck is recorded."""
    w = Walk(rules, dealer, decks)
    for action in actions:
        if w.deal():
            yield Step(w.state, CHANCE, -1, DEAL)
        yield w.apply(action)
    if w.deal():
        yield Step(w.state, CHANCE, -1, DEAL)


def replayed(rules: Rules, dealer: int, decks: Sequence[Sequence[int]], actions: Sequence[int]) -> Walk:
    """The walk of the whole recorded game, the next hand dealt when its deck is recorded."""
    w = Walk(rules, dealer, decks)
    for action in actions:
        w.apply(action)
    w.deal()
    return w


__all__ = ["Step", "Walk", "replayed", "walk"]
