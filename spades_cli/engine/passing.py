"""The blind-nil partner exchange (R-BN-4, ``blind_nil.pass_cards``), for the state's
``PASS`` phase.

After the bidding, each seat that bid blind nil passes ``pass_cards`` cards face down to its
partner, one action per card; the partner takes them into its hand (it sees them) and then
passes as many back, one at a time (R-BN-4: sequential, not simultaneous). A side whose two
partners both bid nil passes nothing (R-BN-5, [S39]). Sides pass in bidding order.
"""

from __future__ import annotations

from collections.abc import Sequence

from spades_cli.engine.plan import Plan, plan_for
from spades_cli.engine.rules import Rules


def pass_queue(
    rules: Rules,
    order: Sequence[int],
    bids: Sequence[int],
    blind: Sequence[bool],
    zero: Sequence[bool],
) -> list[int]:
    """R-BN-4: the seat that passes each card of the exchange, in order (empty: none).
    ``order`` is the bidding order; a blind nil is a blind bid of 0."""
    k, plan = rules.blind_nil.pass_cards, plan_for(rules)
    out: list[int] = []
    if k <= 0:
        return out
    for seat in order:
        partner = plan.partner[seat]
        if partner < 0 or not blind[seat] or bids[seat] != 0:
            continue
        if rules.is_nil(bids[partner], blind[partner], zero[partner]):
            continue  # both partners nil: no exchange (R-BN-5)
        out += [seat] * k + [partner] * k
    return out


def sees_pass(rules: Rules, passer: int, seat: int) -> bool:
    """R-BN-4: whether ``seat`` sees the card ``passer`` passes face down (the two
    partners do, the opponents do not)."""
    return seat == passer or seat == plan_for(rules).partner[passer]


def receiver(plan: Plan, seat: int) -> int:
    """R-BN-4: the seat that receives the card ``seat`` passes (its partner)."""
    return plan.partner[seat]
