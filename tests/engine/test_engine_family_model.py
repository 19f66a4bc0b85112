"""The Spades family against an independent model (issue 30): random option sets over the
variants (three or four seats, partners or none, jokers and promoted deuces, Suicide,
Mirror, Whiz, 10 for 200, Boston, the leads, everyone's lowest club (R-F-3), blind bids
(R-BB-1), zero beside nil (R-NV-4), blind nil and the partners' exchange after it (R-BN-4,
R-BN-5), the cards left over and laid aside before or after the bids (R-J-6, R-J-7) and
the end),
the engine and a model written from docs/rules.md played in lockstep: the same legal
actions at every step, the same trick winners, scores, bags and end. The model reads
the options' plain values (card words through ``parse_card``) and none of the engine's
tables."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from spades_cli.engine import (
    BID,
    BID_BASE,
    BLIND,
    BLIND_BID_BASE,
    DEAL,
    DECLARE,
    DISCARD_PHASE,
    NO_BLIND,
    OVER,
    PASS,
    PLAY,
    ZERO,
    Rules,
    State,
    deck_for,
    parse_card,
)
from spades_cli.engine.rules import (
    BagRules,
    BiddingRules,
    BlindBidRules,
    BlindNilRules,
    BostonRules,
    DeckRules,
    NilRules,
    PlayRules,
    RulesProblems,
)

SPADES = 3


def words(text: str) -> list[int]:
    return [parse_card(w) for w in text.split()]


@dataclass
class FamilyModel:
    """One game, from the rules text (see the module doc)."""

    rules: Rules
    dealer: int
    scores: list[int] = field(default_factory=list)
    bags: list[int] = field(default_factory=list)
    hand_no: int = 0
    winner: int | None = None
    over: bool = False
    phase: object = DEAL

    def __post_init__(self) -> None:
        r = self.rules
        self.n = r.players
        self.partners = r.players == 4 and not r.solo  # R-4P-1; else R-CT-7 / R-I-1
        self.sides = 2 if self.partners else self.n
        self.scores = [0] * self.sides
        self.bags = [0] * self.sides
        self.trumps = words(r.deck.trumps)
        removed = set(words(r.deck.removed))
        jokers = [52, 53] if r.deck.jokers else []
        self.deck = [c for c in range(52) if c not in removed] + jokers  # R-CT-1, R-J-1, R-J-2
        self.left = r.deck.discard  # R-J-6: the cards left over after the deal
        self.size = (len(self.deck) - self.left) // self.n

    def side(self, seat: int) -> int:
        return seat % 2 if self.partners else seat

    def suit(self, card: int) -> int:
        return SPADES if card in self.trumps or card >= 52 else card // 13  # R-J-10

    def power(self, card: int) -> int:
        return 100 + len(self.trumps) - self.trumps.index(card) if card in self.trumps else card

    def deal(self, deck: list[int]) -> None:
        assert sorted(deck) == sorted(self.deck)
        self.hands: list[set[int]] = [set() for _ in range(self.n)]
        dealt = deck[: self.n * self.size]
        for k in range(self.n):  # R-4P-3: one at a time from the dealer's left
            self.hands[(self.dealer + 1 + k) % self.n] = set(dealt[k :: self.n])
        self.discarder: int | None = None
        if self.left:  # R-J-6: the dealer takes them; R-J-7 (a): or the holder of 2C
            holder = [s for s in range(self.n) if 0 in self.hands[s]]
            to_clubs = self.rules.deck.discard_to == "two_of_clubs"
            self.discarder = holder[0] if to_clubs and holder else self.dealer
            self.hands[self.discarder] |= set(deck[self.n * self.size :])
        self.bids: list[int | None] = [None] * self.n
        self.blind: set[int] = set()  # the seats carrying a blind bid (R-BB-1)
        self.zero: set[int] = set()  # the seats whose 0 is a zero, not nil (R-NV-4)
        self.blind_nil: set[int] = set()  # the seats that declared blind nil
        self.passes: list[int] = []  # R-BN-4: the seat passing each card still to pass
        self.order = [(self.dealer + 1 + i) % self.n for i in range(self.n)]
        self.asked = [s for s in self.order if self.may_bid_blind(s) or self.may_blind_nil(s)]
        if self.asked:
            self.phase, self.seat = DECLARE, self.asked.pop(0)
        else:
            self.begin_bidding()
        self.trick: list[tuple[int, int]] = []
        self.won = [0] * self.n
        self.done = 0
        self.broken = not self.rules.play.spades_break
        self.first = True

    def behind(self, seat: int, by: int | None) -> bool:
        """The seat's side is behind the best other side by ``by`` or more (None: always)."""
        side = self.side(seat)
        best = max(v for i, v in enumerate(self.scores) if i != side)
        return by is None or best - self.scores[side] >= by

    def may_bid_blind(self, seat: int) -> bool:
        """R-BB-1, R-BB-2: blind bids on, and the seat's side far enough behind."""
        return self.rules.blind_bid.enabled and self.behind(seat, self.rules.blind_bid.behind_by)

    def may_blind_nil(self, seat: int) -> bool:
        """R-H-12, R-H-14: blind nil on, and the seat's side far enough behind."""
        return self.rules.blind_nil.enabled and self.behind(seat, self.rules.blind_nil.behind_by)

    def is_nil(self, seat: int) -> bool:
        return seat in self.blind_nil or (
            self.bids[seat] == 0 and self.rules.nil.enabled and seat not in self.zero
        )

    def blind_numbers(self) -> set[int]:
        b, lo, hi = self.rules.bidding, self.rules.blind_bid.min, self.size
        if self.partners:
            lo, hi = max(lo, b.team_min), hi if b.team_max is None else min(hi, b.team_max)
        return set(range(lo, hi + 1))

    def after_declaring(self) -> None:
        """The next seat to declare (one whose side has no blind bid yet), else the bids."""
        while self.asked:
            seat = self.asked.pop(0)
            if self.bids[seat] is None:
                self.seat = seat
                return
        self.begin_bidding()

    def begin_bidding(self) -> None:
        """R-J-6: the cards left over laid aside first (unless R-J-7 (b)), then the bids."""
        if self.discarder is not None and not self.rules.deck.discard_after_bids:
            self.phase, self.seat = DISCARD_PHASE, self.discarder
            return
        rest = [s for s in self.order if self.bids[s] is None]
        if rest:
            self.phase, self.seat = BID, rest[0]
        else:
            self.end_bidding()

    def end_bidding(self) -> None:
        """R-J-7 (b): the cards left over laid aside now, then the exchange and the play."""
        if self.discarder is not None:
            self.phase, self.seat = DISCARD_PHASE, self.discarder
        else:
            self.start_passing()

    def lowest_club(self) -> int:
        clubs = [c for c in self.deck if c < 13 and c not in self.trumps]
        return min(clubs) if clubs else -1

    def bid_values(self) -> set[int]:
        r, b = self.rules, self.rules.bidding
        options = set(range(b.min_bid, self.size + 1)) | ({0} if r.nil.enabled else set())
        count = sum(1 for c in self.hands[self.seat] if self.suit(c) == SPADES)
        if b.mode == "mirror":
            options &= {count}  # R-M-1, R-M-3
        elif b.mode == "whiz":
            options &= {0, count}  # R-W-1
        if not self.partners:
            return options
        partner = self.bids[(self.seat + 2) % 4]
        if b.suicide:  # R-S-1, R-S-2
            if partner is None:
                return {v for v in options if v == 0 or v >= b.suicide_min}
            return {0} & options if partner != 0 else {v for v in options if v >= max(1, b.suicide_min)}

        def fits(mine: int, theirs: int) -> bool:
            if b.team_max is not None and mine + theirs > b.team_max:
                return False
            return mine + theirs >= b.team_min  # (nil is 0)

        if partner is None:
            return {v for v in options if any(fits(v, p) for p in options)}
        fitting = {v for v in options if fits(v, partner)}
        return fitting or {min(options)}

    def legal_cards(self) -> set[int]:
        hand, p = self.hands[self.seat], self.rules.play
        side = {c for c in hand if self.suit(c) != SPADES}
        if self.first and p.lowest_club_first_trick:  # R-F-3
            clubs = [c for c in hand if self.suit(c) == 0]
            if clubs:
                return {min(clubs)}
            follow = {c for c in hand if self.trick and self.suit(c) == self.suit(self.trick[0][1])}
            return follow or side or set(hand)
        if self.trick:
            follow = {c for c in hand if self.suit(c) == self.suit(self.trick[0][1])}
            if follow:
                return follow
            return side if self.first and p.no_spades_first_trick and side else set(hand)
        if self.first and p.two_of_clubs_leads and self.lowest_club() in hand:
            return {self.lowest_club()}  # R-CT-6
        if self.first and (p.no_spades_first_trick or p.no_spade_lead_first_trick) and side:
            return side  # R-L-5
        if not self.broken and side:
            return side
        return set(hand)

    def legal(self) -> set[int]:
        if self.phase == DECLARE:
            out = {NO_BLIND} | ({BLIND} if self.may_blind_nil(self.seat) else set())
            partner_nil = self.partners and (self.seat + 2) % 4 in self.blind_nil
            if self.may_bid_blind(self.seat) and not partner_nil:  # one contract a side
                out |= {BLIND_BID_BASE + n - 1 for n in self.blind_numbers()}
            return out
        if self.phase in (PASS, DISCARD_PHASE):
            return set(self.hands[self.seat])  # R-BN-4, R-J-6: any card
        if self.phase == BID:
            values = self.bid_values()
            count = sum(1 for c in self.hands[self.seat] if self.suit(c) == SPADES)
            # R-NV-4: zero wherever nil is legal; in Mirror / Whiz only without a spade.
            zero = self.rules.nil.zero and 0 in values and (self.rules.bidding.mode == "free" or count == 0)
            return {BID_BASE + v for v in values} | ({ZERO} if zero else set())
        return self.legal_cards() if self.phase == PLAY else set()

    def apply(self, action: int) -> None:
        if self.phase == DISCARD_PHASE:  # R-J-6: out of play
            self.hands[self.seat].remove(action)
            if len(self.hands[self.seat]) == self.size:
                self.discarder = None
                if self.rules.deck.discard_after_bids:
                    self.end_bidding()
                else:
                    self.begin_bidding()
            return
        if self.phase == PASS:  # R-BN-4: to the partner, who holds it at once
            self.hands[self.seat].remove(action)
            self.hands[(self.seat + 2) % 4].add(action)
            self.passes.pop(0)
            self.seat = self.passes[0] if self.passes else self.seat
            if not self.passes:
                self.start_play()
            return
        if self.phase == DECLARE and action == BLIND:
            self.bids[self.seat] = 0
            self.blind_nil.add(self.seat)
            self.after_declaring()
            return
        if self.phase == DECLARE:
            if action != NO_BLIND:  # R-BB-1: the side's contract, carried by both partners
                side = [s for s in range(self.n) if self.side(s) == self.side(self.seat)]
                for s in side:
                    self.bids[s] = action - BLIND_BID_BASE + 1
                    self.blind.add(s)
            self.after_declaring()
            return
        if self.phase == BID:
            self.bids[self.seat] = 0 if action == ZERO else action - BID_BASE
            if action == ZERO:
                self.zero.add(self.seat)
            rest = [s for s in self.order if self.bids[s] is None]
            if rest:
                self.seat = rest[0]
                return
            self.end_bidding()
            return
        self.play(action)

    def start_passing(self) -> None:
        """R-BN-4, R-BN-5: each blind nil (in bidding order) passes k, then its partner k
        back, unless the partner bid nil too."""
        k = self.rules.blind_nil.pass_cards
        for s in self.order:
            if k and self.partners and s in self.blind_nil and not self.is_nil((s + 2) % 4):
                self.passes += [s] * k + [(s + 2) % 4] * k
        if self.passes:
            self.phase, self.seat = PASS, self.passes[0]
        else:
            self.start_play()

    def start_play(self) -> None:
        self.phase = PLAY
        self.seat = self.order[0]
        if self.rules.play.two_of_clubs_leads:
            self.seat = next((s for s in range(self.n) if self.lowest_club() in self.hands[s]), self.seat)

    def play(self, card: int) -> None:
        seat = self.seat
        self.hands[seat].remove(card)
        led_spade = bool(self.trick) and self.suit(self.trick[0][1]) == SPADES
        if self.suit(card) == SPADES and (
            self.rules.play.breaking == "played" or (self.trick and not led_spade)
        ):
            self.broken = True  # R-L-2
        self.trick.append((seat, card))
        if len(self.trick) < self.n:
            self.seat = (seat + 1) % self.n
            return
        spades = [(self.power(c), s) for s, c in self.trick if self.suit(c) == SPADES]
        led = self.suit(self.trick[0][1])
        follow = [(self.power(c), s) for s, c in self.trick if self.suit(c) == led]
        winner = max(spades or follow)[1]
        self.won[winner] += 1
        self.done += 1
        self.trick, self.first, self.seat = [], False, winner
        if self.done == self.size:
            self.score()

    def score(self) -> None:
        boston = None
        for side in range(self.sides):
            points, bags, moon = self.side_points([s for s in range(self.n) if self.side(s) == side], side)
            self.scores[side] += points
            self.bags[side] = bags
            if moon and boston is None:
                boston = side
        self.hand_no += 1
        self.winner = boston if boston is not None else self.decided()
        if self.winner is not None:
            self.over, self.phase = True, OVER
        else:
            self.dealer = (self.dealer + 1) % self.n
            self.phase = DEAL

    def side_points(self, seats: list[int], side: int) -> tuple[int, int, bool]:
        r = self.rules
        points = new = contract = counted = 0
        for s in seats:
            bid = self.bids[s]
            assert bid is not None
            if not self.is_nil(s):  # R-NV-4: a zero is a contract
                contract, counted = contract + bid, counted + self.won[s]
                continue
            value = r.blind_nil.value if s in self.blind_nil else r.nil.value  # R-H-13
            points += value if self.won[s] == 0 else -value
            if self.won[s] and r.nil.failed_tricks == "partner":
                counted += self.won[s]
            elif self.won[s] and r.nil.failed_tricks == "bags":
                new += self.won[s]
        if any(s in self.blind for s in seats):  # R-BB-1, R-BB-3: the blind bid alone
            bb, number = r.blind_bid, self.bids[seats[0]]
            assert number is not None
            won = sum(self.won[s] for s in seats)
            made = won == number if bb.exact else won >= number
            points = 20 * number if made else -(20 if bb.set_double else 10) * number
            new = won - number if made else 0
            return (*self.bagged(points, new, side), False)
        moon = False
        ten = r.ten_for_two_hundred and (
            contract == 10 or (contract > 10 and not r.ten_for_two_hundred_exact)
        )
        every = r.boston.mode != "off" and contract >= self.size  # R-B-1
        if contract == 0:
            new += counted
        elif counted >= contract:
            if every and r.boston.mode == "points":
                points += r.boston.value
            else:
                points += 200 if ten else 10 * contract
            moon = every and r.boston.mode == "win"
            new += counted - contract
        elif every and r.boston.mode == "points":
            points -= r.boston.value
        elif ten and r.ten_for_two_hundred_set is not None:
            points -= r.ten_for_two_hundred_set  # R-T-2
        else:
            points -= 10 * contract
        return (*self.bagged(points, new, side), moon)

    def bagged(self, points: int, new: int, side: int) -> tuple[int, int]:
        """The hand's points with the bags' (R-C-9), and the side's bags after it."""
        r = self.rules
        new = new if r.bags.enabled else 0
        points += new * r.bags.value
        total = self.bags[side] + new
        while r.bags.enabled and r.bags.limit is not None and total >= r.bags.limit:
            points -= r.bags.penalty
            total -= r.bags.limit
        return points, total

    def decided(self) -> int | None:
        r, sc = self.rules, self.scores
        top = max(sc)
        alone = sc.count(top) == 1
        lead = sc.index(top)
        rest = [v for i, v in enumerate(sc) if i != lead]
        if top >= r.target:
            return lead if alone else None
        if r.hand_limit is not None and self.hand_no >= r.hand_limit and alone:
            return lead
        if r.losing_score is not None and min(sc) <= r.losing_score and min(sc) != top:
            return lead
        if r.mercy is not None and alone and top - max(rest) >= r.mercy:
            return lead
        return None


