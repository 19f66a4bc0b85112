"""Independent tasks on this process, on worker processes of this machine or on a Dask
cluster, with results collected as they come: what ``spades simulate`` (chunks of games)
and ``spades analyze`` (hands) share.

- :mod:`.pool`: :class:`~.pool.Pool` (the interface), :class:`~.pool.InProcess`,
  :class:`~.pool.ProcessPool`, :func:`~.pool.sigint_ignored`;
- :mod:`.cluster`: :class:`~.cluster.DaskPool` (the optional ``cluster`` extra).

A task is ``fn(shared, item)``: ``fn`` a module-level function (sent by name),
``shared`` sent to each worker once, ``item`` the task's own argument. Worker processes
ignore Ctrl-C; the caller stops them (``close(abort=True)``) when it is interrupted.
"""

from __future__ import annotations

from spades_cli.workers.choose import make_pool
from spades_cli.workers.pool import Failed, InProcess, Pool, ProcessPool, default_workers, sigint_ignored

__all__ = ["Failed", "InProcess", "Pool", "ProcessPool", "default_workers", "make_pool", "sigint_ignored"]
