"""Every ``spades ...`` command shown in README.md and docs/*.md runs and exits as documented.

Commands run from the repository root (so ``transcripts/...`` paths are local), with a
private ``SPADES_HOME`` and stdin closed: a game at the prompt then stops at once, saved
(exit 3). Commands that cannot run here are skipped with the reason stated below.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.paths import ROOT

SKIP = {
    "spades simulate": "a long tournament (simulate has its own tests)",
    "spades merge": "needs the parts of a tournament skipped above",
    "spades host": "opens a network table and waits for players",
    "spades join": "needs a hosted table",
}
PLACEHOLDERS = ("my-table.yaml", "mybot", "script.txt", "game.txt")  # files the reader would write


def documented() -> list[tuple[str, str]]:
    found = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        for block in re.findall(r"```sh\n(.*?)```", text, re.S):
            for line in block.replace("\\\n", " ").splitlines():
                line = line.split("  #")[0].strip()
                if line.startswith("spades "):
                    found.append((path.name, line))
    return found


def expected(line: str) -> int:
    return 3 if line.startswith("spades play") else 0  # stdin closed: the game stops, saved


@pytest.mark.slow
@pytest.mark.parametrize(("doc", "line"), documented())
def test_documented_command_runs(doc: str, line: str, tmp_path: Path) -> None:
    for prefix, reason in SKIP.items():
        if line.startswith(prefix):
            pytest.skip(reason)
    if any(p in line for p in PLACEHOLDERS):
        pytest.skip("names a file of the reader's own")
    words = shlex.split(line)
    bin_dir = str(Path(sys.executable).parent)
    env = dict(os.environ, SPADES_HOME=str(tmp_path), PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""))
    command = [sys.executable, "-m", "spades_cli", *words[1:]]
    done = subprocess.run(
        command, cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True, env=env, timeout=120
    )
    assert done.returncode == expected(line), (doc, line, done.stderr[-500:])
    assert b"Traceback" not in done.stderr
