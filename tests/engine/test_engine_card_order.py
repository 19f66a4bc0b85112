"""The order of the cards in a trick as data (engine/play.py ``CardOrder``): built once
per rules, read by the state, ``beats`` / ``trick_winner`` and both solvers (R-C-4); and
the deck the rules deal (``deck_cards``, R-C-1)."""

from __future__ import annotations

from spades_cli.engine.cards import SPADE_MASK, SPADES, SUIT_MASKS
from spades_cli.engine.chance import deck_for
from spades_cli.engine.plan import plan_for
from spades_cli.engine.play import STANDARD, CardOrder, beats, card_order, deck_cards
from spades_cli.presets import load_rules


def test_the_shipped_presets_play_the_standard_order() -> None:
    # R-C-4: spades trump, each card follows its own suit, a higher number is higher.
    for name in ("four-player", "two-player"):
        rules = load_rules(name)
        order = card_order(rules)
        assert plan_for(rules).order is order
        assert order.trump == SPADE_MASK and order.trump_suit == SPADES
        assert order.suit[:52] == tuple(c // 13 for c in range(52))
        assert order.suit_mask[:52] == tuple(SUIT_MASKS[c // 13] for c in range(52))


def test_an_order_is_built_from_suits_trumps_and_places() -> None:
    # R-C-4 with other data: hearts trump and the ranks of clubs turned upside down.
    order = CardOrder([c // 13 for c in range(52)], 2, [51 - c if c < 13 else c for c in range(52)])
    assert order.trump == SUIT_MASKS[2]
    assert beats(0, 12, order) and not beats(12, 0, order)  # 2C above AC here
    assert beats(26, 51, order) and not beats(51, 26, order)  # a heart trumps the ace of spades
    assert beats(51, 27, STANDARD) and not beats(27, 51, STANDARD)  # today: the ace of spades holds


def test_the_deck_comes_from_the_rules() -> None:
    # R-C-1: the 52 cards; the seeded deal shuffles the rules' deck, the same order as ever.
    for name in ("four-player", "two-player"):
        rules = load_rules(name)
        assert deck_cards(rules) == tuple(range(52))
        assert plan_for(rules).deck_mask == (1 << 52) - 1
        assert deck_for(7, 2, deck_cards(rules)) == deck_for(7, 2)
