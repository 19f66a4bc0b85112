"""Tasks on this process or on worker processes of this machine (see the package's doc)."""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

Task = Callable[[Any, Any], Any]  # fn(shared, item) -> result


@dataclass(frozen=True)
class Failed:
    """A task that raised: the exception's type and message, in one line."""

    message: str


Done = tuple[Any, Any]  # (item, result or Failed)


class Pool(Protocol):
    workers: int

    def submit(self, item: Any) -> None: ...

    def next_result(self) -> Done: ...

    def close(self, abort: bool) -> None: ...


def failure(exc: BaseException) -> Failed:
    return Failed(f"{type(exc).__name__}: {str(exc)[:200]}")


class InProcess:
    """Runs each task here when its result is asked for (an exception goes on to the
    caller: a failure here is the caller's own)."""

    workers = 1

    def __init__(self, fn: Task, shared: Any) -> None:
        self.fn = fn
        self.shared = shared
        self.todo: list[Any] = []

    def submit(self, item: Any) -> None:
        self.todo.append(item)

    def next_result(self) -> Done:
        item = self.todo.pop(0)
        return item, self.fn(self.shared, item)

    def close(self, abort: bool) -> None:
        self.todo.clear()


_SHARED: Any = None  # a worker process's shared argument, set once when it starts


def _init_worker(shared: Any) -> None:
    global _SHARED
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops us
    _SHARED = shared


def _run(fn: Task, item: Any) -> Done:
    return item, fn(_SHARED, item)


class ProcessPool:
    """Worker processes (spawned, so the same on every platform) of this machine."""

    def __init__(self, fn: Task, shared: Any, workers: int) -> None:
        self.fn = fn
        self.workers = workers
        self.results: queue.Queue[Done] = queue.Queue()
        ctx = multiprocessing.get_context("spawn")
        with sigint_ignored():  # a child started now ignores Ctrl-C from its first instruction
            self.pool = ctx.Pool(workers, initializer=_init_worker, initargs=(shared,))

    def submit(self, item: Any) -> None:
        def failed(exc: BaseException) -> None:
            self.results.put((item, failure(exc)))

        self.pool.apply_async(_run, (self.fn, item), callback=self.results.put, error_callback=failed)

    def next_result(self) -> Done:
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


def default_workers() -> int:
    return os.cpu_count() or 1
