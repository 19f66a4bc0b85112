"""A seat's figure from the deal asked first card by first card when its question is
long (``analysis.figures.first_card_first``): the same answers as the question asked
whole, for the leader's side and for the other side."""

from __future__ import annotations

import pytest
from helpers.paths import TRANSCRIPTS

from spades_cli.analysis import figures
from spades_cli.analysis.figures import first_card_first, seat_solver
from spades_cli.analysis.hand import plays
from spades_cli.engine import State
from spades_cli.solver import backend
from spades_cli.solver.deck import solver_deck
from spades_cli.transcript import read_transcript, replay


def _lead_with(left: int) -> State:
    """Hand 2 of the recorded four-player game at the lead with ``left`` tricks left."""
    start, cards = plays(replay(read_transcript(TRANSCRIPTS / "four-player.txt")).match)[1]
    st = start.clone()
    for card in cards[: 4 * (13 - left)]:
        st.apply(card)
    return st


@pytest.mark.parametrize("probe", [1, 40, 400])
def test_r_c_5_a_seat_s_tricks_asked_card_by_card_are_the_tricks_asked_whole(
    probe: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R-C-5, R-C-4: the leader's side reaches a count when one of its leads does, the
    other side when every lead of the leader does; asked card by card (each card within
    ``probe`` positions, some over it and some not, the rest asked whole) every seat's
    every count gets the answer the whole question gets."""
    if not backend.c_core():
        pytest.skip("the card-by-card questions are the C search's")
    monkeypatch.setattr(figures, "LONG_QUESTION", 1)
    monkeypatch.setattr(figures, "CARD_PROBE", probe)
    st = _lead_with(6)
    side_of = solver_deck(st.rules).side_of
    answers: list[bool] = []
    for seat in range(4):
        side = side_of[seat]
        whole = seat_solver(st, seat, 0)
        by_card = seat_solver(st, seat, 50_000_000)
        for u in range(7):
            want = whole.reaches(-1, float(u), side)
            assert first_card_first(by_card, float(u), side, side_of[st.current] == side) == want
            answers.append(want)
    assert set(answers) == {True, False}  # the counts asked get both answers


def test_a_short_budget_asks_the_question_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """A budget below the long question's size leaves nothing to split: one question."""
    if not backend.c_core():
        pytest.skip("the card-by-card questions are the C search's")
    st = _lead_with(6)
    solver = seat_solver(st, 0, 1000)
    asked: list[int] = []
    real = solver.reaches
    monkeypatch.setattr(solver, "reaches", lambda card, u, side: asked.append(card) or real(card, u, side))
    first_card_first(solver, 2.0, 0, True)
    assert asked == [-1]


def test_the_card_by_card_questions_stay_within_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """The probes, the cards and the whole question share one budget: the seat's question
    visits no more positions than asked whole (each search stops one position past its
    cap), and one over it is over the budget (SearchLimit) as the whole one would be."""
    if not backend.c_core():
        pytest.skip("the card-by-card questions are the C search's")
    from spades_cli.solver.search import SearchLimit

    monkeypatch.setattr(figures, "LONG_QUESTION", 60)
    monkeypatch.setattr(figures, "CARD_PROBE", 50)
    st = _lead_with(8)
    budget = 300
    over = 0
    for seat in range(4):
        side = solver_deck(st.rules).side_of[seat]
        solver = seat_solver(st, seat, budget)
        for u in range(1, 6):
            before = solver.searched + solver.nodes
            try:
                first_card_first(solver, float(u), side, solver_deck(st.rules).side_of[st.current] == side)
            except SearchLimit:
                over += 1
            assert solver.searched + solver.nodes - before <= budget + 16
    assert over > 0


@pytest.mark.slow
@pytest.mark.parametrize("hand", [5, 9])
def test_r_c_5_a_hand_on_one_two_or_five_runners_is_the_same_hand_and_the_same_search(hand: int) -> None:
    """R-C-5: the hand's groups of questions (its positions, each seat's figure) have
    solvers of their own and a seat waits for its side's figure before a question that
    may lie above it: on one runner, two or five, the same report (figures, every card)
    and the same positions searched by each part."""
    from spades_cli.analysis.hand import analyze_hand

    if not backend.c_core():
        pytest.skip("the groups run on runners with the C search only")
    start, cards = plays(replay(read_transcript(TRANSCRIPTS / "four-player.txt")).match)[hand - 1]
    reports = [analyze_hand(start, cards, 13, 20_000_000, threads=k) for k in (1, 2, 5)]
    assert reports[0].seat_tricks == {5: [6, 2, 3, 4], 9: [10, 0, 8, 0]}[hand]
    assert reports[0].parts[0] > 0  # the seats searched
    assert reports[1] == reports[0] and reports[2] == reports[0]
    assert reports[1].parts == reports[0].parts == reports[2].parts


def test_the_seats_ask_in_turn_the_fewest_asked_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """The seats' questions are taken one at a time, each time of the seat that has asked
    the fewest (so that the seats' long last questions start early, side by side), and a
    seat whose ladder is over asks no more: recorded hand 5 on one runner asks North,
    East, South and West for 1 trick, then 2, ... each up to its first "no" (figures 6, 2,
    3, 4)."""
    from spades_cli.analysis.hand import analyze_hand

    if not backend.c_core():
        pytest.skip("the seats' questions are taken in turn with the C search only")
    asked: list[tuple[int, int]] = []
    rung = figures.SeatFigures.rung

    def logged(self: figures.SeatFigures, seat: int) -> bool:
        asked.append((seat, self.reached[seat] + 1))
        return rung(self, seat)

    monkeypatch.setattr(figures.SeatFigures, "rung", logged)
    start, cards = plays(replay(read_transcript(TRANSCRIPTS / "four-player.txt")).match)[4]
    report = analyze_hand(start, cards, 13, 20_000_000, threads=1)
    assert report.seat_tricks == [6, 2, 3, 4]
    # (seat, tricks asked for): North 1-7, East 1-3, South 1-4, West 1-5, round by round
    ladders = {0: 7, 1: 3, 2: 4, 3: 5}
    assert asked == [(s, u) for u in range(1, 8) for s in range(4) if u <= ladders[s]]


def test_the_hands_spread_over_processes_share_the_cores() -> None:
    """--jobs N: each worker process runs its hand on its share of the cores (one on a
    Dask cluster); one job: every core works on each hand in turn."""
    from spades_cli.analysis.many import hand_threads
    from spades_cli.analysis.threads import cores

    assert hand_threads(1, 11, None) is None and hand_threads(4, 1, None) is None
    assert hand_threads(2, 11, None) == max(1, cores() // 2)
    assert hand_threads(10 * cores(), 11, None) == 1
    assert hand_threads(2, 11, "local") == 1


@pytest.mark.slow
def test_r_c_4_a_seat_s_last_no_from_the_deal_within_its_positions() -> None:
    """R-C-4, R-C-5: West of the recorded game's tenth hand takes 3 tricks from the deal
    with East's help and not 4 (its side takes 8). Showing the "no" takes the other side
    refuting every line of the seat's side; with the other side playing as a side that
    wants tricks (its card taken over only where it is not safe) the ladder needs about
    5.2 million positions, where a search that let the other side duck needed 13.4
    million. Positions are the search's own count: the same on every machine."""
    if not backend.c_core():
        pytest.skip("the bound is the C search's")
    start, _ = plays(replay(read_transcript(TRANSCRIPTS / "four-player.txt")).match)[9]
    got, floor, searched = figures._seat_figure(start, 3, 8, 0)
    assert (got, floor) == (3, 3)
    assert searched < 8_000_000
