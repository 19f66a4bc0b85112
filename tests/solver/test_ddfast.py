"""The C double-dummy search (spades_cli.solver.fast) against a brute-force search of the
engine's own game tree and against the Python solver, under random rule options (R-C-3
follow suit, R-C-4 trick winner, R-C-6 breaking spades, the first-trick house rules) and
outcome tables (tricks, points with nils scored on their own tricks R-4P-7, a seat's
own tricks); and ``analyze`` giving the same report with either search."""

from __future__ import annotations

import random
from typing import Any

import pytest
from helpers.paths import TRANSCRIPTS
from helpers.solver import FOUR, TWO, brute, brute_value, random_ending, variant
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spades_cli.bots.rollout import game_utility
from spades_cli.engine import PLAY, State
from spades_cli.presets import load_rules, rules_from_dict, rules_to_dict
from spades_cli.solver import fast as ddfast
from spades_cli.solver.deck import mates, solver_deck
from spades_cli.solver.fast import FastSolver
from spades_cli.solver.outcome import Outcome
from spades_cli.solver.search import SearchLimit, Solver, trick_table

pytestmark = pytest.mark.skipif(not ddfast.available(), reason="the C search core was not built")


def _fast(oc: Outcome, state: State, budget: int = 0) -> FastSolver:
    return FastSolver(state, oc.side, oc.groups, oc.table, oc.keen, oc.linear, budget)


def _seat(state: State, seat: int, fast: bool) -> Solver | FastSolver:
    groups = [0 if s == seat else 1 for s in range(state.n)]
    kind = FastSolver if fast else Solver
    return kind(state, seat % 2, groups, trick_table(2, [0]), None, [1.0, 0.0])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    players=st.sampled_from([2, 4]),
    spades_break=st.booleans(),
    no_spades_first=st.booleans(),
    value=st.sampled_from(["tricks", "points", "seat"]),
)
def test_fast_search_agrees_with_brute_force_on_small_endings(
    seed: int, players: int, spades_break: bool, no_spades_first: bool, value: str
) -> None:
    rules = variant(
        FOUR if players == 4 else TWO, spades_break=spades_break, no_spades_first_trick=no_spades_first
    )
    state = random_ending(rules, seed, 3 if players == 4 else 4)
    if value == "seat":
        seat = seed % players
        assert _seat(state, seat, True).value() == brute(state.clone(), seat % 2, lambda t: float(t[seat]))
        return
    side = state.current % 2
    oc = Outcome(state, side, value=value)
    want = brute_value(oc)
    fast = _fast(oc, state)
    assert fast.value() == brute(state.clone(), side, want)
    # Every card: its value is reached after it, and nothing better for the seat's side.
    for card in state.legal_actions():
        child = state.clone()
        child.apply(card)
        v = brute(child, side, want)
        mover = state.current % 2
        assert fast.reaches(card, v, mover)
        assert not fast.reaches(card, v + 1 if mover == side else v - 1, mover)


def _every_card_agrees(fast: FastSolver, state: State, side: int, want: Any) -> None:
    """The value and every card's value of ``fast`` are the brute-force search's."""
    assert fast.value() == brute(state.clone(), side, want)
    mover = state.current % 2
    for card in state.legal_actions():
        child = state.clone()
        child.apply(card)
        v = brute(child, side, want)
        assert fast.reaches(card, v, mover)
        assert not fast.reaches(card, v + 1 if mover == side else v - 1, mover)


@pytest.mark.slow
@pytest.mark.parametrize("spades_break", [True, False])
def test_a_seat_counted_alone_takes_a_trick_only_when_no_seat_can_overtake(spades_break: bool) -> None:
    # R-C-4: within a trick, a seat counted alone that needs one more trick has it when
    # it surely takes this one; its partner, who is not counted, may have to overtake
    # it, so every other seat still to play is against it (the search stops there).
    rules = variant(FOUR, spades_break=spades_break, no_spades_first_trick=False)
    for seed in range(60):
        state = random_ending(rules, seed, 3)
        for seat in range(4):
            fast = _seat(state, seat, True)
            assert isinstance(fast, FastSolver)
            _every_card_agrees(fast, state, seat % 2, lambda t, seat=seat: float(t[seat]))


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
def test_points_within_a_trick_that_a_seat_surely_takes(players: int) -> None:
    # R-C-4, R-4P-7: points (nils scored on their own tricks on odd seeds), asked within
    # a trick that a seat of the side on turn surely takes when every outcome after it
    # goes that side's way: the answers are brute force's, from both sides.
    rules = FOUR if players == 4 else TWO
    for seed in range(60):
        state = random_ending(rules, seed, 3 if players == 4 else 4)
        for side in (0, 1):
            oc = Outcome(state, side, value="points")
            _every_card_agrees(_fast(oc, state), state, side, brute_value(oc))


