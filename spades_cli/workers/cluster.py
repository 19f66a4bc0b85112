"""Tasks on a Dask cluster (the optional ``cluster`` extra: dask and distributed).

``tcp://HOST:8786`` sends the tasks to the workers of a running Dask scheduler;
``local`` starts a ``LocalCluster`` of ``workers`` processes here. The shared argument is
sent to the workers once (scattered); each task calls the same function the local worker
processes do, so the results are the same. Workers need only ``pip install spades``
(and Dask, which runs them).
"""

from __future__ import annotations

import importlib
import logging
from typing import Any

from spades_cli.errors import UsageError
from spades_cli.workers.pool import Done, Task, failure, sigint_ignored

CONNECT_TIMEOUT = "10s"


def _task(fn: Task, shared: Any, item: Any) -> Done:
    return item, fn(shared, item)


class DaskPool:
    """Tasks as Dask tasks, collected as they complete."""

    def __init__(self, fn: Task, shared: Any, scheduler: str, workers: int) -> None:
        try:
            # Imported by name, as Any: the extra is optional (and has no type hints).
            dist: Any = importlib.import_module("distributed")
        except ImportError:
            raise UsageError(
                "--scheduler needs Dask: pip install 'spades[cluster]' (dask and distributed)"
            ) from None
        self.fn = fn
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
                # An address no transport of Dask's knows is refused before a Client (and
                # its event-loop thread) is made for it.
                registry: Any = importlib.import_module("distributed.comm.registry")
                scheme = scheduler.split("://", 1)[0] if "://" in scheduler else "tcp"
                if scheme not in registry.backends:
                    raise ValueError(f"no Dask transport {scheme!r}")
                self.client = dist.Client(scheduler, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError, ValueError) as exc:
            self._shutdown()
            raise UsageError(f"--scheduler {scheduler}: cannot connect ({str(exc)[:120]})") from None
        self.workers = max(1, sum(self.client.nthreads().values()))
        [self.shared] = self.client.scatter([shared], broadcast=True)
        self.done = dist.as_completed()
        self.futures: dict[Any, Any] = {}

    def submit(self, item: Any) -> None:
        future = self.client.submit(_task, self.fn, self.shared, item, pure=False)
        self.futures[future] = item
        self.done.add(future)

    def next_result(self) -> Done:
        future = next(self.done)
        item = self.futures.pop(future)
        try:
            result: Done = future.result()
        except Exception as exc:  # a worker lost or a failure in the task: one line, no traceback
            return item, failure(exc)
        return result

    def close(self, abort: bool) -> None:
        if abort and self.futures:
            self.client.cancel(list(self.futures))
        self._shutdown()

    def _shutdown(self) -> None:
        client = getattr(self, "client", None)
        if client is not None:
            client.close()
        if self.cluster is not None:
            self.cluster.close()
