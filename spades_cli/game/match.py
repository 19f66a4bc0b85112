"""The engine driver of one game: ask the seat on turn for an action, check it, apply it,
tell listeners.

:class:`Match` makes one step at a time; the loop around it is
:meth:`spades_cli.game.run.GameRun.play`, which every front door uses (``play``, ``run``,
``resume``, ``simulate``, ``replay``) with different controllers (human at the prompt,
bot, external program, scripted moves). Chance (the shuffle and the cards drawn
in the double-nil exchange) is resolved here from the game's seed and the position,
unless a ``ChanceSource`` (a script or a transcript) fixes it.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from spades_cli.engine import (
    CHANCE,
    DEAL,
    DRAW,
    HandResult,
    IllegalAction,
    Observation,
    Rules,
    State,
    deck_cards,
    deck_for,
    draw_for,
    first_dealer_for,
)
from spades_cli.engine.walk import replayed


class Controller(Protocol):
    """Whoever decides for a seat."""

    label: str  # recorded in the transcript: "human", "easy", "normal", "hard", "cmd:..."

    def decide(self, match: Match, seat: int) -> int:
        """Return a legal action for ``seat`` (the seat on turn)."""
        ...


class Listener(Protocol):
    """Something that follows the game: a transcript writer, the screen, statistics."""

    def on_deal(self, match: Match, hand_no: int, deck: tuple[int, ...]) -> None: ...

    def on_action(self, match: Match, seat: int, action: int) -> None: ...

    def on_hand_end(self, match: Match, result: HandResult) -> None: ...

    def on_game_end(self, match: Match) -> None: ...


class BaseListener:
    """A listener that ignores everything; subclass and override what you need."""

    def on_deal(self, match: Match, hand_no: int, deck: tuple[int, ...]) -> None:
        """A hand was dealt (``deck`` is its order, top first)."""

    def on_action(self, match: Match, seat: int, action: int) -> None:
        """``seat`` (-1 for a chance draw) made ``action``."""

    def on_hand_end(self, match: Match, result: HandResult) -> None:
        """A hand was scored."""

    def on_game_end(self, match: Match) -> None:
        """The game is over."""


class ChanceSource(Protocol):
    """Fixes chance instead of the seed (a script or transcript that records the deal).
    ``state`` is the game waiting for the deck of its hand or the ``index``-th draw of it."""

    def deck(self, state: State) -> Sequence[int] | None: ...

    def draw(self, state: State, index: int, pool: Sequence[int]) -> int | None: ...


@dataclass
class Match:
    rules: Rules
    seed: int | str
    controllers: Sequence[Controller]
    dealer: int | None = None
    chance: ChanceSource | None = None
    listeners: list[Listener] = field(default_factory=list)
    state: State = field(init=False)
    decks: list[tuple[int, ...]] = field(init=False, default_factory=list)
    draws_in_hand: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        if len(self.controllers) != self.rules.players:
            raise ValueError(f"{self.rules.players} seats need {self.rules.players} controllers")
        if self.dealer is None:
            if self.rules.first_dealer is not None:
                self.dealer = self.rules.seat_index(self.rules.first_dealer)
            else:
                self.dealer = first_dealer_for(self.seed, self.rules.players)
        self.state = State(self.rules, self.dealer)

    # -- queries ------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.state.is_terminal()

    def observation(self, seat: int) -> Observation:
        return self.state.observation(seat)

    def rng_key(self, *where: object) -> str:
        """A one-way key for a decision at this position: it names the generator of
        ``rng(*where)`` without revealing the game's seed (it is sent to external bots,
        which must not be able to rebuild the deal from it)."""
        state = self.state
        raw = ":".join(
            ["spades", str(self.seed), str(state.hand_no), str(len(state.history)), *map(str, where)]
        )
        return hashlib.sha256(raw.encode()).hexdigest()

    def rng(self, *where: object) -> random.Random:
        """A generator for a decision at this position: seeded by the game's seed, the
        hand, the number of actions so far and ``where`` (never a shared stream)."""
        return random.Random(self.rng_key(*where))

    # -- driving ------------------------------------------------------------------

    def resolve_chance(self) -> bool:
        """Deal or draw if the state waits for chance; True if something happened."""
        state = self.state
        if state.current_player() != CHANCE:
            return False
        if state.phase == DEAL:
            deck: Sequence[int] | None = self.chance.deck(state) if self.chance else None
            if deck is None:
                deck = deck_for(self.seed, state.hand_no, deck_cards(state.rules))
            state.deal(deck)
            self.decks.append(tuple(deck))
            self.draws_in_hand = 0
            for listener in self.listeners:
                listener.on_deal(self, state.hand_no, tuple(deck))
            return True
        if state.phase == DRAW:
            pool = state.legal_actions()
            card = self.chance.draw(state, self.draws_in_hand, pool) if self.chance else None
            if card is None:
                card = draw_for(self.seed, state.hand_no, self.draws_in_hand, pool)
            self.draws_in_hand += 1
            self._apply(-1, card)
            return True
        return False

    def step(self) -> None:
        """Resolve chance, or ask the controller on turn for one action and apply it."""
        if self.finished or self.resolve_chance():
            return
        seat = self.state.current_player()
        action = self.controllers[seat].decide(self, seat)
        self._apply(seat, action)

    def apply(self, seat: int, action: int) -> None:
        """Apply an action decided outside ``step`` (the REPL, a script)."""
        if seat != self.state.current_player():
            raise IllegalAction(f"it is not seat {self.rules.seat_names[seat]}'s turn")
        self._apply(seat, action)

    def _apply(self, seat: int, action: int) -> None:
        state = self.state
        hands_before = len(state.results)
        state.apply(action)
        for listener in self.listeners:
            listener.on_action(self, seat, action)
        if len(state.results) > hands_before:
            for listener in self.listeners:
                listener.on_hand_end(self, state.results[-1])
        if state.is_terminal():
            for listener in self.listeners:
                listener.on_game_end(self)

    def rebuild(self, actions: Sequence[int]) -> None:
        """Start over and replay the recorded decks and ``actions`` silently (used by undo
        and resume): the same decks and actions give the same state."""
        assert self.dealer is not None
        walked = replayed(self.rules, self.dealer, self.decks, actions)
        del self.decks[walked.dealt :]
        self.state = walked.state
        self.draws_in_hand = walked.draws
