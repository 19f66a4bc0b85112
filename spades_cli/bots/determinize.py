"""Sampling the hidden cards: deals consistent with everything one seat has seen.

A *world* gives every other seat a hand that agrees with this seat's observation:
its own hand, the cards played, the voids shown (a seat that did not follow a suit
holds none of it), the number of cards each seat still holds, and in the two-player
game the cards this seat kept and discarded in the draft (its own discards are never
in the opponent's hand, except that an opponent who exchanged may have drawn some).
Worlds are weighted by how well they explain the bids already made (a seat that bid
five is unlikely to hold a hand of twos; two players: by the model of a drafted hand,
``hand.two_tricks``) and, in the draft game, by the cards a
drafter tends to keep.

:func:`build_state` turns an observation plus a world into an engine ``State`` (through
``State.from_observation``, so the engine decides who leads and who wins a trick), and
searches use the engine's fast ``clone`` / ``legal_mask`` / ``apply``.

The sampling functions are used by other search bots: ``sample_worlds(view, rng, count)``
returns a list of worlds, each a list of hand masks per seat (this seat's own entry is its
hand), ready for ``State.from_observation(obs, world, rules)``.
"""

from __future__ import annotations

import math
import random

from spades_cli.bots.hand import estimate_tricks, nil_danger, two_tricks
from spades_cli.bots.view import TableView
from spades_cli.engine import Observation, Rules, State
from spades_cli.engine.cards import SPADES
from spades_cli.engine.plan import plan_for

# Self-play of the normal bot: how much likelier a drafted hand is to hold a card of
# each rank (two .. ace) than an unseen card chosen at random (2P draft).
_DRAFT_ODDS_SIDE = (0.55, 0.55, 0.6, 0.65, 0.7, 0.75, 0.85, 0.95, 1.1, 1.4, 1.8, 2.4, 3.0)
_DRAFT_ODDS_SPADE = (1.0, 1.05, 1.1, 1.15, 1.25, 1.35, 1.5, 1.7, 1.9, 2.2, 2.6, 3.0, 3.5)
_DRAFT_WEIGHT = tuple(
    _DRAFT_ODDS_SIDE[c % 13] if c // 13 != SPADES else _DRAFT_ODDS_SPADE[c % 13] for c in range(52)
)

_BID_FIT = {2: (1.3, 0.87, 2.0), 4: (0.75, 0.855, 1.1)}  # mean = a + b * estimate, spread
# Two players (R-2P-4): a number bid is the drafted hand's ``hand.two_tricks`` (its own
# discards are the unseen cards it does not hold; bidding second, it has the first bid)
# less TWO_BID_SHORT, spread TWO_BID_SPREAD. Measured on transcripts of the normal bot,
# the Trickster bot and bench/classic.py (bench/README.md): they bid 0.8-1.5 under it,
# spread 0.5-1.05; a world that misreads the bid by a trick is still weighted 0.7.
TWO_BID_SHORT = 1.2
TWO_BID_SPREAD = 1.2


def cards_held(obs: Observation, hand_size: int = 13) -> list[int]:
    """How many cards each seat still holds (``hand_size``: the cards dealt a seat,
    ``rules.hand_size``)."""
    n = obs.players
    held = [hand_size] * n
    for t in obs.tricks:
        for i in range(len(t.cards)):
            held[(t.leader + i) % n] -= 1
    for i in range(len(obs.current_trick)):
        held[(obs.leader + i) % n] -= 1
    return held


def played_by(obs: Observation) -> list[int]:
    """Masks of the cards each seat has played this hand."""
    n = obs.players
    out = [0] * n
    for t in obs.tricks:
        for i, c in enumerate(t.cards):
            out[(t.leader + i) % n] |= 1 << c
    for i, c in enumerate(obs.current_trick):
        out[(obs.leader + i) % n] |= 1 << c
    return out


def _weighted_order(cards: list[int], weights: tuple[float, ...] | None, rng: random.Random) -> list[int]:
    """The cards in a random order; with weights, heavier cards tend to come first
    (Efraimidis-Spirakis keys), so taking a prefix is a weighted draw without replacement."""
    if weights is None:
        out = cards[:]
        rng.shuffle(out)
        return out
    keyed = [(rng.random() ** (1.0 / weights[c]), c) for c in cards]
    keyed.sort(reverse=True)
    return [c for _, c in keyed]


