"""Every benchmark script under ``bench/`` still imports against today's package: its
``--help`` runs and prints its usage (a moved function once left ``bench/replay.py``
unable to start, with nothing to say so). The optional packages (OpenSpiel, endplay,
numpy) are imported only where a measurement needs them, so this holds without them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# common.py is the scripts' shared module; classic.py is an opponent that speaks the bot
# protocol on stdin, not a benchmark with options.
SCRIPTS = sorted(p for p in (ROOT / "bench").glob("*.py") if p.name not in ("common.py", "classic.py"))


def test_the_bench_folder_has_its_scripts() -> None:
    assert {"analyze.py", "bots.py", "dds.py", "engine.py", "replay.py"} <= {p.name for p in SCRIPTS}


@pytest.mark.slow
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_a_bench_script_starts(script: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(script), "--help"], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.lower().startswith("usage:")
