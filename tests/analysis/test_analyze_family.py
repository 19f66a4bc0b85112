"""``spades analyze`` on a game of the family (issue 30): the solvers play every deck and
trump order of the family (tests/solver/test_solver_family.py); with more than two sides
(cutthroat, solo) each side's figures and costs are its own, every other seat against it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.cli import run_cli

from spades_cli.analysis.hand import analyze_hand, plays
from spades_cli.analysis.reading import read_for_analysis, replayed
from spades_cli.engine import PLAY, State, card_str, deck_cards, deck_for
from spades_cli.engine.cards import BIG_JOKER, LITTLE_JOKER
from spades_cli.presets import load_rules
from spades_cli.solver.deck import solver_deck, tricks_left
from spades_cli.solver.outcome import Outcome


def _game(tmp_path: Path, name: str) -> Path:
    """A short game of the preset ``name`` (two hands, seeded)."""
    flags = ["--games", "1", "--max-hands", "2", "--seed", "3", "--transcripts", str(tmp_path)]
    result = run_cli(["simulate", "--rules", name, *flags])
    assert result.exit_code == 0, result.output
    return tmp_path / "game-0001.txt"


def _best_by_brute_force(st: State, card: int) -> tuple[int, float]:
    """The tricks and points (own less the other sides' mean) the mover's side gives up
    with ``card`` against its best card, every card of the position searched in full
    (the Python solver, no budget)."""
    side = solver_deck(st.rules).side_of[st.current]
    costs = []
    for kind in ("tricks", "points"):
        solver = Outcome(st, side, value=kind).solver(st, 0)
        solver.load(st)
        values = solver.move_values()
        costs.append(max(values.values()) - values[card])
    return round(costs[0]), costs[1]


@pytest.mark.parametrize(("name", "seats"), [("cutthroat", "N E S"), ("solo", "N E S W")])
def test_r_ct_7_each_seat_of_a_game_without_partners_is_a_side_of_the_analysis(
    tmp_path: Path, name: str, seats: str
) -> None:
    """R-CT-1, R-CT-7, R-I-1: every seat a side: each card's cost is its own side's (the
    other seats all against it) and matches a full search of its position; the figures
    from the deal are mostly over this small budget: those are shown as not known, never
    guessed."""
    path = _game(tmp_path, name)
    result = run_cli(["analyze", str(path), "--json", "--tricks", "2", "--budget", "3000", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert list(data["seats"]) == seats.split()
    rules, match = replayed(read_for_analysis(str(path)))
    checked = 0
    for hand, (start, cards) in zip(data["hands"], plays(match), strict=True):
        assert list(hand["double_dummy"]["sides"]) == seats.split()
        assert None in hand["double_dummy"]["sides"].values()
        assert hand["double_dummy"]["seats"] == hand["double_dummy"]["sides"]
        st = start.clone()
        found = iter(hand["cards"])
        for card in cards:
            if tricks_left(st) <= 2 and len(st.legal_actions()) > 1:
                row = next(found)
                assert (row["seat"], row["card"]) == (rules.seat_names[st.current], card_str(card))
                tricks, points = _best_by_brute_force(st, card)
                assert row["cost_tricks"] == tricks
                assert row["cost_points"] == pytest.approx(points, abs=1e-6)
                assert row["costly"] is (points > 1e-6)
                checked += 1
            st.apply(card)
        assert next(found, None) is None
    assert checked > 4


@pytest.mark.slow
def test_r_i_1_solo_figures_from_the_deal_are_each_seat_against_the_other_three(tmp_path: Path) -> None:
    """R-I-1, R-CT-7: a solo hand's figures from the deal: each seat's tricks with the
    three others playing together against it (the most it can be sure of), as a search
    of that side alone finds them; a seat alone on its side has its side's figure."""
    path = _game(tmp_path, "solo")
    _, match = replayed(read_for_analysis(str(path)))
    start, cards = plays(match)[0]
    report = analyze_hand(start, cards, 1, 0)
    for side in range(4):
        solver = Outcome(start, side, value="tricks").solver(start, 0)
        solver.load(start)
        assert report.side_tricks[side] == solver.value()
    assert report.seat_tricks == report.side_tricks
    assert sum(t for t in report.side_tricks if t is not None) <= 13


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
