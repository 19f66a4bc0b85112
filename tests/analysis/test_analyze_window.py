"""The analysis asks a position's points only among the values its tricks leave
(``analysis.hand.trick_window``, narrowed by the forced tricks of ``analysis.forced``),
and above a floor asks the top run first (``analysis.hand._greatest``): fewer
questions, the same values."""

from __future__ import annotations

import itertools
from functools import cache

import pytest
from helpers.paths import TRANSCRIPTS

from spades_cli.analysis.hand import _greatest, plays, trick_window
from spades_cli.engine import State
from spades_cli.solver.outcome import Outcome
from spades_cli.solver.sets import greatest_reached
from spades_cli.transcript import read_transcript, replay


@cache
def _recorded() -> list[tuple[State, list[int]]]:
    return plays(replay(read_transcript(TRANSCRIPTS / "four-player.txt")).match)


def _window(hand: int, tricks: int) -> list[float]:
    start = _recorded()[hand - 1][0]
    return trick_window(Outcome(start, 0, value="points"), start, tricks)


def test_without_a_nil_n_s_tricks_decide_the_points() -> None:
    """R-C-8, R-C-9, R-4P-6: hand 2 (N 3, E 3, S 2, W 4, no bags yet): N-S's 7 tricks
    make their 5 with 2 bags (52) and set E-W's 7 (-70); the window is that one value, so
    the walk asks the points solver nothing for it."""
    assert _window(2, 7) == [122.0]
    assert _window(2, 6) == [-19.0]  # 51 against E-W's 7 made with no bag (70)
    assert _window(2, 5) == [-21.0]  # 50 against 71


def test_near_the_bag_limit_one_trick_count_leaves_several_values() -> None:
    """R-C-9: hand 7, N-S bid 8 with 9 bags: exactly 8 tricks is 80 against E-W's 41
    (39), a ninth trick is N-S's tenth bag (-100): the points are not a function of
    N-S's tricks, and the window keeps every value N-S's 8 tricks do not rule out, but
    those of 0 or 1 trick: North's ace and king of spades are two tricks whatever anyone
    plays (R-C-4, ``analysis.forced``)."""
    assert _window(7, 8) == [-59.0, -27.0, 22.0, 23.0, 24.0, 25.0, 39.0]
    assert _window(7, 13) == [25.0, 39.0]


def test_a_nil_keeps_the_window_wide() -> None:
    """R-4P-7, R-C-10: hand 1, North's nil: with N-S's 4 tricks the nil may be kept
    (240) or broken (the others); East's ace of spades is a trick whatever anyone plays
    (R-C-4), so not the values of N-S's 13 tricks, nor those of North's 11 or more
    (South's king, queen and jack below East's ace are South's three)."""
    window = _window(1, 4)
    assert len(window) == 23 and window[0] == -130.0 and window[-2:] == [48.0, 240.0]


def _asks(values: list[float], truth: float, guess: float | None, bound: int) -> tuple[float, list[float]]:
    asked: list[float] = []

    def reaches(u: float) -> bool:
        asked.append(u)
        return u <= truth

    return _greatest(values, reaches, guess, bound), asked


def test_above_a_floor_the_top_run_is_asked_first() -> None:
    """Above a floor, the lowest value of the top run (a bag or two below the top) is
    asked before the step above the floor: a value that moved up most often moved to the
    top (a nil kept instead of broken), and a "no" so far above is cheap."""
    values = [0.0, 1.0, 2.0, 3.0, 10.0]
    assert _asks(values, 10.0, 1.0, 1) == (10.0, [10.0])
    assert _asks(values, 3.0, 1.0, 1) == (3.0, [10.0, 2.0, 3.0])
    assert _asks(values, 1.0, 1.0, 1) == (1.0, [10.0, 2.0])
    # no run above the step: as before, the step, then the top
    assert _asks([0.0, 1.0, 2.0, 3.0], 3.0, 1.0, 1) == (3.0, [2.0, 3.0])


@pytest.mark.parametrize("size", [1, 2, 3, 6])
def test_the_search_finds_every_value_from_every_guess(size: int) -> None:
    """Against brute force: every true value, every guess and every bound it allows
    gives the value greatest_reached gives."""
    values = [float(v) for v in range(size)]
    for truth, guess in itertools.product(values, [None, *values, 2.5]):
        for bound in (-1, 0, 1):
            if guess is not None and ((bound > 0 and truth < guess) or (bound < 0 and truth > guess)):
                continue
            got, _ = _asks(values, truth, guess, bound)
            assert got == truth == greatest_reached(values, truth.__ge__, guess, bound)


# Hand 1's window with North's nil (R-4P-7, R-C-10): runs of values a bag or two apart
# (R-C-9), one for each made contract, set or nil kept or broken.
NIL_WINDOW = [
    *(-130.0, -129.0, -128.0),
    *(-42.0, -41.0, -40.0, -39.0, -38.0, -37.0, -36.0, -35.0, -34.0, -33.0, -32.0, -31.0),
    *(41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0),
    240.0,
]


def test_r_4p_7_below_a_ceiling_the_runs_are_asked_from_the_top_down() -> None:
    """R-4P-7, R-C-9: the nil kept (240) is a ceiling that E-W's card broke; the value is
    in the run of the nil broken with the contract made (41-49): that run's second value
    is asked before any value of the lower runs, so only the "yes" questions of that run
    are asked (each "yes" costs about a whole proof), not one a run on the way up, and
    the run's lowest only when the value is no higher."""
    got, asked = _asks(NIL_WINDOW, 42.0, 240.0, -1)
    assert got == 42.0
    assert asked[:3] == [240.0, 49.0, 42.0]
    assert [u for u in asked if u <= 42.0] == [42.0]
    assert _asks(NIL_WINDOW, 41.0, 240.0, -1) == (41.0, [240.0, 49.0, 42.0, 41.0])


def test_r_4p_7_a_value_that_missed_the_top_is_asked_run_by_run() -> None:
    """R-4P-7, R-C-9: up past a floor in the set run, not as far as the nil kept: the
    run of the contract made (41-49) is asked at its second value before its others."""
    got, asked = _asks(NIL_WINDOW, 43.0, -34.0, 1)
    assert got == 43.0
    assert asked[:3] == [240.0, -33.0, 42.0]
    assert [u for u in asked if u <= 43.0] == [-33.0, 42.0, 43.0]


@pytest.mark.parametrize("window", [NIL_WINDOW, [0.0, 1.0, 2.0, 10.0, 11.0, 30.0, 31.0, 33.0]])
def test_r_c_9_the_runs_find_every_value_from_every_guess(window: list[float]) -> None:
    """R-C-9, R-4P-7: against brute force on windows of runs: every true value, every
    guess and every bound it allows gives the value greatest_reached gives."""
    for truth, guess in itertools.product(window, [None, *window, 1.5, 35.0]):
        for bound in (-1, 0, 1):
            if guess is not None and ((bound > 0 and truth < guess) or (bound < 0 and truth > guess)):
                continue
            got, asked = _asks(window, truth, guess, bound)
            assert got == truth == greatest_reached(window, truth.__ge__, guess, bound)
            assert len(asked) == len(set(asked))  # no question asked twice
