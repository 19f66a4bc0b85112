"""Which pool runs the tasks: a Dask cluster, worker processes or this process."""

from __future__ import annotations

from typing import Any

from spades_cli.workers.pool import InProcess, Pool, ProcessPool, Task


def make_pool(fn: Task, shared: Any, jobs: int, tasks: int, scheduler: str | None = None) -> Pool:
    """Where ``tasks`` tasks of ``fn`` run: the Dask ``scheduler`` (``local``: a
    LocalCluster of ``jobs`` workers here), else ``jobs`` worker processes (no more than
    there are tasks), or this process for one job or one task."""
    if scheduler is not None:
        from spades_cli.workers.cluster import DaskPool

        return DaskPool(fn, shared, scheduler, jobs)
    if jobs <= 1 or tasks <= 1:
        return InProcess(fn, shared)
    return ProcessPool(fn, shared, min(jobs, tasks))
