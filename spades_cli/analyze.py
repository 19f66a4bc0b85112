"""Hindsight analysis of a transcript with the double-dummy solver (``spades analyze``).

Every hand of a recorded game is replayed with every hand known. For each hand: the
tricks each side (and each seat, its partner helping) can take from the deal with best
play by everyone, under the table's rules, beside the bids. For each card played: the
tricks, and the hand's Spades points given the bids (the player's side less the
other), that it gave up against the best card in that position. A card that gave up
points is *costly*. Per seat: the cards played, analysed and costly, and what they
gave up.

Search is bounded: positions are solved only in the last ``tricks`` tricks of a hand
and with at most ``budget`` positions a search; what was not solved is reported as
such, never guessed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from spades_cli.bots.expert import Outcome
from spades_cli.engine import DEAL, PLAY, Rules, State, card_str
from spades_cli.engine.solver import SearchLimit, Solver, trick_table
from spades_cli.match import Match
from spades_cli.transcript import Transcript, replay, transcript_rules

HINDSIGHT = "hindsight analysis: every hand is known to the solver, as no player could know it"
DEFAULT_TRICKS = {2: 13, 4: 6}  # the last tricks of a hand whose cards are analysed
DEFAULT_BUDGET = 200_000  # positions per search


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
    taken: tuple[int, ...]  # tricks taken per seat in the game
    cards: list[CardReport] = field(default_factory=list)
    skipped: int = 0  # cards not analysed (too early in the hand or over budget)


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


def analyze(
    t: Transcript, *, tricks: int | None = None, budget: int = DEFAULT_BUDGET
) -> tuple[Rules, list[HandReport]]:
    """Replay the transcript (checking it) and analyse every hand that reached its play."""
    rules = transcript_rules(t)
    assert rules is not None
    match = replay(t, rules).match
    depth = tricks if tricks is not None else DEFAULT_TRICKS[rules.players]
    return rules, [_hand(start, cards, depth, budget) for start, cards in _plays(match)]


def _solve(solver: Solver) -> float | None:
    try:
        return solver.value()
    except SearchLimit:
        return None


def _hand(start: State, cards: list[int], depth: int, budget: int) -> HandReport:
    n = start.n
    sides: list[int | None] = [None, None]
    seats: list[int | None] = [None] * n
    # A whole four-player deal is out of this solver's reach in the time a hand may take:
    # it is tried (within the budget) only when whole hands were asked for.
    if n == 2 or depth >= 13:
        for side in (0, 1):
            v = _solve(Outcome(start, side, value="tricks").solver(start, budget))
            sides[side] = None if v is None else round(v)
        for seat in range(n):
            groups = [0 if s == seat else 1 for s in range(n)]
            v = _solve(Solver(start, seat % 2, groups, trick_table(2, [0]), None, [1.0, 0.0], budget))
            seats[seat] = None if v is None else round(v)
    st = start.clone()
    report = HandReport(start.hand_no + 1, start.dealer, tuple(start.bids), sides, seats, (0,) * n)
    points = [Outcome(start, side, value="points") for side in (0, 1)]
    counts = [Outcome(start, side, value="tricks") for side in (0, 1)]
    for card in cards:
        seat = st.current
        if len(st.legal_actions()) == 1:
            pass  # a forced card gives nothing up
        elif 13 - st.trick_no <= depth:
            verdict = _card(st, card, points[seat % 2], counts[seat % 2], budget)
            if verdict is None:
                report.skipped += 1
            else:
                report.cards.append(verdict)
        else:
            report.skipped += 1
        st.apply(card)
    report.taken = st.results[-1].tricks if len(st.results) > len(start.results) else tuple(st.tricks_won)
    return report


def _card(st: State, card: int, points: Outcome, counts: Outcome, budget: int) -> CardReport | None:
    try:
        by_points = points.solver(st, budget).move_values()
        by_tricks = counts.solver(st, budget).move_values()
    except SearchLimit:
        return None
    best = max(by_points, key=lambda c: (by_points[c], by_tricks[c], -c))
    if by_points[card] >= by_points[best]:
        best = card
    seat = st.current
    side = seat % 2
    contract = points.contract
    kept = contract > 0 and by_tricks[best] >= contract > by_tricks[card]
    name = st.rules.side_name(side)
    outcome = f"set {name} {-10 * contract}" if kept else f"{by_points[best] - by_points[card]:g} points"
    return CardReport(
        st.hand_no + 1, st.trick_no + 1, seat, card, best,
        round(by_tricks[best] - by_tricks[card]), by_points[best] - by_points[card], kept, outcome,
    )


def flag_line(rules: Rules, c: CardReport) -> str:
    """``hand 3 trick 7: W played KD, 2D kept the contract: cost 1 trick, set NS -60``."""
    who = rules.seat_names[c.seat]
    better = f"{card_str(c.best)} kept the contract" if c.kept else f"{card_str(c.best)} was better"
    unit = "trick" if c.cost_tricks == 1 else "tricks"
    return (
        f"hand {c.hand} trick {c.trick}: {who} played {card_str(c.card)}, {better}: "
        f"cost {c.cost_tricks} {unit}, {c.outcome}"
    )


def seat_totals(rules: Rules, hands: list[HandReport]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for seat, name in enumerate(rules.seat_names):
        mine = [c for h in hands for c in h.cards if c.seat == seat]
        out[name] = {
            "cards_played": 13 * len(hands),
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
        out_hands.append({
            "hand": h.hand,
            "dealer": names[h.dealer],
            "bids": {names[s]: b for s, b in enumerate(h.bids)},
            "taken": {names[s]: t for s, t in enumerate(h.taken)},
            "double_dummy": {
                "sides": {rules.side_name(k): v for k, v in enumerate(h.side_tricks)},
                "seats": {names[s]: v for s, v in enumerate(h.seat_tricks)},
            },
            "cards": [
                {
                    "trick": c.trick, "seat": names[c.seat], "card": card_str(c.card),
                    "best": card_str(c.best), "cost_tricks": c.cost_tricks,
                    "cost_points": c.cost_points, "costly": c.cost_points > 0,
                }
                for c in h.cards if keep(c.seat)
            ],
            "not_analysed": h.skipped,
        })
    totals = seat_totals(rules, hands)
    return {
        "hindsight": True,
        "note": HINDSIGHT,
        "hands": out_hands,
        "seats": {k: v for k, v in totals.items() if seat is None or k == names[seat]},
    }


def text_lines(rules: Rules, hands: list[HandReport], seat: int | None = None) -> list[str]:
    names = rules.seat_names
    out = [f"Note: {HINDSIGHT}."]
    for h in hands:
        bids = " ".join(f"{names[s]}:{'nil' if b == 0 else b}" for s, b in enumerate(h.bids))
        dd = " ".join(f"{rules.side_name(k)} {_num(v)}" for k, v in enumerate(h.side_tricks))
        per_seat = " ".join(f"{names[s]} {_num(v)}" for s, v in enumerate(h.seat_tricks))
        taken = " ".join(f"{names[s]} {t}" for s, t in enumerate(h.taken))
        out.append(f"hand {h.hand}: bids {bids}; double dummy {dd} (seats: {per_seat}); taken {taken}")
        if None in h.side_tricks:
            out.append("  (? = not solved from the deal: too large a search; --tricks 13 tries, in a budget)")
        for c in h.cards:
            if c.cost_points > 0 and (seat is None or c.seat == seat):
                out.append("  " + flag_line(rules, c))
        if h.skipped:
            out.append(f"  ({h.skipped} cards not analysed: early in the hand or too large a search)")
    out.append("per seat: cards played, analysed, costly, tricks and points given up")
    for name, row in seat_totals(rules, hands).items():
        if seat is None or name == names[seat]:
            out.append(
                f"  {name}: {row['cards_played']} played, {row['cards_analysed']} analysed, "
                f"{row['costly_cards']} costly, {row['tricks_given_up']} tricks, "
                f"{row['points_given_up']:g} points"
            )
    return out


def _num(v: int | None) -> str:
    return "?" if v is None else str(v)


__all__ = ["HINDSIGHT", "CardReport", "HandReport", "analyze", "flag_line", "text_lines", "to_json"]
