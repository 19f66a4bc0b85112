"""Seeded chance: every random choice of a game comes from a generator seeded by the
game's seed and the position, never from a shared stream (so a resumed game, a
parallel run and a replay all see the same cards)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from spades_cli.engine.cards import DECK


def rng_for(seed: int | str, *where: object) -> random.Random:
    """A generator private to one place of one game: ``rng_for(seed, "deal", 3)``."""
    return random.Random(":".join(["spades", str(seed), *map(str, where)]))


def deck_for(seed: int | str, hand_no: int, cards: Sequence[int] = DECK) -> list[int]:
    """The deck order of hand ``hand_no`` (0-based) of the game with this seed: ``cards``
    (the rules' deck, :func:`~spades_cli.engine.play.deck_cards`) shuffled."""
    deck = list(cards)
    rng_for(seed, "deal", hand_no).shuffle(deck)
    return deck


def first_dealer_for(seed: int | str, players: int) -> int:
    """R-4P-2 decision: the first dealer follows from the seed unless the rules name one."""
    return rng_for(seed, "dealer").randrange(players)


def draw_for(seed: int | str, hand_no: int, index: int, pool: Sequence[int]) -> int:
    """R-2P-3: the card drawn from the discard pile for the ``index``-th exchange of a hand."""
    return rng_for(seed, "draw", hand_no, index).choice(sorted(pool))
