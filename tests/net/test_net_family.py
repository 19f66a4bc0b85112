"""`spades host` / `spades join` with the Spades family (issue 30): a three-seat table
(cutthroat) and a deck with jokers are played to the end by joined seats, and every seat
is shown the variant's hand size, sides and cards."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.net import Player, host_table


@pytest.mark.parametrize(
    ("source", "labels"),
    [
        ("cutthroat", {"N": "human", "E": "easy", "S": "human"}),
        ("jokers", {"N": "human", "E": "easy", "S": "human", "W": "easy"}),
        ("solo", {"N": "human", "E": "easy", "S": "human", "W": "easy"}),
    ],
)
def test_r_ct_1_a_variant_is_hosted_and_joined_to_its_end(
    tmp_path: Path, source: str, labels: dict[str, str]
) -> None:
    """R-CT-1, R-CT-7, R-J-1, R-I-1: one hand (R-E-2) of each, two joined seats."""
    hosted = host_table(tmp_path, seed=3, labels=labels, source=source, overrides=("hand_limit=1",))
    players = [Player(hosted.address, hosted.token(s), last=s == "S") for s in ("N", "S")]
    for p in players:
        p.start()
    for p in players:
        p.finish()
    hosted.finish()
    assert not hosted.errors
    assert "\nend " in hosted.transcript
    shown = "\n".join(players[0].shown)
    size = {"cutthroat": 17}.get(source, 13)
    assert f"of {size} bid)" in shown
    assert f"Trick {size}: " in shown
    if source != "cutthroat":
        assert "W " in shown
    else:
        assert "\nW " not in shown and "S: bid" in shown
