"""The expert bot's second look at a four-player nil (the bid the hard bot chose).

A failed nil costs the side about two hundred points against the bid it replaced, and
the hard bot's simulation overrates nils: its rollouts play every hand with every card
known and are careless in the last tricks, where a nil is often lost. So when the hard
bot would bid nil, the expert plays the hand out again over more sampled deals, with the
bid the hard bot would make without nil beside it, each deal played by the rollout
policy until ``TAIL`` tricks are left and by the double-dummy solver after that, both
valued by the chance of winning the game (``rollout.game_utility``). Nil is given up
when the other bid beats it in those deals by more than their noise (a nil that only
fails to beat it clearly stays: the expert makes more of its nils than these deals
foretell, since it solves the last tricks of the hand it plays).

The work is a fixed number of sampled deals, each solve within a node budget; the
generator is the one the bot was given, so the choice depends only on the observation.
"""

from __future__ import annotations

import dataclasses
import random
import statistics
from collections.abc import Callable

from spades_cli.bots import normal
from spades_cli.bots.determinize import build_state, sample_worlds
from spades_cli.bots.hand import estimate_tricks
from spades_cli.bots.hard import pick
from spades_cli.bots.view import bid_of, read_table
from spades_cli.engine import Observation, Rules, State

NIL_WORLDS = 96  # sampled deals for the second look
TAIL = 4  # tricks left when the solver takes over from the rollout policy

# The solver's value of a finished deal: given a state and the deciding side, the
# game utility of the hand played on from there (``expert.finish_deal``); None when
# the decision's budget of work has run out.
Finish = Callable[[State, int], float | None]


def nil_holds(
    obs: Observation, rules: Rules, rng: random.Random, other: int, finish: Finish, worlds: int = NIL_WORLDS
) -> tuple[bool, str]:
    """Whether nil holds against the bid ``other`` over ``worlds`` sampled deals played
    out (those finished before the work ran out): False when ``other`` is clearly better."""
    view = read_table(obs, rules)
    deals = sample_worlds(view, rng, worlds)
    if not deals:
        return True, "no deal fits what it has seen"
    seat = view.seat
    values: dict[int, list[float]] = {0: [], other: []}
    for hands in deals:
        bids = fill_bids(obs, rules, hands)
        row = []
        for bid in (0, other):
            bids[seat] = bid
            row.append(finish(build_state(obs, rules, hands, bids), view.side))
        a, b = row
        if a is None or b is None:
            break  # the work ran out: the deals finished before decide
        values[0].append(a)
        values[other].append(b)
    done = len(values[0])
    if not done:
        return True, "no deal finished within the budget"
    keep = pick(values, 0) == 0
    gain = statistics.fmean(values[0]) - statistics.fmean(values[other])
    return keep, f"{gain:+.1f} against bidding {other} over {done} deals played out"


def fill_bids(obs: Observation, rules: Rules, hands: list[int]) -> list[int]:
    """Every seat's bid in one sampled deal: the bids made, and for the seats still to
    bid the first-guess count of their hand (never nil: the second look compares this
    seat's nil with its bid, not the others' nils)."""
    a, b, _ = normal.FIT_FIRST[obs.players]
    low = max(1, rules.bidding.min_bid)
    out = []
    for s, made in enumerate(obs.bids):
        if made is None:
            made = max(low, min(13, round(a + b * estimate_tricks(hands[s], obs.players))))
        out.append(made)
    return out


def without_nil(obs: Observation) -> Observation:
    """The observation with nil taken out of the legal bids (what the seat would bid
    if nil were not an option)."""
    return dataclasses.replace(obs, legal=tuple(a for a in obs.legal if bid_of(a) != 0))


__all__ = ["NIL_WORLDS", "TAIL", "fill_bids", "nil_holds", "without_nil"]