@pytest.mark.parametrize("players", [2, 4])
def test_points_near_the_bag_limit_where_tricks_neither_side_avoids_decide(players: int) -> None:
    # R-C-4: a spade no other spade beats takes a trick however the others play; with
    # nine bags before the hand an overtrick costs the bag penalty, so the points ask
    # for counted tricks between two ends (the bid made, no overtrick) and the tricks
    # neither side can avoid decide some of them (solver/_ddcore_search.h): brute
    # force's answers, from both sides.
    rules = FOUR if players == 4 else TWO
    for seed in range(40):
        state = random_ending(rules, seed, 3 if players == 4 else 4, bags=[9] * rules.sides)
        for side in (0, 1):
            oc = Outcome(state, side, value="points")
            _every_card_agrees(_fast(oc, state), state, side, brute_value(oc))


def _random_rules(rng: random.Random, players: int) -> Any:
    d: dict[str, Any] = rules_to_dict(FOUR if players == 4 else TWO)
    d["name"] = "variant"
    d["play"]["spades_break"] = rng.random() < 0.8
    if players == 4:
        d["play"]["no_spades_first_trick"] = rng.random() < 0.3
        d["play"]["two_of_clubs_leads"] = rng.random() < 0.3
        d["nil"]["failed_tricks"] = rng.choice(["bags", "partner", "none"])
    return rules_from_dict(d, "<test>")


@pytest.mark.slow
@pytest.mark.timeout(360)  # whole-deal Python searches: ~70 s alone, twice that on a busy machine
@pytest.mark.parametrize("players", [2, 4])
def test_fast_search_agrees_with_the_python_solver_on_longer_positions(players: int) -> None:
    # Six tricks left (some from the deal's first trick, where the house rules bite):
    # every outcome table the analysis and the expert bot use, the value and every
    # card's value, from both sides; a seat's own tricks with its partner helping.
    rng = random.Random(players)
    checked = 0
    for i in range(14):
        rules = _random_rules(rng, players)
        left = 13 if i % 7 == 0 and players == 4 else 6
        state = random_ending(rules, 500 + i, left if left < 13 else 6)
        if left == 13:
            state = random_ending(rules, 500 + i, 13)
        side = rng.randrange(2)
        for value in ("tricks", "points", game_utility):
            oc = Outcome(state, side, value=value)
            if left == 13 and value != "tricks":
                continue
            slow = oc.solver(state)
            fast = _fast(oc, state)
            assert fast.value() == slow.value()
            if left == 13:
                continue
            for card, v in slow.move_values().items():
                mover = state.current % 2
                assert fast.reaches(card, v, mover)
                assert fast.reaches(card, v, 1 - mover)
            checked += 1
        if players == 4 and left < 13:
            seat = rng.randrange(4)
            assert _seat(state, seat, True).value() == _seat(state, seat, False).value()
    assert checked >= 30


@pytest.mark.slow
@pytest.mark.parametrize("seed", [77, 78, 81])
def test_one_fast_solver_reused_position_after_position(seed: int) -> None:
    # As the analysis uses them: a trick solver and a points solver that reads its trick
    # bounds (shared) load every position of a hand from the last back, the points
    # questions asked both as trick targets and as other sets (bags near the limit, a
    # nil on odd seeds: R-4P-7); each value is the Python solver's.
    d: dict[str, Any] = rules_to_dict(FOUR)
    d["name"] = "variant"
    d["bags"]["limit"] = 3  # overtricks soon cost: points are not a plain trick count
    rules = rules_from_dict(d, "<test>")
    state = random_ending(rules, seed, 7)
    rng = random.Random(seed)
    positions = []
    while state.phase == PLAY:
        positions.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
    tricks_oc = Outcome(positions[0], 0, value="tricks")
    points_oc = Outcome(positions[0], 0, value="points")
    tricks = _fast(tricks_oc, positions[0])
    points = _fast(points_oc, positions[0])
    points.share(tricks)
    guess: float | None = None
    for st_ in reversed(positions):
        tricks.load(st_)
        points.load(st_)
        assert tricks.value() == tricks_oc.solver(st_).value()
        guess = points.value(guess)
        slow = points_oc.solver(st_)
        assert guess == slow.value()
        assert points.move_values() == slow.move_values()


