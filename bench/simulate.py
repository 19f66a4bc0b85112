"""Tournament throughput and memory: what ``spades simulate`` costs at scale.

    python bench/simulate.py [--small 200] [--large 20000] [--speed-games 200] [--cluster-games 2000]

Prints:

- **memory**: the peak resident memory of ``spades simulate --jobs 1`` (one process) for
  ``--small`` and ``--large`` games with random players in every seat and one hand per game
  (``--max-hands 1``, so the large run is affordable; the totals kept are the same whatever
  the games' length). Target: the large run within 1.2x of the small one.
- **workers**: games per second of all-normal four-player games with ``--jobs 1`` and
  ``--jobs 2`` (worker start-up included). Target: at least 1.7x on a quiet 2-core machine;
  the load average is printed, since a shared machine makes this figure low.
- **cluster**: ``--cluster-games`` games (easy against normal, at most ``--cluster-hands``
  hands each) played locally and on a 4-worker Dask ``LocalCluster``; the two results
  must be identical apart from timings (needs ``pip install '.[cluster]'``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

from common import build_line

from spades_cli.simulate.report import without_timing

RANDOM_SEATS = ["--seat", "N=random", "--seat", "E=random", "--seat", "S=random", "--seat", "W=random"]


def simulate(args: list[str]) -> tuple[float, int, str, float]:
    """Run ``spades simulate ARGS`` in a child; (seconds, the child's peak resident KiB, stdout,
    CPU seconds of the child and of the worker processes it started)."""
    # -I: the installed package, not a spades_cli in the current folder (a checkout).
    cmd = [sys.executable, "-I", "-m", "spades_cli", "simulate", "-q", *args]
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, text=True)
        _, status, usage = os.wait4(proc.pid, 0)  # this child's own peak, not its siblings'
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if proc.returncode != 0:
            raise SystemExit(f"simulate {' '.join(args)} failed ({proc.returncode}): {err.read()[:300]}")
        return seconds, usage.ru_maxrss, out.read(), usage.ru_utime + usage.ru_stime


def memory(small: int, large: int) -> None:
    base = [*RANDOM_SEATS, "--max-hands", "1", "-j", "1", "--seed", "1", "--json"]
    s_time, s_peak, _, _ = simulate(["--games", str(small), *base])
    l_time, l_peak, out, _ = simulate(["--games", str(large), *base])
    played = json.loads(out)["games_played"]
    print("memory, one process, random seats, 1 hand per game (--max-hands 1):")
    print(f"  {small:>7} games: peak {s_peak / 1024:6.1f} MiB  ({s_time:.1f} s)")
    print(f"  {large:>7} games: peak {l_peak / 1024:6.1f} MiB  ({l_time:.1f} s, {played} played)")
    print(f"  ratio {l_peak / s_peak:.2f} (target <= 1.2)")


def workers(games: int) -> None:
    print(f"workers, all-normal four-player, {games} full games, seed 5 (start-up included):")
    rates = {}
    cpu = {}
    for jobs in (1, 2):
        load = os.getloadavg()[0]
        seconds, _, _, cpu[jobs] = simulate(["--games", str(games), "-j", str(jobs), "--seed", "5"])
        rates[jobs] = games / seconds
        print(
            f"  --jobs {jobs}: {rates[jobs]:6.2f} games/s  ({seconds:.1f} s, {cpu[jobs]:.1f} CPU s; "
            f"load before {load:.1f})"
        )
    ratio = rates[2] / rates[1]
    print(f"  ratio {ratio:.2f} (target >= 1.7 on a quiet 2-core machine; {os.cpu_count()} CPUs here)")
    # About 1 means the workers add no work of their own: the wall-clock ratio then depends
    # only on how many cores are free.
    print(f"  CPU per game --jobs 2 / --jobs 1: {cpu[2] / cpu[1]:.2f} (about 1: workers add no work)")


def cluster(games: int, hands: int) -> None:
    try:
        import distributed  # noqa: F401
    except ImportError:
        print("cluster: skipped (pip install '.[cluster]')")
        return
    args = [
        "--games",
        str(games),
        "--seed",
        "9",
        "--seat",
        "N=easy",
        "--seat",
        "S=easy",
        "--max-hands",
        str(hands),
        "--json",
    ]
    local_s, _, local, _ = simulate([*args, "-j", "2"])
    dask_s, _, on_cluster, _ = simulate([*args, "--scheduler", "local", "-j", "4"])
    same = without_timing(json.loads(local)) == without_timing(json.loads(on_cluster))
    print(f"cluster, {games} games easy (N/S) against normal (E/W), at most {hands} hands each:")
    print(f"  local --jobs 2: {local_s:.1f} s; LocalCluster of 4 workers: {dask_s:.1f} s (start-up included)")
    print(f"  identical summaries apart from timings: {'yes' if same else 'NO'}")
    if not same:
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            f.write(on_cluster)
        print(f"  (the cluster's result is in {f.name})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=200)
    parser.add_argument("--large", type=int, default=20000)
    parser.add_argument("--speed-games", type=int, default=200)
    parser.add_argument("--cluster-games", type=int, default=2000)
    parser.add_argument("--cluster-hands", type=int, default=3)
    parser.add_argument("--skip", action="append", default=[], choices=["memory", "workers", "cluster"])
    args = parser.parse_args()
    print(build_line())
    if "memory" not in args.skip:
        memory(args.small, args.large)
    if "workers" not in args.skip:
        workers(args.speed_games)
    if "cluster" not in args.skip:
        cluster(args.cluster_games, args.cluster_hands)
    return 0


if __name__ == "__main__":
    sys.exit(main())
