"""Hindsight analysis of a transcript with the double-dummy solver (``spades analyze``).

Every hand of a recorded game is replayed with every hand known. For each hand: the
tricks each side (and each seat, its partner helping) can take from the deal with best
play by everyone, under the table's rules, beside the bids. For each card played: the
tricks, and the hand's Spades points given the bids (the player's side less the
other), that it gave up against the best card in that position: the value with best
play before the card less the value after it (so one solve per position, not per
card). A card that gave up points is *costly*. Per seat: the cards played, analysed
and costly, and what they gave up.

Search is bounded: positions are solved only in the last ``tricks`` tricks of a hand
and with at most ``budget`` positions a question; what was not solved is reported as
such, never guessed.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from spades_cli.bots.expert import Outcome
from spades_cli.engine import DEAL, PLAY, Rules, State, card_str
from spades_cli.errors import FileFormatError, MultiError
from spades_cli.game.match import Match
from spades_cli.solver import fast as ddfast
from spades_cli.solver.fast import FastSolver
from spades_cli.solver.search import SearchLimit, Solver, trick_table
from spades_cli.transcript import Transcript, replay, transcript_rules
from spades_cli.transcript.files import read_limited
from spades_cli.transcript.syntax import MAX_PROBLEMS, transcript_from_bytes
from spades_cli.view.analysis import HINDSIGHT, deal_figures, flag_line

PYTHON_BUDGET = 200_000  # positions one question of the Python solver may visit by default
FAST_BUDGET = 20_000_000  # of the C search, some ten times as fast a position (at most 2-5 s)


def default_budget() -> int:
    """The positions one search question may visit unless told (``--budget``)."""
    return FAST_BUDGET if ddfast.available() else PYTHON_BUDGET


@dataclass
class CardReport:
    hand: int  # 1-based
    trick: int  # 1-based
    seat: int
    card: int
    best: int  # a best card in that position
    cost_tricks: int  # tricks the side gave up against the best card
    cost_points: float  # hand points (side less the other side) given up
    kept: bool  # the best card made the side's contract and the played card did not
    outcome: str  # what the played card led to (for the flag's text)


@dataclass
class HandReport:
    hand: int
    dealer: int
    bids: tuple[int, ...]
    side_tricks: list[int | None]  # per side, from the deal (None: not solved in budget)
    seat_tricks: list[int | None]  # per seat, the partner helping
    seat_floors: list[int]  # per seat, the most tricks shown reachable (the figure when known)
    taken: tuple[int, ...]  # tricks taken per seat in the game
    cards: list[CardReport] = field(default_factory=list)
    skipped: int = 0  # cards not analysed (too early in the hand or over budget)
    played: tuple[int, ...] = ()  # cards played per seat (fewer in an unfinished hand)
    # positions searched for the seats' figures, N-S's tricks and N-S's points (not in the JSON)
    parts: tuple[int, int, int] = (0, 0, 0)

    @property
    def searched(self) -> int:
        """The positions the solver searched for the hand."""
        return sum(self.parts)


def _plays(match: Match) -> list[tuple[State, list[int]]]:
    """Per hand that reached its play: the position where the play began, and the cards
    played (rebuilt from the recorded decks and actions, as ``Match.rebuild`` does)."""
    assert match.dealer is not None
    state = State(match.rules, match.dealer)
    out: list[tuple[State, list[int]]] = []
    hand = 0
    for action in match.state.history:
        if state.phase == DEAL:
            state.deal(match.decks[hand])
            hand += 1
        if state.phase == PLAY:
            if not state.plays and not state.trick and (not out or out[-1][0].hand_no != state.hand_no):
                out.append((state.clone(), []))
            out[-1][1].append(action)
        state.apply(action)
    return out


def read_for_analysis(path: str) -> Transcript:
    """The transcript in ``path``; a file none of whose lines reads as a transcript line
    (a JSON summary, a text of another kind) is refused in one line (exit 2), not with a
    problem for each of its lines."""
    data = read_limited(path)
    try:
        return transcript_from_bytes(data, path)
    except MultiError as exc:
        shown = exc.problems
        count = len(shown)
        if count > MAX_PROBLEMS and shown[-1].startswith("... and "):
            count = MAX_PROBLEMS + int(shown[-1].split()[2])
        text = data.decode("utf-8", errors="replace").split("\n")
        content = sum(1 for line in text if line.strip() and not line.strip().startswith("#"))
        if count < content or content == 0:
            raise
        raise FileFormatError(
            "this is not a spades transcript (no line of it reads as one)", file=path
        ) from None


Progress = Callable[[int, int], None]  # (hands analysed, hands in all)


def replayed(t: Transcript) -> tuple[Rules, Match]:
    """The transcript's rules and its game, replayed and checked."""
    rules = transcript_rules(t)
    assert rules is not None
    return rules, replay(t, rules).match


