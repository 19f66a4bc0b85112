"""Playing a tournament: games in chunks, on this process, worker processes or a cluster.

The games still to play are cut into chunks of consecutive game indices (a duplicate
pair is one index, so it always stays together). A few chunks per worker are in flight at
a time; each comes back as the :class:`Totals` of its games and is added to the running
totals, so the parent holds no per-game data. Workers get the tournament once, when they
start, and ignore Ctrl-C: on Ctrl-C or SIGTERM the parent stops them and raises
:class:`Interrupted` with the totals of the chunks that were finished.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol

from spades_cli import errors
from spades_cli.errors import EXIT_INTERRUPTED, SpadesError, UsageError
from spades_cli.simulate.game import Settings
from spades_cli.simulate.report import Summary
from spades_cli.simulate.totals import Ranges, Totals, missing, play_range

Progress = Callable[[int, int], None]  # (games played so far, games in this run), copies counted
ChunkResult = tuple[tuple[int, int], "Totals | str"]


class Interrupted(SpadesError):
    """Ctrl-C (exit 130), SIGTERM or SIGHUP (exit 143) stopped the tournament; ``summary``
    holds the finished games."""

    def __init__(self, summary: Summary, exit_code: int = EXIT_INTERRUPTED) -> None:
        super().__init__("interrupted")
        self.summary = summary
        self.exit_code = exit_code


class Backend(Protocol):
    workers: int

    def submit(self, start: int, end: int) -> None: ...

    def next_result(self) -> ChunkResult: ...

    def close(self, abort: bool) -> None: ...


class InProcess:
    """Plays each chunk here when its result is asked for."""

    workers = 1

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.todo: list[tuple[int, int]] = []

    def submit(self, start: int, end: int) -> None:
        self.todo.append((start, end))

    def next_result(self) -> ChunkResult:
        chunk = self.todo.pop(0)
        return chunk, play_range(self.settings, *chunk)

    def close(self, abort: bool) -> None:
        self.todo.clear()


_SETTINGS: Settings | None = None  # a worker process's tournament, set once when it starts


def _init_worker(settings: Settings) -> None:
    global _SETTINGS
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops us
    _SETTINGS = settings


def _pool_task(start: int, end: int) -> ChunkResult:
    assert _SETTINGS is not None
    return (start, end), play_range(_SETTINGS, start, end)


class ProcessPool:
    """Worker processes (spawned, so the same on every platform) of this machine."""

    def __init__(self, settings: Settings, workers: int) -> None:
        self.workers = workers
        self.results: queue.Queue[ChunkResult] = queue.Queue()
        ctx = multiprocessing.get_context("spawn")
        with sigint_ignored():  # a child started now ignores Ctrl-C from its first instruction
            self.pool = ctx.Pool(workers, initializer=_init_worker, initargs=(settings,))

    def submit(self, start: int, end: int) -> None:
        def failed(exc: BaseException) -> None:
            self.results.put(((start, end), f"games {start + 1}-{end}: {type(exc).__name__}: {exc}"))

        self.pool.apply_async(_pool_task, (start, end), callback=self.results.put, error_callback=failed)

    def next_result(self) -> ChunkResult:
        while True:  # a timeout keeps the wait interruptible everywhere
            try:
                return self.results.get(timeout=0.5)
            except queue.Empty:
                continue

    def close(self, abort: bool) -> None:
        if abort:
            self.pool.terminate()
        else:
            self.pool.close()
        self.pool.join()


@contextmanager
def sigint_ignored() -> Iterator[None]:
    """Ctrl-C is ignored in the block, and by the processes started in it (from their start)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def chunks(todo: Ranges, workers: int, size: int | None = None) -> Iterator[tuple[int, int]]:
    """``todo`` cut into chunks: about eight per worker, 1 to 32 games each."""
    total = sum(b - a for a, b in todo)
    if size is None:
        size = max(1, min(32, total // (8 * workers))) if workers > 1 else 1
    for a, b in todo:
        for start in range(a, b, size):
            yield start, min(b, start + size)


def shard_range(games: int, shard: tuple[int, int] | None) -> tuple[int, int]:
    """The games of shard K of N (1-based K): N parts as equal as whole games allow."""
    if shard is None:
        return 0, games
    k, n = shard
    return (k - 1) * games // n, k * games // n


def play(
    settings: Settings,
    backend: Backend,
    *,
    shard: tuple[int, int] | None = None,
    resume: Summary | None = None,
    progress: Progress | None = None,
) -> Summary:
    """Play the games of ``shard`` not yet in ``resume`` on ``backend`` and return the totals
    (with ``resume``'s). Interrupted on Ctrl-C or SIGTERM; SpadesError when a game fails."""
    t = settings.tournament
    totals = resume.totals if resume is not None else Totals()
    before = resume.elapsed if resume is not None else 0.0
    todo = missing(totals.done, *shard_range(t.games, shard))
    total = sum(b - a for a, b in todo) * t.copies
    played = 0
    started = time.perf_counter()
    pending = chunks(todo, backend.workers)
    in_flight = 0
    try:
        with errors.on_signals(errors.raise_interrupted):  # SIGTERM, SIGHUP: stop as Ctrl-C does
            for chunk in pending:
                backend.submit(*chunk)
                in_flight += 1
                if in_flight >= 2 * backend.workers:
                    break
            while in_flight:
                (start, end), part = backend.next_result()
                in_flight -= 1
                if isinstance(part, str):
                    raise SpadesError(part)
                totals = totals.merged(part)  # a new object: a Ctrl-C here leaves the old one whole
                played += (end - start) * t.copies
                if progress is not None:
                    progress(played, total)
                nxt = next(pending, None)
                if nxt is not None:
                    backend.submit(*nxt)
                    in_flight += 1
    except KeyboardInterrupt as stop:
        backend.close(abort=True)
        code = getattr(stop, "exit_code", EXIT_INTERRUPTED)
        raise Interrupted(Summary(t, totals, before + time.perf_counter() - started), code) from None
    except BaseException:
        backend.close(abort=True)
        raise
    backend.close(abort=False)
    return Summary(t, totals, before + time.perf_counter() - started)


def default_workers() -> int:
    return os.cpu_count() or 1


def parse_shard(text: str) -> tuple[int, int]:
    """``"2/4"`` -> ``(2, 4)``; UsageError unless 1 <= K <= N."""
    k, sep, n = text.partition("/")
    try:
        shard = (int(k), int(n))
    except ValueError:
        shard = (0, 0)
    if not sep or not 1 <= shard[0] <= shard[1]:
        raise UsageError(f"--shard {text[:20]!r}: expected K/N with 1 <= K <= N, e.g. 2/4")
    return shard
