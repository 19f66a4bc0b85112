"""The analysis of one hand: its figures from the deal and every card against the best card.

Every hand is replayed with every hand known. For each hand: the tricks each side (and
each seat, its partner helping) can take from the deal with best play by everyone,
under the table's rules, beside the bids (``analysis.figures``). For each card played:
the tricks, and the hand's Spades points given the bids (the player's side less the
other), that it gave up against the best card in that position: the value with best
play before the card less the value after it (so one solve per position, not per
card). A card that gave up points is *costly*.

Search is bounded: positions are solved only in the last ``depth`` tricks of a hand
and with at most ``budget`` positions a question; what was not solved is reported as
such, never guessed.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Final

from spades_cli.analysis.figures import SeatFigures, deal_figures
from spades_cli.analysis.forced import forced_tricks, group_limits
from spades_cli.analysis.report import CardReport, HandReport, side_figures
from spades_cli.analysis.threads import Halt, cores, in_turn
from spades_cli.engine import PLAY, State
from spades_cli.engine.plan import plan_for
from spades_cli.engine.scoring import contract_score
from spades_cli.engine.walk import Walk
from spades_cli.game.match import Match
from spades_cli.solver import backend
from spades_cli.solver.backend import Search
from spades_cli.solver.deck import solver_deck, tricks_left
from spades_cli.solver.outcome import Outcome
from spades_cli.solver.search import SearchLimit
from spades_cli.solver.sets import greatest_reached, spreads
from spades_cli.view.analysis import points_words


def plays(match: Match) -> list[tuple[State, list[int]]]:
    """Per hand that reached its play: the position where the play began, and the cards
    played (the recorded decks and actions walked by ``engine.walk``)."""
    assert match.dealer is not None
    walked = Walk(match.rules, match.dealer, match.decks)
    out: list[tuple[State, list[int]]] = []
    for action in match.state.history:
        state = walked.state
        if state.phase == PLAY:
            if state.trick_no == 0 and not state.trick and (not out or out[-1][0].hand_no != state.hand_no):
                out.append((state.clone(), []))
            out[-1][1].append(action)
        walked.apply(action)
    return out


def analyze_hand(
    start: State,
    cards: list[int],
    depth: int,
    budget: int,
    halt: Halt | None = None,
    threads: int | None = None,
) -> HandReport:
    """The hand's figures from the deal and every card of its last ``depth`` tricks
    against the best card. The positions are solved from the last card back, each from
    the next one's values and with one transposition table, so the early positions
    find the later ones already solved; the first position over the budget ends it.
    With the C core the positions and each seat's figure are groups of questions run
    on ``threads`` runners (None: a core each; :func:`~spades_cli.analysis.threads.in_turn`),
    the positions first: the same figures and positions searched however many."""
    halt = halt if halt is not None else Halt()
    deck = solver_deck(start.rules)
    seats = (
        SeatFigures(start, budget, halt) if start.n == 4 and deck.sides == 2 and backend.c_core() else None
    )
    done: list[tuple[HandReport, list[float | None]]] = []

    def positions_first() -> None:
        try:
            done.append(_analyze_hand(start, cards, depth, budget, seats, halt))
        finally:  # the seats waiting on their side's figure go on, or stop
            if seats is not None:
                seats.know(done[0][1][0] if done else None, settled=True)

    runners = cores() if threads is None else threads
    groups = [positions_first, *([] if seats is None else seats.groups(runners))]
    in_turn(groups, runners, halt)
    report, from_deal = done[0]
    if seats is not None:
        figures, searched = seats.result(from_deal[0])
    else:
        known = side_figures(from_deal[0], deck.tricks) if deck.sides == 2 else [_round(v) for v in from_deal]
        figures, searched = deal_figures(start, known, budget, halt)
    report.side_tricks, report.seat_tricks, report.seat_floors = figures
    report.parts = (searched, *report.parts[1:])
    return report


def _analyze_hand(
    start: State,
    cards: list[int],
    depth: int,
    budget: int,
    seats: SeatFigures | None,
    halt: Halt,
) -> tuple[HandReport, list[float | None]]:
    """The hand's positions: its report without the figures from the deal, and each
    side's tricks from the deal (the seats told N-S's as soon as they are known)."""
    n = start.n
    deck = solver_deck(start.rules)
    # Two sides: N-S's values are E-W's too; more: each side asked against all the others.
    asked = [Solvers(start, budget, halt=halt, side=k) for k in range(1 if deck.sides == 2 else deck.sides)]
    positions: list[State] = []
    st = start.clone()
    for card in cards:
        positions.append(st.clone())
        st.apply(card)
    values: list[list[tuple[float, float] | None]] = []
    from_deal: list[float | None] = []
    for solvers in asked:
        told = None if seats is None else seats.know
        tricks, points = solvers.walk(positions, st, depth, told)
        pairs = zip(tricks, points, strict=True)
        values.append([None if t is None or p is None else (t, p) for t, p in pairs])
        from_deal.append(_from_deal(solvers, start, positions, tricks, depth))
    unknown: list[int | None] = [None] * deck.sides
    report = HandReport(
        start.hand_no + 1, start.dealer, tuple(start.bids), unknown, [None] * n, [0] * n, (0,) * n
    )
    report.played = tuple(sum(1 for p in positions if p.current == s) for s in range(n))
    for i, card in enumerate(cards):
        if len(positions[i].legal_actions()) == 1:
            continue  # a forced card gives nothing up
        k = 0 if len(asked) == 1 else deck.side_of[positions[i].current]
        now, after = values[k][i], values[k][i + 1]
        if now is None or after is None:
            report.skipped += 1
            continue
        report.cards.append(_verdict(positions[i], card, now, after, asked[k]))
    report.taken = st.results[-1].tricks if len(st.results) > len(start.results) else tuple(st.tricks_won)
    parts = [s.parts() for s in asked]
    report.parts = (0, sum(p[0] for p in parts), sum(p[1] for p in parts))
    halt.drop(*(x for s in asked for x in (s.tricks, s.points)))  # their tables go with them
    return report, from_deal


def _from_deal(
    solvers: Solvers, start: State, positions: list[State], tricks: list[float | None], depth: int
) -> float | None:
    """The side's tricks from the deal: the walk's (known even when its points were over
    the budget); with --tricks they are solved alone, unless a later position was over it."""
    reached = len(positions)
    while reached > 0 and tricks[reached - 1] is not None:
        reached -= 1
    over = reached > 0 and tricks_left(positions[reached - 1]) <= depth
    return tricks[0] if reached == 0 else None if over else _value(solvers.tricks, start)


def _round(v: float | None) -> int | None:
    return None if v is None else round(v)


def one_card(st: State, card: int, points: Outcome, counts: Outcome, budget: int) -> CardReport | None:
    """One card of one position against the best card there (None: over the budget)."""
    solvers = Solvers(st, budget, counts, points)
    now = solvers.values(st, None)
    after_state = st.clone()
    after_state.apply(card)
    # A card of the side asked about can only lower its value.
    bound = -1 if solver_deck(st.rules).side_of[st.current] == points.side else 1
    after = solvers.values(after_state, now, bound) if after_state.phase == PLAY else now
    if now is None or after is None:
        return None
    return _verdict(st, card, now, after, solvers)


def _verdict(
    st: State,
    card: int,
    now: tuple[float, float],
    after: tuple[float, float],
    solvers: Solvers,
) -> CardReport:
    """What ``card`` gave up in ``st``: the values with best play before and after it."""
    seat = st.current
    deck = solver_deck(st.rules)
    side = deck.side_of[seat]
    mine = side == solvers.side  # else the other of two sides: its values are the asked one's, negated
    sign = 1 if mine else -1
    cost_tricks = round(sign * (now[0] - after[0]))
    # never -0.0; a mean of the other sides' points is a fraction: no float noise shown
    cost_points = round(sign * (now[1] - after[1]), 9) + 0.0
    best, kept = card, False
    if cost_points > 0 or cost_tricks > 0:
        best, full = solvers.best(st, card, now, cost_points > 0)
        mine_best = now[0] if mine else deck.tricks - now[0]
        mine_card = after[0] if mine else deck.tricks - after[0]
        contract = solvers.contracts[side]
        kept = full and contract > 0 and mine_best >= contract > mine_card
    name = st.rules.side_name(side)
    if kept:  # the set's points as the rules score them (R-C-8, R-T-2, R-B-2)
        outcome = f"set {name} {contract_score(plan_for(st.rules), solvers.contracts[side], 0)[0]}"
    else:
        outcome = points_words(cost_points)
    return CardReport(
        st.hand_no + 1, st.trick_no + 1, seat, card, best, cost_tricks, cost_points, kept, outcome
    )


class Solvers:
    """One side's (``side``; N-S by default) tricks and points (less the other side's, or
    the other sides' mean) solved position after position of one hand, sharing one
    transposition table and starting from the previous value; the points questions read
    the bounds on the side's tricks that the trick questions find. Below, "N-S" stands
    for the side asked about."""

    def __init__(
        self,
        start: State,
        budget: int,
        tricks: Outcome | None = None,
        points: Outcome | None = None,
        halt: Halt | None = None,
        side: int = 0,
    ) -> None:
        tricks = tricks if tricks is not None else Outcome(start, side, value="tricks")
        points = points if points is not None else Outcome(start, side, value="points")
        if tricks.side != points.side:
            raise ValueError("the analysis solves the tricks and points of one side")
        self.side = points.side
        self.contracts = points.contracts
        self.outcome = points
        self.tricks = _solver(start, tricks, budget, halt)
        self.points = _solver(start, points, budget, halt)
        backend.share(self.points, self.tricks)

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
        values = trick_window(self.outcome, st, tricks)
        points = _value(self.points, st, None if guess is None else guess[1], bound, values, self.side)
        return None if points is None else (tricks, points)

    def walk(
        self, positions: list[State], end: State, depth: int, told: Callable[[float], None] | None = None
    ) -> tuple[list[float | None], list[float | None]]:
        """N-S's tricks, and their points, before each card of ``positions`` and after the
        last (``end``), solved from the last card back, each from the next one's values, in
        the last ``depth`` tricks; None from the first position over the budget on. The
        tricks are walked first (``told`` is told N-S's tricks from the first position
        when they are known); each position's points are then asked only among the
        values its tricks leave (:func:`trick_window`)."""
        tricks = _walk(self.tricks, self.side, positions, end, depth)
        if told is not None and tricks[0] is not None:
            told(tricks[0])
        # Not below the first position whose tricks were over the budget.
        low = next((i + 1 for i in range(len(positions) - 1, -1, -1) if tricks[i] is None), 0)
        points = _walk(self.points, self.side, positions, end, depth, low, (self.outcome, tricks))
        return tricks, points

    def best(self, st: State, card: int, target: tuple[float, float], by_points: bool) -> tuple[int, bool]:
        """A card as good as the best (by points, else by tricks) in ``st`` and whether it
        also reaches the best trick count; ``card`` when none is found in the budget. The
        first card (low first) that reaches both, else the first that reaches the points;
        each card's trick question, which costs far less, is asked before its points one,
        which a card that misses the trick count is asked only when no card reaches both."""
        side = solver_deck(st.rules).side_of[st.current]
        self.tricks.load(st)
        self.points.load(st)
        short: list[int] = []  # by points: the cards that miss the trick count, in order
        try:
            for c in self.points.distinct_moves():
                if c == card:
                    continue
                if not self.tricks.reaches(c, target[0], side):
                    short.append(c)
                elif not by_points or self.points.reaches(c, target[1], side):
                    return c, True
            for c in short if by_points else []:
                if self.points.reaches(c, target[1], side):
                    return c, False
        except SearchLimit:
            pass  # over the budget: the card played stands
        return card, False


STEP: Final = 2  # points a bag or two apart: one run of the same made, set or nil outcome

Window = tuple[Outcome, list[float | None]]  # the points' table, and N-S's tricks by position


def _walk(
    solver: Search,
    side: int,
    positions: list[State],
    end: State,
    depth: int,
    low: int = 0,
    window: Window | None = None,
) -> list[float | None]:
    """One solver's part of :meth:`Solvers.walk`, down to position ``low``. The value
    after a card is a floor of the value before it when N-S played it (they could play it
    again) and a ceiling when E-W did: the question asks only what it leaves. A position
    whose cards are all alike (one legal card, or a run of equivalent ones) has the value
    after its card. ``window``: the points, asked among the values N-S's tricks leave."""
    k = len(positions)
    side_of = solver_deck(end.rules).side_of
    out: list[float | None] = [None] * (k + 1)
    if end.phase == PLAY:
        out[k] = _value(solver, end)  # an unfinished hand
    for i in range(k - 1, low - 1, -1):
        here = positions[i]
        if tricks_left(here) > depth:
            break
        if i == k - 1 and end.phase != PLAY:
            out[i] = out[k] = _value(solver, here)  # the last card: forced
        elif _forced(solver, here):
            out[i] = out[i + 1]
        else:
            tricks = None if window is None else window[1][i]
            values = None if window is None or tricks is None else trick_window(window[0], here, tricks)
            bound = 1 if side_of[here.current] == side else -1
            out[i] = _value(solver, here, out[i + 1], bound, values, side)
        if out[i] is None:
            break
    return out


