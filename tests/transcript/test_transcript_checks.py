"""One check of what a file records: replay (a transcript) and run (a script) give one
message per problem, from transcript.checks."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.cli import run_cli
from helpers.paths import TRANSCRIPTS

SHORT = (TRANSCRIPTS / "four-player-short.txt").read_text(encoding="utf-8")

WRONG = {
    "dealer": (
        ("hand 1 dealer E", "hand 1 dealer S"),
        "the dealer of hand 1 is E, not S",
    ),
    "winner": (
        ("trick 1 S: 2D TD 3D 4D won W", "trick 1 S: 2D TD 3D 4D won N"),
        "trick 1 is won by W, not N",
    ),
    "result": (
        ("result NS tricks 5 points 141", "result NS tricks 5 points 140"),
        "hand 1: NS took 5 tricks for 141 points and 1 bags, not 5, 140 and 1",
    ),
    "score": (
        ("score NS 141 EW -100", "score NS 141 EW -99"),
        "after hand 1: EW score recorded -99, the rules give -100",
    ),
    "bags": (
        ("bags NS 1 EW 0", "bags NS 2 EW 0"),
        "after hand 1: NS bags recorded 2, the rules give 1",
    ),
    "end": (("end winner NS", "end winner EW"), "EW did not win"),
}


@pytest.mark.parametrize("fact", sorted(WRONG))
def test_replay_and_run_say_the_same_of_a_wrong_record(fact: str, tmp_path: Path) -> None:
    (old, new), message = WRONG[fact]
    assert old in SHORT
    path = tmp_path / "g.txt"
    path.write_text(SHORT.replace(old, new, 1), encoding="utf-8")
    replayed = run_cli(["replay", str(path)])
    ran = run_cli(["run", str(path), "-o", str(tmp_path / "out.txt")])
    line = SHORT.splitlines().index(next(x for x in SHORT.splitlines() if old in x)) + 1
    assert replayed.exit_code == ran.exit_code == 1
    assert f"{path}:{line}: {message}" in replayed.stderr
    assert f"{path}:{line}: {message}" in ran.stderr
