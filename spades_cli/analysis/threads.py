"""The analysis's threads: a hand analysed in a worker thread that Ctrl-C stops at once,
its groups of questions on runners a core each, a game's hands analysed in the
background, and the halt that ends their searches.

The C search holds the thread that runs it until its question ends (seconds), and lets
other threads run meanwhile; the Python solver holds the interpreter and is interrupted
where it runs (``solver.backend``).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from spades_cli.analysis.report import HandReport
from spades_cli.solver import backend
from spades_cli.solver.backend import Search

T = TypeVar("T")


class Halt:
    """The solvers of one analysis, to end at once (each raising ``SearchLimit``, so the
    hand ends in moments) when the caller is interrupted or quits."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.solvers: list[Search] = []
        self.halted = False

    def add(self, solver: Search) -> None:
        with self.lock:
            self.solvers.append(solver)
            if self.halted:
                solver.stop()

    def drop(self, *solvers: Search) -> None:
        """Forget ``solvers``, done with (their tables are freed with them)."""
        with self.lock:
            self.solvers = [s for s in self.solvers if all(s is not d for d in solvers)]

    def halt(self) -> None:
        with self.lock:
            self.halted = True
            for solver in self.solvers:
                solver.stop()


def at_once(job: Callable[[Halt | None], T], halt: Halt | None = None) -> T:
    """``job(halt)``, stopped at once by Ctrl-C or a signal: with the C search it runs in
    a thread of its own while this one waits, and on an interruption its solvers are
    stopped before the interruption goes on; the Python solver runs here."""
    if not backend.c_core():
        return job(halt)
    halt = halt if halt is not None else Halt()
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="analyze-hand")
    try:
        future = pool.submit(job, halt)
        try:
            return future.result()
        except BaseException:
            halt.halt()
            raise
    finally:
        pool.shutdown(wait=True)


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def in_turn(groups: Sequence[Callable[[], None]], threads: int, halt: Halt) -> None:
    """Run each of ``groups`` once on ``threads`` runners (this thread and as many others
    less one, no more than there are groups), each runner taking the next group not yet
    begun, in their order, when it is free. A group must not wait on a later one, and
    what it finds and the positions it searches must not depend on which runner takes
    it, nor when (each question is asked by a solver no other runner uses meanwhile:
    the seats' groups share their questions, :class:`~spades_cli.analysis.figures.SeatFigures`).
    A failure (or an interruption of this thread) halts
    every search, and the first one goes on to the caller once every runner has ended."""
    todo = iter(groups)
    lock = threading.Lock()
    failed: list[BaseException] = []

    def runner() -> None:
        while True:
            with lock:
                group = None if failed else next(todo, None)
            if group is None:
                return
            try:
                group()
            except BaseException as exc:
                with lock:
                    failed.append(exc)
                halt.halt()
                return

    others = [
        threading.Thread(target=runner, name=f"analyze-{k}", daemon=True)
        for k in range(1, min(threads, len(groups)))
    ]
    for thread in others:
        thread.start()
    try:
        runner()
        for thread in others:
            thread.join()
    except BaseException:  # interrupted outside a group (Ctrl-C in the main thread)
        halt.halt()
        for thread in others:
            thread.join()
        raise
    if failed:
        raise failed[0]


class HandsInBackground:
    """The hands of a game analysed one after another, from the first, in a thread of
    their own (the C core's searches, which stop at once: see :class:`Halt`), so that a
    reader can start on the first hand while the later ones are analysed. ``hands`` are
    the numbers (1-based) of the hands ``job`` analyses, ``job`` gives their reports
    with the halt's solvers. Call the object with a hand number for its report: it waits
    for that hand (None for a hand that is not analysed). ``close()`` ends the analysis
    at once."""

    def __init__(self, hands: set[int], job: Callable[[Halt], Iterator[HandReport]]) -> None:
        self._hands = hands
        self._done: dict[int, HandReport] = {}
        self._failed: BaseException | None = None
        self._over = False
        self._ready = threading.Condition()
        self._halt = Halt()
        self._thread = threading.Thread(target=self._run, args=(job,), name="analyze-game", daemon=True)
        self._thread.start()

    def _run(self, job: Callable[[Halt], Iterator[HandReport]]) -> None:
        try:
            for report in job(self._halt):
                if self._halt.halted:
                    break  # a hand cut short: nothing of it is known
                with self._ready:
                    self._done[report.hand] = report
                    self._ready.notify_all()
        except BaseException as exc:  # shown by close(), in the caller's thread
            self._failed = exc
        finally:
            with self._ready:
                self._over = True
                self._ready.notify_all()

    def ready(self, hand: int) -> bool:
        """Whether asking for ``hand`` returns at once."""
        with self._ready:
            return hand in self._done or hand not in self._hands or self._over

    def __call__(self, hand: int) -> HandReport | None:
        with self._ready:
            while hand in self._hands and hand not in self._done and not self._over:
                self._ready.wait(0.1)  # in steps, so that Ctrl-C gets through
            return self._done.get(hand)

    def close(self) -> None:
        """End the analysis (at once) and its thread."""
        self._halt.halt()
        self._thread.join()
        if self._failed is not None:  # not the halt (a halted hand raises nothing): a fault
            raise self._failed


__all__ = ["Halt", "HandsInBackground", "at_once", "cores", "in_turn"]