@pytest.mark.parametrize("seed", [11, 12])
def test_one_tricks_solver_moved_in_play_order_gives_each_position_fresh_values(seed: int) -> None:
    # As bench/dds.py and the analysis use it: one solver of N-S's tricks loads every
    # position of a hand in play order, either side on turn (R-C-4 decides each trick);
    # its first question at a position starts from the last position's value
    # (``last_value``), and every card's value is a fresh solver's.
    state = random_ending(FOUR, seed, 8)
    rng = random.Random(seed)
    oc = Outcome(state, 0, value="tricks")
    warm = _fast(oc, state)
    while state.phase == PLAY:
        warm.load(state)
        assert warm.move_values() == _fast(oc, state).move_values()
        assert warm.last_value is not None
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("seed", [3, 4])
def test_a_table_that_starts_small_and_grows_answers_as_a_full_one(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The C core's table grows fourfold as it fills (_ddcore_table.h): started at its
    # least size, it grows many times within these searches, and every value (tricks,
    # and points read through the trick solver's shared table, R-4P-7 on odd seeds'
    # nil) is the one a table made at full size gives, position after position.
    state = random_ending(FOUR, seed, 9)
    rng = random.Random(seed)
    positions: list[State] = []
    while state.phase == PLAY and len(positions) < 12:
        positions.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
    found: list[list[object]] = []
    for start in (ddfast.table_bits, lambda left: 10):
        monkeypatch.setattr(ddfast, "start_bits", start)
        tricks_oc = Outcome(positions[0], 0, value="tricks")
        points_oc = Outcome(positions[0], 0, value="points")
        tricks = _fast(tricks_oc, positions[0])
        points = _fast(points_oc, positions[0])
        points.share(tricks)
        got: list[object] = []
        for st_ in positions:
            tricks.load(st_)
            points.load(st_)
            got += [tricks.move_values(), points.move_values()]
        found.append(got)
    assert found[0] == found[1]


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_a_table_a_freed_solver_leaves_holds_nothing_for_the_next(seed: int) -> None:
    # A freed solver's table is kept for the next solver of the process (_ddcore_table.h,
    # pool_put): the side's tricks are asked first, then a seat's own tricks with the
    # table the first solver left (the same positions, other bounds), and the seat's
    # value is the Python solver's (R-C-4's tricks counted for one seat).
    from spades_cli.solver import _ddcore

    _ddcore.release_kept()  # none kept: the seat's solver takes the side's table
    state = random_ending(FOUR, seed, 8)
    seat = state.current
    oc = Outcome(state, seat % 2, value="tricks")
    side = _fast(oc, state)
    side.move_values()
    del side
    mine = _seat(state, seat, True)
    want = _seat(state, seat, False)
    assert mine.value() == want.value()
    assert isinstance(mine, FastSolver) and isinstance(want, Solver)
    assert mine.move_values() == want.move_values()


def test_a_budget_stops_the_fast_search_and_says_so() -> None:
    state = random_ending(FOUR, 5, 13)
    oc = Outcome(state, 0, value="tricks")
    with pytest.raises(SearchLimit):
        _fast(oc, state, 50).value()
    with pytest.raises(ValueError):
        _fast(oc, state).reaches(60, 1.0, 0)  # not a card of the seat on turn


@pytest.mark.slow
@pytest.mark.timeout(360)  # the Python solver on a whole hand: minutes on a busy machine
def test_analyze_reports_the_same_with_either_search(monkeypatch: pytest.MonkeyPatch) -> None:
    # The four-player golden transcript, every card and the figures from the deal, with
    # the same budget a question: what both searches solved is the same (values, best
    # cards, costly cards); the C search leaves no more unsolved than the Python solver.

    from spades_cli.analysis.analyze import analyze
    from spades_cli.solver import backend
    from spades_cli.transcript import read_transcript

    path = TRANSCRIPTS / "four-player-short.txt"
    t = read_transcript(str(path))
    _, fast_hands = analyze(t, budget=200_000)
    monkeypatch.setattr(backend, "c_core", lambda: False)
    _, slow_hands = analyze(t, budget=200_000)
    assert len(fast_hands) == len(slow_hands) > 0
    for fast, slow in zip(fast_hands, slow_hands, strict=True):
        for mine, theirs in ((fast.side_tricks, slow.side_tricks), (fast.seat_tricks, slow.seat_tricks)):
            for a, b in zip(mine, theirs, strict=True):
                assert b is None or a == b
        assert fast.skipped <= slow.skipped
        by_card = {(c.trick, c.seat): c for c in fast.cards}
        assert len(by_card) >= len(slow.cards)
        for c in slow.cards:
            other = by_card[(c.trick, c.seat)]
            assert (other.cost_tricks, other.cost_points) == (c.cost_tricks, c.cost_points)
    # At its own default budget the C search solves the whole hand, and agrees.
    monkeypatch.undo()
    _, whole = analyze(t)
    for full, fast in zip(whole, fast_hands, strict=True):
        assert full.skipped == 0 and None not in full.side_tricks + full.seat_tricks
        assert {(c.trick, c.seat, c.cost_points) for c in fast.cards} <= {
            (c.trick, c.seat, c.cost_points) for c in full.cards
        }


def test_the_core_refuses_a_malformed_card_order() -> None:
    # The order of the cards (R-C-4) is handed over as data: 64 slot-card masks each, checked.
    deck = solver_deck(load_rules("four-player"))
    follow, beaten, trump, suit = deck.order_table()
    args = (4, deck.keeps)
    team = [0, 1, 0, 1]
    rest = (0, [1, 0, 1, 0], [1, 0, 1, 0], [1, 1, 1, 1], [0.0], 1, 1, 12, team, mates(team), 1, 14)
    assert ddfast._ddcore is not None
    ddfast._ddcore.Core(*args, (follow, beaten, trump, suit), *rest)
    for bad in (
        (follow[:63], beaten, trump, suit),
        (follow, beaten, trump, 4),
    ):
        with pytest.raises(ValueError, match="order"):
            ddfast._ddcore.Core(*args, bad, *rest)


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_the_core_counts_each_trick_its_search_finishes(seed: int) -> None:
    """A trick's last card played by the search counts one trick (DDS's unit of work, as
    bench/dds.py compares them); the last trick is counted, not searched (R-C-4)."""
    state = random_ending(FOUR, seed, 2)
    while len(state.trick) < 3:  # the last seat of the trick on turn, two cards in hand
        state.apply(min(state.legal_actions()))
    oc = Outcome(state, state.current % 2, value="tricks")
    solver = _fast(oc, state)
    assert solver.tricks_searched() == 0
    cards = solver.distinct_moves()
    for k, card in enumerate(cards, start=1):
        solver.reaches(card, 1.0, oc.side)  # the card ends the trick; the last one is counted
        assert solver.tricks_searched() == k
    last = random_ending(FOUR, seed, 1)
    while len(last.trick) < 3:
        last.apply(min(last.legal_actions()))
    solver = _fast(Outcome(last, last.current % 2, value="tricks"), last)
    solver.value()
    assert solver.tricks_searched() == 1  # its one card ends the last trick: no search after it


@pytest.mark.parametrize("seed", [52, 60, 64])
def test_exact_counts_near_the_bag_limit_searched_with_a_history_of_cuts(seed: int) -> None:
    # R-C-8, R-C-9, R-4P-6: with nine bags before the hand an overtrick costs the bag
    # penalty, so the points ask N-S for an exact count of tricks (the bid made, no
    # overtrick) or the other side for any other count: questions the core searches
    # with killer cards and a history of cuts (solver/_ddcore_search.h). A points solver
    # reading a trick solver's table, both sides asking, position after position of a
    # hand (each question learns its own history): every value and card's value is the
    # Python solver's.
    state = random_ending(FOUR, seed, 6, bags=[9, 9])
    rng = random.Random(seed)
    for _ in range(3):
        for side in (0, 1):
            tricks_oc = Outcome(state, 0, value="tricks")  # N-S's tricks, whichever side asks
            points_oc = Outcome(state, side, value="points")
            tricks = _fast(tricks_oc, state)
            points = _fast(points_oc, state)
            points.share(tricks)
            slow = points_oc.solver(state)
            assert points.value() == slow.value()
            assert points.move_values() == slow.move_values()
        for _ in range(4):
            state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("seed", [13, 21, 35])
def test_a_nil_asked_position_after_position_by_either_side(seed: int) -> None:
    # R-4P-7, R-C-8: North bid nil (odd seeds), so N-S's points read North's tricks on
    # their own and their questions are not sets of N-S's tricks; the core keeps each such
    # question by the set of outcomes to come that answer it, whatever the code so far,
    # and reads the answers kept for sets within it or holding it (solver/_ddcore_search.h),
    # so one solver's table answers positions reached by other tricks won and other
    # questions. Both sides ask, from the hand's last positions back to earlier ones, and
    # every value and card's value is the Python solver's.
    state = random_ending(FOUR, seed, 6)
    rng = random.Random(seed)
    positions: list[State] = []
    while state.phase == PLAY:
        positions.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
    for side in (0, 1):
        tricks_oc = Outcome(positions[0], 0, value="tricks")
        points_oc = Outcome(positions[0], side, value="points")
        tricks = _fast(tricks_oc, positions[0])
        points = _fast(points_oc, positions[0])
        points.share(tricks)
        for st_ in reversed(positions):
            tricks.load(st_)
            points.load(st_)
            slow = points_oc.solver(st_)
            assert points.value() == slow.value()
            assert points.move_values() == slow.move_values()
