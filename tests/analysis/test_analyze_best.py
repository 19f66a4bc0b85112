"""The best card shown beside a costly one (``analysis.hand.Solvers.best``): each card's
trick question is asked before its points one, which costs far more, and the card is
the one the definition gives, whatever the order of the questions: the first of the
seat's distinct cards (low first) that reaches both the best points and the best trick
count, else the first that reaches the best points."""

from __future__ import annotations

from functools import cache

import pytest
from helpers.paths import TRANSCRIPTS

from spades_cli.analysis.hand import Solvers, plays
from spades_cli.engine import State
from spades_cli.solver import backend
from spades_cli.solver.backend import Search
from spades_cli.solver.deck import solver_deck
from spades_cli.solver.outcome import Outcome
from spades_cli.transcript import read_transcript, replay


@cache
def _recorded() -> list[tuple[State, list[int]]]:
    return plays(replay(read_transcript(TRANSCRIPTS / "four-player.txt")).match)


def _positions(left: int) -> list[State]:
    """Every position of the recorded game's hands with ``left`` tricks or fewer to come
    and more than one distinct card to play."""
    out: list[State] = []
    for start, cards in _recorded():
        st = start.clone()
        for card in cards:
            if 13 - st.trick_no <= left and len(st.legal_actions()) > 1:
                out.append(st.clone())
            st.apply(card)
    return out


def _solver(st: State, value: str) -> Search:
    oc = Outcome(st, 0, value=value)
    return backend.new_solver(st, 0, oc.groups, oc.table, oc.keen, oc.linear)


def _defined(st: State, card: int, by_points: bool) -> tuple[int, bool]:
    """The best card by its definition, from every card's exact values (N-S's tricks and
    points; the mover's side wants the most, E-W the least of N-S's)."""
    sign = 1 if solver_deck(st.rules).side_of[st.current] == 0 else -1
    tricks = _solver(st, "tricks").move_values()
    points = _solver(st, "points").move_values()
    best_tricks = max(sign * v for v in tricks.values())
    best_points = max(sign * v for v in points.values())
    cards = [c for c in _solver(st, "points").distinct_moves() if c != card]
    top = [c for c in cards if sign * points[c] >= best_points]
    for c in cards:
        if sign * tricks[c] >= best_tricks and (not by_points or c in top):
            return c, True
    return (top[0], False) if by_points and top else (card, False)


LEFT, STRIDE = 5, 4


@pytest.mark.parametrize("by_points", [True, False])
def test_r_c_8_the_best_card_is_the_first_that_reaches_both(by_points: bool) -> None:
    """R-C-8, R-C-9: in the recorded game's last three tricks, against every card,
    ``best`` names the card its definition gives."""
    checked = apart = 0
    for st in _positions(LEFT)[::STRIDE]:
        tricks = Outcome(st, 0, value="tricks")
        points = Outcome(st, 0, value="points")
        solvers = Solvers(st, 0, tricks, points)
        now = solvers.values(st, None)
        assert now is not None
        for card in sorted(_solver(st, "points").move_values()):
            got = solvers.best(st, card, now, by_points)
            assert got == _defined(st, card, by_points)
            apart += got[0] != card and not got[1]
            checked += 1
    assert checked > 100 and (apart > 0) == by_points  # some best cards reach the points only
