"""The hand result, the score table, the end of the game and its chart with a side per
player (R-CT-7 cutthroat, R-I-1 solo): one block and one chart letter per player."""

from __future__ import annotations

from collections.abc import Sequence

from spades_cli.engine import HandResult, Rules, score_side
from spades_cli.presets import load_rules
from spades_cli.view import Look, plain
from spades_cli.view.narrate import game_won
from spades_cli.view.summary import game_over, hand_result, rules_summary, score_table


def _results(rules: Rules, hands: Sequence[tuple[Sequence[int], Sequence[int]]]) -> list[HandResult]:
    """Scored hands of ``(bids, tricks)`` (engine scoring, side by side)."""
    sides = rules.sides
    scores, bags = [0] * sides, [0] * sides
    out = []
    for no, (bids, tricks) in enumerate(hands):
        blind = (False,) * rules.players
        scored = tuple(
            score_side(rules, list(bids), blind, list(tricks), rules.side_seats(s), scores[s], bags[s])
            for s in range(sides)
        )
        scores, bags = [r.score for r in scored], [r.bags_total for r in scored]
        out.append(HandResult(no, no % rules.players, tuple(bids), blind, tuple(tricks), scored))
    return out


CUTTHROAT = load_rules("cutthroat", ["target=150"])
HANDS = [((4, 3, 4), (5, 6, 6)), ((3, 2, 6), (3, 5, 9)), ((2, 3, 6), (4, 4, 9))]


def test_r_ct_7_the_cutthroat_score_table_has_a_block_per_player() -> None:
    """R-CT-7: each player's bid/took, points and score; the bags under each."""
    look = Look(CUTTHROAT, symbols=False)
    assert plain(score_table(look, CUTTHROAT, _results(CUTTHROAT, HANDS))) == (
        "hand N bid pts score  E bid pts score  S bid pts score\n"
        "1      4/5 +41    41    3/6 +33    33    4/6 +42    42\n"
        "2      3/3 +30    71    2/5 +23    56    6/9 +63   105\n"
        "3      2/4 +22    93    3/4 +31    87    6/9 +63   168\n"
        "bags               3                7                8"
    )


def test_r_ct_7_the_end_of_a_cutthroat_game_names_every_other_score() -> None:
    """R-CT-7: the winner alone (``wins``) against both other scores; a chart letter each."""
    look = Look(CUTTHROAT, symbols=False)
    results = _results(CUTTHROAT, HANDS)
    text = plain(game_over(look, CUTTHROAT, results, 2, results[-1].scores))
    assert "\nSouth wins, 168 to 93 and 87.\n" in text
    assert text.endswith("hands 0 to 3; N = North, E = East, S = South; # = more than one")
    assert game_won(look, 2, results[-1].scores, 2) == "Game over: South wins, 168 to 93 and 87. You win!"
    assert plain(hand_result(look, CUTTHROAT, results[-1])).splitlines()[1:] == [
        "  North: bid 2, took 4: made +20, 2 bags +2 = +22; score 93, 3 bags",
        "  East: bid 3, took 4: made +30, 1 bag +1 = +31; score 87, 7 bags",
        "  South: bid 6, took 9: made +60, 3 bags +3 = +63; score 168, 8 bags",
    ]


def test_r_i_1_the_solo_score_table_has_four_blocks() -> None:
    """R-I-1: four players each for themself: four blocks, four bag counts."""
    rules = load_rules("solo")
    look = Look(rules, symbols=False)
    table = plain(score_table(look, rules, _results(rules, [((3, 2, 4, 1), (4, 2, 3, 4))])))
    assert table.splitlines() == [
        "hand N bid pts score  E bid pts score  S bid pts score  W bid pts score",
        "1      3/4 +31    31    2/2 +20    20    4/3 -40   -40    1/4 +13    13",
        "bags               1                0                0                3",
    ]


def test_r_ct_1_the_rules_summary_says_the_deck_seats_and_bids() -> None:
    """R-CT-1, R-CT-3, R-J-8, R-J-9, R-M-1, R-S-1: `rules` at the prompt gives the deck, the
    seats without partners, the bid range and the bidding rule of the variant."""

    def summary(name: str) -> list[str]:
        rules = load_rules(name)
        return plain(rules_summary(Look(rules), rules)).splitlines()[1:4]

    assert summary("cutthroat")[:3] == [
        "  3 players, each for themself; game to 500.",
        "  Deck: 51 cards, 17 each (2C out).",
        "  Bids 1-17; nil 100 (a failed nil's tricks are bags).",
    ]
    assert summary("joker-joker-deuce-deuce")[1] == (
        "  Deck: 52 cards, 13 each (2C 2H out); above the ace of spades: BJ LJ 2D 2S."
    )
    assert summary("mirror")[1].startswith("  Bids 1-13 (each bids the spades held, R-M-1);")
    assert "; one partner of each side bids nil, the other at least 1;" in summary("suicide")[1]
    assert summary("four-player")[1].startswith("  Bids 1-13; nil 100")
