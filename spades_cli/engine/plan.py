"""The options of one :class:`Rules` read once into plain fields, for the hot paths.

``Rules`` is a tree of frozen dataclasses that stays interpreted (the presets loader reads
its type hints), so every ``rules.play.spades_break`` from compiled code is a Python
attribute lookup. The engine reads the same options from a :class:`Plan` instead: one
per ``Rules`` object, cached by identity, holding exactly the values of the tree.
"""

from __future__ import annotations

from typing import Final, final

from spades_cli.engine.actions import BID_BASE, MAX_BID, blind_bid_action
from spades_cli.engine.play import (
    CardOrder,
    Restriction,
    card_order,
    deck_cards,
    keep_table,
    restrictions,
    rows_by_situation,
)
from spades_cli.engine.rules import Rules, blind_bid_range, lowest_club

# How the bid is fixed by the spades held (``bidding.mode``, R-M-1 / R-W-1).
MODE_FREE: Final = 0
MODE_MIRROR: Final = 1
MODE_WHIZ: Final = 2
_MODES: Final = {"free": MODE_FREE, "mirror": MODE_MIRROR, "whiz": MODE_WHIZ}
# Boston (``boston.mode``, R-B-2).
BOSTON_OFF: Final = 0
BOSTON_WIN: Final = 1
BOSTON_POINTS: Final = 2
_BOSTON: Final = {"off": BOSTON_OFF, "win": BOSTON_WIN, "points": BOSTON_POINTS}

# How a failed nil bidder's tricks count (``nil.failed_tricks``).
FAILED_NONE: Final = 0
FAILED_PARTNER: Final = 1
FAILED_BAGS: Final = 2
_FAILED: Final = {"none": FAILED_NONE, "partner": FAILED_PARTNER, "bags": FAILED_BAGS}


