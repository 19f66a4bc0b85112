"""Scoring one hand (R-C-8, R-C-9, R-C-10, R-2P-6, R-4P-6, R-4P-7) and deciding the game (R-C-11).

Pure functions over plain numbers so that tests and tools can recount a hand
independently of the engine's play loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

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
    contract = 0
    toward = 0  # tricks that count toward the contract
    extra = 0  # tricks that are bags whatever happens (failed nils under "bags")
    nil_points = 0
    side_tricks = 0
    for s in seats:
        t = tricks[s]
        side_tricks += t
        if bids[s] == 0 and (blind[s] or rules.nil.enabled):
            value = rules.blind_nil.value if blind[s] else rules.nil.value
            if t == 0:
                nil_points += value
            else:
                nil_points -= value
                mode = rules.nil.failed_tricks
                if mode == "partner":
                    toward += t
                elif mode == "bags":
                    extra += t
        else:
            contract += bids[s]
            toward += t
    contract_points = 0
    overtricks = extra
    made = True
    if contract > 0:
        if toward >= contract:
            if rules.ten_for_two_hundred and contract >= TEN_FOR_TWO_HUNDRED_MIN:
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
    bag_rules = rules.bags
    counting = bag_rules.enabled
    bags = overtricks if counting else 0
    bag_points = bags * bag_rules.value if bags else 0
    bags_total = bags_before + bags
    penalty = 0
    limit = bag_rules.limit
    if counting and limit is not None:
        while bags_total >= limit:
            penalty -= bag_rules.penalty
            bags_total -= limit
    points = contract_points + nil_points + bag_points + penalty
    return SideResult(
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
    )


def game_over(rules: Rules, scores: Sequence[int]) -> bool:
    """R-C-11 and the house rules: has this score ended the game?"""
    hi, lo = max(scores), min(scores)
    if hi == lo and hi >= rules.target:
        return False  # R-C-11: equal at the target: another hand is played
    if hi >= rules.target:
        return True
    if rules.losing_score is not None and lo <= rules.losing_score and hi != lo:
        return True
    return rules.mercy is not None and hi - lo >= rules.mercy
