"""Robustness: mutated transcripts and scripts (dropped, duplicated, swapped and garbled
lines, truncation, binary junk) fed to ``replay`` and ``run`` never end in a traceback.

Every case ends in exit 0 (the mutation left a valid file, e.g. a dropped comment or a
cut at the end of an action), or in exit 1 (an illegal action or a recorded result that
differs), 2 (a file that cannot be parsed or used) or, for ``run``, 3 (a scripted seat
ran out of actions); every non-zero exit prints messages that start with ``FILE:LINE:``.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest
from helpers.cli import run_cli
from helpers.fuzz import mutations
from helpers.paths import TRANSCRIPTS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

CORPUS = {
    "four-player-unfinished": (TRANSCRIPTS / "four-player-unfinished.txt").read_bytes(),
    "two-player-unfinished": (TRANSCRIPTS / "two-player-unfinished.txt").read_bytes(),
    "four-player-head": b"\n".join((TRANSCRIPTS / "four-player.txt").read_bytes().split(b"\n")[:140]),
    "script-four": (TRANSCRIPTS / "scripts" / "four-player.txt").read_bytes(),
    "script-two": (TRANSCRIPTS / "scripts" / "two-player.txt").read_bytes(),
}
# Transcripts script every seat; the four-player script names its bots in Seat tags.
RUN_ARGS = {"script-two": ["--seat", "S=random"]}
GARBAGE = st.lists(
    st.sampled_from([*'ASKQJT98765432CDHNEW:|*#"[]\\ -0xyzé♠\t\x00\x7f', "won", "nil", " trick 1 N:", "\n"]),
    max_size=8,
).map("".join)


def _check(args: list[str], path: Path, allowed: set[int]) -> None:
    result = run_cli(args)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"traceback for {args}: {result.exception!r}"
    )
    assert result.exit_code in allowed, (result.exit_code, result.stderr)
    if result.exit_code != 0:
        where = re.escape(str(path))
        first = result.stderr.splitlines()[0] if result.stderr else ""
        assert re.match(rf"(spades: )?{where}:\d+: \S", first), result.stderr


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutations(CORPUS, GARBAGE))
def test_mutated_files_never_crash_replay_or_run(case: tuple[str, bytes]) -> None:
    name, data = case
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{name}.txt"
        path.write_bytes(data)
        _check(["replay", str(path)], path, {0, 1, 2})
        _check(["replay", "--json", str(path)], path, {0, 1, 2})
        out = str(Path(tmp) / "out.txt")
        args = ["run", str(path), "-o", out, "--then", "random", "--max-hands", "6", *RUN_ARGS.get(name, [])]
        _check(args, path, {0, 1, 2, 3})