@final
class Plan:
    """The rule options the engine reads while playing and scoring (see the module doc)."""

    def __init__(self, rules: Rules) -> None:
        play = rules.play
        self.spades_break: bool = play.spades_break
        self.two_of_clubs_leads: bool = play.two_of_clubs_leads
        self.lead_club: int = lowest_club(rules)  # R-H-21 / R-CT-6: the club that leads
        self.break_any: bool = play.breaking == "played"  # R-L-2 (else: only trumping)
        # The deck (engine/play.py), as a mask for State.deal's check.
        deck = deck_cards(rules)
        self.deck_cards: tuple[int, ...] = deck
        self.deck_size: int = len(deck)
        self.deck_mask: int = sum(1 << c for c in deck)
        self.hand_size: int = rules.hand_size  # R-CT-1 / R-J-2: cards dealt a seat, tricks a hand
        # The seats and sides (R-4P-1, R-CT-1, R-I-1): each side's seats, each seat's partner (-1: none).
        self.players: int = rules.players
        self.sides: int = rules.sides
        self.side_seats: tuple[tuple[int, ...], ...] = tuple(rules.side_seats(s) for s in range(rules.sides))
        self.partner: tuple[int, ...] = tuple(
            (s + 2) % 4 if rules.partnerships else -1 for s in range(rules.players)
        )
        self.follow_first: bool = not play.lowest_club_first_trick  # R-F-3 alone stops R-C-3's shortcut
        # The order of the cards in a trick (engine/play.py), and its masks for State.apply.
        order = card_order(rules)
        self.order: CardOrder = order
        self.beaten_by: tuple[int, ...] = order.beaten_by
        self.suit_mask: tuple[int, ...] = order.suit_mask
        self.trump: int = order.trump
        # The restrictions of legal play by situation (engine/play.py), and their keeps.
        rows = restrictions(play, order, self.deck_mask, self.lead_club)
        self.card_rows: tuple[tuple[Restriction, ...], ...] = rows_by_situation(rows)
        self.card_keeps: tuple[tuple[int, ...], ...] = keep_table(rows)
        self._read_declarations(rules)
        self.nil_enabled: bool = rules.nil.enabled
        self.nil_value: int = rules.nil.value
        self.failed_tricks: int = _FAILED.get(rules.nil.failed_tricks, FAILED_NONE)
        self.ten_for_two_hundred: bool = rules.ten_for_two_hundred
        self.ten_exact: bool = rules.ten_for_two_hundred_exact  # R-T-3; R-T-2 below
        self.has_ten_set, self.ten_set = (
            rules.ten_for_two_hundred_set is not None,
            rules.ten_for_two_hundred_set or 0,
        )
        self.boston: int = _BOSTON[rules.boston.mode]
        self.boston_value: int = rules.boston.value
        self.has_hand_limit, self.hand_limit = rules.hand_limit is not None, rules.hand_limit or 0
        self.bid_mode: int = _MODES[rules.bidding.mode]  # R-M-1 / R-W-1: bids fixed by the spades held
        bags = rules.bags
        self.bags_enabled: bool = bags.enabled
        self.bag_value: int = bags.value
        self.has_bag_limit: bool = bags.limit is not None
        self.bag_limit: int = bags.limit if bags.limit is not None else 0
        self.bag_penalty: int = bags.penalty
        self.target: int = rules.target
        self.has_losing_score: bool = rules.losing_score is not None
        self.losing_score: int = rules.losing_score if rules.losing_score is not None else 0
        self.has_mercy: bool = rules.mercy is not None
        self.mercy: int = rules.mercy if rules.mercy is not None else 0
        # A new hand's per-seat lists are copies of these (a slice is cheaper than a display).
        n = rules.players
        self.zeros: list[int] = [0] * n
        self.no_bids: list[int] = [-1] * n
        self.falses: list[bool] = [False] * n
        self.trues: list[bool] = [True] * n
        # The seats in bidding order (from the dealer's left) for each dealer.
        self.bid_orders: list[tuple[int, ...]] = [tuple((d + 1 + i) % n for i in range(n)) for d in range(n)]
        # Legal bids (R-C-7, R-4P-4, R-2P-4 and the bidding options) as action masks.
        self.bid_masks: dict[int, int] = _compute_bid_masks(rules)
        # The same as tuples of actions, for State.legal_actions to share.
        bids = range(BID_BASE, BID_BASE + MAX_BID + 1)
        self.bid_actions: dict[int, tuple[int, ...]] = {
            key: tuple([a for a in bids if mask >> a & 1]) for key, mask in self.bid_masks.items()
        }
        # Both again as lists indexed by the partner's bid + 1 (-1, none yet, first).
        self.bid_mask_rows: list[int] = [self.bid_masks[p] for p in range(-1, MAX_BID + 1)]
        self.bid_action_rows: list[tuple[int, ...]] = [self.bid_actions[p] for p in range(-1, MAX_BID + 1)]
        # The masks shifted down so that bit 0 is a bid of 0 (small ints: State.apply's check).
        self.bid_bit_rows: list[int] = [m >> BID_BASE for m in self.bid_mask_rows]

    # The declarations before looking (set by _read_declarations).
    blind_nil: bool
    blind_nil_value: int
    blind_nil_behind: int | None
    pass_cards: int
    left_over: int
    blind_bid: bool
    blind_bid_behind: int | None
    blind_bid_mask: int
    blind_exact: bool
    blind_set_double: bool
    declaring: bool
    side_of: tuple[int, ...]
    zero_bid: bool  # R-NV-4: a zero that is not nil is offered beside nil

    def _read_declarations(self, rules: Rules) -> None:
        """Blind nil (R-H-12) and blind numeric bids (R-BB-1 .. R-BB-3): who may declare,
        the mask of the blind-bid actions, and how a blind bid scores; the zero bid (R-NV-4)."""
        self.blind_nil = rules.blind_nil.enabled
        self.blind_nil_value = rules.blind_nil.value
        self.blind_nil_behind = rules.blind_nil.behind_by
        self.pass_cards = rules.blind_nil.pass_cards  # R-BN-4: the cards a blind nil passes
        self.left_over = rules.deck.discard  # R-J-6: the cards left over after the deal
        bb = rules.blind_bid
        self.blind_bid = bb.enabled
        self.blind_bid_behind = bb.behind_by
        lo, hi = blind_bid_range(rules) if bb.enabled else (1, 0)
        self.blind_bid_mask = sum(1 << blind_bid_action(n) for n in range(lo, hi + 1))
        self.blind_exact = bb.exact
        self.blind_set_double = bb.set_double
        self.declaring = self.blind_nil or self.blind_bid  # a DECLARE phase (4P, 3P)
        self.side_of = tuple(rules.side_of(s) for s in range(rules.players))
        self.zero_bid = rules.nil.zero  # (read here, beside the blind bids: __init__ is full)

    def game_over(self, a: int, b: int) -> bool:
        """R-C-11 and the house rules: do the two sides' scores ``a`` and ``b`` end the game?"""
        hi, lo = (a, b) if a >= b else (b, a)
        if hi == lo and hi >= self.target:
            return False  # R-C-11: equal at the target: another hand is played
        if hi >= self.target:
            return True
        if self.has_losing_score and lo <= self.losing_score and hi != lo:
            return True
        return self.has_mercy and hi - lo >= self.mercy

    def game_over_all(self, scores: list[int], hands: int) -> bool:
        """:meth:`game_over` for any number of sides, after ``hands`` hands (R-E-2): the
        game ends when the leader reaches the target alone, or a side at the losing score
        is behind the leader, or the leader is ``mercy`` ahead of every other side, or the
        hand limit is reached with one side ahead."""
        if len(scores) == 2 and not self.has_hand_limit:
            return self.game_over(scores[0], scores[1])
        hi = max(scores)
        alone = scores.count(hi) == 1
        second = max([s for s in scores if s != hi], default=hi)
        if hi >= self.target:
            return alone
        if self.has_hand_limit and hands >= self.hand_limit and alone:
            return True
        if self.has_losing_score and min(scores) <= self.losing_score and min(scores) != hi:
            return True
        return self.has_mercy and alone and hi - second >= self.mercy