DECKS_4 = [DeckRules(), DeckRules("2C 2D", True, "BJ LJ"), DeckRules("2H 2C", True, "BJ LJ 2D 2S")]
DECKS_4 += [DeckRules(trumps="2H 2C 2D 2S")]
DECKS_4 += [DeckRules("", True, "BJ LJ", 2), DeckRules("", True, "BJ LJ", 2, "two_of_clubs", True)]  # R-J-6/7
DECKS_3 = [DeckRules("2C"), DeckRules("", True, "BJ LJ"), DeckRules("2C", False, "2D 2S")]
DECKS_3 += [DeckRules(discard=1, discard_after_bids=True), DeckRules("", True, "BJ LJ", 3, "two_of_clubs")]


@st.composite
def family_rules(draw: st.DrawFn) -> Rules:
    players = draw(st.sampled_from([3, 4]))
    solo = players == 4 and draw(st.booleans())
    mode = draw(st.sampled_from(["free", "free", "mirror", "whiz"]))
    suicide = players == 4 and not solo and mode == "free" and draw(st.booleans())
    plain = mode == "free" and not suicide
    try:
        return Rules(
            players=players,  # type: ignore[arg-type]
            solo=solo,
            target=draw(st.sampled_from([500, 200])),
            losing_score=draw(st.sampled_from([None, -200])),
            mercy=draw(st.sampled_from([None, 300])),
            hand_limit=draw(st.sampled_from([None, 2, 3])),
            ten_for_two_hundred=(ten := draw(st.booleans())),
            ten_for_two_hundred_exact=ten and draw(st.booleans()),
            ten_for_two_hundred_set=draw(st.sampled_from([None, 200])) if ten else None,
            bidding=BiddingRules(
                min_bid=1,
                team_min=draw(st.sampled_from([0, 4])) if plain and players == 4 and not solo else 0,
                mode=mode,  # type: ignore[arg-type]
                suicide=suicide,
                suicide_min=draw(st.sampled_from([1, 4])),
            ),
            nil=NilRules(
                value=draw(st.sampled_from([50, 100])),
                failed_tricks=draw(st.sampled_from(["bags", "none"])),
                zero=not suicide and draw(st.booleans()),
            ),
            bags=BagRules(value=draw(st.sampled_from([1, 0])), limit=draw(st.sampled_from([None, 5, 10]))),
            play=PlayRules(
                spades_break=draw(st.booleans()),
                two_of_clubs_leads=draw(st.booleans()),
                no_spades_first_trick=draw(st.booleans()),
                breaking=draw(st.sampled_from(["played", "trumped"])),
                no_spade_lead_first_trick=draw(st.booleans()),
                lowest_club_first_trick=draw(st.booleans()),
            ),
            deck=draw(st.sampled_from(DECKS_3 if players == 3 else DECKS_4)),
            boston=BostonRules(mode=draw(st.sampled_from(["off", "win", "points"]))),
            blind_nil=BlindNilRules(
                enabled=(blind_nil := plain and draw(st.booleans())),
                value=draw(st.sampled_from([100, 200])),
                behind_by=draw(st.sampled_from([None, 100])),
                pass_cards=draw(st.sampled_from([0, 1, 2, 4]))
                if blind_nil and players == 4 and not solo
                else 0,
            ),
            blind_bid=BlindBidRules(
                enabled=plain and draw(st.booleans()),
                min=draw(st.sampled_from([1, 4, 6])),
                exact=draw(st.booleans()),
                set_double=draw(st.booleans()),
                behind_by=draw(st.sampled_from([None, 0, 100])),
            ),
        )
    except RulesProblems:
        assume(False)
        raise


