"""The game state: an OpenSpiel-like API over the whole game, hand after hand.

Actions are small integers:

* ``0..51``   a card (play it; in the exchange, give it up; at a chance node, draw it)
* ``52..65``  a bid of 0 (nil) to 13 (``BID_BASE + n``)
* ``KEEP`` / ``DISCARD``   the two-player draft decision on the card just drawn (R-2P-2)
* ``BLIND`` / ``NO_BLIND``  declare, or not, double nil / blind nil (R-2P-3)
* ``EXCHANGE_DONE``  stop exchanging before the limit (R-2P-3)

The shuffle is not an action: at the start of each hand the state is a chance node
and :meth:`State.deal` takes the deck order, so a record of the game never depends
on a random number generator. The cards drawn in the double-nil exchange are chance
actions (the card drawn from the discard pile).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from spades_cli.engine.cards import (
    _SUIT_TABLES,
    FULL_DECK,
    NON_SPADE_MASK,
    SUIT_MASKS,
    TWO_OF_CLUBS,
    cards_in,
)
from spades_cli.engine.rules import Rules
from spades_cli.engine.scoring import SideResult, game_over, score_side

CHANCE: Final = -1
TERMINAL: Final = -2

BID_BASE: Final = 52
KEEP: Final = 66
DISCARD: Final = 67
BLIND: Final = 68
NO_BLIND: Final = 69
EXCHANGE_DONE: Final = 70
NUM_ACTIONS: Final = 71

# Phases
DEAL: Final = "deal"
DECLARE: Final = "declare"
DRAFT: Final = "draft"
EXCHANGE: Final = "exchange"
DRAW: Final = "draw"
BID: Final = "bid"
PLAY: Final = "play"
OVER: Final = "over"

_ACTION_LISTS: Final[dict[int, list[int]]] = {}


def mask_actions(mask: int) -> list[int]:
    """The actions of a legal-action mask, in increasing order."""
    cards = mask & FULL_DECK
    out = cards_in(cards) if cards else []
    rest = mask >> 52
    if rest:
        cached = _ACTION_LISTS.get(rest)
        if cached is None:
            cached = [52 + i for i in range(rest.bit_length()) if rest >> i & 1]
            _ACTION_LISTS[rest] = cached
        out += cached
    return out


class IllegalAction(ValueError):
    """An action that is not legal in this state."""


class Trick(NamedTuple):
    leader: int
    cards: tuple[int, ...]  # in the order played, starting with the leader's card
    winner: int

    def seat_of(self, index: int, players: int) -> int:
        return (self.leader + index) % players


class HandResult(NamedTuple):
    """Everything public about a finished hand."""

    hand_no: int
    dealer: int
    bids: tuple[int, ...]  # per seat; 0 = nil
    blind: tuple[bool, ...]  # per seat: declared blind / double nil
    tricks: tuple[int, ...]  # tricks taken per seat
    sides: tuple[SideResult, SideResult]

    @property
    def scores(self) -> tuple[int, int]:
        return (self.sides[0].score, self.sides[1].score)


@dataclass(frozen=True, slots=True)
class Observation:
    """What one seat may know (nothing of another seat's hidden cards)."""

    seat: int
    players: int
    phase: str
    hand_no: int
    dealer: int
    current: int  # seat on turn (CHANCE / TERMINAL for none)
    looked: bool  # False while a seat deciding on blind nil has not seen its cards
    hand: tuple[int, ...]
    draft_card: int | None  # 2P: the card this seat just drew and must keep or discard
    own_discards: tuple[int, ...]  # 2P: the cards this seat put in the discard pile
    exchanged: tuple[int, ...]  # per seat: cards swapped in the exchange (public count)
    declared: tuple[bool, ...]  # per seat: double / blind nil declared
    bids: tuple[int | None, ...]  # per seat, None = not yet
    tricks: tuple[Trick, ...]  # finished tricks of this hand
    current_trick: tuple[int, ...]  # cards played to the trick in progress
    leader: int  # leader of the trick in progress
    tricks_won: tuple[int, ...]
    spades_broken: bool
    scores: tuple[int, int]
    bags: tuple[int, int]
    results: tuple[HandResult, ...]  # earlier hands
    legal: tuple[int, ...]  # legal actions if this seat is on turn


class State:
    """One game of Spades under one set of rules, from the first deal to the end."""

    __slots__ = (
        "_bid_masks",
        "_legal",
        "bags",
        "bids",
        "blind",
        "broken",
        "current",
        "dealer",
        "decided",
        "deck",
        "declared",
        "discard_pile",
        "draft_turn",
        "exch_count",
        "exch_given",
        "exch_queue",
        "exch_seat",
        "exchanged",
        "first_leader",
        "first_trick",
        "hand_no",
        "hands",
        "history",
        "leader",
        "n",
        "own_discards",
        "phase",
        "pile_pos",
        "plays",
        "queue",
        "results",
        "rules",
        "scores",
        "trick",
        "trick_no",
        "trick_winners",
        "tricks_won",
        "win_card",
        "win_seat",
    )

    def __init__(self, rules: Rules, dealer: int = 0, *, _blank: bool = False) -> None:
        if _blank:
            return  # clone() fills every field
        n = rules.players
        if not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat 0..{n - 1}")
        self.rules = rules
        self.n = n
        self.dealer = dealer
        self.hand_no = 0
        self.scores = [0, 0]
        self.bags = [0, 0]
        self.results: list[HandResult] = []
        self.history: list[int] = []  # every action of the game, chance draws included
        self._bid_masks = _bid_masks(rules)
        self._start_hand()

    # -- construction -------------------------------------------------------------

    def _start_hand(self) -> None:
        n = self.n
        self.phase = DEAL
        self.current = CHANCE
        self.deck: tuple[int, ...] | None = None
        self.hands = [0] * n
        self.own_discards = [0] * n
        self.discard_pile = 0
        self.pile_pos = 0
        self.draft_turn = 0
        self.declared = [False] * n
        self.decided = [False] * n
        self.exchanged = [0] * n
        self.exch_queue: list[int] = []
        self.exch_count = 0
        self.exch_given = 0
        self.exch_seat = -1
        self.queue: list[int] = []
        self.bids = [-1] * n
        self.blind = [False] * n
        self.broken = not self.rules.play.spades_break
        self.plays: list[int] = []
        self.trick: list[int] = []
        self.trick_winners: list[int] = []
        self.first_leader = (self.dealer + 1) % n
        self.trick_no = 0
        self.tricks_won = [0] * n
        self.leader = (self.dealer + 1) % n
        self.win_card = -1
        self.win_seat = -1
        self.first_trick = True
        self._legal = 0

    def clone(self) -> State:
        c = State(self.rules, _blank=True)
        c.rules = self.rules
        c.n = self.n
        c.dealer = self.dealer
        c.hand_no = self.hand_no
        c.scores = self.scores[:]
        c.bags = self.bags[:]
        c.results = self.results[:]
        c.history = self.history[:]
        c._bid_masks = self._bid_masks
        c.phase = self.phase
        c.current = self.current
        c.deck = self.deck
        c.hands = self.hands[:]
        c.own_discards = self.own_discards[:]
        c.discard_pile = self.discard_pile
        c.pile_pos = self.pile_pos
        c.draft_turn = self.draft_turn
        c.declared = self.declared[:]
        c.decided = self.decided[:]
        c.exchanged = self.exchanged[:]
        c.exch_queue = self.exch_queue[:]
        c.exch_count = self.exch_count
        c.exch_given = self.exch_given
        c.exch_seat = self.exch_seat
        c.queue = self.queue[:]
        c.bids = self.bids[:]
        c.blind = self.blind[:]
        c.broken = self.broken
        c.plays = self.plays[:]
        c.trick = self.trick[:]
        c.trick_winners = self.trick_winners[:]
        c.first_leader = self.first_leader
        c.trick_no = self.trick_no
        c.tricks_won = self.tricks_won[:]
        c.leader = self.leader
        c.win_card = self.win_card
        c.win_seat = self.win_seat
        c.first_trick = self.first_trick
        c._legal = self._legal
        return c

    # -- queries ------------------------------------------------------------------

    def current_player(self) -> int:
        return self.current

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance_node(self) -> bool:
        return self.current == CHANCE

    def legal_mask(self) -> int:
        """Legal actions as a bitmask over action numbers (0 when nobody is to act)."""
        m = self._legal
        if m:
            return m
        m = self._compute_legal()
        self._legal = m
        return m

    def legal_actions(self, seat: int | None = None) -> list[int]:
        """Legal actions of the seat on turn (or of ``seat``: empty unless on turn)."""
        if seat is not None and seat != self.current:
            return []
        if self.phase is PLAY and self.trick:
            # Fast path: following suit (R-C-3).
            led = self.trick[0] // 13
            chunk = (self.hands[self.current] >> (13 * led)) & 0x1FFF
            if chunk:
                self._legal = chunk << (13 * led)
                return list(_SUIT_TABLES[led][chunk])
        m = self._legal or self._compute_legal()
        self._legal = m
        if m >> 52:
            return mask_actions(m)
        t = _SUIT_TABLES
        out: list[int] = []
        if m & 0x1FFF:
            out += t[0][m & 0x1FFF]
        if (m >> 13) & 0x1FFF:
            out += t[1][(m >> 13) & 0x1FFF]
        if (m >> 26) & 0x1FFF:
            out += t[2][(m >> 26) & 0x1FFF]
        if m >> 39:
            out += t[3][m >> 39]
        return out

    def is_legal(self, action: int) -> bool:
        return action >= 0 and (self.legal_mask() >> action) & 1 == 1

    def winner(self) -> int | None:
        """The winning side once the game is over."""
        if self.phase != OVER:
            return None
        return 0 if self.scores[0] > self.scores[1] else 1

    def draft_card(self) -> int | None:
        """2P: the card on top of the pile that the player on turn has drawn (R-2P-2)."""
        if self.phase == DRAFT and self.deck is not None:
            return self.deck[self.pile_pos]
        return None

    def spades_broken(self) -> bool:
        return self.broken

    def _compute_legal(self) -> int:
        phase = self.phase
        if phase is PLAY:
            return self._card_mask(self.current)
        if phase is BID:
            seat = self.current
            if self.n == 4:
                return self._bid_masks[self.bids[(seat + 2) % 4]]
            return self._bid_masks[-1]
        if phase == DRAFT:
            return (1 << KEEP) | (1 << DISCARD)
        if phase == DECLARE:
            return (1 << BLIND) | (1 << NO_BLIND)
        if phase == EXCHANGE:
            return self.hands[self.current] | (1 << EXCHANGE_DONE)
        if phase == DRAW:
            return self.discard_pile & ~self.exch_given
        return 0

    def _card_mask(self, seat: int) -> int:
        hand = self.hands[seat]
        trick = self.trick
        if trick:
            follow = hand & SUIT_MASKS[trick[0] // 13]
            if follow:
                return follow
            if self.first_trick and self.rules.play.no_spades_first_trick and hand & NON_SPADE_MASK:
                return hand & NON_SPADE_MASK
            return hand
        if self.first_trick:
            play = self.rules.play
            if play.two_of_clubs_leads and hand & 1:
                return 1 << TWO_OF_CLUBS
            if play.no_spades_first_trick and hand & NON_SPADE_MASK:
                return hand & NON_SPADE_MASK
        if not self.broken and hand & NON_SPADE_MASK:
            return hand & NON_SPADE_MASK  # R-C-6, R-4P-5
        return hand

    # -- moves --------------------------------------------------------------------

    def deal(self, deck: Sequence[int]) -> None:
        """Resolve the shuffle: ``deck`` is the order of the 52 cards, top first.

        4P (R-4P-3): dealt one at a time starting left of the dealer. 2P (R-2P-2):
        the deck is the pile the players draft from.
        """
        if self.phase != DEAL:
            raise IllegalAction("the cards are dealt only at the start of a hand")
        cards = tuple(deck)
        if len(cards) != 52:
            raise IllegalAction("a deck must hold each of the 52 cards once")
        h0 = h1 = h2 = h3 = 0
        for i in range(0, 52, 4):
            a, b, c, d = cards[i], cards[i + 1], cards[i + 2], cards[i + 3]
            if not (0 <= a < 52 and 0 <= b < 52 and 0 <= c < 52 and 0 <= d < 52):
                raise IllegalAction("a deck must hold each of the 52 cards once")
            h0 |= 1 << a
            h1 |= 1 << b
            h2 |= 1 << c
            h3 |= 1 << d
        if h0 | h1 | h2 | h3 != FULL_DECK:
            raise IllegalAction("a deck must hold each of the 52 cards once")
        self.deck = cards
        n = self.n
        if n == 4:
            f = self.dealer + 1
            hands = self.hands
            hands[f % 4] = h0
            hands[(f + 1) % 4] = h1
            hands[(f + 2) % 4] = h2
            hands[(f + 3) % 4] = h3
            if self.rules.blind_nil.enabled:
                self.queue = [s for s in self._bid_order() if self._may_declare(s)]
                self.decided = [s not in self.queue for s in range(4)]
                if self.queue:
                    self._next_declare()
                    return
            self.decided = [True] * 4
            self._begin_bidding()
        else:
            self.draft_turn = 0
            self._next_draft_turn()

    def apply(self, action: int) -> None:
        """Apply a legal action of the seat on turn (or a chance draw)."""
        legal = self._legal or self._compute_legal()
        if action < 0 or not (legal >> action) & 1:
            raise IllegalAction(self._illegal_reason(action))
        self._legal = 0
        self.history.append(action)
        phase = self.phase
        if phase is PLAY:
            # Inlined card play: the hot path of every search.
            seat = self.current
            self.hands[seat] ^= 1 << action
            self.plays.append(action)
            trick = self.trick
            trick.append(action)
            played = len(trick)
            if action >= 39:
                self.broken = True  # R-C-6: a spade was played (led only when allowed)
            if played == 1:
                self.win_card = action
                self.win_seat = seat
            else:
                w = self.win_card
                # R-C-4: a higher card of the winning suit, or the first spade, takes the lead.
                if action > w and (action >= 39 or action // 13 == w // 13):
                    self.win_card = action
                    self.win_seat = seat
            if played < self.n:
                self.current = (seat + 1) % self.n
            else:
                self._finish_trick()
        elif phase is BID:
            self.bids[self.current] = action - BID_BASE
            self._next_bidder()
        elif phase is DRAFT:
            self._draft(action == KEEP)
        elif phase is DECLARE:
            self._declare(action == BLIND)
        elif phase is EXCHANGE:
            self._exchange(action)
        elif phase is DRAW:
            self._draw(action)

    def _illegal_reason(self, action: int) -> str:
        if self.phase == OVER:
            return "the game is over"
        if self.phase == DEAL:
            return "the cards must be dealt first"
        return f"action {action} is not legal in the {self.phase} phase"

    def _finish_trick(self) -> None:
        winner = self.win_seat
        self.trick_winners.append(winner)
        self.tricks_won[winner] += 1
        self.trick = []
        self.first_trick = False
        self.trick_no += 1
        self.leader = winner  # R-C-5
        self.current = winner
        if self.trick_no == 13:
            self._score_hand()

    @property
    def tricks(self) -> list[Trick]:
        """The finished tricks of the current hand."""
        out = []
        leader = self.first_leader
        n = self.n
        plays = self.plays
        for i, winner in enumerate(self.trick_winners):
            out.append(Trick(leader, tuple(plays[i * n:(i + 1) * n]), winner))
            leader = winner
        return out

    def _bid(self, bid: int) -> None:
        seat = self.current
        self.bids[seat] = bid
        self._next_bidder()

    def _next_bidder(self) -> None:
        queue = self.queue
        while queue:
            seat = queue.pop(0)
            if self.bids[seat] < 0:
                self.current = seat
                return
        self._begin_play()

    def _draft(self, keep: bool) -> None:
        seat = self.current
        deck = self.deck
        assert deck is not None
        top, nxt = deck[self.pile_pos], deck[self.pile_pos + 1]
        kept, gone = (top, nxt) if keep else (nxt, top)
        self.hands[seat] |= 1 << kept
        self.own_discards[seat] |= 1 << gone
        self.discard_pile |= 1 << gone
        self.pile_pos += 2
        self.draft_turn += 1
        self._next_draft_turn()

    def _next_draft_turn(self) -> None:
        if self.draft_turn == 26:
            self.exch_queue = [
                s for s in ((self.dealer + 1) % 2, self.dealer)
                if self.declared[s] and self.rules.blind_nil.exchange > 0
            ]
            self._next_exchanger()
            return
        seat = (self.dealer + self.draft_turn) % 2
        self.current = seat
        if self.draft_turn < 2 and self.rules.blind_nil.enabled and self._may_declare(seat):
            self.phase = DECLARE
        else:
            self.decided[seat] = True
            self.phase = DRAFT

    def _declare(self, blind: bool) -> None:
        seat = self.current
        self.decided[seat] = True
        if blind:
            self.declared[seat] = True
            self.blind[seat] = True
            self.bids[seat] = 0
        if self.n == 2:
            self.phase = DRAFT
        else:
            self._next_declare()

    def _next_declare(self) -> None:
        if self.queue:
            self.current = self.queue.pop(0)
            self.phase = DECLARE
            return
        self.decided = [True] * 4
        self._begin_bidding()

    def _next_exchanger(self) -> None:
        if self.exch_queue:
            self.current = self.exch_queue.pop(0)
            self.exch_count = 0
            self.exch_given = 0
            self.phase = EXCHANGE
        else:
            self._begin_bidding()

    def _exchange(self, action: int) -> None:
        seat = self.current
        if action == EXCHANGE_DONE:
            self._end_exchange(seat)
            return
        self.hands[seat] &= ~(1 << action)
        self.exch_given |= 1 << action
        self.exch_count += 1
        self.exchanged[seat] += 1
        self.phase = DRAW
        self.exch_seat = seat
        self.current = CHANCE

    def _draw(self, card: int) -> None:
        seat = self.exch_seat
        bit = 1 << card
        self.hands[seat] |= bit
        self.discard_pile &= ~bit
        self.own_discards[seat] &= ~bit
        self.current = seat
        if self.exch_count >= self.rules.blind_nil.exchange:
            self._end_exchange(seat)
        else:
            self.phase = EXCHANGE

    def _end_exchange(self, seat: int) -> None:
        # R-2P-3 decision: the cards given up join the discard pile afterwards.
        self.discard_pile |= self.exch_given
        self.own_discards[seat] |= self.exch_given
        self.exch_given = 0
        self._next_exchanger()

    def _bid_order(self) -> list[int]:
        n = self.n
        return [(self.dealer + 1 + i) % n for i in range(n)]

    def _may_declare(self, seat: int) -> bool:
        behind = self.rules.blind_nil.behind_by
        if behind is None:
            return True
        side = seat % 2
        return self.scores[1 - side] - self.scores[side] >= behind

    def _begin_bidding(self) -> None:
        self.phase = BID
        self.queue = self._bid_order()
        self._next_bidder()

    def _begin_play(self) -> None:
        self.phase = PLAY
        leader = (self.dealer + 1) % self.n  # R-4P-5, R-2P-5
        if self.rules.play.two_of_clubs_leads:
            for s in range(self.n):
                if self.hands[s] & 1:
                    leader = s
        self.leader = leader
        self.first_leader = leader
        self.current = leader

    def _score_hand(self) -> None:
        rules = self.rules
        bids = tuple(self.bids)
        blind = tuple(self.blind)
        tricks = tuple(self.tricks_won)
        seats = ((0, 2), (1, 3)) if self.n == 4 else ((0,), (1,))
        sides = (
            score_side(rules, bids, blind, tricks, seats[0], self.scores[0], self.bags[0]),
            score_side(rules, bids, blind, tricks, seats[1], self.scores[1], self.bags[1]),
        )
        self.results.append(HandResult(self.hand_no, self.dealer, bids, blind, tricks, sides))
        self.scores = [sides[0].score, sides[1].score]
        self.bags = [sides[0].bags_total, sides[1].bags_total]
        if game_over(rules, self.scores):
            self.phase = OVER
            self.current = TERMINAL
            return
        self.dealer = (self.dealer + 1) % self.n  # R-4P-2, R-2P-7
        self.hand_no += 1
        self._start_hand()

    # -- views --------------------------------------------------------------------

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now: its own cards, public play, its own discards."""
        looked = self.decided[seat] or self.phase in (BID, PLAY, EXCHANGE, DRAW)
        hand = tuple(cards_in(self.hands[seat])) if looked else ()
        n = self.n
        return Observation(
            seat=seat,
            players=n,
            phase=self.phase,
            hand_no=self.hand_no,
            dealer=self.dealer,
            current=self.current,
            looked=looked,
            hand=hand,
            draft_card=self.draft_card() if self.current == seat else None,
            own_discards=tuple(cards_in(self.own_discards[seat])),
            exchanged=tuple(self.exchanged),
            declared=tuple(self.declared),
            bids=tuple(None if b < 0 else b for b in self.bids),
            tricks=tuple(self.tricks),
            current_trick=tuple(self.trick),
            leader=self.leader,
            tricks_won=tuple(self.tricks_won),
            spades_broken=self.broken,
            scores=(self.scores[0], self.scores[1]),
            bags=(self.bags[0], self.bags[1]),
            results=tuple(self.results),
            legal=tuple(self.legal_actions()) if self.current == seat else (),
        )

    def hand_of(self, seat: int) -> list[int]:
        return cards_in(self.hands[seat])

    def cards_played_mask(self) -> int:
        m = 0
        for c in self.plays:
            m |= 1 << c
        return m

    def trick_cards(self) -> list[tuple[int, int]]:
        """The trick in progress as (seat, card) pairs."""
        return [((self.leader + i) % self.n, c) for i, c in enumerate(self.trick)]




_BID_MASK_CACHE: Final[dict[int, tuple[Rules, dict[int, int]]]] = {}


def _bid_masks(rules: Rules) -> dict[int, int]:
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


def bid_action(bid: int) -> int:
    return BID_BASE + bid


def is_bid(action: int) -> bool:
    return BID_BASE <= action < BID_BASE + 14


def new_game(rules: Rules, dealer: int = 0) -> State:
    return State(rules, dealer)

