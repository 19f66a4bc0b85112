"""The rules engine: pure, deterministic, typed. No UI, YAML or file code here."""

from spades_cli.engine.cards import card_label, card_str, cards_in, parse_card
from spades_cli.engine.chance import deck_for, draw_for, first_dealer_for, rng_for
from spades_cli.engine.rules import Rules
from spades_cli.engine.scoring import SideResult, game_over, score_side
from spades_cli.engine.state import (
    BID,
    BID_BASE,
    BLIND,
    CHANCE,
    DEAL,
    DECLARE,
    DISCARD,
    DRAFT,
    DRAW,
    EXCHANGE,
    EXCHANGE_DONE,
    KEEP,
    NO_BLIND,
    OVER,
    PLAY,
    TERMINAL,
    HandResult,
    IllegalAction,
    Observation,
    State,
    Trick,
)

__all__ = [
    "BID", "BID_BASE", "BLIND", "CHANCE", "DEAL", "DECLARE", "DISCARD", "DRAFT", "DRAW",
    "EXCHANGE", "EXCHANGE_DONE", "KEEP", "NO_BLIND", "OVER", "PLAY", "TERMINAL",
    "HandResult", "IllegalAction", "Observation", "Rules", "SideResult", "State", "Trick",
    "card_label", "card_str", "cards_in", "deck_for", "draw_for", "first_dealer_for",
    "game_over", "parse_card", "rng_for", "score_side",
]


def compiled() -> bool:
    """True when the engine runs as mypyc-compiled C (a normal ``pip install .``)."""
    import spades_cli.engine.state as _state

    return not _state.__file__.endswith(".py")
