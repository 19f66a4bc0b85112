"""Every preset of the family (issue 30) is played to its end by the batch front ends, and
its transcript replays: ``spades simulate`` with easy and normal bots, then ``spades replay``."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.cli import run_cli

FAMILY = ("cutthroat", "joker-joker-deuce-deuce", "jokers", "mirror", "solo", "suicide", "whiz")


@pytest.mark.parametrize("name", FAMILY)
@pytest.mark.parametrize("level", ["easy", "normal"])
def test_r_ct_1_each_variant_plays_to_its_end_and_replays(tmp_path: Path, name: str, level: str) -> None:
    """R-CT-1, R-I-1, R-J-1, R-J-8, R-S-1, R-M-1, R-W-1: two hands (R-E-2) to the end."""
    out = tmp_path / "games"
    args = ["simulate", "--rules", name, "--set", "hand_limit=2", "--set", "target=100"]
    result = run_cli(
        [*args, "--games", "2", "--level", level, "-j", "1", "--seed", "7", "--transcripts", str(out)]
    )
    assert result.exit_code == 0, result.output
    files = sorted(out.iterdir())
    assert len(files) == 2
    for f in files:
        text = f.read_text(encoding="utf-8")
        assert "\nend winner " in text
        replayed = run_cli(["replay", str(f)])
        assert replayed.exit_code == 0, replayed.output
