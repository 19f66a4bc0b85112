"""Cards, seats and sides (R-C-1, R-4P-1, R-2P-1)."""

from __future__ import annotations

import random

import pytest
from helpers.engine import FOUR, TWO

from spades_cli.engine import CHANCE, Rules, State, card_label, card_str, cards_in, parse_card
from spades_cli.engine.cards import CardParseError, card_tuple, mask_of, rank_of, suit_of


def test_r_c_1_deck_has_52_distinct_cards_in_four_suits() -> None:
    # R-C-1: 52 cards, no jokers, 13 of each suit.
    names = [card_str(c) for c in range(52)]
    assert len(set(names)) == 52
    for suit in "CDHS":
        assert sorted(n[0] for n in names if n[1] == suit) == sorted("23456789TJQKA")


def test_r_c_1_rank_order_ace_high_two_low() -> None:
    # R-C-1: A K Q J 10 9 8 7 6 5 4 3 2, high to low, within every suit.
    order = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    for suit in "SHDC":
        ranks = [rank_of(parse_card(r + suit)) for r in order]
        assert ranks == sorted(ranks, reverse=True) == list(range(12, -1, -1))
        assert {suit_of(parse_card(r + suit)) for r in order} == {"CDHS".index(suit)}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("QS", "QS"),
        ("qs", "QS"),
        ("Q♠", "QS"),
        ("10h", "TH"),
        ("Th", "TH"),
        ("sq", "QS"),
        (" 2c ", "2C"),
        ("A♦", "AD"),
    ],
)
def test_r_c_1_card_text_forms(text: str, expected: str) -> None:
    assert card_str(parse_card(text)) == expected


@pytest.mark.parametrize("text", ["", "Q", "1S", "ZS", "QX", "11H", "joker", "QSS"])
def test_r_c_1_no_other_cards(text: str) -> None:
    # R-C-1: no jokers and nothing outside the 52.
    with pytest.raises(CardParseError):
        parse_card(text)


def test_r_c_1_text_round_trips_for_every_card() -> None:
    for c in range(52):
        assert parse_card(card_str(c)) == c
        assert parse_card(card_label(c)) == c
        assert parse_card(card_label(c, symbols=False)) == c


def test_masks_list_cards_low_to_high() -> None:
    picked = [51, 0, 13, 40, 25]
    assert cards_in(mask_of(picked)) == sorted(picked)
    assert cards_in((1 << 52) - 1) == list(range(52))


def test_r_j_1_card_tuples_match_the_mask_in_every_block() -> None:
    # The shared tuples State.legal_actions returns: every suit's block and the jokers
    # (R-J-1, cards 52 and 53), alone and together, low to high, asked twice.
    rng = random.Random(7)
    masks = [0, 1, 1 << 53, (1 << 54) - 1, mask_of([12, 13, 38, 39, 52])]
    masks += [rng.getrandbits(54) & rng.getrandbits(54) for _ in range(300)]
    for mask in masks:
        want = tuple(c for c in range(54) if mask >> c & 1)
        assert card_tuple(mask) == want and card_tuple(mask) == want
        assert cards_in(mask) == list(want)


def test_r_4p_1_partners_sit_opposite() -> None:
    # R-4P-1: N-S against E-W; play moves clockwise N, E, S, W.
    assert FOUR.seat_names == ("N", "E", "S", "W")
    assert [FOUR.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert [FOUR.side_name(x) for x in (0, 1)] == ["NS", "EW"]
    assert FOUR.seat_index("w") == 3
    with pytest.raises(ValueError):
        FOUR.seat_index("X")


def test_r_2p_1_two_players_each_for_themself() -> None:
    # R-2P-1: two players, one side each, target 500.
    assert TWO.seat_names == ("N", "S")
    assert [TWO.side_of(s) for s in range(2)] == [0, 1]
    assert TWO.target == 500
    assert TWO.draft and not FOUR.draft


def test_a_new_state_waits_for_the_deal() -> None:
    for rules in (FOUR, TWO):
        state = State(rules, 1)
        assert state.current_player() == CHANCE
        assert list(state.legal_actions()) == []
        assert not state.is_terminal()


def test_dealer_must_be_a_seat() -> None:
    with pytest.raises(ValueError):
        State(Rules(players=2), 2)
    with pytest.raises(ValueError):
        State(Rules(players=4), -1)