def lockstep(rules: Rules, seed: int, max_hands: int) -> None:
    """Play a seeded random game of at most ``max_hands`` hands with the engine and the model."""
    dealer = seed % rules.players
    model = FamilyModel(rules, dealer)
    state = State(rules, dealer)
    rng = random.Random(f"family:{seed}")
    while not model.over and model.hand_no < max_hands:
        if model.phase == DEAL:
            deck = deck_for(seed, model.hand_no, model.deck)
            state.deal(deck)
            model.deal(deck)
        assert state.current_player() == model.seat
        legal = state.legal_actions()
        assert list(legal) == sorted(model.legal()), (state.phase, legal, sorted(model.legal()))
        action = legal[int(rng.random() * len(legal))]
        state.apply(action)
        model.apply(action)
        if model.phase in (DEAL, OVER) and model.done == model.size:
            assert state.scores == model.scores and state.bags == model.bags
            model.done = 0
    assert state.is_terminal() == model.over
    assert state.winner() == model.winner if model.over else state.winner() is None


FAST = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@settings(FAST, max_examples=25)
@given(rules=family_rules(), seed=st.integers(0, 2**32 - 1))
def test_family_option_sets_match_the_model_quick(rules: Rules, seed: int) -> None:
    lockstep(rules, seed, 2)


