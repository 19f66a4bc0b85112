"""``spades analyze`` on a game of the family (issue 30): the double-dummy solver plays the
ordinary 52-card game with two sides only, and says so in one line (exit 2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.cli import run_cli

from spades_cli.engine import PLAY, State, deck_cards, deck_for
from spades_cli.presets import load_rules
from spades_cli.solver.search import Solver, UnsupportedRules


@pytest.mark.parametrize("name", ["jokers", "cutthroat", "solo"])
def test_r_j_1_analyze_refuses_a_variant_in_one_line(tmp_path: Path, name: str) -> None:
    """R-J-1, R-CT-1, R-I-1: another deck or other sides: one line, exit 2, no traceback."""
    path = tmp_path / "game.txt"
    path.write_text(f'[Game "spades"]\n[Format "1"]\n[Rules "{name}"]\n', encoding="utf-8")
    result = run_cli(["analyze", str(path)])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"spades: {path}: the hindsight analysis plays only the ordinary 52-card game with two sides, "
        f"not the rules '{name}'"
    ]


def test_r_j_1_the_solver_refuses_a_joker_game() -> None:
    """R-J-1: the search itself refuses rules it does not handle rather than answer wrongly."""
    rules = load_rules("jokers")
    state = State(rules, 0)
    state.deal(deck_for("solver", 0, deck_cards(rules)))
    while state.phase != PLAY:
        state.apply(state.legal_actions()[1])
    with pytest.raises(UnsupportedRules, match="ordinary 52-card game"):
        Solver(state, 0, [0] * 14, [0.0] * 14)
