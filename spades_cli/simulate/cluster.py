"""Tournaments on a Dask cluster (the optional ``cluster`` extra: dask and distributed).

``--scheduler tcp://HOST:8786`` sends the chunks to the workers of a running Dask
scheduler; ``--scheduler local`` starts a ``LocalCluster`` of ``--jobs`` worker processes
here. The tournament is sent to the workers once (scattered); each task plays one chunk
with the same function the local worker processes use, so the result is the same.
Workers need only ``pip install spades`` (and Dask, which runs them).
"""

from __future__ import annotations

import importlib
import logging
from typing import Any

from spades_cli.errors import UsageError
from spades_cli.simulate.game import Settings
from spades_cli.simulate.runner import ChunkResult, sigint_ignored
from spades_cli.simulate.totals import play_range

CONNECT_TIMEOUT = "10s"


def _task(settings: Settings, start: int, end: int) -> ChunkResult:
    return (start, end), play_range(settings, start, end)


class DaskBackend:
    """Chunks as Dask tasks, collected as they complete."""

    def __init__(self, settings: Settings, scheduler: str, workers: int) -> None:
        try:
            # Imported by name, as Any: the extra is optional (and has no type hints).
            dist: Any = importlib.import_module("distributed")
        except ImportError:
            raise UsageError(
                "--scheduler needs Dask: pip install 'spades[cluster]' (dask and distributed)"
            ) from None
        self.cluster: Any = None
        try:
            if scheduler == "local":
                with sigint_ignored():  # its worker processes ignore Ctrl-C: we stop them
                    self.cluster = dist.LocalCluster(
                        n_workers=workers,
                        threads_per_worker=1,
                        processes=True,
                        dashboard_address=None,
                        silence_logs=logging.ERROR,  # no warnings about the tasks cancelled by Ctrl-C
                    )
                self.client = dist.Client(self.cluster)
            else:
                self.client = dist.Client(scheduler, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError, ValueError) as exc:
            self._shutdown()
            raise UsageError(f"--scheduler {scheduler}: cannot connect ({str(exc)[:120]})") from None
        self.workers = max(1, sum(self.client.nthreads().values()))
        [self.settings] = self.client.scatter([settings], broadcast=True)
        self.done = dist.as_completed()
        self.futures: list[Any] = []

    def submit(self, start: int, end: int) -> None:
        future = self.client.submit(_task, self.settings, start, end, pure=False)
        self.futures.append(future)
        self.done.add(future)

    def next_result(self) -> ChunkResult:
        future = next(self.done)
        self.futures.remove(future)
        try:
            result: ChunkResult = future.result()
        except Exception as exc:  # a worker lost or a failure in the task: one line, no traceback
            return (0, 0), f"a cluster task failed: {type(exc).__name__}: {str(exc)[:200]}"
        return result

    def close(self, abort: bool) -> None:
        if abort and self.futures:
            self.client.cancel(self.futures)
        self._shutdown()

    def _shutdown(self) -> None:
        client = getattr(self, "client", None)
        if client is not None:
            client.close()
        if self.cluster is not None:
            self.cluster.close()
