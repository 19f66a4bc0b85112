"""Many hands at once: the hands of a game or of a folder of games, each analysed on its
own (hands are independent), spread over worker processes of this machine or a Dask
cluster (``spades_cli.workers``), and given back in their order, each as soon as it and
the hands before it are done. With one job the hands run here, one after another, each
stopped at once by Ctrl-C (``threads.at_once``); worker processes ignore Ctrl-C and are
ended when the caller is interrupted (Ctrl-C, SIGTERM) or stops reading.

A task is sent the hand's transcript and its place among the transcript's hands, plain
data, and replays the transcript to reach it: an engine ``State`` does not travel
between processes in the compiled build (mypyc's classes are not picklable).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any

from spades_cli.analysis import analyze
from spades_cli.analysis.hand import plays
from spades_cli.analysis.reading import read_for_analysis, replayed
from spades_cli.analysis.report import HandReport
from spades_cli.analysis.threads import cores
from spades_cli.engine import Rules, State
from spades_cli.errors import SpadesError
from spades_cli.solver import backend
from spades_cli.solver.sets import MAX_TRICKS
from spades_cli.transcript import Transcript
from spades_cli.workers import Failed, Pool, make_pool

Hand = tuple[State, list[int]]  # where the hand's play starts, and its cards
Progress = Callable[[int, int], None]  # (hands analysed, hands in all)
Item = tuple[int, Transcript, int]  # (the hand's place in the job, its transcript, its place there)


@dataclass(frozen=True)
class Game:
    """One transcript: its name, the file read, its rules and its hands that reached the play."""

    name: str
    transcript: Transcript
    rules: Rules
    hands: list[Hand]


def read_games(paths: Iterable[Path]) -> list[Game]:
    """Each transcript read, replayed and checked (the first that fails ends it, with its
    file named: exit 1 or 2)."""
    games = []
    for path in paths:
        t = read_for_analysis(str(path))
        rules, match = replayed(t)
        games.append(Game(str(path), t, rules, plays(match)))
    return games


_LAST: list[tuple[Transcript, list[Hand]]] = []  # this process's last transcript replayed


def _hands_of(t: Transcript) -> list[Hand]:
    """The transcript's hands (its tasks come one after another: the last one is kept)."""
    if not _LAST or _LAST[0][0] != t:
        _LAST[:] = [(t, plays(replayed(t)[1]))]
    return _LAST[0][1]


def _hand_task(shared: tuple[int, int, int | None], item: Item) -> HandReport:
    """A task of the workers: one hand (``shared``: the depth, the budget and the
    threads a hand)."""
    depth, budget, threads = shared
    start, cards = _hands_of(item[1])[item[2]]
    return analyze.hand_at_once(start, cards, depth, budget, threads=threads)


def hand_threads(jobs: int, tasks: int, scheduler: str | None) -> int | None:
    """The threads each hand runs on: this machine's cores shared among the worker
    processes (one each on a Dask cluster, whose machines are not known here; None:
    every core, when the hands run here one after another)."""
    if scheduler is not None:
        return 1
    if jobs <= 1 or tasks <= 1:
        return None
    return max(1, cores() // min(jobs, tasks))


def analyzed_in_order(
    games: list[Game],
    *,
    tricks: int | None = None,
    budget: int | None = None,
    jobs: int = 1,
    scheduler: str | None = None,
    progress: Progress | None = None,
) -> Iterator[HandReport]:
    """The reports of the games' hands in their order (``tricks``, ``budget`` as
    ``analyze.analyze_match``'s), analysed by ``jobs`` processes or on the Dask
    ``scheduler``; ``progress`` is told as hands are done. The pool is made at once, so
    a scheduler that cannot be used is refused before a report is shown; read the reports
    to the end (or until an exception) to have it closed."""
    depth = tricks if tricks is not None else MAX_TRICKS  # None: every trick of the hand
    cap = backend.default_budget() if budget is None else budget
    items: list[Item] = []
    labels: list[str] = []
    for g in games:
        for k, (start, _) in enumerate(g.hands):
            items.append((len(items), g.transcript, k))
            labels.append(f"{g.name}: hand {start.hand_no + 1}")
    if progress is not None:
        progress(0, len(items))
    if not items:
        return iter(())
    threads = hand_threads(jobs, len(items), scheduler)
    pool = make_pool(_hand_task, (depth, cap, threads), jobs, len(items), scheduler)
    return in_order(items, labels, pool, progress)


def in_order(
    items: list[Any], labels: list[str], pool: Pool, progress: Progress | None = None
) -> Iterator[HandReport]:
    """The results of the tasks ``items`` (each a tuple, its place first) on ``pool``, in
    their order; the pool is closed at the end (at once when the caller stops reading or
    is interrupted). A failed task ends it with its ``labels`` entry."""
    total = len(items)
    todo = iter(items)
    in_flight, done, nxt = 0, 0, 0
    ready: dict[int, HandReport] = {}
    aborted = True
    try:
        for _ in range(2 * pool.workers):
            if not _submit(pool, todo):
                break
            in_flight += 1
        while in_flight:
            item, report = pool.next_result()
            in_flight -= 1
            if isinstance(report, Failed):
                raise SpadesError(f"{labels[item[0]]}: the analysis failed: {report.message}")
            ready[item[0]] = report
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


def _submit(pool: Pool, todo: Iterator[Any]) -> bool:
    item = next(todo, None)
    if item is None:
        return False
    pool.submit(item)
    return True


def by_game(games: list[Game], reports: Iterator[HandReport]) -> Iterator[tuple[Game, Iterator[HandReport]]]:
    """The reports (of every game's hands, in order) cut back into the games: each game
    with an iterator over its own reports, to be read before the next game's."""
    for game in games:
        yield game, islice(reports, len(game.hands))


__all__ = ["Game", "Hand", "analyzed_in_order", "by_game", "hand_threads", "in_order", "read_games"]