def analyze(
    t: Transcript,
    *,
    tricks: int | None = None,
    budget: int | None = None,
    progress: Progress | None = None,
) -> tuple[Rules, list[HandReport]]:
    """Replay the transcript (checking it) and analyse every hand that reached its play."""
    rules, match = replayed(t)
    return rules, analyze_match(match, tricks=tricks, budget=budget, progress=progress)


def analyze_match(
    match: Match,
    *,
    tricks: int | None = None,
    budget: int | None = None,
    progress: Progress | None = None,
) -> list[HandReport]:
    """Every hand of a replayed game that reached its play, analysed (``budget``: the
    positions one question may visit, 0 for no cap, None for ``default_budget()``;
    ``progress`` is told before each hand and at the end)."""
    return list(analyze_hands(match, tricks=tricks, budget=budget, progress=progress))


def analyze_hands(
    match: Match,
    *,
    tricks: int | None = None,
    budget: int | None = None,
    progress: Progress | None = None,
) -> Iterator[HandReport]:
    """As :func:`analyze_match`, each hand as soon as it is analysed (the next one is
    analysed when it is asked for)."""
    depth = tricks if tricks is not None else 13
    return _analyzed(_plays(match), depth, budget, progress)


def _analyzed(
    plays: list[tuple[State, list[int]]],
    depth: int,
    budget: int | None,
    progress: Progress | None = None,
    halt: _Halt | None = None,
) -> Iterator[HandReport]:
    """The hands ``plays`` (each's start and cards) analysed one after another."""
    cap = default_budget() if budget is None else budget
    for done, (start, cards) in enumerate(plays):
        if progress is not None:
            progress(done, len(plays))
        yield _hand_at_once(start, cards, depth, cap, halt)
    if progress is not None:
        progress(len(plays), len(plays))


class HandsInBackground:
    """The hands of a game analysed one after another, from the first, in a thread of
    their own (the C core's searches, which stop at once: see ``_Halt``), so that a
    reader can start on the first hand while the later ones are analysed. Call the
    object with a hand number (1-based) for its report: it waits for that hand (None for
    a hand that did not reach its play). ``close()`` ends the analysis at once."""

    def __init__(self, match: Match, budget: int | None = None) -> None:
        plays = _plays(match)
        self._hands = {start.hand_no + 1 for start, _ in plays}
        self._done: dict[int, HandReport] = {}
        self._failed: BaseException | None = None
        self._over = False
        self._ready = threading.Condition()
        self._halt = _Halt()
        self._thread = threading.Thread(
            target=self._run, args=(plays, budget), name="analyze-game", daemon=True
        )
        self._thread.start()

    def _run(self, plays: list[tuple[State, list[int]]], budget: int | None) -> None:
        try:
            for report in _analyzed(plays, 13, budget, halt=self._halt):
                if self._halt.halted:
                    break  # a hand cut short: nothing of it is known
                with self._ready:
                    self._done[report.hand] = report
                    self._ready.notify_all()
        except BaseException as exc:  # shown by close(), in the caller's thread
            self._failed = exc
        finally:
            with self._ready:
                self._over = True
                self._ready.notify_all()

    def ready(self, hand: int) -> bool:
        """Whether asking for ``hand`` returns at once."""
        with self._ready:
            return hand in self._done or hand not in self._hands or self._over

    def __call__(self, hand: int) -> HandReport | None:
        with self._ready:
            while hand in self._hands and hand not in self._done and not self._over:
                self._ready.wait(0.1)  # in steps, so that Ctrl-C gets through
            return self._done.get(hand)

    def close(self) -> None:
        """End the analysis (at once) and its thread."""
        self._halt.halt()
        self._thread.join()
        if self._failed is not None:  # not the halt (a halted hand raises nothing): a fault
            raise self._failed