def _forced(solver: Search, st: State) -> bool:
    """Whether every legal card of ``st`` is alike: the value is the one after any."""
    solver.load(st)
    return len(solver.distinct_moves()) == 1


def trick_window(outcome: Outcome, st: State, tricks: float) -> list[float]:
    """The values of ``outcome`` (for N-S) that ``st`` can still end with, given that
    N-S's tricks in all are ``tricks`` with best play: N-S can make sure of that many
    tricks, so the value is at least the least of the outcomes with as many or more;
    E-W can hold them to it, so it is at most the greatest of those with as many or
    fewer. Sorted; the value with best play is one of them."""
    n = st.n
    deck = solver_deck(st.rules)
    radix = deck.radix
    groups = outcome.groups
    ngroups = max(groups) + 1
    ours = [False] * ngroups  # a group's seats are all of one side (Outcome)
    code = 0
    for s in range(n):
        code += st.tricks_won[s] * radix ** groups[s]
        ours[groups[s]] = deck.side_of[s] == outcome.side
    taken = sum(st.tricks_won[s] for s in range(n) if deck.side_of[s] == outcome.side)
    least, most = group_limits(st, groups)
    side = [s for s in range(n) if deck.side_of[s] == outcome.side]
    fewest = forced_tricks(st, side)
    left = tricks_left(st)
    utmost = left - forced_tricks(st, [s for s in range(n) if deck.side_of[s] != outcome.side])
    floor, ceiling = math.inf, -math.inf
    found: list[tuple[int, float]] = []
    for add in spreads(ngroups, left, radix):
        more, x, able = 0, add, True
        for g in range(ngroups):
            digit = x % radix
            able = able and least[g] <= digit <= most[g]
            if ours[g]:
                more += digit
            x //= radix
        if not able or not fewest <= more <= utmost:
            continue  # no play of the hand ends so (analysis.forced)
        t, v = taken + more, outcome.table[code + add]
        found.append((t, v))
        if t >= tricks:
            floor = min(floor, v)
        if t <= tricks:
            ceiling = max(ceiling, v)
    return sorted({v for _, v in found if floor <= v <= ceiling})


