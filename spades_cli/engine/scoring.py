"""Scoring one hand (R-C-8, R-C-9, R-C-10, R-2P-6, R-4P-6, R-4P-7) and deciding the game (R-C-11).

Pure functions over plain numbers so that tests and tools can recount a hand
independently of the engine's play loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from spades_cli.engine.actions import is_nil_bid
from spades_cli.engine.plan import FAILED_BAGS, FAILED_PARTNER, Plan, plan_for
from spades_cli.engine.rules import TEN_FOR_TWO_HUNDRED_MIN, TEN_FOR_TWO_HUNDRED_VALUE, Rules


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


def score_side(
    rules: Rules,
    bids: Sequence[int],
    blind: Sequence[bool],
    tricks: Sequence[int],
    seats: Sequence[int],
    score_before: int,
    bags_before: int,
) -> SideResult:
    """Score one side for one hand.

    ``bids``, ``blind`` and ``tricks`` are per seat for the whole table; ``seats`` are
    the seats of this side. A bid of 0 is nil; ``blind[s]`` marks a blind/double nil.
    """
    values = side_values(
        plan_for(rules), tuple(bids), tuple(blind), tuple(tricks), tuple(seats), score_before, bags_before
    )
    return side_result(values)


SideValues = tuple[int, int, int, int, int, int, int, int, int, int, bool, int]


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
) -> SideValues:
    """:func:`score_side` over the rules' :class:`Plan` and tuples, its fields as a plain
    tuple (the compiled engine reads only the score and the bags when a hand ends)."""
    contract = 0
    toward = 0  # tricks that count toward the contract
    extra = 0  # tricks that are bags whatever happens (failed nils under "bags")
    nil_points = 0
    side_tricks = 0
    for s in seats:
        t = tricks[s]
        side_tricks += t
        if is_nil_bid(bids[s], blind[s], plan.nil_enabled):
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
        else:
            contract += bids[s]
            toward += t
    contract_points = 0
    overtricks = extra
    made = True
    if contract > 0:
        if toward >= contract:
            if plan.ten_for_two_hundred and contract >= TEN_FOR_TWO_HUNDRED_MIN:
                contract_points = TEN_FOR_TWO_HUNDRED_VALUE
            else:
                contract_points = 10 * contract
            overtricks += toward - contract
        else:
            made = False
            contract_points = -10 * contract
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
    )


def game_over(rules: Rules, scores: Sequence[int]) -> bool:
    """R-C-11 and the house rules: has this score (the two sides') ended the game?"""
    return plan_for(rules).game_over(scores[0], scores[1])