class _Halt:
    """The C solvers of one hand's analysis, to end at once (each raising
    ``SearchLimit``, so the hand ends in moments) when the caller is interrupted."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.solvers: list[FastSolver] = []
        self.halted = False

    def add(self, solver: Solver | FastSolver) -> None:
        if isinstance(solver, FastSolver):
            with self.lock:
                self.solvers.append(solver)
                if self.halted:
                    solver.stop()

    def halt(self) -> None:
        with self.lock:
            self.halted = True
            for solver in self.solvers:
                solver.stop()


def _hand_at_once(
    start: State, cards: list[int], depth: int, budget: int, halt: _Halt | None = None
) -> HandReport:
    """``analyze_hand``, stopped at once by Ctrl-C or a signal: the C search holds the
    thread that runs it until its question ends (seconds), so it runs in a thread of its
    own while this one waits, and on an interruption its solvers are stopped before the
    interruption goes on. The Python solver is interrupted where it runs."""
    if not ddfast.available():
        return analyze_hand(start, cards, depth, budget)
    halt = halt if halt is not None else _Halt()
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="analyze-hand")
    try:
        future = pool.submit(analyze_hand, start, cards, depth, budget, halt)
        try:
            return future.result()
        except BaseException:
            halt.halt()
            raise
    finally:
        pool.shutdown(wait=True)


def _contract(st: State, side: int) -> int:
    """The side's contract: its bids that are not nil (R-4P-6)."""
    return sum(b for s, b in enumerate(st.bids) if s % 2 == side and not st.rules.is_nil(b, st.blind[s]))


