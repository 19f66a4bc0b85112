"""Playing a tournament: games in chunks, on this process, worker processes or a cluster.

The games still to play are cut into chunks of consecutive game indices (a duplicate
pair is one index, so it always stays together). A few chunks per worker are in flight at
a time; each comes back as the :class:`Totals` of its games and is added to the running
totals, so the parent holds no per-game data. Workers get the tournament once, when they
start, and ignore Ctrl-C: on Ctrl-C or SIGTERM the parent stops them and raises
:class:`Interrupted` with the totals of the chunks that were finished.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from spades_cli import errors
from spades_cli.errors import EXIT_INTERRUPTED, SpadesError, UsageError
from spades_cli.simulate.game import Settings
from spades_cli.simulate.report import Summary
from spades_cli.simulate.totals import Ranges, Totals, missing, play_range
from spades_cli.workers import Failed, Pool, make_pool

Progress = Callable[[int, int], None]  # (games played so far, games in this run), copies counted


class Interrupted(SpadesError):
    """Ctrl-C (exit 130), SIGTERM or SIGHUP (exit 143) stopped the tournament; ``summary``
    holds the finished games."""

    def __init__(self, summary: Summary, exit_code: int = EXIT_INTERRUPTED) -> None:
        super().__init__("interrupted")
        self.summary = summary
        self.exit_code = exit_code


def play_chunk(settings: Settings, chunk: tuple[int, int]) -> Totals | str:
    """A task of the workers (``spades_cli.workers``): the games ``start..end-1``."""
    return play_range(settings, *chunk)


def backend_for(settings: Settings, jobs: int, games: int, scheduler: str | None = None) -> Pool:
    """Where the chunks are played: the Dask ``scheduler``, ``jobs`` worker processes
    (no more than there are ``games``) or this process."""
    pool: Pool = make_pool(play_chunk, settings, jobs, games, scheduler)
    return pool


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
    backend: Pool,
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
                backend.submit(chunk)
                in_flight += 1
                if in_flight >= 2 * backend.workers:
                    break
            while in_flight:
                (start, end), part = backend.next_result()
                in_flight -= 1
                if isinstance(part, Failed):
                    raise SpadesError(f"games {start + 1}-{end}: {part.message}")
                if isinstance(part, str):
                    raise SpadesError(part)
                totals = totals.merged(part)  # a new object: a Ctrl-C here leaves the old one whole
                played += (end - start) * t.copies
                if progress is not None:
                    progress(played, total)
                nxt = next(pending, None)
                if nxt is not None:
                    backend.submit(nxt)
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
