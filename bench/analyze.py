"""Hindsight analysis speed: a whole four-player hand as ``spades analyze`` does it, and the
double-dummy solver alone by the number of tricks left.

The hands are dealt from fixed seeds and bid and played by the ``normal`` bot, so every
run sees the same hands. For each hand: the time to analyse it whole (the figures from the
deal for both sides and the four seats, and every card against the best card), whether
everything was solved within the search budget, and the median and maximum over the
hands (issue 32's targets: median at most 1 s a hand, the slowest at most 3 s). Then
the solver as the ``expert`` bot calls it (every card's value, the hand's points as the
outcome) from the start of a trick with 7, 9, 11 and 13 tricks left, on the same hands.

Run: ``python bench/analyze.py`` (``--hands 10``, ``--left 7,9,11,13``, ``--budget N``;
``--transcript transcripts/four-player.txt`` adds every hand of that recorded game, which
has harder hands than the ten dealt here; ``--questions N`` lists, under each hand, every
yes-or-no question of the C search that visited at least N positions: whose question it
was (a seat's figure, N-S's tricks or points), the position, the target, the answer,
and a ``walks:`` line: each walk's positions in the questions its values need, the
others, those after one first card and those over a cap or the budget;
``--threads N``: the runners a hand's groups of questions take, by default a core each).
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import threading
import time

from common import build_line

from spades_cli.analysis.analyze import analyze_match
from spades_cli.analysis.hand import analyze_hand, plays
from spades_cli.analysis.report import HandReport
from spades_cli.bots.normal import NormalBot
from spades_cli.bots.rollout import hand_utility
from spades_cli.engine import PLAY, State, deck_for, rng_for
from spades_cli.errors import SpadesError
from spades_cli.game.match import Match
from spades_cli.presets import load_rules
from spades_cli.solver import backend
from spades_cli.solver.backend import PYTHON_BUDGET
from spades_cli.solver.fast import FastSolver
from spades_cli.solver.outcome import Outcome
from spades_cli.solver.search import SearchLimit
from spades_cli.transcript import read_transcript, replay

# (whose, tricks left, cards in the trick, card, target, answer (-1: over the budget), positions)
Question = tuple[str, int, int, int, float, int, int]
QUESTIONS: list[Question] = []  # filled while --questions is on


def log_questions() -> None:
    """Record every yes-or-no question the C search answers (``QUESTIONS``)."""
    ask = FastSolver._ask
    lock = threading.Lock()

    def logged(self: FastSolver, card: int, u: float, cap: int | None = None) -> bool:
        answer = -1
        try:
            answer = int(ask(self, card, u, cap))
            return bool(answer)
        finally:
            if not self.count_mode:
                whose = "points"
            elif sum(self.cnt) == 1:
                whose = "seat " + "NESW"[self.cnt.index(1)]
            else:
                whose = "tricks"
            with lock:
                QUESTIONS.append((whose, self.left, len(self.trick), card, u, answer, self.nodes))

    FastSolver._ask = logged  # type: ignore[method-assign]


def question_lines(least: int) -> None:
    """The questions of the hand just analysed: the totals by whose, those of ``least``
    positions or more one by one."""
    totals: dict[str, int] = {}
    for q in QUESTIONS:
        totals[q[0]] = totals.get(q[0], 0) + q[-1]
    print("    by question: " + ", ".join(f"{k} {v / 1e6:.2f}M" for k, v in sorted(totals.items())))
    print("    walks: " + walk_shares(QUESTIONS))
    for whose, left, played, card, u, answer, nodes in QUESTIONS:
        if nodes >= least:
            after = f" after slot card {card}" if card >= 0 else ""
            said = {1: "yes", 0: "no"}.get(answer, "over the budget")
            where = f"{left} tricks left + {played} cards{after}"
            print(f"    {whose}, {where}: {u:g}? {said}, {nodes / 1e6:.2f}M")
    QUESTIONS.clear()


def walk_shares(questions: list[Question]) -> str:
    """Where each walk's positions went: for each position a walk asked about (a seat's
    figure: the deal), the two questions its value needs (its greatest "yes" and the
    least "no" above it), the others, the questions after one first card (a seat's long
    question card by card; the points' best cards) and those over a cap or the budget."""
    parts: dict[str, dict[str, int]] = {}
    runs: list[list[Question]] = []
    last: dict[str, list[Question]] = {}  # each walk's run (its threads' questions interleave)
    for q in questions:
        if q[3] < 0 and q[5] >= 0 and q[0] in last and last[q[0]][0][:3] == q[:3]:
            last[q[0]].append(q)
        elif q[3] < 0 and q[5] >= 0:
            runs.append([q])
            last[q[0]] = runs[-1]
        else:
            part = parts.setdefault(q[0], {})
            kind = "after a card" if q[5] >= 0 else "over a cap"
            part[kind] = part.get(kind, 0) + q[-1]
    for run in runs:
        part = parts.setdefault(run[0][0], {})
        yes = max((q[4] for q in run if q[5] == 1), default=None)
        no = min((q[4] for q in run if q[5] == 0 and (yes is None or q[4] > yes)), default=None)
        for q in run:
            kind = "needed" if q[4] in (yes, no) else "other"
            part[kind] = part.get(kind, 0) + q[-1]
    return "; ".join(
        f"{whose} " + ", ".join(f"{kind} {n / 1e6:.2f}M" for kind, n in sorted(part.items()))
        for whose, part in sorted(parts.items())
    )


def played_hands(count: int) -> list[tuple[State, list[int]]]:
    """``count`` four-player hands dealt from seeds 1.., bid and played by ``normal``."""
    rules = load_rules("four-player")
    bot = NormalBot()
    out: list[tuple[State, list[int]]] = []
    for seed in range(1, count + 1):
        state = State(rules, seed % 4)
        state.deal(deck_for(seed, 0))
        rng = rng_for("bench", "analyze", seed)
        while state.phase != PLAY:
            state.apply(bot.act(state.observation(state.current), rules, rng))
        start = state.clone()
        cards: list[int] = []
        while state.phase == PLAY:
            cards.append(bot.act(state.observation(state.current), rules, rng))
            state.apply(cards[-1])
        out.append((start, cards))
    return out


THREADS: dict[str, int] = {}  # --threads: the runners of each hand (default: a core each)


def whole_hands(hands: list[tuple[State, list[int]]], budget: int, what: str = "", least: int = 0) -> None:
    times: list[float] = []
    reports: list[HandReport] = []
    for start, cards in hands:
        t0, c0 = time.perf_counter(), time.process_time()
        reports.append(analyze_hand(start, cards, 13, budget, threads=THREADS.get("threads")))
        times.append(time.perf_counter() - t0)
        hand_line(len(reports), times[-1], reports[-1], time.process_time() - c0)
        if least:
            question_lines(least)
    summary(times, reports, budget, what)


def read_game(path: str) -> Match:
    """The recorded game of ``path``, or exit 2 with one line saying why it cannot be read."""
    try:
        return replay(read_transcript(path)).match
    except (SpadesError, OSError, UnicodeDecodeError) as e:
        first = str(e).splitlines()[0] if str(e) else e.__class__.__name__
        print(first if first.startswith(path) else f"{path}: {first}", file=sys.stderr)
        raise SystemExit(2) from None


def recorded_game(path: str, budget: int, least: int = 0, match: Match | None = None) -> None:
    """Every hand of a recorded game (``match``, else read from ``path``), through
    ``analyze_match`` (timed between its progress calls, which come before each hand and
    at the end)."""
    match = match if match is not None else read_game(path)
    if least or THREADS:  # hand by hand, to list each one's questions or set its runners
        whole_hands(plays(match), budget, f" (the hands of {path})", least)
        return
    marks: list[tuple[float, float]] = []
    reports = analyze_match(
        match,
        budget=budget,
        progress=lambda done, total: marks.append((time.perf_counter(), time.process_time())),
    )
    times = [b[0] - a[0] for a, b in itertools.pairwise(marks)]
    cpu = [b[1] - a[1] for a, b in itertools.pairwise(marks)]
    for i, (t, report) in enumerate(zip(times, reports, strict=True), 1):
        hand_line(i, t, report, cpu[i - 1])
    summary(times, reports, budget, f" (the hands of {path})")


def hand_line(i: int, seconds: float, report: HandReport, cpu: float) -> None:
    seats, tricks, points = (f"{k / 1e6:.1f}M" for k in report.parts)
    print(
        f"  hand {i}: {seconds:.2f} s ({cpu:.2f} s CPU), {report.searched} positions "
        f"(seats {seats}, tricks {tricks}, "
        f"points {points}), bids {list(report.bids)}, "
        f"double dummy {report.side_tricks} seats {report.seat_tricks}, "
        f"{report.skipped} cards not analysed",
        flush=True,
    )


def summary(times: list[float], reports: list[HandReport], budget: int, what: str) -> None:
    searched = [r.searched for r in reports]
    unsolved = sum(1 for r in reports if r.side_tricks.count(None) + r.seat_tricks.count(None) + r.skipped)
    skipped = sum(r.skipped for r in reports)
    print(
        f"whole four-player hand analysed{what}: median {statistics.median(times):.2f} s, "
        f"max {max(times):.2f} s over {len(times)} hands (targets: median <= 1 s, max <= 3 s); positions "
        f"searched median {statistics.median(searched):.0f}, max {max(searched)}; {unsolved} hands with "
        f"something over the budget of {budget} positions a question, {skipped} cards not analysed",
        flush=True,
    )
    totals = [sum(r.parts[k] for r in reports) for k in range(3)]
    share = [
        f"{name} {100 * t / max(1, sum(totals)):.0f}%"
        for name, t in zip(("the seats' figures", "N-S's tricks", "N-S's points"), totals, strict=True)
    ]
    print(f"  positions by question, over the hands: {', '.join(share)}", flush=True)


def like_for_like(hands: list[tuple[State, list[int]]], left: int) -> None:
    """The same work for both searches: every card's value (N-S's tricks, then points)
    from the start of the trick with ``left`` tricks left, each search through its
    public API, no budget; the values must agree."""
    totals = {"python": 0.0, "C": 0.0}
    for start, cards in hands:
        st = start.clone()
        for c in cards[: 4 * (13 - left)]:
            st.apply(c)
        for value in ("tricks", "points"):
            oc = Outcome(st, 0, value=value)
            t0 = time.perf_counter()
            slow = oc.solver(st).move_values()
            t1 = time.perf_counter()
            fast = FastSolver(st, oc.side, oc.groups, oc.table, oc.keen, oc.linear).move_values()
            t2 = time.perf_counter()
            assert slow == fast, (value, slow, fast)
            totals["python"] += t1 - t0
            totals["C"] += t2 - t1
    print(
        f"like for like, {len(hands)} positions with {left} tricks left, every card's tricks and "
        f"points: Python solver {totals['python']:.2f} s, C search {totals['C']:.2f} s "
        f"({totals['python'] / totals['C']:.1f}x), the same values",
        flush=True,
    )


def solver_by_left(hands: list[tuple[State, list[int]]], lefts: list[int], budget: int) -> None:
    for left in lefts:
        times: list[float] = []
        searched: list[int] = []
        over = 0
        for start, cards in hands:
            st = start.clone()
            for c in cards[: 4 * (13 - left)]:
                st.apply(c)
            t0 = time.perf_counter()
            solver = Outcome(st, st.current % 2, value=hand_utility).solver(st, budget)
            try:
                solver.move_values()
            except SearchLimit:
                over += 1
            times.append(time.perf_counter() - t0)
            searched.append(solver.searched + solver.nodes)
        print(
            f"solver, 4P, {left:2d} tricks left, every card's value (as expert): median "
            f"{statistics.median(times):.3f} s, max {max(times):.3f} s over {len(times)} positions, "
            f"{statistics.median(searched):.0f} positions searched (median)"
            + (f"; {over} over the budget of {budget} positions a question" if over else ""),
            flush=True,
        )


def positive(text: str) -> int:
    """A count of 1 or more (argparse's one-line refusal otherwise)."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text}: 1 or more")
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--hands", type=positive, default=10, help="hands to bid, play and analyse (1 or more)"
    )
    parser.add_argument(
        "--left", default="7,9,11,13", help="tricks left (1-13) for the solver times ('' skips them)"
    )
    parser.add_argument(
        "--budget",
        type=int,
        default=None,
        help="positions a question (default: spades analyze's for the search that runs)",
    )
    parser.add_argument(
        "--transcript",
        metavar="FILE",
        default=None,
        help="also every hand of a recorded four-player game (transcripts/four-player.txt)",
    )
    parser.add_argument(
        "--like-for-like",
        type=int,
        default=10,
        metavar="LEFT",
        help="tricks left in the Python-against-C comparison (0: skip it)",
    )
    parser.add_argument(
        "--questions",
        type=int,
        default=0,
        metavar="N",
        help="list each hand's questions of N positions or more (C core; 0: none)",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=None,
        metavar="N",
        help="the runners each hand's groups of questions take (default: a core each)",
    )
    args = parser.parse_args()
    if args.threads is not None:
        THREADS["threads"] = args.threads
    parts = [x.strip() for x in args.left.split(",") if x.strip()]
    if not all(x.isdigit() and 1 <= int(x) <= 13 for x in parts):
        parser.error(f"--left {args.left!r}: tricks left are numbers from 1 to 13, e.g. 7,9,11")
    lefts = [int(x) for x in parts]
    print(build_line())
    import spades_cli.solver.search as solver

    print(
        f"solver {'compiled (mypyc)' if not solver.__file__.endswith('.py') else 'pure Python'}; "
        f"analysis search: {'C core' if backend.c_core() else 'Python solver (no C core built)'}; "
        f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores"
    )
    game = read_game(args.transcript) if args.transcript else None  # refused before any work
    hands = played_hands(args.hands)
    budget = args.budget if args.budget is not None else backend.default_budget()
    if args.questions and backend.c_core():
        log_questions()
    whole_hands(hands, budget, least=args.questions)
    if args.transcript:
        recorded_game(args.transcript, budget, args.questions, game)
    if backend.c_core() and args.like_for_like:
        like_for_like(hands, args.like_for_like)
    solver_by_left(
        hands,
        lefts,
        args.budget if args.budget is not None else PYTHON_BUDGET,
    )
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