class _Solvers:
    """The side N-S's tricks and points (less E-W's) solved position after position of one
    hand, sharing one transposition table and starting from the previous value."""

    def __init__(
        self,
        start: State,
        budget: int,
        tricks: Outcome | None = None,
        points: Outcome | None = None,
        apart: bool = False,
        halt: _Halt | None = None,
    ) -> None:
        tricks = tricks if tricks is not None else Outcome(start, 0, value="tricks")
        points = points if points is not None else Outcome(start, 0, value="points")
        if tricks.side != 0 or points.side != 0:
            raise ValueError("the analysis solves for side N-S")
        self.tricks = _solver(
            start, tricks.side, tricks.groups, tricks.table, tricks.keen, tricks.linear, budget, halt
        )
        self.points = _solver(
            start, points.side, points.groups, points.table, points.keen, points.linear, budget, halt
        )
        # The points questions read the trick bounds the trick questions find: those of
        # the trick solver, or (``apart``: the two walk the hand in two threads, see
        # walk()) of a trick table of their own, which only their trick targets fill.
        # Apart only when a nil splits a side: the points then hang on more than N-S's
        # tricks, and the trick table answers fewer of their questions (the best of three
        # runs of bench/analyze.py's hands with a nil: hand 9 2.31 -> 1.62 s, hand 8 1.64 ->
        # 1.77 s, hands 1 and 4 the same; without a nil the points walk apart did the
        # tricks' work again: hand 2 1.53 -> 1.74 s).
        reader = self.points
        counts = self.tricks
        self.apart = (
            apart
            and len(set(points.groups)) > 2
            and isinstance(reader, FastSolver)
            and isinstance(counts, FastSolver)
        )
        if self.apart:
            counts = _solver(
                start, tricks.side, tricks.groups, tricks.table, tricks.keen, tricks.linear, budget, halt
            )
        if isinstance(reader, FastSolver):
            if isinstance(counts, FastSolver):
                reader.share(counts)
        elif isinstance(counts, Solver):
            reader.share(counts)

    def parts(self) -> tuple[int, int]:
        """The positions searched so far for the tricks, and for the points."""
        return self.tricks.searched + self.tricks.nodes, self.points.searched + self.points.nodes

    def values(
        self, st: State, guess: tuple[float, float] | None, bound: int = 0
    ) -> tuple[float, float] | None:
        """N-S's tricks and points with best play from ``st`` (None: over the budget);
        ``bound`` says what ``guess`` is (see :func:`~spades_cli.solver.sets.greatest_reached`)."""
        tricks = _value(self.tricks, st, None if guess is None else guess[0], bound)
        if tricks is None:
            return None
        points = _value(self.points, st, None if guess is None else guess[1], bound)
        return None if points is None else (tricks, points)

    def walk(
        self, positions: list[State], end: State, depth: int
    ) -> tuple[list[float | None], list[float | None]]:
        """N-S's tricks, and their points, before each card of ``positions`` and after the
        last (``end``), solved from the last card back, each from the next one's values, in
        the last ``depth`` tricks; None from the first position over the budget on. With
        ``apart`` the tricks are walked in a thread of their own meanwhile."""
        solver = self.tricks
        if not (self.apart and isinstance(solver, FastSolver)):
            tricks = _walk(self.tricks, positions, end, depth)
            # Not below the first position whose tricks were over the budget.
            low = next((i + 1 for i in range(len(positions) - 1, -1, -1) if tricks[i] is None), 0)
            points = _walk(self.points, positions, end, depth, low)
        else:
            pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="analyze-tricks")
            later = pool.submit(_walk, solver, positions, end, depth)
            try:
                points = _walk(self.points, positions, end, depth)
            except BaseException:  # Ctrl-C, SIGTERM: end the other walk too
                solver.stop()
                raise
            finally:
                pool.shutdown(wait=True)
            tricks = later.result()
        return tricks, points

    def best(self, st: State, card: int, target: tuple[float, float], by_points: bool) -> tuple[int, bool]:
        """A card as good as the best (by points, else by tricks) in ``st`` and whether it
        also reaches the best trick count; ``card`` when none is found in the budget."""
        side = st.current % 2
        self.tricks.load(st)
        self.points.load(st)
        found = -1
        try:
            for c in self.points.distinct_moves():
                if c == card:
                    continue
                if by_points and not self.points.reaches(c, target[1], side):
                    continue
                full = self.tricks.reaches(c, target[0], side)
                if full:
                    return c, True
                if by_points and found < 0:
                    found = c
        except SearchLimit:
            pass  # over the budget: the card found so far (or the card played) stands
        return (found, False) if found >= 0 else (card, False)


def _walk(
    solver: Solver | FastSolver, positions: list[State], end: State, depth: int, low: int = 0
) -> list[float | None]:
    """One solver's part of :meth:`_Solvers.walk`, down to position ``low``. The value
    after a card is a floor of the value before it when N-S played it (they could play it
    again) and a ceiling when E-W did: the question asks only what it leaves."""
    k = len(positions)
    out: list[float | None] = [None] * (k + 1)
    if end.phase == PLAY:
        out[k] = _value(solver, end)  # an unfinished hand
    for i in range(k - 1, low - 1, -1):
        here = positions[i]
        if 13 - here.trick_no > depth:
            break
        if i == k - 1 and end.phase != PLAY:
            out[i] = out[k] = _value(solver, here)  # the last card: forced
        else:
            out[i] = _value(solver, here, out[i + 1], 1 if here.current % 2 == 0 else -1)
        if out[i] is None:
            break
    return out


