"""Hindsight analysis of a transcript with the double-dummy solver (``spades analyze``,
``replay --step --analyze``): the hands of a game analysed one after another.

The parts: ``reading`` (the file, replayed and checked), ``hand`` (one hand: the
positions solved from the last card back), ``figures`` (the tricks each side and seat
can take from the deal), ``threads`` (a hand in a worker thread that Ctrl-C stops at
once, a game in the background, the halt), ``report`` (what is found) and ``output``
(JSON and text). Per seat: the cards played, analysed and costly, and what they gave up.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial

from spades_cli.analysis.hand import analyze_hand, plays
from spades_cli.analysis.reading import replayed
from spades_cli.analysis.report import HandReport
from spades_cli.analysis.threads import Halt, HandsInBackground, at_once
from spades_cli.engine import Rules, State
from spades_cli.game.match import Match
from spades_cli.solver import backend
from spades_cli.solver.sets import MAX_TRICKS
from spades_cli.transcript import Transcript

Progress = Callable[[int, int], None]  # (hands analysed, hands in all)


def analyze(
    t: Transcript,
    *,
    tricks: int | None = None,
    budget: int | None = None,
    progress: Progress | None = None,
) -> tuple[Rules, list[HandReport]]:
    """Replay the transcript (checking it) and analyse every hand that reached its play."""
    rules, match = replayed(t)
    return rules, analyze_match(match, tricks=tricks, budget=budget, progress=progress)


def analyze_match(
    match: Match,
    *,
    tricks: int | None = None,
    budget: int | None = None,
    progress: Progress | None = None,
) -> list[HandReport]:
    """Every hand of a replayed game that reached its play, analysed (``budget``: the
    positions one question may visit, 0 for no cap, None for the backend's default;
    ``progress`` is told before each hand and at the end)."""
    return list(analyze_hands(match, tricks=tricks, budget=budget, progress=progress))


def analyze_hands(
    match: Match,
    *,
    tricks: int | None = None,
    budget: int | None = None,
    progress: Progress | None = None,
) -> Iterator[HandReport]:
    """As :func:`analyze_match`, each hand as soon as it is analysed (the next one is
    analysed when it is asked for)."""
    depth = tricks if tricks is not None else MAX_TRICKS  # None: every trick of the hand
    return _analyzed(plays(match), depth, budget, progress)


def in_background(match: Match, budget: int | None = None) -> HandsInBackground:
    """The hands of a replayed game analysed in a thread of their own, from the first
    (every card; ``budget`` as :func:`analyze_match`'s)."""
    hands = plays(match)
    numbers = {start.hand_no + 1 for start, _ in hands}
    return HandsInBackground(numbers, lambda halt: _analyzed(hands, 13, budget, halt=halt))


def hand_at_once(
    start: State,
    cards: list[int],
    depth: int,
    budget: int,
    halt: Halt | None = None,
    threads: int | None = None,
) -> HandReport:
    """:func:`~spades_cli.analysis.hand.analyze_hand` (on ``threads`` runners, None: a
    core each), stopped at once by Ctrl-C or a signal
    (:func:`~spades_cli.analysis.threads.at_once`)."""
    return at_once(partial(analyze_hand, start, cards, depth, budget, threads=threads), halt)


def _analyzed(
    hands: list[tuple[State, list[int]]],
    depth: int,
    budget: int | None,
    progress: Progress | None = None,
    halt: Halt | None = None,
) -> Iterator[HandReport]:
    """The hands ``hands`` (each's start and cards) analysed one after another."""
    cap = backend.default_budget() if budget is None else budget
    for done, (start, cards) in enumerate(hands):
        if progress is not None:
            progress(done, len(hands))
        yield hand_at_once(start, cards, depth, cap, halt)
    if progress is not None:
        progress(len(hands), len(hands))


__all__ = ["Progress", "analyze", "analyze_hands", "analyze_match", "hand_at_once", "in_background"]
