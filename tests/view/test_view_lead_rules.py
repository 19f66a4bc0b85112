"""The prompt's "to lead" line words a restriction the way the engine does (R-C-6, R-H-20,
R-H-21, R-H-22), so it stays right under every house rule."""

from __future__ import annotations

import dataclasses

import pytest
from helpers.engine import FOUR, E, N, S, W, bid_all, cards, deal_4p

from spades_cli.engine import Rules
from spades_cli.engine.rules import PlayRules
from spades_cli.view.look import Look, plain
from spades_cli.view.table import turn_prompt

# N holds the two of clubs and spades; dealer W, so N leads the first trick.
HANDS = {
    N: cards("2C 3C 4D 5D 6H 7H 2S 3S 4S 5S 6S 7S 8S"),
    E: cards("5C 6C 7C 8C 9C TC JC QC KC AC 9S TS JS"),
    S: cards("2D 3D 6D 7D 8D 9D TD JD QD KD AD QS KS"),
    W: cards("2H 3H 4H 5H 8H 9H TH JH QH KH AH AS 4C"),
}


def _first_lead(**play: bool) -> str:
    rules: Rules = dataclasses.replace(FOUR, play=PlayRules(**play))
    state = deal_4p(rules, W, HANDS)
    bid_all(state, {N: 3, E: 3, S: 3, W: 3})
    return plain(turn_prompt(Look(rules, symbols=False), state.observation(N), rules))


@pytest.mark.parametrize(
    ("play", "line"),
    [
        # R-C-6 / R-4P-5: no spade lead before spades are broken.
        ({}, "North to lead: any card but a spade (spades are not broken yet)"),
        # R-H-20 with R-H-22: spades may be led any time, but not to the first trick.
        (
            {"spades_break": False, "no_spades_first_trick": True},
            "North to lead: any card but a spade"
            " (no spade may lead the first trick while you hold another suit)",
        ),
        # R-H-21: the two of clubs leads the first trick.
        ({"two_of_clubs_leads": True}, "North to lead: 2C (the two of clubs must lead the first trick)"),
        # R-H-20 alone: any card.
        ({"spades_break": False}, "North to lead: any card"),
    ],
)
def test_the_lead_line_gives_the_engines_reason(play: dict[str, bool], line: str) -> None:
    assert _first_lead(**play) == line
