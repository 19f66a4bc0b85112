"""A state rebuilt from a seat's observation (for State.from_observation), and the check
that sampled hands fit it; the zero bid's action.

The legal bids themselves are worked out once per Rules in :mod:`spades_cli.engine.plan`.
The rebuild's values are worked out here, out of ``state.py`` (:class:`World`)."""

from __future__ import annotations

from typing import final

from spades_cli.engine.actions import ZERO
from spades_cli.engine.cards import mask_of
from spades_cli.engine.ledger import Ledger
from spades_cli.engine.observation import WINNER_BITS, Observation, zero_at
from spades_cli.engine.phases import Phase
from spades_cli.engine.plan import MODE_FREE, Plan
from spades_cli.engine.play import trick_winner


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


@final
class World:
    """The values of a state rebuilt from a seat's observation ``obs`` and every seat's
    hand (``hands``, masks), checked to fit (ValueError), for State.from_observation to
    take: the ledger, bids and zero bids; in play, the hand's cards so far (``history``,
    the trick in progress from ``trick_at``), the trick winners packed WINNER_BITS a trick,
    the first leader, the last finished trick and the trick in progress's winning card."""

    def __init__(self, obs: Observation, plan: Plan, hands: list[int]) -> None:
        if obs.phase != Phase.BID and obs.phase != Phase.PLAY:
            raise ValueError(f"a state is built from an observation of bidding or play, not {obs.phase}")
        plays = [c for t in obs.tricks for c in t.cards] + list(obs.current_trick)
        check_hands(obs, hands, plays, plan.deck_mask, plan.hand_size, plan.left_over)
        n, tricks, trick = obs.players, obs.tricks, obs.current_trick
        self.ledger = Ledger(plan, n, list(obs.results))
        self.bids = [-1 if b is None else b for b in obs.bids]
        self.zero = [zero_at(obs.zero, s) for s in range(n)]
        self.own_discards = [mask_of(obs.own_discards) if s == obs.seat else 0 for s in range(n)]
        self.history = plays if obs.phase == Phase.PLAY else []
        self.trick_at = len(plays) - len(trick)
        self.winners = sum(t.winner << i * WINNER_BITS for i, t in enumerate(tricks))
        self.first_leader = tricks[0].leader if tricks else obs.leader
        self.last_at, self.last_leader, self.last_winner = 0, -1, -1
        if tricks:
            self.last_at = self.trick_at - len(tricks[-1].cards)
            self.last_leader, self.last_winner = tricks[-1].leader, tricks[-1].winner
        self.win_card = self.win_seat = -1
        self.led = self.beaters = 0
        if trick:
            at = trick_winner(trick, plan.order)
            self.win_card, self.win_seat = trick[at], (obs.leader + at) % n
            self.led, self.beaters = plan.suit_mask[trick[0]], plan.beaten_by[self.win_card]
