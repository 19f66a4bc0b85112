"""The contract line a player reads during the play: a nil bidder apart from its partner
(R-C-10: a failed nil's tricks are not its partner's), the bags this hand already makes
(R-C-9), the total bid against the 13 tricks while bidding, and a warning near the bag
penalty."""

from __future__ import annotations

import dataclasses

from helpers.engine import FOUR, E, N, S, W, bid_all, cards, deal_4p

from spades_cli.engine import BID_BASE, Observation
from spades_cli.view.look import Look, plain
from spades_cli.view.table import bids_text, side_line, status_parts, table_view, tricks_text

HANDS = {
    N: cards("2C 3C 4D 5D 6H 7H 2S 3S 4S 5S 6S 7S 8S"),
    E: cards("5C 6C 7C 8C 9C TC JC QC KC AC 9S TS JS"),
    S: cards("2D 3D 6D 7D 8D 9D TD JD QD KD AD QS KS"),
    W: cards("2H 3H 4H 5H 8H 9H TH JH QH KH AH AS 4C"),
}
LOOK = Look(FOUR, symbols=True)


def _play(
    bids: dict[int, int], tricks: tuple[int, int, int, int], bags: tuple[int, int] = (0, 0)
) -> Observation:
    state = deal_4p(FOUR, W, HANDS)
    bid_all(state, bids)
    return dataclasses.replace(state.observation(S), tricks_won=tricks, bags=bags)


def test_a_failed_nil_is_shown_apart_from_its_partner() -> None:
    # N bid 2 and took 1; S bid nil and took 2: NS is set, and S's tricks are bags.
    obs = _play({N: 2, E: 3, S: 0, W: 3}, (1, 0, 2, 0))
    assert side_line(LOOK, obs, 0) == "NS: N 2/1 · S nil ✗2, 0 bags (+2 this hand), score 0"
    assert side_line(LOOK, obs, 1) == "EW: bid 6, took 0, 0 bags, score 0"
    assert tricks_text(LOOK, obs) == "NS N 2/1 · S nil ✗2, EW bid 6 took 0"
    assert status_parts(LOOK, obs)[2] == "NS 2/1, 0 pts, 0 bags"
    ascii_look = Look(FOUR, symbols=False)
    assert side_line(ascii_look, obs, 0) == "NS: N 2/1 + S nil x2, 0 bags (+2 this hand), score 0"


def test_the_bags_this_hand_makes_and_a_warning_near_the_penalty() -> None:
    obs = _play({N: 3, E: 3, S: 3, W: 3}, (4, 1, 3, 0), bags=(8, 9))
    assert side_line(LOOK, obs, 0) == "NS: bid 6, took 7, 8 bags (+1 this hand), score 0"
    shown = plain(table_view(LOOK, obs, 80)).splitlines()
    assert shown[-4:] == [
        "NS: bid 6, took 7, 8 bags (+1 this hand), score 0",
        "EW: bid 6, took 1, 9 bags, score 0",
        "NS: 1 bag from the bag penalty (-100).",
        "EW: 1 bag from the bag penalty (-100).",
    ]
    reached = _play({N: 3, E: 3, S: 3, W: 3}, (5, 1, 3, 0), bags=(9, 0))
    assert plain(table_view(LOOK, reached, 80)).splitlines()[-3:] == [
        "NS: bid 6, took 8, 9 bags (+2 this hand), score 0",
        "EW: bid 6, took 1, 0 bags, score 0",
        "NS: the bag penalty (-100) comes with this hand's bags.",
    ]


def test_the_total_bid_against_13_while_bidding() -> None:
    state = deal_4p(FOUR, W, HANDS)
    state.apply(BID_BASE + 4)  # N bids 4
    state.apply(BID_BASE + 5)  # E bids 5
    assert bids_text(LOOK, state.observation(S)) == "N 4, E 5, S ?, W - (9 of 13 bid)"