def _value(
    solver: Solver | FastSolver, st: State, guess: float | None = None, bound: int = 0
) -> float | None:
    """The solver's value of ``st`` with best play (None: over the budget)."""
    solver.load(st)
    try:
        return solver.value(guess, bound)
    except SearchLimit:
        return None


def _solver(
    st: State,
    side: int,
    groups: list[int],
    table: list[float],
    keen: list[bool] | None,
    linear: list[float] | None,
    budget: int,
    halt: _Halt | None = None,
) -> Solver | FastSolver:
    """The C solver when it was built (and its tables fit in memory), else the Python one
    (the same values); ``halt`` is told of it."""
    solver: Solver | FastSolver
    if ddfast.available():
        try:
            solver = FastSolver(st, side, groups, table, keen, linear, budget)
        except MemoryError:
            solver = Solver(st, side, groups, table, keen, linear, budget)  # the C tables did not fit
    else:
        solver = Solver(st, side, groups, table, keen, linear, budget)
    if halt is not None:
        halt.add(solver)
    return solver


Figures = tuple[list[int | None], list[int | None], list[int]]  # sides, seats, seats' floors


def _sides(ns: float | None) -> list[int | None]:
    """Each side's tricks from the deal, from N-S's (None: not known)."""
    return [None, None] if ns is None else [round(ns), 13 - round(ns)]


def _deal_figures(
    start: State, ns: float | None, budget: int, halt: _Halt | None = None
) -> tuple[Figures, int]:
    """The tricks each side, and each seat with its partner helping, can take from the
    deal (``ns``: N-S's tricks from the deal when known), and the positions searched."""
    n = start.n
    sides = _sides(ns)
    if n == 2 or ns is None:
        known: list[int | None] = sides[:] if n == 2 else [None] * n
        return (sides, known, [v or 0 for v in known]), 0
    seats: list[int | None] = []
    floors: list[int] = []
    searched = 0
    for seat in range(n):
        top = sides[seat % 2]
        assert top is not None
        got, floor, count = _seat_figure(start, seat, top, budget, halt)
        seats.append(got)
        floors.append(floor)
        searched += count
    return (sides, seats, floors), searched


def _seat_figure(
    start: State, seat: int, top: int, budget: int, halt: _Halt | None = None
) -> tuple[int | None, int, int]:
    """The tricks ``seat`` can take from the deal, its partner helping (None: over the
    budget), the most it was shown to reach, and the positions searched. A seat takes no
    more than its side can (``top``), so only the counts up to ``top`` are asked about,
    from the lowest up: a question the
    seat can answer "yes" to is cheaper than a "no", and each leaves bounds in the
    solver's table for the next (fewer positions than a binary search)."""
    n = start.n
    groups = [0 if s == seat else 1 for s in range(n)]
    solver = _solver(start, seat % 2, groups, trick_table(2, [0]), None, [1.0, 0.0], budget, halt)
    lo = 0
    try:
        while lo < top and solver.reaches(-1, float(lo + 1), seat % 2):
            lo += 1
    except SearchLimit:
        return None, lo, solver.searched + solver.nodes
    return lo, lo, solver.searched + solver.nodes


