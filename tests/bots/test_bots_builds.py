"""The hard bot's choices in fixed positions, pinned: the pure-Python build and the
mypyc-compiled build (``pip install .`` compiles the engine and the bots' hot paths)
must choose the same actions, so this test holds in either build."""

from __future__ import annotations

import pytest
from helpers.positions import random_position

from spades_cli.bots.hard import HardBot
from spades_cli.engine import action_text, rng_for
from spades_cli.presets import load_rules

# (preset, seed, random actions from the deal, hard's choice); the positions are bids and
# card plays with three or more legal actions.
PINNED = [
    ("four-player", 1, 7, "3C"),
    ("four-player", 3, 21, "JS"),
    ("four-player", 4, 28, "4H"),
    ("four-player", 6, 42, "3S"),
    ("four-player", 9, 3, "1"),
    ("four-player", 10, 10, "2H"),
    ("two-player", 6, 102, "3D"),
    ("two-player", 12, 84, "4"),
    ("two-player", 13, 91, "AC"),
    ("two-player", 15, 105, "2H"),
    ("two-player", 22, 94, "9H"),
    ("two-player", 23, 101, "2S"),
]


@pytest.mark.parametrize(("preset", "seed", "steps", "expected"), PINNED)
def test_hard_chooses_the_pinned_action_in_either_build(
    preset: str, seed: int, steps: int, expected: str
) -> None:
    rules = load_rules(preset)
    state = random_position(rules, seed, steps)
    seat = state.current_player()
    bot = HardBot(play_budget=2000, bid_worlds=12)
    assert action_text(bot.act(state.observation(seat), rules, rng_for("golden", seed))) == expected
