"""The declarations made before looking at the cards: blind / double nil (R-2P-3, R-H-12)
and blind numeric bids (R-BB-1 .. R-BB-3), for the state's ``DECLARE`` phase.

A blind bid is the side's whole contract (R-BB-3: one partner bids for the side before
either looks): the declaring seat and its partner both carry the number, marked blind, and
neither bids again. A blind nil stays the declaring seat's own (R-NV-2)."""

from __future__ import annotations

from typing import Final

from spades_cli.engine.actions import BLIND, NO_BLIND, blind_bid_of
from spades_cli.engine.plan import Plan

# The declarations' action bits, made once (past bit 62 each is a big int to build).
NO_BLIND_MASK: Final = 1 << NO_BLIND
BLIND_MASK: Final = 1 << BLIND


def behind_enough(scores: list[int], side: int, by: int | None) -> bool:
    """R-BB-1 / R-BB-2 / R-H-14: is ``side`` behind the best other side by ``by`` points or
    more (always, when ``by`` is None)?"""
    if by is None:
        return True
    return max(v for s, v in enumerate(scores) if s != side) - scores[side] >= by


def declare_mask(plan: Plan, seat: int, scores: list[int], bids: list[int], blind: list[bool]) -> int:
    """The legal declarations of ``seat`` as an action mask: 0 when it has nothing to
    declare (its side's blind bid is made); else ``NO_BLIND``, and ``BLIND`` and the blind
    bids where the rules and the score allow them. A seat whose partner declared a blind
    nil bids no blind number (the side would have two contracts)."""
    if bids[seat] >= 0:
        return 0
    side = plan.side_of[seat]
    m = NO_BLIND_MASK
    if plan.blind_nil and behind_enough(scores, side, plan.blind_nil_behind):
        m |= BLIND_MASK
    if plan.blind_bid and behind_enough(scores, side, plan.blind_bid_behind):
        partner = plan.partner[seat]
        if partner < 0 or not blind[partner]:
            m |= plan.blind_bid_mask
    return m


def declare(plan: Plan, seat: int, action: int, bids: list[int], blind: list[bool]) -> None:
    """Record ``seat``'s declaration: a blind nil is its bid of 0; a blind bid is the bid of
    the seat and of its partner (see the module doc); ``NO_BLIND`` changes nothing."""
    if action == BLIND:
        blind[seat] = True
        bids[seat] = 0
        return
    n = blind_bid_of(action)
    if n:
        partner = plan.partner[seat]
        for s in (seat, partner) if partner >= 0 else (seat,):
            blind[s] = True
            bids[s] = n
