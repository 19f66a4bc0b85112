"""Scoring one hand (R-C-8, R-C-9, R-C-10, R-2P-6, R-4P-6, R-4P-7, R-BB-1) and deciding the game (R-C-11).

Pure functions over plain numbers so that tests and tools can recount a hand
independently of the engine's play loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from spades_cli.engine.actions import is_nil_bid
from spades_cli.engine.cards import NUM_CARDS
from spades_cli.engine.plan import BOSTON_POINTS, BOSTON_WIN, FAILED_BAGS, FAILED_PARTNER, Plan, plan_for
from spades_cli.engine.rules import TEN_FOR_TWO_HUNDRED_MIN, TEN_FOR_TWO_HUNDRED_VALUE, Rules

if TYPE_CHECKING:
    from spades_cli.engine._native import i64  # a machine word once compiled (see there)


class SideResult(NamedTuple):
    """One side's result for one hand."""

    contract: int  # sum of the non-nil bids (R-4P-6)
    tricks: int  # all tricks the side took
    contract_points: int  # R-C-8 (and 10-for-200)
    nil_points: int  # R-C-10 / R-2P-3: the nil and blind nil bonuses and penalties
    bags: int  # overtricks added to the running count this hand (R-C-9)
    bag_points: int  # bags.value per bag
    bag_penalty: int  # penalties charged this hand (a negative number or 0)
    points: int  # the hand's total for the side
    score: int  # running score after the hand
    bags_total: int  # bags carried after the hand
    made: bool  # the contract was made (True when there was none)
    counted: int  # the tricks that count toward the contract (a failed nil's too, under "partner")
    boston: bool = False  # R-B-2: a bid of every trick, made, under ``boston.mode: win``


def score_side(
    rules: Rules,
    bids: Sequence[int],
    blind: Sequence[bool],
    tricks: Sequence[int],
    seats: Sequence[int],
    score_before: int,
    bags_before: int,
    zero: Sequence[bool] = (),
) -> SideResult:
    """Score one side for one hand.

    ``bids``, ``blind`` and ``tricks`` are per seat for the whole table; ``seats`` are
    the seats of this side. A bid of 0 is nil; ``blind[s]`` marks a blind/double nil, or
    with a number the side's blind bid (R-BB-1, both partners carry it); ``zero[s]`` marks
    a bid of 0 made as zero, not nil (R-NV-4).
    """
    values = side_values(
        plan_for(rules),
        tuple(bids),
        tuple(blind),
        tuple(tricks),
        tuple(seats),
        score_before,
        bags_before,
        tuple(zero),
    )
    return side_result(values)


SideValues = tuple[int, int, int, int, int, int, int, int, int, int, bool, int, bool]


def side_result(values: SideValues) -> SideResult:
    """The SideResult of :func:`side_values`' fields."""
    # tuple.__new__ builds the named tuple without running its Python-level __new__.
    return tuple.__new__(SideResult, values)


def side_values(
    plan: Plan,
    bids: tuple[int, ...],
    blind: tuple[bool, ...],
    tricks: tuple[int, ...],
    seats: tuple[int, ...],
    score_before: int,
    bags_before: int,
    zero: tuple[bool, ...] = (),
) -> SideValues:
    """:func:`score_side` over the rules' :class:`Plan` and tuples, its fields as a plain
    tuple (the compiled engine reads only the score and the bags when a hand ends)."""
    contract = 0
    toward = 0  # tricks that count toward the contract
    extra = 0  # tricks that are bags whatever happens (failed nils under "bags")
    nil_points = 0
    side_tricks = 0
    blind_bid = 0
    for s in seats:
        t = tricks[s]
        side_tricks += t
        if is_nil_bid(bids[s], blind[s], plan.nil_enabled) and not (zero and zero[s]):
            value = plan.blind_nil_value if blind[s] else plan.nil_value
            if t == 0:
                nil_points += value
            else:
                nil_points -= value
                mode = plan.failed_tricks
                if mode == FAILED_PARTNER:
                    toward += t
                elif mode == FAILED_BAGS:
                    extra += t
        elif blind[s]:
            blind_bid = bids[s]  # R-BB-3: the side's one contract, carried by both partners
            toward += t
        else:
            contract += bids[s]
            toward += t
    contract_points = 0
    overtricks = extra
    made = True
    boston = False
    if blind_bid > 0:
        contract = blind_bid
        contract_points, made = blind_bid_score(plan, contract, toward)
        if made:
            overtricks += toward - contract
    elif contract > 0:
        contract_points, made, boston = contract_score(plan, contract, toward)
        if made:
            overtricks += toward - contract
    else:
        # R-4P-7: no contract (both partners nil); tricks counted as "partner" become bags.
        overtricks += toward
    counting = plan.bags_enabled
    bags = overtricks if counting else 0
    bag_points = bags * plan.bag_value if bags else 0
    bags_total = bags_before + bags
    penalty = 0
    if counting and plan.has_bag_limit:
        limit = plan.bag_limit
        while bags_total >= limit:
            penalty -= plan.bag_penalty
            bags_total -= limit
    points = contract_points + nil_points + bag_points + penalty
    return (
        contract,
        side_tricks,
        contract_points,
        nil_points,
        bags,
        bag_points,
        penalty,
        points,
        score_before + points,
        bags_total,
        made,
        toward,
        boston,
    )