def _yield_to_caller(niceness: int = 10) -> None:
    """Lower this thread's priority (Linux sets it a thread), so that the hand's
    positions, which the caller waits on, come first; elsewhere nothing changes."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), niceness)


class _SeatFigures:
    """The seats' figures from the deal (each seat's own tricks, its partner helping),
    searched by the C core in a thread a seat, at a lower priority, while the caller
    solves the hand's positions (the C search lets other threads run; each thread has a
    solver of its own). Measured on bench/analyze.py, four threads at nice 10 against two
    at the caller's priority: 8 of 10 hands under 2 s against 6 or 7. Each seat
    asks 1, 2, ... tricks upward until a "no". A seat takes no more than its side, whose
    figure is known only at the end: a question above it can only be a "no" (or over the
    budget), so the figures are those of asking only up to it, as ``_seat_figure`` does."""

    def __init__(self, start: State, budget: int, halt: _Halt | None = None) -> None:
        n = start.n
        self.tops: list[int | None] = [None, None]  # the sides' figures, once known
        self.solvers = [
            FastSolver(
                start,
                seat % 2,
                [0 if s == seat else 1 for s in range(n)],
                trick_table(2, [0]),
                None,
                [1.0, 0.0],
                budget,
            )
            for seat in range(n)
        ]
        if halt is not None:
            for solver in self.solvers:
                halt.add(solver)
        self.pool = ThreadPoolExecutor(max_workers=n, thread_name_prefix="analyze")
        self.futures = [self.pool.submit(self._ladder, seat) for seat in range(n)]

    def _ladder(self, seat: int) -> tuple[int, bool]:
        """The most tricks the seat was shown to reach and whether a question was over
        the budget (or stopped)."""
        _yield_to_caller()
        solver = self.solvers[seat]
        lo = 0
        try:
            while lo < 13:
                top = self.tops[seat % 2]
                if top is not None and lo >= top:
                    break
                if not solver.reaches(-1, float(lo + 1), seat % 2):
                    break
                lo += 1
        except SearchLimit:
            return lo, True
        return lo, False

    def result(self, ns: float | None) -> tuple[Figures, int]:
        """The figures (as ``_deal_figures``) once N-S's tricks from the deal are known."""
        sides = _sides(ns)
        if ns is None:
            self.close()
            return (sides, [None] * len(self.solvers), [0] * len(self.solvers)), self.searched()
        self.tops[0], self.tops[1] = sides[0], sides[1]
        seats: list[int | None] = []
        floors: list[int] = []
        for seat, future in enumerate(self.futures):
            lo, over = future.result()
            top = sides[seat % 2]
            assert top is not None
            seats.append(top if lo >= top else None if over else lo)
            floors.append(min(lo, top))
        self.close()
        return (sides, seats, floors), self.searched()

    def searched(self) -> int:
        return sum(s.searched + s.nodes for s in self.solvers)

    def close(self) -> None:
        """End the searches still running and the threads."""
        for solver in self.solvers:
            solver.stop()
        self.pool.shutdown(wait=True)


def analyze_hand(
    start: State, cards: list[int], depth: int, budget: int, halt: _Halt | None = None
) -> HandReport:
    """The hand's figures from the deal and every card of its last ``depth`` tricks
    against the best card. The positions are solved from the last card back, each from
    the next one's values and with one transposition table, so the early positions
    find the later ones already solved; the first position over the budget ends it."""
    seats_job: _SeatFigures | None = None
    if start.n == 4 and ddfast.available():
        try:
            seats_job = _SeatFigures(start, budget, halt)
        except MemoryError:
            seats_job = None  # the seats' figures are searched one after another instead
    try:
        return _analyze_hand(start, cards, depth, budget, seats_job, halt)
    finally:
        if seats_job is not None:
            seats_job.close()


