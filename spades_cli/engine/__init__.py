"""The rules engine: pure, deterministic, typed. No UI, YAML or file code here."""

from spades_cli.engine.actions import (
    BID_BASE,
    BLIND,
    BLIND_BID_BASE,
    DISCARD,
    EXCHANGE_DONE,
    KEEP,
    MAX_BID,
    NO_BLIND,
    NUM_ACTIONS,
    ZERO,
    action_label,
    action_text,
    blind_bid_action,
    blind_bid_of,
)
from spades_cli.engine.cards import (
    BIG_JOKER,
    LITTLE_JOKER,
    NUM_CARDS,
    card_label,
    card_str,
    cards_in,
    is_card,
    parse_card,
)
from spades_cli.engine.chance import deck_for, draw_for, first_dealer_for, rng_for
from spades_cli.engine.illegal import IllegalAction
from spades_cli.engine.observation import HandResult, Observation, Trick, zero_at
from spades_cli.engine.passing import sees_pass
from spades_cli.engine.phases import (
    BID,
    CARD_PHASES,
    DEAL,
    DECLARE,
    DISCARD_PHASE,
    DRAFT,
    DRAW,
    EXCHANGE,
    HAND_CARD_PHASES,
    OVER,
    PASS,
    PLAY,
    Phase,
)
from spades_cli.engine.play import beats, deck_cards, trick_winner
from spades_cli.engine.rules import Rules
from spades_cli.engine.scoring import SideResult, game_over, score_side
from spades_cli.engine.state import CHANCE, TERMINAL, State

__all__ = [
    "BID",
    "BID_BASE",
    "BIG_JOKER",
    "BLIND",
    "BLIND_BID_BASE",
    "CARD_PHASES",
    "CHANCE",
    "DEAL",
    "DECLARE",
    "DISCARD",
    "DISCARD_PHASE",
    "DRAFT",
    "DRAW",
    "EXCHANGE",
    "EXCHANGE_DONE",
    "HAND_CARD_PHASES",
    "KEEP",
    "LITTLE_JOKER",
    "MAX_BID",
    "NO_BLIND",
    "NUM_ACTIONS",
    "NUM_CARDS",
    "OVER",
    "PASS",
    "PLAY",
    "TERMINAL",
    "ZERO",
    "HandResult",
    "IllegalAction",
    "Observation",
    "Phase",
    "Rules",
    "SideResult",
    "State",
    "Trick",
    "action_label",
    "action_text",
    "beats",
    "blind_bid_action",
    "blind_bid_of",
    "card_label",
    "card_str",
    "cards_in",
    "deck_cards",
    "deck_for",
    "draw_for",
    "first_dealer_for",
    "game_over",
    "is_card",
    "parse_card",
    "rng_for",
    "score_side",
    "sees_pass",
    "trick_winner",
    "zero_at",
]


def compiled() -> bool:
    """True when the engine runs as mypyc-compiled C (a normal ``pip install .``)."""
    import spades_cli.engine.state as _state

    return not _state.__file__.endswith(".py")