def _compute_bid_masks(rules: Rules) -> dict[int, int]:
    """Legal bid masks keyed by the partner's bid (-1: partner has not bid / no partner).
    R-CT-3: bids run up to the hand size. R-S-1 / R-S-2: in Suicide a seat whose partner
    bid nil bids a number of at least ``suicide_min``, one whose partner bid a number bids
    nil, and the first of a side either."""
    bidding = rules.bidding
    options = [b for b in range(bidding.min_bid, rules.hand_size + 1)]
    if rules.nil.enabled and 0 not in options:
        options.insert(0, 0)

    def contract(b: int) -> int:
        return 0 if rules.is_nil(b) else b

    def ok(b: int, partner: int) -> bool:
        if not rules.partnerships:
            return True
        if bidding.suicide:
            if rules.is_nil(b):
                return partner < 0 or not rules.is_nil(partner)
            return b >= bidding.suicide_min and (partner < 0 or rules.is_nil(partner))
        if partner < 0:
            partner = 0  # (the first of a side: some bid of the partner must fit)
        if bidding.team_max is not None and b + partner > bidding.team_max:
            return False
        return contract(b) + contract(partner) >= bidding.team_min

    def to_mask(bids: list[int]) -> int:
        m = 0
        for b in bids:
            m |= 1 << (BID_BASE + b)
        return m

    first = [b for b in options if any(ok(b, p) for p in options)]
    if bidding.suicide:
        first = [b for b in options if ok(b, -1)]
    masks = {-1: to_mask(first)}
    if masks[-1] == 0:
        raise ValueError("these bidding rules leave a seat no legal bid")
    for p in range(MAX_BID + 1):
        allowed = [b for b in options if ok(b, p)]
        masks[p] = to_mask(allowed) if allowed else to_mask(options[:1])
    return masks


_PLANS: Final[dict[int, tuple[Rules, Plan]]] = {}


@final
class _Last:
    """The rules asked for last with their plan, as one pair (so that a thread switch
    between two assignments cannot pair the wrong ones); a fresh State asks again."""

    def __init__(self) -> None:
        self.pair: tuple[Rules, Plan] | None = None


_LAST: Final = _Last()


def plan_for(rules: Rules) -> Plan:
    """The plan of these rules, cached by identity (hashing Rules is slow)."""
    last = _LAST.pair
    if last is not None and last[0] is rules:
        return last[1]
    hit = _PLANS.get(id(rules))
    if hit is None or hit[0] is not rules:
        hit = (rules, Plan(rules))
        if len(_PLANS) > 256:
            _PLANS.clear()
        _PLANS[id(rules)] = hit
    _LAST.pair = hit
    return hit[1]
