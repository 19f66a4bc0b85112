"""The game state: an OpenSpiel-like API over the whole game, hand after hand.

Actions are the small integers of :mod:`spades_cli.engine.actions`; phases are the
:class:`~spades_cli.engine.phases.Phase` members (kept as plain integers inside). The
shuffle is not an action: at the start of each hand the state is a chance node and
:meth:`State.deal` takes the deck order, so a record never depends on a random number
generator; the cards drawn in the double-nil exchange are chance actions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, TypeVar, cast, final

from spades_cli.engine.actions import BID_BASE, DISCARD, EXCHANGE_DONE, KEEP, ZERO
from spades_cli.engine.actions import NUM_ACTIONS as NUM_ACTIONS
from spades_cli.engine.bidding import World, zero_mask
from spades_cli.engine.cards import NUM_CARDS, SMALL_INTS, card_tuple, cards_in, mask_of, mask_tuple
from spades_cli.engine.declare import NO_BLIND_MASK, behind_enough, declare, declare_mask
from spades_cli.engine.discard import begin_discard, discard, take_left_over
from spades_cli.engine.illegal import IllegalAction, refusal
from spades_cli.engine.ledger import Unscored, fresh_ledger
from spades_cli.engine.observation import (
    WINNER_BITS,
    HandResult,
    Observation,
    Trick,
    hand_tricks,
    observe,
)
from spades_cli.engine.passing import pass_queue, receiver
from spades_cli.engine.phases import PHASES, PLAY, Phase
from spades_cli.engine.plan import MODE_FREE, MODE_MIRROR, plan_for
from spades_cli.engine.play import first_leader, legal_cards, situation
from spades_cli.engine.rules import Rules
from spades_cli.engine.scoring import score_sides, split_deck

if TYPE_CHECKING:
    from spades_cli.engine._native import i64  # a machine word once compiled (see there)

T = TypeVar("T")
CHANCE: Final = -1
TERMINAL: Final = -2

# The phases as plain integers: the hot paths compare these (see phases.Phase).
_DEAL: Final = 0
_DECLARE: Final = 1
_DRAFT: Final = 2
_EXCHANGE: Final = 3
_DRAW: Final = 4
_BID: Final = 5
_PLAY: Final = 6
_OVER: Final = 7
_PASS: Final = 8
_DISCARD: Final = 9
# The draft's and the exchange's action bits, made once (past bit 62: big ints to build).
_DRAFT_MASK: Final = (1 << KEEP) | (1 << DISCARD)
_DONE_MASK: Final = 1 << EXCHANGE_DONE
# Who has looked at the hand, by the number of seats (tuples: a hand's start shares them).
_NOBODY: Final[tuple[tuple[bool, ...], ...]] = tuple((False,) * n for n in range(5))
_EVERYONE: Final[tuple[tuple[bool, ...], ...]] = tuple((True,) * n for n in range(5))


def _row(n: int, value: T) -> list[T]:
    """A new list of ``n`` times ``value`` (written out: cheaper than ``[value] * n``)."""
    return [value, value, value, value] if n == 4 else [value] * n


@final
class State:
    """One game of Spades under one set of rules, from the first deal to the end."""

    # fmt: off
    __slots__ = (
        "_bags", "_beaters", "_boston", "_decided", "_deck", "_discard_pile", "_discarder", "_draft_turn",
        "_exch_count", "_exch_given", "_exch_queue", "_exch_seat", "_exchanged", "_first_leader", "_h0",
        "_h1", "_h2", "_h3", "_hands", "_last_at", "_last_leader", "_last_winner", "_led", "_ledger",
        "_legal", "_own_discards", "_passes", "_phase", "_pile_pos", "_plan", "_play_at", "_queue",
        "_scores", "_stale", "_trick_at", "_unscored", "_winners", "bids", "blind", "broken", "current",
        "dealer", "first_trick", "hand_no", "history", "leader", "n", "rules", "trick_no", "tricks_won",
        "win_card", "win_seat", "zero",
    )
    # fmt: on

    def __init__(
        self,
        rules: Rules,
        dealer: int = 0,
        *,
        scores: Sequence[int] | None = None,
        bags: Sequence[int] | None = None,
        _blank: bool = False,
    ) -> None:
        """A game from its first hand; ``scores`` and ``bags`` (one number per side,
        ``Rules.sides``; None: zeros) start each side's running totals as if earlier hands
        had been played (a position to study or test)."""
        if _blank:
            return  # clone() fills every field
        plan = plan_for(rules)
        n = plan.players
        if not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat 0..{n - 1}")
        self.rules = rules
        self._plan = plan
        self.n = n
        self.dealer = dealer
        self.hand_no = 0
        sides = plan.sides
        # (zeros: a slice of the plan's per-seat zeros; there are never more sides than seats)
        self._scores = list(scores) if scores is not None else plan.zeros[:sides]
        self._bags = list(bags) if bags is not None else plan.zeros[:sides]
        if len(self._scores) != sides or len(self._bags) != sides:
            raise ValueError(f"scores and bags give one number for each of the {sides} sides")
        self._boston = -1  # R-B-2: the side that made a Boston under ``boston.mode: win``
        self._ledger = fresh_ledger(plan)
        self._unscored: tuple[Unscored, ...] = ()  # the hands ended, results unbuilt (engine/ledger.py)
        self._last_leader = self._last_winner = -1  # the last finished trick (kept past the hand's end),
        self._last_at = 0  # its cards from ``history[_last_at]``
        self.history: list[int] = []  # every action of the game, chance draws included
        # The cards of the hand's play live once, in ``history``: from ``_play_at`` the finished
        # tricks (n cards each), from ``_trick_at`` the trick in progress (see ``trick``).
        self._play_at = self._trick_at = 0
        # The per-seat lists, made once a game (_clear_rows resets them); zero: R-NV-4, not nil.
        self._hands, self._own_discards, self._exchanged = _row(n, 0), _row(n, 0), _row(n, 0)
        self.bids, self.blind, self.zero = _row(n, -1), _row(n, False), _row(n, False)
        self.tricks_won = _row(n, 0)
        self._start_hand()

    # -- construction -------------------------------------------------------------

    def _start_hand(self) -> None:
        plan = self._plan
        self._phase = _DEAL
        self.current = CHANCE
        self._deck: tuple[int, ...] | None = None
        self._h0: i64 = 0  # each seat's cards, and below the seats whose ``hands`` entry is stale
        self._h1: i64 = 0
        self._h2: i64 = 0
        self._h3: i64 = 0
        self._stale: i64 = 0
        self._discard_pile = 0
        self._pile_pos = self._draft_turn = self._exch_count = self._exch_given = 0
        self.trick_no = self._legal = 0
        self._decided = _NOBODY[self.n]
        self._exch_seat = self.win_card = self.win_seat = -1
        self._led: i64 = 0  # the trick in progress: the cards that follow the card led (R-C-3),
        self._beaters: i64 = 0  # and those that beat the winning card (R-C-4; valid while it has cards)
        self._queue: tuple[int, ...] = ()  # the seats to act in turn (tuples: shared, never changed)
        self._exch_queue: tuple[int, ...] = ()
        self._passes: tuple[int, ...] = ()  # R-BN-4: the seat passing each card still to pass
        self._discarder = -1  # R-J-6: the seat holding the cards left over, until it lays them aside
        self.broken = not plan.spades_break
        self._winners: i64 = 0  # each finished trick's winner, WINNER_BITS a trick (< 28 tricks)
        self._first_leader = self.leader = (self.dealer + 1) % self.n
        self.first_trick = True

    def _clear_rows(self) -> None:
        """The per-seat lists, reset in place for a new hand."""
        for s in range(self.n):
            self._own_discards[s] = self._exchanged[s] = self.tricks_won[s] = 0
            self.bids[s] = -1
            self.blind[s] = self.zero[s] = False
        self._stale = (1 << self.n) - 1  # ``hands`` catches up with the empty hands when read

    def clone(self) -> State:
        c = State(self.rules, _blank=True)
        c.rules, c._plan, c.n, c.dealer = self.rules, self._plan, self.n, self.dealer
        c.hand_no, c._scores, c._bags = self.hand_no, self._scores[:], self._bags[:]
        c._boston = self._boston
        c._ledger, c._unscored = self._ledger, self._unscored  # shared (tuples, a hand's end makes a new one)
        c._last_at, c._last_leader, c._last_winner = self._last_at, self._last_leader, self._last_winner
        c._play_at, c._trick_at = self._play_at, self._trick_at
        c.history, c._phase, c.current = self.history[:], self._phase, self.current
        c._deck, c._hands, c._stale = self._deck, self._hands[:], self._stale
        c._h0, c._h1, c._h2, c._h3 = self._h0, self._h1, self._h2, self._h3
        c._own_discards, c._discard_pile = self._own_discards[:], self._discard_pile
        c._pile_pos, c._draft_turn, c._decided = self._pile_pos, self._draft_turn, self._decided
        c._exchanged, c._exch_queue = self._exchanged[:], self._exch_queue
        c._exch_count, c._exch_given, c._exch_seat = self._exch_count, self._exch_given, self._exch_seat
        c._queue, c.bids, c.blind, c.zero = self._queue, self.bids[:], self.blind[:], self.zero[:]
        c._passes, c._discarder = self._passes, self._discarder
        c.broken = self.broken
        c._winners, c._first_leader = self._winners, self._first_leader
        c.trick_no, c.tricks_won, c.leader = self.trick_no, self.tricks_won[:], self.leader
        c.win_card, c.win_seat = self.win_card, self.win_seat
        c._led, c._beaters = self._led, self._beaters
        c.first_trick, c._legal = self.first_trick, self._legal
        return c

    @classmethod
    def from_observation(
        cls,
        observation: Observation,
        hidden_hands: Sequence[int],
        rules: Rules,
        bids: Sequence[int] | None = None,
    ) -> State:
        """A state consistent with what one seat has seen, the hidden cards filled in: ``hidden_hands`` gives
        every seat's hand as a mask (the observer's own included), which with the cards played make up the
        deck. The observation is of bidding or play; in bidding, ``bids`` (every seat's, those to come filled
        in) starts the state at the first lead, else it waits for the next bid. Earlier hands, scores and bags
        come from the observation; ``history`` starts with the cards played in the hand so far (no earlier
        action). ValueError when the hands do not fit."""
        obs, n = observation, observation.players
        w = World(obs, plan_for(rules), list(hidden_hands))  # (engine/bidding.py: checks the hands)
        st = cls(rules, obs.dealer)
        st.hand_no, st._scores, st._bags, st._ledger = obs.hand_no, list(obs.scores), list(obs.bags), w.ledger
        st.blind, st._decided, st._exchanged = list(obs.declared), _EVERYONE[n], list(obs.exchanged)
        st._own_discards, st.bids, st.zero = w.own_discards, w.bids, w.zero
        for seat in range(n):
            st._put_hand(seat, hidden_hands[seat])
        if obs.phase == PLAY:
            st._phase, st.history, st._play_at, st._trick_at = _PLAY, w.history, 0, w.trick_at
            st._winners, st._first_leader, st.trick_no = w.winners, w.first_leader, len(obs.tricks)
            st.tricks_won, st.leader, st.current = list(obs.tricks_won), obs.leader, obs.current
            st.broken, st.first_trick = obs.spades_broken, not obs.tricks
            st._last_at, st._last_leader, st._last_winner = w.last_at, w.last_leader, w.last_winner
            st.win_card, st.win_seat, st._led, st._beaters = w.win_card, w.win_seat, w.led, w.beaters
        elif bids is not None:
            st.bids = list(bids)
            st._begin_play()
        else:
            st._phase, st.current, order = _BID, obs.current, st._bid_order()
            st._queue = order[order.index(obs.current) + 1 :]
        return st

    # -- the hands: plain int fields _h0.._h3 (no int object made per card played); the
    # ``hands`` list catches up with them (the seats marked in ``_stale``) when read.

    @property
    def hands(self) -> list[int]:
        """Each seat's cards as a mask (the state's own list, brought up to date when read)."""
        stale = self._stale
        if stale:
            self._stale = 0  # cleared first: a card played meanwhile marks its seat again
            hands = self._hands  # (a seat's bit is set only for the seats at the table)
            if stale & 1:
                hands[0] = self._h0
            if stale & 2:
                hands[1] = self._h1
            if stale & 4:
                hands[2] = self._h2
            if stale & 8:
                hands[3] = self._h3
        return self._hands

    def _hand(self, seat: int) -> int:
        if seat < 2:
            return self._h0 if seat == 0 else self._h1
        return self._h2 if seat == 2 else self._h3

    def _put_hand(self, seat: int, mask: int) -> None:
        if seat == 0:
            self._h0 = mask
            self._stale |= 1
        elif seat == 1:
            self._h1 = mask
            self._stale |= 2
        elif seat == 2:
            self._h2 = mask
            self._stale |= 4
        else:
            self._h3 = mask
            self._stale |= 8

    # -- queries ------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        """The phase of the hand (a :class:`Phase` member)."""
        return PHASES[self._phase]

    def check(self, action: int, *, symbols: bool = False) -> None:
        """Raise :class:`IllegalAction` (with its reason and rule ID) unless ``action`` is
        legal for the seat on turn; ``symbols`` words cards as ``Q♠`` rather than ``QS``."""
        if not self.is_legal(action):
            raise refusal(self, action, symbols)

    def current_player(self) -> int:
        return self.current

    def is_terminal(self) -> bool:
        return self._phase == _OVER

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

    def legal_actions(self, seat: int | None = None) -> tuple[int, ...]:
        """Legal actions of the seat on turn (or of ``seat``: empty unless on turn), in
        increasing order. The tuple may be shared with other calls (it cannot change)."""
        if seat is not None and seat != self.current:
            return ()
        phase = self._phase
        if phase == _PLAY:
            m = self._legal
            if not m:
                m = self._compute_legal()
                self._legal = m
            return card_tuple(m)
        if phase == _BID and self._plan.bid_mode == MODE_FREE and not self._plan.zero_bid:
            return self._plan.bid_action_rows[self._partner_bid() + 1]
        m = self._legal
        if not m:
            m = self._compute_legal()
            self._legal = m
        return mask_tuple(m)

    def is_legal(self, action: int) -> bool:
        return action >= 0 and (self.legal_mask() >> action) & 1 == 1

    def winner(self) -> int | None:
        """The winning side once the game is over: the highest score (R-C-11), or the side
        that made a Boston under ``boston.mode: win`` (R-B-2)."""
        if self._phase != _OVER:
            return None
        if self._boston >= 0:
            return self._boston
        return self._scores.index(max(self._scores))

    def draft_card(self) -> int | None:
        """2P: the card on top of the pile that the player on turn has drawn (R-2P-2)."""
        pair = self.draft_pair()
        return pair[0] if pair is not None else None

    def draft_pair(self) -> tuple[int, int] | None:
        """2P: the two cards on top of the pile while a seat drafts, the one it has drawn
        first (it keeps one of them, R-2P-2); None outside the draft."""
        deck = self._deck
        if self._phase != _DRAFT or deck is None:
            return None
        return deck[self._pile_pos], deck[self._pile_pos + 1]

    def drafted(self) -> tuple[int, int] | None:
        """2P: the two cards of the hand's last draft pick, the drawn one first; None before."""
        deck = self._deck
        if deck is None or self._pile_pos < 2:
            return None
        return deck[self._pile_pos - 2], deck[self._pile_pos - 1]

    @property
    def exchange_seat(self) -> int:
        """2P: the seat of the hand's exchange (R-2P-3) that gives up cards or draws one
        (still that seat just after its draw); -1 before any exchange."""
        return self._exch_seat

    @property
    def exchange_given(self) -> int:
        """2P: the cards the seat in the exchange has given up so far (a mask)."""
        return self._exch_given

    @property
    def exchange_count(self) -> int:
        """2P: how many cards the seat in the exchange has given up so far."""
        return self._exch_count

    def spades_broken(self) -> bool:
        return self.broken

    def _compute_legal(self) -> int:
        phase = self._phase
        if phase == _PLAY:  # play.legal_play inlined: the hot path of every search
            on_turn = self.current
            hand: i64
            if on_turn < 2:  # _hand inlined
                hand = self._h0 if on_turn == 0 else self._h1
            else:
                hand = self._h2 if on_turn == 2 else self._h3
            # Following suit (R-C-3), without a call (on the first trick unless R-F-3).
            legal: i64 = 0
            led: i64 = self._led  # (0 when leading)
            if led and (self._plan.follow_first or not self.first_trick):
                legal = hand & led
            if not legal:
                keeps = self._plan.card_keeps[situation(led != 0, self.first_trick, self.broken)]
                legal = hand
                if keeps:
                    legal = legal_cards(keeps, hand, led)
            return legal
        if phase == _BID:
            bits = self._bid_bits()
            if not self._plan.zero_bid:
                return bits << BID_BASE
            return bits << BID_BASE | zero_mask(self._plan, bits, self.spade_count(self.current))
        if phase == _DRAFT:
            return _DRAFT_MASK
        if phase == _DECLARE:
            return self._declare_bits(self.current)
        if phase == _EXCHANGE:
            return self._hand(self.current) | _DONE_MASK
        if phase == _DRAW:
            return self._discard_pile & ~self._exch_given
        if phase in (_PASS, _DISCARD):
            return self._hand(self.current)  # R-BN-4, R-J-6: any card of the hand
        return 0

    def _partner_bid(self) -> int:
        """The bid of the partner of the seat on turn, -1 if not made yet or without
        partners (the key of the plan's bid masks)."""
        partner = self._plan.partner[self.current]
        return self.bids[partner] if partner >= 0 else -1

    def _bid_bits(self) -> int:
        """The legal bids of the seat on turn as a mask with bit 0 for a bid of 0: the
        plan's row for the partner's bid, and under Mirror or Whiz (R-M-1, R-M-3, R-W-1)
        only the bids its spade-suit cards allow."""
        plan = self._plan
        bits = plan.bid_bit_rows[self._partner_bid() + 1]
        if plan.bid_mode != MODE_FREE:
            count = (self._hand(self.current) & plan.trump).bit_count()
            fixed = 1 << count
            bits &= fixed if plan.bid_mode == MODE_MIRROR else fixed | 1
        return bits

    def spade_count(self, seat: int) -> int:
        """The spade-suit cards ``seat`` holds (R-M-1, R-W-1: what Mirror and Whiz bid)."""
        return (self._hand(seat) & self._plan.trump).bit_count()

    # -- moves --------------------------------------------------------------------

    def deal(self, deck: Sequence[int]) -> None:
        """Resolve the shuffle: ``deck`` is the order of the rules' deck (R-C-1, R-CT-1,
        R-J-1: :attr:`Rules.deck_cards`), top first. 4P (R-4P-3) and 3P (R-CT-1): dealt one
        at a time starting left of the dealer; 2P (R-2P-2): the pile the players draft from."""
        if self._phase != _DEAL:
            raise IllegalAction("the cards are dealt only at the start of a hand", "R-4P-3")
        cards = deck if isinstance(deck, list) else list(deck)  # (read now; the draft keeps a copy)
        plan = self._plan
        n = self.n
        dealt = split_deck(cards, n, plan.deck_mask, plan.deck_size)
        if dealt is None:
            raise IllegalAction(f"a deck must hold each of the {plan.deck_size} cards once", "R-C-1")
        if n != 2:
            f = self.dealer + 1
            for j in range(n):
                self._put_hand((f + j) % n, dealt[j])
            if plan.left_over:
                take_left_over(self, cards)  # R-J-6
            if plan.declaring:  # blind nil, blind bids (R-BB-1)
                self._queue = tuple(s for s in self._bid_order() if self._declare_bits(s) != NO_BLIND_MASK)
                self._decided = tuple(s not in self._queue for s in range(n))
                if self._queue:
                    self._next_declare()
                    return
            self._decided = _EVERYONE[n]
            self._begin_bidding()
        else:
            self._deck = tuple(cards)
            self._draft_turn = 0
            self._next_draft_turn()

    def apply(self, action: int) -> None:
        """Apply a legal action of the seat on turn (or a chance draw)."""
        if self._phase != _PLAY:
            self._apply_other(action)
            return
        # Inlined card play: the hot path of every search. Its legality on machine words
        # (a card mask fits one; NUM_CARDS first: a larger shift is undefined).
        if action < 0 or action >= NUM_CARDS:
            raise refusal(self, action, False)
        a: i64 = action
        bit: i64 = ((a & 0) + 1) << a  # 1 << a, with no literal (see engine/_native.pyi)
        legal: i64 = self._legal
        if not legal:
            legal = self._compute_legal()
        if not legal & bit:
            raise refusal(self, action, False)
        self._legal = 0
        # The same int object as ``action``, appended without boxing it again (compiled).
        history = self.history
        cast("list[object]", history).append(SMALL_INTS[action])
        seat = self.current
        if seat == 0:  # _put_hand inlined
            self._h0 ^= bit
            self._stale |= 1
        elif seat == 1:
            self._h1 ^= bit
            self._stale |= 2
        elif seat == 2:
            self._h2 ^= bit
            self._stale |= 4
        else:
            self._h3 ^= bit
            self._stale |= 8
        played = len(history) - self._trick_at  # (the card is in ``history`` alone)
        plan = self._plan
        if played == 1 or self._beaters & bit:  # the lead, or it beats the winning card (R-C-4)
            if played == 1:
                self._led = plan.suit_mask[action]
            self._beaters = plan.beaten_by[action]
            self.win_card = action
            self.win_seat = seat
        trump: i64 = plan.trump
        if trump & bit and (plan.break_any or not self._led & trump):
            self.broken = True  # R-C-6 / R-L-2: a spade was played (or trumped a trick)
        if played < self.n:
            self.current = seat + 1 if seat + 1 < self.n else 0
        else:
            self._finish_trick()

    def _apply_other(self, action: int) -> None:
        """:meth:`apply` outside the play."""
        phase = self._phase
        if phase == _BID:
            self._bid(action)
            return
        legal = self._legal or self._compute_legal()
        if action < 0 or not (legal >> action) & 1:
            raise refusal(self, action, False)
        self._legal = 0
        cast("list[object]", self.history).append(SMALL_INTS[action])
        if phase == _DRAFT:
            self._draft(action == KEEP)
        elif phase == _DECLARE:
            self._declare(action)
        elif phase == _EXCHANGE:
            self._exchange(action)
        elif phase == _DRAW:
            self._draw(action)
        elif phase == _PASS:
            self._pass(action)
        elif phase == _DISCARD:
            discard(self, action)  # R-J-6 (engine/discard.py)

    def _bid(self, action: int) -> None:
        """Apply a bid. Its legality is checked on the plan's bid masks shifted down to bit
        0 (the action masks reach past bit 62, where the compiled engine's ints are slow)."""
        bid = action - BID_BASE
        zero = action == ZERO and (self._legal or self._compute_legal()) >> ZERO & 1 == 1
        if zero:
            bid = 0  # R-NV-4: a bid of 0 that is not nil
        elif bid < 0 or not (self._bid_bits() >> bid) & 1:
            raise refusal(self, action, False)
        self.zero[self.current] = zero
        self._legal = 0
        cast("list[object]", self.history).append(SMALL_INTS[action])
        self.bids[self.current] = bid
        self._next_bidder()

    def _finish_trick(self) -> None:
        winner = self.win_seat
        w: i64 = winner
        self._winners |= w << self.trick_no * WINNER_BITS
        won = self.tricks_won
        won[winner] = won[winner] + 1
        self._last_at = self._trick_at
        self._trick_at = len(self.history)
        self._last_leader = self.leader
        self._last_winner = winner
        self._led = 0  # no trick in progress
        self.first_trick = False
        self.trick_no += 1
        self.leader = winner  # R-C-5
        self.current = winner
        if self.trick_no == self._plan.hand_size:
            self._score_hand()

    @property
    def last_trick(self) -> Trick | None:
        """The last finished trick (also once its hand is scored, until the next one ends); None before."""
        if self._last_leader < 0:
            return None
        at = self._last_at
        return Trick(self._last_leader, tuple(self.history[at : at + self.n]), self._last_winner)

    @property
    def tricks(self) -> list[Trick]:
        """The finished tricks of the current hand."""
        first, winners = self._first_leader, self._winners
        return hand_tricks(first, self.history, self._play_at, self.n, self.trick_no, winners)

    @property
    def trick(self) -> list[int]:
        """The cards of the trick in progress, the lead first (a new list: read it again after a move)."""
        return self.history[self._trick_at :] if self._phase == _PLAY else []

    @property
    def in_trick(self) -> int:
        """The cards of the trick in progress played so far (``len(trick)``, no list made)."""
        return len(self.history) - self._trick_at if self._phase == _PLAY else 0

    def _next_bidder(self) -> None:
        for seat in self._queue:  # (the seats that have bid are passed over, not dropped)
            if self.bids[seat] < 0:
                self.current = seat
                return
        if self._discarder < 0 or not begin_discard(self, True):  # R-J-7 (b): a discard after the bids
            self._end_bidding()

    def _end_bidding(self) -> None:
        if self._plan.pass_cards:  # else no bid order built at every hand's end of bidding
            self._passes = tuple(pass_queue(self.rules, self._bid_order(), self.bids, self.blind, self.zero))
        self._next_pass()

    def _pass(self, card: int) -> None:
        """R-BN-4: the seat on turn passes ``card`` face down to its partner."""
        seat, to = self.current, receiver(self._plan, self.current)
        self._put_hand(seat, self._hand(seat) & ~(1 << card))
        self._put_hand(to, self._hand(to) | 1 << card)
        self._passes = self._passes[1:]
        self._next_pass()

    def _next_pass(self) -> None:
        if self._passes:
            self._phase, self.current = _PASS, self._passes[0]
        else:
            self._begin_play()

    def _draft(self, keep: bool) -> None:
        """R-2P-2 (here, compiled with the state: 26 a hand of the two-player game)."""
        seat, deck, pos = self.current, self._deck, self._pile_pos
        assert deck is not None
        kept, gone = (deck[pos], deck[pos + 1]) if keep else (deck[pos + 1], deck[pos])
        self._put_hand(seat, self._hand(seat) | 1 << kept)
        self._own_discards[seat] |= 1 << gone
        self._discard_pile |= 1 << gone
        self._pile_pos += 2
        self._draft_turn += 1
        self._next_draft_turn()

    def _next_draft_turn(self) -> None:
        if self._draft_turn == 26:
            # R-2P-3: the exchanges of the seats that declared
            if (self.blind[0] or self.blind[1]) and self.rules.blind_nil.exchange > 0:
                self._exch_queue = tuple(s for s in ((self.dealer + 1) % 2, self.dealer) if self.blind[s])
            self._next_exchanger()
            return
        seat = (self.dealer + self._draft_turn) % 2
        self.current = seat
        plan, turn = self._plan, self._draft_turn  # 2P: may the seat declare double nil (R-2P-3, R-H-14)?
        if turn < 2 and plan.blind_nil and behind_enough(self._scores, seat, plan.blind_nil_behind):
            self._phase = _DECLARE
        else:
            self._looked(seat)
            self._phase = _DRAFT

    def _looked(self, seat: int) -> None:
        """``seat`` has looked at its cards (``_decided`` is a shared tuple: replaced, never changed)."""
        decided = self._decided
        if not decided[seat]:
            self._decided = tuple(d or s == seat for s, d in enumerate(decided))

    def _declare(self, action: int) -> None:
        seat = self.current
        self._looked(seat)
        declare(self._plan, seat, action, self.bids, self.blind)
        if self.n == 2:
            self._phase = _DRAFT
        else:
            self._next_declare()

    def _next_declare(self) -> None:
        while self._queue:  # (a seat whose side has declared may have nothing left to declare)
            seat = self._queue[0]
            self._queue = self._queue[1:]
            if self._declare_bits(seat) & ~NO_BLIND_MASK:
                self.current = seat
                self._phase = _DECLARE
                return
            self._looked(seat)
        self._decided = _EVERYONE[self.n]
        self._begin_bidding()

    def _next_exchanger(self) -> None:
        if self._exch_queue:
            self.current, self._phase = self._exch_queue[0], _EXCHANGE
            self._exch_queue = self._exch_queue[1:]
            self._exch_count = self._exch_given = 0
        else:
            self._begin_bidding()

    def _exchange(self, action: int) -> None:
        """R-2P-3: the seat gives up ``action`` (a card) for a draw, or stops."""
        seat = self.current
        if action == EXCHANGE_DONE:
            self._end_exchange(seat)
            return
        self._put_hand(seat, self._hand(seat) & ~(1 << action))
        self._exch_given |= 1 << action
        self._exch_count += 1
        self._exchanged[seat] += 1
        self._phase, self._exch_seat, self.current = _DRAW, seat, CHANCE

    def _draw(self, card: int) -> None:
        """R-2P-3: the chance draw of ``card`` from the discard pile for the exchanging seat."""
        seat, bit = self._exch_seat, 1 << card
        self._put_hand(seat, self._hand(seat) | bit)
        self._discard_pile &= ~bit
        self._own_discards[seat] &= ~bit
        self.current = seat
        if self._exch_count >= self.rules.blind_nil.exchange:
            self._end_exchange(seat)
        else:
            self._phase = _EXCHANGE

    def _end_exchange(self, seat: int) -> None:
        # R-2P-3 decision: the cards given up join the discard pile afterwards.
        self._discard_pile |= self._exch_given
        self._own_discards[seat] |= self._exch_given
        self._exch_given = 0
        self._next_exchanger()

    def _bid_order(self) -> tuple[int, ...]:
        return self._plan.bid_orders[self.dealer]  # the seats from the dealer's left

    def _declare_bits(self, seat: int) -> int:
        return declare_mask(self._plan, seat, self._scores, self.bids, self.blind)

    def _begin_bidding(self) -> None:
        if self._discarder >= 0 and begin_discard(self, False):  # R-J-6: cards left over laid aside first
            return
        self._phase = _BID
        self._queue = self._bid_order()
        self._next_bidder()

    def _begin_play(self) -> None:
        self._phase = _PLAY
        self._play_at = self._trick_at = len(self.history)
        plan = self._plan
        hands = self.hands if plan.two_of_clubs_leads else plan.zeros  # (the hands unread: unsynced)
        leader = first_leader(plan.two_of_clubs_leads, self.dealer, hands, plan.lead_club)
        self.leader = leader
        self._first_leader = leader
        self.current = leader

    def _score_hand(self) -> None:
        plan = self._plan
        bids, blind, tricks = tuple(self.bids), tuple(self.blind), tuple(self.tricks_won)
        before, bags = tuple(self._scores), tuple(self._bags)
        zero = tuple(self.zero) if any(z for z in self.zero) else ()  # R-NV-4: a zero bid, not nil
        scores, after, boston = score_sides(plan, bids, blind, tricks, before, bags, zero)
        if boston >= 0 and self._boston < 0:
            self._boston = boston  # R-B-2: a Boston made wins the game
        # The HandResult is built when someone reads ``results`` (see there).
        self._unscored += ((self.hand_no, self.dealer, bids, blind, tricks, before, bags, zero),)
        self._scores, self._bags = scores, after
        if self._boston >= 0 or plan.game_over_all(scores, self.hand_no + 1):
            self._phase = _OVER
            self.current = TERMINAL
            return
        self.dealer = (self.dealer + 1) % self.n  # R-4P-2, R-2P-7
        self.hand_no += 1
        self._start_hand()
        self._clear_rows()

    @property
    def scores(self) -> list[int]:
        """Each side's running score (the state's own list: read, never written)."""
        return self._scores

    @property
    def bags(self) -> list[int]:
        """Each side's running bags (the state's own list: read, never written)."""
        return self._bags

    @property
    def results(self) -> list[HandResult]:
        """A :class:`HandResult` per finished hand (built when first read: see engine/ledger.py)."""
        if len(self._ledger.pending) != len(self._unscored):  # (a race makes two ledgers alike)
            self._ledger = self._ledger.plus(self._unscored)
        return self._ledger.results()

    # -- views --------------------------------------------------------------------

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now: its own cards, public play, its own discards."""
        return observe(self, seat)

    def hand_of(self, seat: int) -> list[int]:
        return cards_in(self._hand(seat))

    def cards_played_mask(self) -> int:
        return mask_of(self.history[self._play_at :]) if self.trick_no or self._phase == _PLAY else 0

    def trick_cards(self) -> list[tuple[int, int]]:
        """The trick in progress as (seat, card) pairs."""
        return [((self.leader + i) % self.n, c) for i, c in enumerate(self.trick)]
