"""``spades analyze`` on a game of the family (issue 30): the solvers play every deck and
trump order of the family (tests/solver/test_solver_family.py); the report is one side's
figures against the other's, so a game of more than two sides is refused in one line."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.cli import run_cli

from spades_cli.analysis.hand import analyze_hand
from spades_cli.engine import PLAY, State, deck_cards, deck_for
from spades_cli.engine.cards import BIG_JOKER, LITTLE_JOKER
from spades_cli.presets import load_rules


@pytest.mark.parametrize(("name", "sides"), [("cutthroat", 3), ("solo", 4)])
def test_r_ct_1_analyze_refuses_more_than_two_sides(tmp_path: Path, name: str, sides: int) -> None:
    """R-CT-1, R-I-1: every seat a side: one line, exit 2, no traceback."""
    path = tmp_path / "game.txt"
    path.write_text(f'[Game "spades"]\n[Format "1"]\n[Rules "{name}"]\n', encoding="utf-8")
    result = run_cli(["analyze", str(path)])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"spades: {path}: the hindsight analysis reports two sides, not the {sides} of the rules '{name}'"
    ]


@pytest.mark.slow
def test_r_j_1_a_joker_hand_is_analysed_to_its_end() -> None:
    """R-J-1, R-J-10: the last four tricks of a joker hand, every card against the best
    one, and the figures from the deal: the sides' figures sum to the hand's 13 tricks."""
    rules = load_rules("jokers")
    state = State(rules, 0)
    state.deal(deck_for("analyze", 0, deck_cards(rules)))
    while state.phase != PLAY:
        state.apply(state.legal_actions()[1])
    start = state.clone()
    cards: list[int] = []
    choices = 0  # cards of the last four tricks played from more than one legal card
    while state.phase == PLAY:
        legal = state.legal_actions()
        choices += state.trick_no >= 9 and len(legal) > 1
        cards.append(legal[-1])
        state.apply(legal[-1])
    assert {BIG_JOKER, LITTLE_JOKER} <= set(cards)
    report = analyze_hand(start, cards, 4, 2_000_000)
    ns, ew = report.side_tricks
    assert ns is not None and ew is not None and ns + ew == 13
    assert sum(report.taken) == 13
    assert all(c.trick >= 10 for c in report.cards) and len(report.cards) == choices
