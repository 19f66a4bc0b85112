"""Dealt or arranged: whether each deck of a transcript is the deck its seed deals.

A transcript records its ``[Seed]`` and, per hand, the deck. Every deck a game deals comes
from the seed and the hand number (``spades_cli.engine.deck_for``), so a deck line that is
not that deck was arranged: by a script (``spades run`` records those hands in a
``[FixedDecks "1 3"]`` tag) or by hand, a stacked deck. ``spades replay`` warns about the
second kind and gives every hand a ``deck_from_seed`` field in its JSON.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from spades_cli.engine import Rules, deck_cards, deck_for
from spades_cli.engine.notation import is_number
from spades_cli.transcript.syntax import DeckLine, HandLine, Tag, Transcript

__all__ = [
    "FIXED_DECKS_TAG",
    "DeckOrigin",
    "deck_origins",
    "fixed_decks_tag",
    "stacked_deck_warnings",
]

FIXED_DECKS_TAG = "FixedDecks"


@dataclass(frozen=True)
class DeckOrigin:
    """The deck line of one hand: ``from_seed`` None when the transcript has no seed."""

    hand: int  # 1-based
    line: int
    from_seed: bool | None
    fixed_by_script: bool


def fixed_decks_tag(hands: Iterable[int]) -> Tag | None:
    """The tag ``spades run`` writes for the hands (0-based) whose deck its script fixed."""
    numbers = sorted({h + 1 for h in hands})
    return Tag(FIXED_DECKS_TAG, (" ".join(map(str, numbers)),), 0) if numbers else None


def _fixed(t: Transcript) -> set[int]:
    out: set[int] = set()
    for tag in t.tags_named(FIXED_DECKS_TAG):
        for word in tag.values[0].split() if tag.values else ():
            if is_number(word) and len(word) <= 6:
                out.add(int(word))
    return out


def deck_origins(t: Transcript, rules: Rules) -> dict[int, DeckOrigin]:
    """Per hand number (1-based), where its deck came from (the last deck line of a hand
    number counts: an undo may repeat a hand), under the transcript's ``rules``."""
    fixed = _fixed(t)
    seed = t.seed
    out: dict[int, DeckOrigin] = {}
    hand = 0
    for e in t.events:
        if isinstance(e, HandLine):
            hand = e.number
        elif isinstance(e, DeckLine) and hand:
            from_seed = (
                None if seed is None else tuple(deck_for(seed, hand - 1, deck_cards(rules))) == e.cards
            )
            out[hand] = DeckOrigin(hand, e.line, from_seed, hand in fixed)
    return out


def stacked_deck_warnings(t: Transcript, origins: dict[int, DeckOrigin]) -> list[str]:
    """One line per hand whose deck the seed does not deal and no script fixed."""
    return [
        f"{t.origin}:{o.line}: warning: the deck of hand {o.hand} is not the deck the seed deals "
        "(arranged, not dealt)"
        for o in origins.values()
        if o.from_seed is False and not o.fixed_by_script
    ]