def score_sides(
    plan: Plan,
    bids: tuple[int, ...],
    blind: tuple[bool, ...],
    tricks: tuple[int, ...],
    scores: tuple[int, ...],
    bags: tuple[int, ...],
    zero: tuple[bool, ...] = (),
) -> tuple[list[int], list[int], int]:
    """Every side's running score and bags after a hand (from ``scores`` and ``bags``
    before it), and the first side that made a Boston winning the game (-1: none);
    ``zero``: the seats that bid zero, not nil (R-NV-4; empty: none)."""
    out: list[int] = []
    after: list[int] = []
    boston = -1
    seats = plan.side_seats
    for side in range(len(seats)):
        v = side_values(plan, bids, blind, tricks, seats[side], scores[side], bags[side], zero)
        out.append(v[8])
        after.append(v[9])
        if v[12] and boston < 0:
            boston = side
    return out, after, boston


def split_deck(cards: list[int], n: int, deck: int, size: int) -> list[int] | None:
    """R-4P-3 / R-CT-1: the ``n`` hands of a deal of ``cards`` (top first, one at a time
    from the dealer's left; 2P: the first two of the pile's draws, unused) as masks, or None
    unless ``cards`` hold each card of ``deck`` (a mask of ``size`` cards) once."""
    if len(cards) != size:
        return None
    dealt: list[int] = []
    union: i64 = 0
    one: i64 = len(cards) - size + 1  # 1, but no literal: mypyc would shift a C int (_native.pyi)
    seats: i64 = n
    end: i64 = size
    j: i64 = 0
    while j < seats:  # machine words once compiled: no int object made per card
        m: i64 = 0
        i = j
        while i < end:
            c = cards[i]
            if not 0 <= c < NUM_CARDS:
                return None
            m |= one << c
            i += seats
        union |= m
        dealt.append(m)
        j += 1
    return dealt if union == deck else None


def contract_score(plan: Plan, contract: int, toward: int) -> tuple[int, bool, bool]:
    """A contract's points, whether it was made, and whether it was a Boston that wins the
    game: R-C-8 ten a trick, R-T-1 "10 for 200" (R-T-2 its set, R-T-3 exact or 10 and
    more), R-B-2 a bid of every trick (points either way, or the game)."""
    ten = plan.ten_for_two_hundred and (
        contract == TEN_FOR_TWO_HUNDRED_MIN or (contract > TEN_FOR_TWO_HUNDRED_MIN and not plan.ten_exact)
    )
    moon = plan.boston != 0 and contract >= plan.hand_size  # R-B-1: every trick bid
    if toward >= contract:
        if moon and plan.boston == BOSTON_POINTS:
            return plan.boston_value, True, False
        boston = moon and plan.boston == BOSTON_WIN
        return (TEN_FOR_TWO_HUNDRED_VALUE if ten else 10 * contract), True, boston
    if moon and plan.boston == BOSTON_POINTS:
        return -plan.boston_value, False, False  # R-B-2: the gamble either way
    if ten and plan.has_ten_set:
        return -plan.ten_set, False, False  # R-T-2
    return -10 * contract, False, False


def blind_bid_score(plan: Plan, contract: int, toward: int) -> tuple[int, bool]:
    """A blind bid's points and whether it was made: R-BB-1 double a contract's value made
    (at least the number; R-BB-3 ``exact``: exactly it), double lost failed (R-BB-3
    ``set_double`` off: single)."""
    made = toward == contract if plan.blind_exact else toward >= contract
    if made:
        return 20 * contract, True
    return -(20 if plan.blind_set_double else 10) * contract, False


def game_over(rules: Rules, scores: Sequence[int], hands: int = 0) -> bool:
    """R-C-11 and the house rules: has this score (each side's, after ``hands`` hands)
    ended the game?"""
    return plan_for(rules).game_over_all(list(scores), hands)
