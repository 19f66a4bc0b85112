"""Many hands at once: the hands of a game or of a folder of games, each analysed on its
own (hands are independent), spread over worker processes of this machine or a Dask
cluster (``spades_cli.workers``), and given back in their order, each as soon as it and
the hands before it are done. With one job the hands run here, one after another, each
stopped at once by Ctrl-C (``threads.at_once``); worker processes ignore Ctrl-C and are
ended when the caller is interrupted (Ctrl-C, SIGTERM) or stops reading.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

from spades_cli.analysis import analyze
from spades_cli.analysis.hand import plays
from spades_cli.analysis.reading import read_for_analysis, replayed
from spades_cli.analysis.report import HandReport
from spades_cli.engine import Rules, State
from spades_cli.errors import SpadesError
from spades_cli.solver import backend
from spades_cli.workers import Failed, Pool, make_pool

Hand = tuple[State, list[int]]  # where the hand's play starts, and its cards
Progress = Callable[[int, int], None]  # (hands analysed, hands in all)


def _hand_task(shared: tuple[int, int], item: tuple[int, State, list[int]]) -> HandReport:
    """A task of the workers: one hand (``shared``: the depth and the budget)."""
    depth, budget = shared
    return analyze.hand_at_once(item[1], item[2], depth, budget)


def analyzed_in_order(
    hands: list[Hand],
    *,
    tricks: int | None = None,
    budget: int | None = None,
    jobs: int = 1,
    scheduler: str | None = None,
    progress: Progress | None = None,
) -> Iterator[HandReport]:
    """The reports of ``hands`` in their order (``tricks``, ``budget`` as
    ``analyze.analyze_match``'s), analysed by ``jobs`` processes or on the Dask
    ``scheduler``; ``progress`` is told as hands are done."""
    depth = tricks if tricks is not None else 13
    cap = backend.default_budget() if budget is None else budget
    total = len(hands)
    if progress is not None:
        progress(0, total)
    if not hands:
        return
    yield from in_order(hands, make_pool(_hand_task, (depth, cap), jobs, total, scheduler), progress)


def in_order(hands: list[Hand], pool: Pool, progress: Progress | None = None) -> Iterator[HandReport]:
    """The reports of ``hands`` from the tasks of ``pool``, in the hands' order; the pool
    is closed at the end (at once when the caller stops reading or is interrupted)."""
    total = len(hands)
    todo = iter(enumerate(hands))
    in_flight, done, nxt = 0, 0, 0
    ready: dict[int, HandReport] = {}
    aborted = True
    try:
        for _ in range(2 * pool.workers):
            if not _submit(pool, todo):
                break
            in_flight += 1
        while in_flight:
            (index, _, _), report = pool.next_result()
            in_flight -= 1
            if isinstance(report, Failed):
                hand_no = hands[index][0].hand_no + 1
                raise SpadesError(f"hand {hand_no}: the analysis failed: {report.message}")
            ready[index] = report
            done += 1
            if _submit(pool, todo):
                in_flight += 1
            if progress is not None:
                progress(done, total)
            while nxt in ready:
                yield ready.pop(nxt)
                nxt += 1
        aborted = False
    finally:  # an exception, Ctrl-C, SIGTERM, or a reader that stopped reading
        pool.close(abort=aborted)


def _submit(pool: Pool, todo: Iterator[tuple[int, Hand]]) -> bool:
    item = next(todo, None)
    if item is None:
        return False
    index, (start, cards) = item
    pool.submit((index, start, cards))
    return True


@dataclass(frozen=True)
class Game:
    """One transcript of a folder: its name, its rules and its hands that reached the play."""

    name: str
    rules: Rules
    hands: list[Hand]


def read_games(paths: Iterable[Path]) -> list[Game]:
    """Each transcript read, replayed and checked (the first that fails ends it, with its
    file named: exit 1 or 2)."""
    games = []
    for path in paths:
        rules, match = replayed(read_for_analysis(str(path)))
        games.append(Game(str(path), rules, plays(match)))
    return games


def by_game(games: list[Game], reports: Iterator[HandReport]) -> Iterator[tuple[Game, Iterator[HandReport]]]:
    """The reports (of every game's hands, in order) cut back into the games: each game
    with an iterator over its own reports, to be read before the next game's."""
    for game in games:
        yield game, islice(reports, len(game.hands))


__all__ = ["Game", "Hand", "analyzed_in_order", "by_game", "in_order", "read_games"]