def _greatest(
    values: list[float], reaches: Callable[[float], bool], guess: float | None, bound: int
) -> float:
    """:func:`~spades_cli.solver.sets.greatest_reached` over the points a position's tricks
    leave, but asking fewer "yes" questions (each costs about as much as the first: the
    same made contract, set or nil proved again): above a floor, the lowest value of the
    top run (:data:`STEP`) is asked first when it lies above the next step (a value that
    moved up most often moved to the top: a nil kept instead of broken; a "no" so far up
    is cheap), then the next step; a value that fell two steps below a ceiling, or moved
    up and missed the top, is asked run by run from the top down (:func:`_by_runs`;
    measured: bench/README.md)."""
    if bound == 0 or guess is None or len(values) < 3:
        return greatest_reached(values, reaches, guess, bound)
    k = 0
    while k + 1 < len(values) and values[k + 1] <= guess:
        k += 1
    if bound < 0:
        if k < 2:
            return greatest_reached(values, reaches, guess, bound)
        if reaches(values[k]):
            return values[k]
        if reaches(values[k - 1]):  # below a ceiling most often one step lower
            return values[k - 1]
        return _by_runs(values, 0, k - 2, reaches)
    if k + 2 >= len(values):
        return greatest_reached(values, reaches, guess, bound)
    top = len(values) - 1  # the top run: the lowest value a bag or two below the top
    while top > 0 and values[top] - values[top - 1] <= STEP:
        top -= 1
    if top > k + 1:
        if reaches(values[top]):
            return greatest_reached(values[top:], reaches, None)
        if not reaches(values[k + 1]):
            return values[k]
        return _by_runs(values, k + 1, top - 1, reaches)
    if not reaches(values[k + 1]):
        return values[k]
    if reaches(values[-1]):
        return values[-1]
    return _by_runs(values, k + 1, len(values) - 2, reaches)