def _analyze_hand(
    start: State,
    cards: list[int],
    depth: int,
    budget: int,
    seats_job: _SeatFigures | None,
    halt: _Halt | None = None,
) -> HandReport:
    n = start.n
    solvers = _Solvers(start, budget, apart=True, halt=halt)
    positions: list[State] = []
    st = start.clone()
    for card in cards:
        positions.append(st.clone())
        st.apply(card)
    tricks, points = solvers.walk(positions, st, depth)
    values = [None if t is None or p is None else (t, p) for t, p in zip(tricks, points, strict=True)]
    # The tricks from the deal are the figures' (known even when its points were over the
    # budget); with --tricks they are solved alone, unless a later position was over it.
    reached = len(cards)
    while reached > 0 and tricks[reached - 1] is not None:
        reached -= 1
    over = reached > 0 and 13 - positions[reached - 1].trick_no <= depth
    ns = tricks[0] if reached == 0 else None if over else _value(solvers.tricks, start)
    if seats_job is not None:
        (sides, seats, floors), searched = seats_job.result(ns)
    else:
        (sides, seats, floors), searched = _deal_figures(start, ns, budget, halt)
    report = HandReport(start.hand_no + 1, start.dealer, tuple(start.bids), sides, seats, floors, (0,) * n)
    contracts = [_contract(start, 0), _contract(start, 1)]
    report.played = tuple(sum(1 for p in positions if p.current == s) for s in range(n))
    for i, card in enumerate(cards):
        if len(positions[i].legal_actions()) == 1:
            continue  # a forced card gives nothing up
        now, after = values[i], values[i + 1]
        if now is None or after is None:
            report.skipped += 1
            continue
        report.cards.append(_verdict(positions[i], card, now, after, solvers, contracts))
    report.taken = st.results[-1].tricks if len(st.results) > len(start.results) else tuple(st.tricks_won)
    report.parts = (searched, *solvers.parts())
    return report


def _card(st: State, card: int, points: Outcome, counts: Outcome, budget: int) -> CardReport | None:
    """One card of one position against the best card there (None: over the budget)."""
    solvers = _Solvers(st, budget, counts, points)
    now = solvers.values(st, None)
    after_state = st.clone()
    after_state.apply(card)
    bound = -1 if st.current % 2 == 0 else 1  # a card of N-S can only lower their value
    after = solvers.values(after_state, now, bound) if after_state.phase == PLAY else now
    if now is None or after is None:
        return None
    return _verdict(st, card, now, after, solvers, [_contract(st, 0), _contract(st, 1)])


def _verdict(
    st: State,
    card: int,
    now: tuple[float, float],
    after: tuple[float, float],
    solvers: _Solvers,
    contracts: list[int],
) -> CardReport:
    """What ``card`` gave up in ``st``: the values with best play before and after it."""
    seat = st.current
    side = seat % 2
    sign = 1 if side == 0 else -1
    cost_tricks = round(sign * (now[0] - after[0]))
    cost_points = sign * (now[1] - after[1]) + 0.0  # never -0.0
    best, kept = card, False
    if cost_points > 0 or cost_tricks > 0:
        best, full = solvers.best(st, card, now, cost_points > 0)
        mine_best = now[0] if side == 0 else 13 - now[0]
        mine_card = after[0] if side == 0 else 13 - after[0]
        contract = contracts[side]
        kept = full and contract > 0 and mine_best >= contract > mine_card
    name = st.rules.side_name(side)
    outcome = f"set {name} {-10 * contracts[side]}" if kept else _points(cost_points)
    return CardReport(
        st.hand_no + 1, st.trick_no + 1, seat, card, best, cost_tricks, cost_points, kept, outcome
    )


