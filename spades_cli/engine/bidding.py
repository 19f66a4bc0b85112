"""Legal bids (R-C-7, R-4P-4, R-2P-4 and the bidding options) as action masks, and the
check that sampled hands fit a seat's observation (for State.from_observation)."""

from __future__ import annotations

from typing import Final

from spades_cli.engine.actions import BID_BASE
from spades_cli.engine.cards import FULL_DECK
from spades_cli.engine.observation import Observation
from spades_cli.engine.rules import Rules

_BID_MASK_CACHE: Final[dict[int, tuple[Rules, dict[int, int]]]] = {}


def bid_masks(rules: Rules) -> dict[int, int]:
    """Legal bid masks for these rules, cached by identity (hashing Rules is slow)."""
    hit = _BID_MASK_CACHE.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    masks = _compute_bid_masks(rules)
    if len(_BID_MASK_CACHE) > 256:
        _BID_MASK_CACHE.clear()
    _BID_MASK_CACHE[id(rules)] = (rules, masks)
    return masks


def _compute_bid_masks(rules: Rules) -> dict[int, int]:
    """Legal bid masks keyed by the partner's bid (-1: partner has not bid / no partner)."""
    bidding = rules.bidding
    options = [b for b in range(bidding.min_bid, 14)]
    if rules.nil.enabled and 0 not in options:
        options.insert(0, 0)
    nil_on = rules.nil.enabled

    def contract(b: int) -> int:
        return 0 if (b == 0 and nil_on) else b

    def ok(b: int, partner: int) -> bool:
        if rules.players == 2:
            return True
        if bidding.team_max is not None and b + partner > bidding.team_max:
            return False
        return contract(b) + contract(partner) >= bidding.team_min

    def to_mask(bids: list[int]) -> int:
        m = 0
        for b in bids:
            m |= 1 << (BID_BASE + b)
        return m

    masks = {-1: to_mask([b for b in options if any(ok(b, p) for p in options)])}
    if masks[-1] == 0:
        raise ValueError("these bidding rules leave a seat no legal bid")
    for p in range(14):
        allowed = [b for b in options if ok(b, p)]
        masks[p] = to_mask(allowed) if allowed else to_mask(options[:1])
    return masks


def check_hands(obs: Observation, hands: list[int], plays: list[int]) -> None:
    """ValueError unless ``hands`` fit the observation (see State.from_observation)."""
    n = obs.players
    if len(hands) != n:
        raise ValueError(f"hidden_hands must give {n} hands")
    own = 0
    for c in obs.hand:
        own |= 1 << c
    if hands[obs.seat] != own:
        raise ValueError("hidden_hands must give the observing seat its own hand")
    seen = 0
    held = [13] * n
    for i in range(len(plays)):
        seen |= 1 << plays[i]
    for t in obs.tricks:
        for i in range(len(t.cards)):
            held[(t.leader + i) % n] -= 1
    for i in range(len(obs.current_trick)):
        held[(obs.leader + i) % n] -= 1
    for s in range(n):
        h = hands[s]
        if h & seen or h.bit_count() != held[s] or h >> 52:
            raise ValueError(f"hidden_hands gives seat {s} cards that do not fit what was played")
        seen |= h
    if n == 4 and seen != FULL_DECK:
        raise ValueError("hidden_hands and the cards played must make up the deck")
