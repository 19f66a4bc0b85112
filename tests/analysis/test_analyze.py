"""``spades analyze``: hindsight double-dummy analysis of a transcript."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from helpers.cli import run_cli
from helpers.paths import FIXTURES, TRANSCRIPTS

from spades_cli.transcript import read_transcript, replay


@pytest.mark.slow
def test_analyze_json_on_a_golden_transcript() -> None:
    result = run_cli(["analyze", str(TRANSCRIPTS / "two-player-short.txt"), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["hindsight"] is True and "every hand is known" in data["note"]
    first, second = data["hands"][:2]
    # Best play by both from the deal, under the preset's rules (R-C-6 included).
    assert first["bids"] == {"N": 5, "S": 7} and first["taken"] == {"N": 5, "S": 8}
    assert first["double_dummy"]["sides"] == {"N": 5, "S": 8}
    assert second["double_dummy"]["sides"] == {"N": 4, "S": 9}
    lead = second["cards"][0]
    assert (lead["trick"], lead["seat"], lead["card"], lead["best"]) == (1, "N", "AD", "6C")
    assert lead["cost_tricks"] == 1 and lead["costly"] is True
    assert data["seats"]["N"]["cards_played"] == 26
    assert data["seats"]["N"]["costly_cards"] == sum(
        1 for h in data["hands"] for c in h["cards"] if c["seat"] == "N" and c["costly"]
    )


def test_analyze_text_flags_costly_cards_and_says_it_is_hindsight() -> None:
    result = run_cli(["analyze", str(TRANSCRIPTS / "two-player-short.txt"), "--seat", "n"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("Note: hindsight analysis")
    assert "  hand 2 trick 1: N played AD, 6C kept the contract: cost 1 trick, set N -40" in lines
    assert not any(" S played " in line for line in lines)


@pytest.mark.parametrize("search", ["C", "Python"])
def test_the_per_seat_totals_read_as_sentences(search: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The last five tricks at 20,000 positions a question, which either search solves
    # whole: the same sentences on both builds. (At the default budgets only the C core
    # solves the whole hand: the Python solver's 200,000 positions a question do not
    # reach the lead to trick 2, which needs some 360,000.)
    from spades_cli.solver import backend

    if search == "Python":
        monkeypatch.setattr(backend, "c_core", lambda: False)
    elif not backend.c_core():
        pytest.skip("the C search core was not built")
    flags = ["--tricks", "5", "--budget", "20000", "--jobs", "1"]  # the patch is this process's
    result = run_cli(["analyze", str(TRANSCRIPTS / "four-player-short.txt"), *flags])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "  E: 13 played, 4 analysed, 1 costly, 1 trick, 1 point" in lines
    assert "  N: 13 played, 4 analysed, 0 costly, 0 tricks, 0 points" in lines
    assert "  W: 13 played, 3 analysed, 1 costly, 0 tricks, 199 points" in lines


def test_analyze_exit_codes() -> None:
    assert run_cli(["analyze", "/nonexistent/game.txt"]).exit_code == 2
    bad_seat = run_cli(["analyze", str(TRANSCRIPTS / "two-player-short.txt"), "--seat", "E"])
    assert bad_seat.exit_code == 2 and "unknown seat" in bad_seat.output


GOLDEN = FIXTURES / "analyze"


@pytest.mark.parametrize(
    ("name", "flags"),
    [("two-player-short", []), ("four-player-short", ["--tricks", "4", "--budget", "20000"])],
)
def test_analyze_json_matches_the_expected_file(name: str, flags: list[str]) -> None:
    # The search is bounded by positions visited, not by time, so the answer is the same
    # on every machine and build; what was not solved within the budget is null.
    result = run_cli(["analyze", str(TRANSCRIPTS / f"{name}.txt"), "--json", *flags])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == json.loads((GOLDEN / f"{name}.json").read_text())


def test_the_costs_add_up_to_the_difference_from_the_double_dummy_figure() -> None:
    # A card's cost is the value with best play before it less the value after it, so
    # over a hand in which every card was analysed, what N gave up less what S gave up
    # is N's double-dummy tricks from the deal less the tricks N took.
    data = json.loads((GOLDEN / "two-player-short.json").read_text())
    for hand in data["hands"]:
        assert hand["not_analysed"] == 0
        given = {seat: sum(c["cost_tricks"] for c in hand["cards"] if c["seat"] == seat) for seat in "NS"}
        dd_n = hand["double_dummy"]["sides"]["N"]
        assert dd_n - hand["taken"]["N"] == given["N"] - given["S"]
        assert dd_n + hand["double_dummy"]["sides"]["S"] == 13


def test_replay_step_shows_the_analysis_beside_the_tricks() -> None:
    keys = "g 2\nt\nt\nq\n"
    result = run_cli(
        ["replay", str(TRANSCRIPTS / "two-player-short.txt"), "--step", "--analyze", "--ascii"], input=keys
    )
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())  # the lines are wrapped to the terminal
    assert "Beside the tricks: hindsight analysis: every hand is known to the solver" in out
    assert "Hindsight, hand 2: bids N:4 S:3; double dummy N 4 S 9 (seats: N 4 S 9)." in out
    assert "Hindsight: hand 2 trick 1: N played AD, 6C kept the contract: cost 1 trick, set N -40" in out
    assert "Hindsight: hand 2 trick 2: N played 2H, 6C was better: cost 1 trick, 1 point" in out
    assert run_cli(["replay", str(TRANSCRIPTS / "two-player-short.txt"), "--analyze"]).exit_code == 2


def test_a_hand_whose_best_line_is_known_by_hand() -> None:
    # Four-player, two tricks left, East to lead. N 9C TS, E 8H QS, S TD KD, W JH AH;
    # E-W bid 4 and have 2. Worked by hand: QS first wins (nobody else has a higher
    # spade), then 8H runs to West's ace: E-W make 4. Leading 8H instead lets North ruff
    # with TS (R-C-4) and E-W are set. Then, after 8H, TD, JH, North must ruff at once:
    # discarding 9C lets West win and lead AH, and East over-ruffs North's TS with QS.
    from helpers.positions import hand_108

    from spades_cli.analysis.hand import analyze_hand
    from spades_cli.engine import PLAY, card_str, parse_card
    from spades_cli.presets import load_rules

    state = hand_108(load_rules("four-player"))
    hands = [" ".join(card_str(c) for c in state.hand_of(s)) for s in range(4)]
    assert hands == ["9C TS", "8H QS", "TD KD", "JH AH"] and state.current == 1
    assert state.bids == [2, 2, 4, 2] and state.tricks_won == [5, 1, 4, 1]
    line = [parse_card(c) for c in ("8H", "TD", "JH", "9C")]
    after = state.clone()
    for c in line:
        after.apply(c)
    while after.phase == PLAY:
        line.append(after.legal_actions()[0])
        after.apply(line[-1])
    report = analyze_hand(state, line, 13, 0)
    assert report.side_tricks == [9, 4]  # N-S have 9 already; E-W take both tricks left
    east, south, west, north = report.cards[:4]
    assert (card_str(east.card), card_str(east.best), east.cost_tricks, east.kept) == ("8H", "QS", 1, True)
    assert east.outcome == "set EW -40"
    assert south.cost_points == 0 and west.cost_points == 0
    assert (card_str(north.card), card_str(north.best), north.cost_tricks) == ("9C", "TS", 1)
    assert north.cost_points > 0 and not north.kept


def test_an_unfinished_game_counts_the_cards_actually_played() -> None:
    # The second hand stopped after three tricks and South's lead to the fourth.
    result = run_cli(
        [
            "analyze",
            str(TRANSCRIPTS / "two-player-unfinished.txt"),
            "--json",
            "--tricks",
            "3",
            "--budget",
            "20000",
        ]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["hands"][1]["taken"] == {"N": 2, "S": 1}
    assert {s: row["cards_played"] for s, row in data["seats"].items()} == {"N": 16, "S": 17}


def test_analyze_refuses_a_file_that_is_not_a_transcript_in_one_line(tmp_path: Path) -> None:
    # A JSON summary has many lines, none of them a transcript line: one message, not
    # twenty problems and "... and N more".
    summary = tmp_path / "summary.json"
    seats = {s: {"won": 1, "points": 20} for s in "NESW"}
    summary.write_text(json.dumps({"games": 3, "seats": seats}, indent=2))
    result = run_cli(["analyze", str(summary)])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"spades: {summary}: this is not a spades transcript (no line of it reads as one)"
    ]


def test_a_transcript_with_bad_lines_shows_its_problems(tmp_path: Path) -> None:
    # One line reads as a transcript line (the tag), thirty do not: this is a transcript
    # with problems, each shown (the first twenty and a count), not a file of another kind.
    from spades_cli.transcript.syntax import LineProblems, parse_transcript

    with pytest.raises(LineProblems) as none:
        parse_transcript('{\n  "games": 3\n}\n')
    assert not none.value.read
    broken = tmp_path / "broken.txt"
    broken.write_text('[Game "spades"]\n' + "{ not a line\n" * 30)
    with pytest.raises(LineProblems) as some:
        read_transcript(broken)
    assert some.value.read
    result = run_cli(["analyze", str(broken)])
    assert result.exit_code == 2
    assert "... and 10 more problems" in result.output and "not a spades transcript" not in result.output


@pytest.mark.slow
def test_the_points_asked_within_the_tricks_window_are_the_points_asked_alone() -> None:
    # R-4P-7: South bid nil, so the points hang on her own tricks as well as N-S's: the
    # walk asks each position's points only among the values N-S's tricks leave, and
    # skips the positions whose cards are all alike. Every value is the one a solver of
    # the points alone finds, position by position, with no window.
    from spades_cli.analysis.hand import Solvers, _value, plays
    from spades_cli.solver import backend
    from spades_cli.solver.outcome import Outcome

    match = replay(read_transcript(TRANSCRIPTS / "four-player-short.txt")).match
    start, cards = plays(match)[0]
    assert start.bids[2] == 0
    positions = []
    st = start.clone()
    for card in cards:
        positions.append(st.clone())
        st.apply(card)
    tricks, points = Solvers(start, 0).walk(positions, st, 13)
    assert None not in tricks + points and len(tricks) == 53
    oc = Outcome(start, 0, value="points")
    alone = backend.new_solver(start, 0, oc.groups, oc.table, oc.keen, oc.linear)
    assert points[:52] == [_value(alone, p) for p in positions]
    assert (tricks[0], points[0]) == Solvers(start, 0).values(start, None)


@pytest.mark.slow
def test_the_tricks_from_the_deal_show_when_its_points_are_over_the_budget() -> None:
    # Hand 8 of this game at 300,000 positions a question: the points from the deal (for
    # the first card) are over the budget, N-S's tricks from there are not: the figures
    # of the deal are shown, and only the first card is counted as not analysed.
    from spades_cli.analysis.analyze import analyze_match
    from spades_cli.solver import backend
    from spades_cli.transcript import read_transcript, replay

    if not backend.c_core():
        pytest.skip("the budget counts the C search's positions")
    match = replay(read_transcript(TRANSCRIPTS / "four-player.txt")).match
    hand = analyze_match(match, budget=300_000)[7]
    assert (hand.side_tricks, hand.seat_tricks, hand.skipped) == ([8, 5], [5, 2, 4, 3], 1)
    assert all(c.trick > 1 or c.seat != 1 for c in hand.cards)  # E led the first trick


def test_a_seat_figure_over_the_budget_shows_what_was_shown() -> None:
    # A seat's figure is asked 1, 2, ... tricks upward: when a question is over the budget
    # the tricks already shown reachable are printed as "4+" (at least 4), none as "?".
    from spades_cli.analysis.report import HandReport
    from spades_cli.presets import load_rules
    from spades_cli.view.analysis import deal_figures

    report = HandReport(3, 0, (2, 3, 3, 2), [8, 5], [4, 3, None, None], [4, 3, 4, 0], (0,) * 4)
    assert deal_figures(load_rules("four-player"), report) == (
        "bids N:2 E:3 S:3 W:2; double dummy NS 8 EW 5 (seats: N 4 E 3 S 4+ W ?)"
    )


def _hand(number: int) -> tuple[object, list[int]]:
    from spades_cli.analysis.hand import plays
    from spades_cli.transcript import read_transcript, replay

    match = replay(read_transcript(TRANSCRIPTS / "four-player.txt")).match
    return plays(match)[number - 1]


def test_a_halted_analysis_solves_nothing_and_guesses_nothing() -> None:
    # Every C solver of a halted hand ends its question at once (SearchLimit): the hand's
    # figures read "not known" and every card that was not forced "not analysed".
    from spades_cli.analysis.hand import analyze_hand
    from spades_cli.analysis.threads import Halt
    from spades_cli.solver import backend

    if not backend.c_core():
        pytest.skip("the C search core was not built")
    start, cards = _hand(2)
    halt = Halt()
    halt.halt()
    report = analyze_hand(start, cards, 13, 0, halt)  # type: ignore[arg-type]
    assert start.bids == [3, 3, 2, 4]  # no nil
    # N-S's tricks and points were halted and then let go; no seat's solver was made (a
    # seat's is made when it first asks)
    assert halt.solvers == []
    assert report.side_tricks == [None, None] and report.seat_tricks == [None] * 4
    st, choices = start.clone(), 0  # type: ignore[attr-defined]
    for card in cards:
        choices += len(st.legal_actions()) > 1  # a forced card gives nothing up
        st.apply(card)
    assert report.cards == [] and report.skipped == choices == 38


@pytest.mark.slow
def test_the_hand_run_in_a_thread_of_its_own_is_the_same_hand() -> None:
    from spades_cli.analysis.analyze import hand_at_once
    from spades_cli.analysis.hand import analyze_hand
    from spades_cli.solver import backend

    if not backend.c_core():
        pytest.skip("only the C search runs a hand in a thread of its own")
    start, cards = _hand(2)
    here = analyze_hand(start, cards, 4, 0)  # type: ignore[arg-type]
    there = hand_at_once(start, cards, 4, 0)  # type: ignore[arg-type]
    assert (there.side_tricks, there.seat_tricks) == (here.side_tricks, here.seat_tricks)
    assert there.cards == here.cards
    assert there.cards and there.side_tricks == [7, 6]


@pytest.mark.slow
def test_an_interruption_stops_the_hand_s_searches_at_once() -> None:
    # Ctrl-C (here an exception raised by a timer's signal in this thread) while the C
    # search runs a hard hand (some 80M positions in all): its solvers are stopped, and the
    # exception goes on, after a few positions, not after the hand.
    import signal

    from spades_cli.analysis.analyze import hand_at_once
    from spades_cli.analysis.threads import Halt
    from spades_cli.solver import backend

    if not backend.c_core():
        pytest.skip("the C search core was not built")

    class Ring(Exception):
        """What the timer raises, standing in for KeyboardInterrupt."""

    def ring(signum: int, frame: object) -> None:
        raise Ring

    class Seen(Halt):
        """A halt that keeps every solver it was told of (a hand lets its own go when done)."""

        def __init__(self) -> None:
            super().__init__()
            self.made: list[Any] = []

        def add(self, solver: Any) -> None:
            self.made.append(solver)
            super().add(solver)

    start, cards = _hand(7)
    halt = Seen()
    old = signal.signal(signal.SIGALRM, ring)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.5)
        with pytest.raises(Ring):
            hand_at_once(start, cards, 13, 0, halt)  # type: ignore[arg-type]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert halt.halted and halt.made and halt.solvers == []  # every solver let go
    assert sum(s.searched + s.nodes for s in halt.made) < 20_000_000


def test_a_bad_seat_is_refused_before_any_hand_is_analysed(monkeypatch: pytest.MonkeyPatch) -> None:
    import spades_cli.analysis.analyze as analysis

    def never(*args: object) -> object:
        raise AssertionError("a hand was analysed")

    monkeypatch.setattr(analysis, "hand_at_once", never)
    result = run_cli(["analyze", str(TRANSCRIPTS / "four-player.txt"), "--seat", "Q"])
    assert result.exit_code == 2 and "unknown seat 'Q'" in result.output


def test_each_hand_is_shown_as_it_is_analysed_and_stays_on_ctrl_c(monkeypatch: pytest.MonkeyPatch) -> None:
    """Text output comes hand by hand: interrupted in its second hand, the analysis has
    already shown the first one (exit 130), and the whole run shows what it did before."""
    import spades_cli.analysis.analyze as analysis

    path = str(TRANSCRIPTS / "two-player-short.txt")
    whole = run_cli(["analyze", path]).output.splitlines()
    real = analysis.hand_at_once
    calls: list[int] = []

    def first_only(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) > 1:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(analysis, "hand_at_once", first_only)
    result = run_cli(["analyze", path, "--jobs", "1"])  # the patch is this process's
    assert result.exit_code == 130
    shown = [line for line in result.output.splitlines() if line and not line.startswith("spades:")]
    second = next(i for i, line in enumerate(whole) if line.startswith("hand 2:"))
    assert shown == whole[:second]  # the note and hand 1 with its flagged cards, nothing more
    assert shown[1].startswith("hand 1: bids N:5 S:7; double dummy N 5 S 8")


def test_the_hands_analysed_in_the_background_are_those_of_the_whole_analysis() -> None:
    from spades_cli.analysis.analyze import analyze_match, in_background
    from spades_cli.analysis.output import to_json
    from spades_cli.solver import backend

    if not backend.c_core():
        pytest.skip("the background analysis runs on the C search core")
    match = replay(read_transcript(TRANSCRIPTS / "two-player-short.txt")).match
    later = in_background(match)
    try:
        got = [later(1), later(2), later(3)]
    finally:
        later.close()
    assert got[2] is None  # the game has two hands
    whole = analyze_match(match)
    assert to_json(match.rules, [h for h in got if h is not None]) == to_json(match.rules, whole)


def test_stepping_starts_before_the_later_hands_are_analysed(monkeypatch: pytest.MonkeyPatch) -> None:
    """``replay --step --analyze`` shows hand 1 with its figures while hand 2 is still being
    analysed, and quitting ends that analysis (it stops at once: here it is held until
    the halt comes)."""
    import spades_cli.analysis.analyze as analysis
    from spades_cli.solver import backend

    if not backend.c_core():
        pytest.skip("the background analysis runs on the C search core")
    real = analysis.analyze_hand
    held: list[int] = []

    def hold_the_second(
        start: Any, cards: Any, depth: int, budget: int, halt: Any = None, threads: Any = None
    ) -> Any:
        if start.hand_no >= 1:
            held.append(start.hand_no)
            while not halt.halted:
                time.sleep(0.01)
        return real(start, cards, depth, budget, halt, threads)

    monkeypatch.setattr(analysis, "analyze_hand", hold_the_second)
    result = run_cli(
        ["replay", str(TRANSCRIPTS / "two-player-short.txt"), "--step", "--analyze", "--ascii"], input="q\n"
    )
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert "Hindsight, hand 1: bids N:5 S:7; double dummy N 5 S 8 (seats: N 5 S 8)." in out
    assert held == [1]  # hand 2 was being analysed, and was let go by the halt


def test_the_progress_line_is_left_out_when_the_text_goes_into_a_pipe(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """As text the hands come one by one, and a pipe's reader (head, grep) writes to the
    terminal while the analysis goes on: a progress line there would run into its lines."""
    import os
    import sys

    from spades_cli.cli.options import output_piped

    read, write = os.pipe()
    with os.fdopen(write, "w") as pipe, os.fdopen(read):
        monkeypatch.setattr(sys, "stdout", pipe)
        assert output_piped()
    with (tmp_path / "out.txt").open("w") as file:
        monkeypatch.setattr(sys, "stdout", file)
        assert not output_piped()