@pytest.mark.slow
@settings(FAST, max_examples=400)
@given(rules=family_rules(), seed=st.integers(0, 2**32 - 1), hands=st.integers(1, 5))
def test_family_option_sets_match_the_model(rules: Rules, seed: int, hands: int) -> None:
    lockstep(rules, seed, hands)


@pytest.mark.parametrize("seed", range(6))
def test_r_bn_4_blind_nil_exchange_matches_the_model(seed: int) -> None:
    """R-BN-4, R-BN-5: blind nil at any score with 1 or 2 cards passed each way; random
    play declares blind nil often, so the exchange (and both-nil sides) come up."""
    k = 1 + seed % 2
    lockstep(Rules(blind_nil=BlindNilRules(enabled=True, behind_by=None, pass_cards=k)), seed, 3)


@pytest.mark.parametrize("seed", range(8))
def test_r_j_6_the_discard_matches_the_model(seed: int) -> None:
    """R-J-6, R-J-7: 54 cards with two left over, to the dealer or the holder of 2C, laid
    aside before or after the bids, with blind nil on (declared before the discard)."""
    deck = DeckRules("", True, "BJ LJ", 2, ("dealer", "two_of_clubs")[seed % 2], seed % 4 >= 2)
    blind = BlindNilRules(enabled=True, behind_by=None, pass_cards=seed % 3)
    lockstep(Rules(deck=deck, blind_nil=blind, play=PlayRules(two_of_clubs_leads=seed < 4)), seed, 3)
