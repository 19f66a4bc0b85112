"""A received file is data: whatever bytes it holds, ``replay``, ``run`` and ``resume`` end
with a documented exit code (0 to 3), never a traceback, and leave no stray file behind.

The inputs are random byte strings and random mutations (dropped, duplicated, swapped and
garbled lines, cuts, binary junk) of every file in ``transcripts/``. Most cases run the CLI
in-process (click's runner) for speed; a few run it as a process of its own, where a
traceback or a warning printed at exit would show on stderr.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from helpers.cli import run_cli
from helpers.fuzz import mutations
from helpers.paths import TRANSCRIPTS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

CORPUS = {
    str(p.relative_to(TRANSCRIPTS)): p.read_bytes() for p in sorted(TRANSCRIPTS.rglob("*")) if p.is_file()
}
GARBAGE = st.lists(
    st.sampled_from(
        [
            *'ASKQJT98765432CDHNEW:|*#"[]\\ -0xyzé♠\t\x00\x7f',
            "won",
            "nil",
            " trick 1 N:",
            "\n",
            "\\uD800",
            "\\u0000",
            '[Seat "E" "cmd:true"]',
            "end *",
            "hand 2",
            "9" * 30,
        ]
    ),
    max_size=8,
).map("".join)
ALLOWED = {0, 1, 2, 3}


FILES = st.one_of(
    mutations(CORPUS, GARBAGE), st.binary(max_size=400).map(lambda data: ("random bytes", data))
)


def _listing(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


def _check(args: list[str], allowed: set[int] = ALLOWED) -> int:
    result = run_cli(args)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"traceback for {args}: {result.exception!r}"
    )
    assert result.exit_code in allowed, (args, result.exit_code, result.stderr)
    assert "Traceback" not in result.stderr
    if result.exit_code == 2:
        assert result.stderr.strip(), args  # a refusal always says why
    return result.exit_code


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(FILES, st.integers(1, 3))
def test_received_files_never_crash_replay_run_or_resume(case: tuple[str, bytes], hands: int) -> None:
    _, data = case
    home = Path(os.environ["SPADES_HOME"])
    home_before = _listing(home) if home.exists() else set()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = folder / "received.txt"
        path.write_bytes(data)
        out = folder / "out.txt"
        _check(["replay", str(path)], {0, 1, 2})
        _check(["replay", "--json", str(path)], {0, 1, 2})
        _check(["run", str(path), "-o", str(out), "--then", "random", "--max-hands", str(hands)])
        assert _listing(folder) <= {"received.txt", "out.txt"}
        code = _check(["resume", str(path), "--max-hands", str(hands)])
        if code == 2:
            assert path.read_bytes() == data  # a refused resume changes nothing
        assert _listing(folder) <= {"received.txt", "out.txt"}
    assert (_listing(home) if home.exists() else set()) == home_before


@pytest.mark.slow
def test_received_files_never_crash_a_real_process() -> None:
    cases = {
        "zeros": b"\x00" * 64,
        "not utf-8": b'[Game "spades"]\n\xff\xfe\nhand 1\n',
        "surrogate": CORPUS["four-player-unfinished.txt"].replace(b'[Seed "', b'[Note "\\uD800"]\n[Seed "'),
        "cut": CORPUS["two-player-unfinished.txt"][:-37],
    }
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name, data in cases.items():
            path = folder / "received.txt"
            path.write_bytes(data)
            for args in (
                ["replay", str(path)],
                [
                    "run",
                    str(path),
                    "-o",
                    str(folder / "out.txt"),
                    "--force",
                    "--then",
                    "random",
                    "--max-hands",
                    "1",
                ],
                ["resume", str(path), "--max-hands", "1"],
            ):
                ran = subprocess.run(
                    [sys.executable, "-m", "spades_cli", *args],
                    stdin=subprocess.DEVNULL,
                    capture_output=True,
                    text=True,
                    timeout=120,
                    check=False,
                )
                assert ran.returncode in ALLOWED, (name, args, ran.returncode, ran.stderr)
                assert "Traceback" not in ran.stderr and "Exception" not in ran.stderr, (name, ran.stderr)
            assert _listing(folder) <= {"received.txt", "out.txt"}, name