def sample_hands(view: TableView, rng: random.Random, *, draft_weights: bool = True) -> list[int] | None:
    """One assignment of the unknown cards to the other seats (hand masks per seat;
    this seat's own entry is its hand). None if the sampler got stuck (retry)."""
    obs = view.obs
    n = view.n
    me = view.seat
    held = cards_held(obs, view.rules.hand_size)
    suit = plan_for(view.rules).order.suit  # the suit a card follows as (a joker: a spade)
    hands = [0] * n
    hands[me] = view.hand
    others = [s for s in range(n) if s != me]
    pool = view.unknown
    if n == 2:
        opp = others[0]
        pool_cards = _bits(pool)
        weights = _DRAFT_WEIGHT if draft_weights else None
        void = view.voids[opp]
        allowed = [c for c in pool_cards if not void >> suit[c] & 1]
        order = _weighted_order(allowed, weights, rng)
        need = held[opp]
        extra = _bits(view.maybe_drawn)
        if extra and obs.exchanged[opp]:
            # An exchanging opponent may have drawn our discards: allow a few of them.
            extra = [c for c in extra if not void >> suit[c] & 1]
            rng.shuffle(extra)
            k = min(len(extra), obs.exchanged[opp], rng.randint(0, obs.exchanged[opp]))
            order = extra[:k] + order
        if len(order) < need:
            return None
        m = 0
        for c in order[:need]:
            m |= 1 << c
        hands[opp] = m
        return hands
    # Three or four players: deal the shuffled unknown cards to the three seats, then repair any
    # card dealt to a seat that has shown it lacks that suit by swapping it with a card
    # of another seat that may hold it (and whose own card fits the first seat).
    cards = _bits(pool)
    rng.shuffle(cards)
    dealt: dict[int, list[int]] = {}
    pos = 0
    for s in others:
        dealt[s] = cards[pos : pos + held[s]]
        pos += held[s]
    # R-J-6: the cards another seat laid aside are unknown and out of play: the last ones.
    if pos != len(cards) - (view.rules.deck.discard - len(obs.own_discards)):
        return None
    voids = view.voids
    if any(voids[s] for s in others):
        for s in others:
            vs = voids[s]
            if not vs:
                continue
            mine = dealt[s]
            for i, c in enumerate(mine):
                if not vs >> suit[c] & 1:
                    continue
                swapped = False
                order = [t for t in others if t != s and not voids[t] >> suit[c] & 1]
                rng.shuffle(order)
                for t in order:
                    theirs = dealt[t]
                    fits = [j for j, d in enumerate(theirs) if not vs >> suit[d] & 1]
                    if fits:
                        j = fits[rng.randrange(len(fits))]
                        mine[i], theirs[j] = theirs[j], c
                        swapped = True
                        break
                if not swapped:
                    return None
    for s in others:
        m = 0
        for c in dealt[s]:
            m |= 1 << c
        hands[s] = m
    return hands


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def bid_weight(view: TableView, hands: list[int], played: list[int]) -> float:
    """How well a world explains the bids of the other seats (1 = perfectly)."""
    obs = view.obs
    a, b, sd = _BID_FIT.get(view.n, _BID_FIT[4])  # (three seats: the four-seat fit)
    w = 1.0
    for s in range(view.n):
        if s == view.seat:
            continue
        bid = obs.bids[s]
        if bid is None:
            continue
        full = hands[s] | played[s]
        if obs.declared[s]:
            continue  # a blind bid says nothing about the cards
        if view.is_nil(s):
            d = nil_danger(full)
            w *= math.exp(-0.5 * max(0.0, d - 1.5) ** 2)
            continue
        if view.n == 2:
            w *= _two_bid_weight(view, hands[s], full, s, bid)
            continue
        mu = a + b * estimate_tricks(full, view.n)
        w *= math.exp(-0.5 * ((mu - bid) / (sd * 1.3)) ** 2)
    return w


def _two_bid_weight(view: TableView, held: int, full: int, seat: int, bid: int) -> float:
    """R-2P-4: how well the drafted hand ``full`` of ``seat`` (``held``: its cards not yet
    played) explains its number ``bid``."""
    obs = view.obs
    first = (obs.dealer + 1) % 2  # the second player bids first (R-2P-4)
    before = obs.bids[first] if seat != first else None
    mu = opponent_tricks(view, held, full, before) - TWO_BID_SHORT
    return math.exp(-0.5 * ((mu - bid) / TWO_BID_SPREAD) ** 2)


def opponent_tricks(view: TableView, held: int, full: int, before: int | None) -> float:
    """R-2P-2, R-2P-4: ``hand.two_tricks`` of the opponent's drafted hand ``full`` in a
    sampled deal (``held``: its cards not yet played), bidding after ``before`` (None: it
    bids first). Its draft's discards are the unseen cards it does not hold."""
    return two_tricks(full, view.unknown & ~held, before)


def sample_worlds(view: TableView, rng: random.Random, count: int, *, tries: int = 4) -> list[list[int]]:
    """``count`` worlds, favouring those that explain the bids (weighted resampling)."""
    played = played_by(view.obs)
    use_bids = any(b is not None for s, b in enumerate(view.obs.bids) if s != view.seat)
    want = count * (tries if use_bids else 1)
    cands: list[list[int]] = []
    weights: list[float] = []
    attempts = 0
    while len(cands) < want and attempts < want * 4:
        attempts += 1
        hands = sample_hands(view, rng)
        if hands is None:
            continue
        cands.append(hands)
        weights.append(bid_weight(view, hands, played) if use_bids else 1.0)
    if not cands:
        return []
    if not use_bids:
        return cands[:count]
    # Systematic resampling: low variance, deterministic given the generator.
    total = sum(weights)
    if total <= 0:
        return cands[:count]
    step = total / count
    u = rng.random() * step
    out = []
    acc = 0.0
    i = 0
    for k in range(count):
        target = u + k * step
        while i < len(cands) - 1 and acc + weights[i] < target:
            acc += weights[i]
            i += 1
        out.append(cands[i])
    return out


def build_state(obs: Observation, rules: Rules, hands: list[int], bids: list[int] | None = None) -> State:
    """An engine State for this observation with the given hands (see
    ``State.from_observation``): mid-play, or with ``bids`` (every seat's bid, the ones
    not made yet filled in by the caller) at the first lead."""
    return State.from_observation(obs, hands, rules, bids)
