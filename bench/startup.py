"""Start-up cost of the installed ``spades`` command, against ``python -c 'import click'``.

    python bench/startup.py [--runs N]

It runs the ``spades`` found on PATH (the installed console script, from a temporary
folder so that no checkout is on ``sys.path``) and the same interpreter for the baseline,
and prints the median user+sys CPU time of N runs (default 15, taking turns) of:

- ``python -c 'import click'`` (the baseline);
- ``spades --help``: target within 1.3x of the baseline;
- ``spades bot --level easy`` answering the handshake and its first request, then
  ``quit``: target within 1.5x of the baseline.

CPU time, not wall time, so a busy machine changes the figures less. Bytecode is
written and used as after a normal install (PYTHONDONTWRITEBYTECODE is dropped for the
runs; a warm-up run fills the cache). It also prints which build ran: the package's
location and whether compiled modules are present.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

PROBE = """
import pathlib, spades_cli
root = pathlib.Path(spades_cli.__file__).parent
compiled = sorted(str(p.relative_to(root)) for p in root.rglob('*') if p.suffix in ('.so', '.pyd'))
print(spades_cli.__file__)
print(spades_cli.__version__)
print(len(compiled))
"""

REQUEST = """
from spades_cli.game.match import Match
from spades_cli.presets import load_rules
from spades_cli.protocol import format_request, HELLO, PROTOCOL_VERSION
from spades_cli.game.seats import RandomController
rules = load_rules('four-player')
match = Match(rules, 'startup', [RandomController()] * 4)
match.run(max_actions=20)  # into the bidding of the first hand
seat = match.state.current_player()
print(f'{HELLO} {PROTOCOL_VERSION}')
print(format_request(match.observation(seat), rules, match.rng_key('bot', seat)), end='')
print('quit')
"""


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def cpu_of(argv: list[str], stdin: bytes, cwd: str) -> float:
    """User+sys CPU seconds of one run of ``argv`` (its children included)."""
    proc = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=cwd, env=ENV
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(stdin)
    proc.stdin.close()
    out = proc.stdout.read()
    proc.stdout.close()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited with {proc.returncode}")
    if stdin and out.count(b"\n= ") < 2:  # the handshake, the answer (and "= bye")
        raise SystemExit(f"{' '.join(argv)} gave no answer: {out[:200]!r}")
    return usage.ru_utime + usage.ru_stime


def median_cpus(runs: int, cwd: str, *commands: tuple[list[str], bytes]) -> list[float]:
    """The median CPU time of each command; the commands take turns, so that a change in the
    machine's load during the bench weighs on all of them alike."""
    for argv, stdin in commands:
        cpu_of(argv, stdin, cwd)  # warm the file cache and the bytecode cache
    times: list[list[float]] = [[] for _ in commands]
    for _ in range(runs):
        for i, (argv, stdin) in enumerate(commands):
            times[i].append(cpu_of(argv, stdin, cwd))
    return [statistics.median(t) for t in times]


def interpreter_of(script: str) -> str:
    first = Path(script).read_text(errors="replace").splitlines()[0]
    return first[2:].strip() if first.startswith("#!") else sys.executable


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    spades = shutil.which("spades")
    if spades is None:
        raise SystemExit("no spades on PATH: pip install . (or pip install -e .) first")
    python = interpreter_of(spades)
    with tempfile.TemporaryDirectory(prefix="spades-startup-") as cwd:
        env_check = subprocess.run([python, "-c", PROBE], capture_output=True, text=True, cwd=cwd, check=True)
        where, version, compiled = env_check.stdout.split("\n")[:3]
        checkout = Path(__file__).resolve().parent.parent
        kind = "editable install of a checkout" if Path(where).is_relative_to(checkout) else "installed"
        print(f"spades {version} ({kind}): {where}; compiled modules: {compiled}")
        print(f"command: {spades}; interpreter: {python}; {args.runs} runs each, median user+sys CPU")
        request = subprocess.run([python, "-c", REQUEST], capture_output=True, cwd=cwd, check=True).stdout
        base, help_cpu, bot_cpu = median_cpus(
            args.runs,
            cwd,
            ([python, "-c", "import click"], b""),
            ([spades, "--help"], b""),
            ([spades, "bot", "--level", "easy"], request),
        )
    print(f"python -c 'import click'          {base * 1000:7.1f} ms")
    rows = (("spades --help", help_cpu, 1.3), ("spades bot --level easy, 1 answer", bot_cpu, 1.5))
    for what, cpu, target in rows:
        print(f"{what:<34} {cpu * 1000:7.1f} ms   {cpu / base:.2f}x (target {target}x)")


if __name__ == "__main__":
    main()
