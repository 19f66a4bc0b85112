"""The check that sampled hands fit a seat's observation (for State.from_observation).

The legal bids themselves are worked out once per Rules in :mod:`spades_cli.engine.plan`."""

from __future__ import annotations

from spades_cli.engine.actions import ZERO
from spades_cli.engine.observation import Observation
from spades_cli.engine.plan import MODE_FREE, Plan


def zero_mask(plan: Plan, bits: int, spades: int) -> int:
    """R-NV-4: the ``ZERO`` action's bit when a zero is offered and allowed wherever a nil
    would be (``bits``: the legal bids, bit 0 for a bid of 0); under Mirror or Whiz only
    to a seat holding no spade-suit card (``spades``), whose bid is then 0 either way."""
    if not plan.zero_bid or not bits & 1 or (plan.bid_mode != MODE_FREE and spades):
        return 0
    return 1 << ZERO


def check_hands(
    obs: Observation, hands: list[int], plays: list[int], deck: int, hand_size: int = 13, left: int = 0
) -> None:
    """ValueError unless ``hands`` fit the observation (see State.from_observation);
    ``deck`` is the mask of the rules' deck, ``hand_size`` the cards each seat is dealt,
    ``left`` the cards laid aside out of play (R-J-6: the observer's own among them)."""
    n = obs.players
    if len(hands) != n:
        raise ValueError(f"hidden_hands must give {n} hands")
    own = 0
    for c in obs.hand:
        own |= 1 << c
    if hands[obs.seat] != own:
        raise ValueError("hidden_hands must give the observing seat its own hand")
    seen = 0
    held = [hand_size] * n
    for i in range(len(plays)):
        seen |= 1 << plays[i]
    for t in obs.tricks:
        for i in range(len(t.cards)):
            held[(t.leader + i) % n] -= 1
    for i in range(len(obs.current_trick)):
        held[(obs.leader + i) % n] -= 1
    for s in range(n):
        h = hands[s]
        if h & seen or h.bit_count() != held[s] or h & ~deck:
            raise ValueError(f"hidden_hands gives seat {s} cards that do not fit what was played")
        seen |= h
    out = deck & ~seen
    if n != 2 and (out.bit_count() != left or any(not out >> c & 1 for c in obs.own_discards)):
        raise ValueError("hidden_hands and the cards played must make up the deck")