def _by_runs(values: list[float], lo: int, hi: int, reaches: Callable[[float], bool]) -> float:
    """The greatest of ``values[lo : hi + 1]`` reached, ``values[lo]`` known to be (or the
    least of all) and ``values[hi + 1]`` known not to be: each run of values a bag or two
    apart (:data:`STEP`; one made contract, set or nil with more or fewer bags) asked from
    the top run down, at its second value, then its lowest when the second is not reached
    (a run of one value: that value), then the run above the value reached by halves. A
    value most often lies above its run's lowest: its "yes" (each costs about a whole
    proof) is not asked on the way (measured: bench/README.md)."""
    for s in [i for i in range(hi, lo, -1) if values[i] - values[i - 1] > STEP]:
        if s < hi:
            if reaches(values[s + 1]):
                lo = s + 1
                break
            if reaches(values[s]):
                return values[s]
        elif reaches(values[s]):
            lo = s
            break
        hi = s - 1
    return greatest_reached(values[lo : hi + 1], reaches, None)


def _value(
    solver: Search,
    st: State,
    guess: float | None = None,
    bound: int = 0,
    values: list[float] | None = None,
    side: int = 0,
) -> float | None:
    """The solver's value of ``st`` with best play (None: over the budget); ``values``:
    the values it can be, when known to be fewer than the solver's outcomes (asked of
    ``side``, the solver's)."""
    solver.load(st)
    try:
        if values is None:
            return solver.value(guess, bound)
        return _greatest(values, lambda u: solver.reaches(-1, u, side), guess, bound)
    except SearchLimit:
        return None


def _solver(st: State, outcome: Outcome, budget: int, halt: Halt | None) -> Search:
    """The backend's search of ``outcome`` from ``st``; ``halt`` is told of it."""
    solver = backend.new_solver(
        st, outcome.side, outcome.groups, outcome.table, outcome.keen, outcome.linear, budget
    )
    if halt is not None:
        halt.add(solver)
    return solver


__all__ = ["Solvers", "analyze_hand", "one_card", "plays"]