def seat_totals(rules: Rules, hands: list[HandReport]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for seat, name in enumerate(rules.seat_names):
        mine = [c for h in hands for c in h.cards if c.seat == seat]
        out[name] = {
            "cards_played": sum(h.played[seat] for h in hands),
            "cards_analysed": len(mine),
            "costly_cards": sum(1 for c in mine if c.cost_points > 0),
            "tricks_given_up": sum(c.cost_tricks for c in mine if c.cost_points > 0),
            "points_given_up": sum(c.cost_points for c in mine),
        }
    return out


def to_json(rules: Rules, hands: list[HandReport], seat: int | None = None) -> dict[str, Any]:
    names = rules.seat_names

    def keep(s: int) -> bool:
        return seat is None or s == seat

    out_hands = []
    for h in hands:
        out_hands.append(
            {
                "hand": h.hand,
                "dealer": names[h.dealer],
                "bids": {names[s]: b for s, b in enumerate(h.bids)},
                "taken": {names[s]: t for s, t in enumerate(h.taken)},
                "double_dummy": {
                    "sides": {rules.side_name(k): v for k, v in enumerate(h.side_tricks)},
                    "seats": {names[s]: v for s, v in enumerate(h.seat_tricks)},
                    "seats_at_least": {names[s]: v for s, v in enumerate(h.seat_floors)},
                },
                "cards": [
                    {
                        "trick": c.trick,
                        "seat": names[c.seat],
                        "card": card_str(c.card),
                        "best": card_str(c.best),
                        "cost_tricks": c.cost_tricks,
                        "cost_points": c.cost_points,
                        "costly": c.cost_points > 0,
                    }
                    for c in h.cards
                    if keep(c.seat)
                ],
                "not_analysed": h.skipped,
            }
        )
    totals = seat_totals(rules, hands)
    return {
        "hindsight": True,
        "note": HINDSIGHT,
        "hands": out_hands,
        "seats": {k: v for k, v in totals.items() if seat is None or k == names[seat]},
    }


def text_lines(rules: Rules, hands: list[HandReport], seat: int | None = None) -> list[str]:
    """The analysis as text: the hindsight note, each hand's lines, the seats' totals."""
    return [line for chunk in text_chunks(rules, hands, seat) for line in chunk]


def text_chunks(rules: Rules, hands: Iterable[HandReport], seat: int | None = None) -> Iterator[list[str]]:
    """The lines of :func:`text_lines` a part at a time: the note, then each hand's as
    ``hands`` gives it (an analysis still running), then the totals."""
    yield [f"Note: {HINDSIGHT}."]
    done: list[HandReport] = []
    for h in hands:
        done.append(h)
        yield hand_lines(rules, h, seat)
    yield totals_lines(rules, done, seat)


def hand_lines(rules: Rules, h: HandReport, seat: int | None = None) -> list[str]:
    """One hand's figures from the deal and its costly cards (``seat``'s only)."""
    names = rules.seat_names
    taken = " ".join(f"{names[s]} {t}" for s, t in enumerate(h.taken))
    out = [f"hand {h.hand}: {deal_figures(rules, h)}; taken {taken}"]
    if None in h.side_tricks:
        out.append("  (? = not solved within the search budget)")
    for c in h.cards:
        if c.cost_points > 0 and (seat is None or c.seat == seat):
            out.append("  " + flag_line(rules, c))
    if h.skipped:
        out.append(f"  ({h.skipped} cards not analysed: before --tricks or over the search budget)")
    return out


def totals_lines(rules: Rules, hands: list[HandReport], seat: int | None = None) -> list[str]:
    """Each seat's (or ``seat``'s) cards played and analysed, and what they gave up."""
    names = rules.seat_names
    out = ["per seat: cards played, analysed, costly, tricks and points given up"]
    for name, row in seat_totals(rules, hands).items():
        if seat is None or name == names[seat]:
            out.append(
                f"  {name}: {row['cards_played']} played, {row['cards_analysed']} analysed, "
                f"{row['costly_cards']} costly, {_tricks(row['tricks_given_up'])}, "
                + _points(row["points_given_up"])
            )
    return out


def _tricks(n: int) -> str:
    return f"{n} trick" if n == 1 else f"{n} tricks"


def _points(n: float) -> str:
    return f"{n:g} point" if n == 1 else f"{n:g} points"


__all__ = [
    "HINDSIGHT",
    "CardReport",
    "HandReport",
    "HandsInBackground",
    "analyze",
    "analyze_hands",
    "flag_line",
    "hand_lines",
    "read_for_analysis",
    "replayed",
    "text_chunks",
    "text_lines",
    "to_json",
    "totals_lines",
]
