"""The ``normal`` bot: rule-based, quick (well under a millisecond per decision).

Bidding estimates tricks from the hand (``bots.hand``), then adjusts for the partner's
bid, the bids already made, the bags carried and what the score needs, never below the
tricks the hand cannot lose (``hand.sure_tricks``). Play follows the side's contract:
win the tricks it still needs as cheaply as it can (third hand high after the partner's
lead), duck when the contract is safe and a bag would hurt, protect a partner's nil
(leading the suits it lacks), try to break an opponent's nil, and never overtake a
partner's winning card without cause (nor ever with an equal card). It keeps
track of the cards played and of the seats that have shown a void (``bots.view``).
"""

from __future__ import annotations

import math
import random

from spades_cli.bots.discard import as_kept, discard_choice
from spades_cli.bots.hand import (
    SIDE_SPREAD_4P,
    TWO_SPREAD,
    card_danger,
    estimate_tricks,
    nil_danger,
    seat_tricks,
    side_extra,
    sure_tricks,
    two_tricks,
)
from spades_cli.bots.passing import pass_choice
from spades_cli.bots.view import TableView, bid_of, high_card, low_card, read_table
from spades_cli.engine import (
    BID,
    BID_BASE,
    BLIND,
    DECLARE,
    DISCARD,
    DISCARD_PHASE,
    DRAFT,
    EXCHANGE,
    EXCHANGE_DONE,
    KEEP,
    NO_BLIND,
    PASS,
    PLAY,
    ZERO,
    Observation,
    Rules,
)
from spades_cli.engine.cards import FULL_DECK, SPADES, mask_of
from spades_cli.engine.plan import MODE_FREE, MODE_WHIZ, plan_for
from spades_cli.engine.scoring import score_side


def _suit(card: int) -> int:
    """The suit a heuristic reads of a card: its printed suit, a joker's as a spade
    (the engine's rules decide legality; issue 30 leaves the rest to the bots' helper)."""
    return min(card // 13, SPADES)


class NormalBot:
    level = "normal"

    def act(self, obs: Observation, rules: Rules, rng: random.Random) -> int:
        return self.explain(obs, rules, rng)[0]

    def explain(self, obs: Observation, rules: Rules, rng: random.Random) -> tuple[int, str]:
        legal = obs.legal
        if not legal:
            raise ValueError("the bot was asked to act when its seat has no legal action")
        if len(legal) == 1:
            return legal[0], "the only legal move"
        phase = obs.phase
        if phase == DECLARE:
            return declare_choice(obs, rules)
        if phase == DRAFT:
            return draft_choice(obs, rules)
        if phase == EXCHANGE:
            return exchange_choice(obs, rules)
        if phase == PASS:
            return pass_choice(obs, rules)  # R-BN-4
        if phase == DISCARD_PHASE:
            return discard_choice(obs, rules)  # R-J-6
        if phase == BID:
            action, why = bid_choice(as_kept(obs, rules), rules)  # R-J-7 (b): on the cards it keeps
            return (action, why) if action in legal else bid_choice(obs, rules)
        if phase == PLAY:
            return play_choice(read_table(obs, rules))
        return legal[0], "the only kind of move here"


SET_SLACK = 1  # fight for tricks to set the opponents when they can lose at most this many

# -- scores and bags ----------------------------------------------------------------


def bag_cost(rules: Rules, bags_now: int) -> float:
    """Points one more overtrick costs this side (negative: it is worth points)."""
    b = rules.bags
    if not b.enabled:
        return 0.0
    cost = -float(b.value)
    if b.limit:
        cost += b.penalty / b.limit
        if bags_now + 1 >= b.limit:
            cost += b.penalty * 0.6  # the next bag or two trigger the penalty now
        elif bags_now + 3 >= b.limit:
            cost += b.penalty * 0.15
    return cost


def _scores(obs: Observation, rules: Rules) -> tuple[int, int]:
    """This seat's side's score and the best score of the other sides."""
    side = rules.side_of(obs.seat)
    return obs.scores[side], max(x for i, x in enumerate(obs.scores) if i != side)


# -- declaring double / blind nil --------------------------------------------------


def declare_choice(obs: Observation, rules: Rules) -> tuple[int, str]:
    if BLIND not in obs.legal:
        return NO_BLIND, "double nil is not available"
    mine, theirs = _scores(obs, rules)
    behind = theirs - mine
    value = rules.blind_nil.value
    # Against careful play a double nil rarely survives (self-play: about one in twenty),
    # so only as a last resort, when the opponents are all but certain to win anyway.
    # Two players: hardly ever, as the opponent then makes the contract that wins the game
    # anyway (self-play made 7 of 76); a blind nil with a partner at least has cover.
    desperate = obs.players == 4 and behind >= max(300, value + 100) and theirs >= rules.target - 50
    if desperate:
        return BLIND, f"behind by {behind} with the opponents near {rules.target}: a double nil is needed"
    return NO_BLIND, "not far enough behind to gamble on a double nil"


# -- the two-player draft ----------------------------------------------------------


_SIDE_VALUE = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.02, 0.05, 0.15, 0.3, 0.5, 0.75, 0.95)


def card_value(card: int) -> float:
    """Rough chance that a card takes a trick in the two-player game (for the draft)."""
    suit, rank = _suit(card), card % 13
    if suit == SPADES:
        return 0.45 + 0.55 * rank / 12
    return _SIDE_VALUE[rank]


def _draft_value(card: int, hand: int, nil: bool) -> float:
    if nil:
        return -card_danger(card, hand | 1 << card)
    return card_value(card)


def draft_choice(obs: Observation, rules: Rules) -> tuple[int, str]:
    card = obs.draft_card
    if card is None:
        return KEEP, "keeps the card"
    hand = mask_of(obs.hand)
    own = mask_of(obs.own_discards)
    nil = obs.declared[obs.seat]
    keep_v = _draft_value(card, hand, nil)
    unseen = FULL_DECK & ~hand & ~own & ~(1 << card)
    total = 0.0
    k = 0
    m = unseen
    while m:
        low = m & -m
        total += _draft_value(low.bit_length() - 1, hand, nil)
        k += 1
        m ^= low
    expect = total / k if k else 0.0
    if keep_v >= expect:
        return KEEP, "this card is worth more than a blind draw" + (" for the double nil" if nil else "")
    return DISCARD, "a blind draw is likely better than this card" + (" for the double nil" if nil else "")


def exchange_choice(obs: Observation, rules: Rules) -> tuple[int, str]:
    hand = mask_of(obs.hand)
    cards = [a for a in obs.legal if a < 52]
    if not cards:
        return EXCHANGE_DONE, "nothing to give up"
    worst = max(cards, key=lambda c: (card_danger(c, hand), c % 13))
    # The pile holds our own discards and about half of the cards we have not seen.
    own = mask_of(obs.own_discards)
    unseen = FULL_DECK & ~hand & ~own
    pile_danger = 0.0
    n = 0
    for c in range(52):
        if own >> c & 1:
            pile_danger += card_danger(c, hand)
            n += 1
    u = unseen.bit_count()
    if u:
        avg_unseen = sum(card_danger(c, hand) for c in range(52) if unseen >> c & 1) / u
        pile_danger += avg_unseen * max(0, 26 - n)
        n = max(n, 26)
    expect = pile_danger / n if n else 0.0
    if card_danger(worst, hand) > expect + 0.1:
        return worst, "swaps away its most dangerous card"
    return EXCHANGE_DONE, "keeps a hand that is already safe"


# -- bidding -----------------------------------------------------------------------


def _legal_bids(legal: tuple[int, ...]) -> list[int]:
    return [bid_of(a) for a in legal if BID_BASE <= a < BID_BASE + 14]


# Calibrated by self-play of this bot against itself and the easy bot (least squares of
# the tricks taken on the hand estimate and the bids already made): mean, spread.
_FIT_4P = (0.81, 0.83, 1.03)
_FIT_2P_FIRST = (2.35, 0.68, 2.17)
FIT_FIRST = {2: _FIT_2P_FIRST, 4: _FIT_4P}  # a seat's tricks before any bid: a + b * estimate
SECOND_BID_ROOM = 1.0  # 2P: tricks the opponent's low bid may add to the hand's own count


def expected_tricks(obs: Observation, rules: Rules) -> tuple[float, float]:
    """Mean and spread of the tricks this seat expects, from its hand and the bids made."""
    hand = mask_of(obs.hand)
    # A joker or a promoted deuce above the ace of spades (R-J-1, R-J-8) is all but a
    # sure trick; the estimates read only the 52 ordinary cards' ranks.
    extra = sum(0.9 for c in rules.trump_cards if c // 13 != SPADES and hand >> c & 1)
    if obs.players == 2:
        # R-2P-4: the features' model of a drafted hand (``hand.two_tricks``), fit on the
        # tricks this bot takes, bidding first or after the opponent's number.
        other = obs.bids[1 - obs.seat]
        own = mask_of(obs.own_discards)
        alone = two_tricks(hand, own, None) + extra
        if other is None or other == 0:
            # A nil opponent plays to lose every trick: ours come easier.
            return min(13.0, max(0.0, alone + (2.0 if other == 0 else 0.0))), TWO_SPREAD[0]
        # An opponent's low number frees tricks, but not many more than the hand takes
        # on its own: a player who underbids wildly (2 holding nine tricks) would draw a
        # bid that is set. On the fitted games the cap costs 0.02 tricks of error.
        mu = min(two_tricks(hand, own, other) + extra, alone + SECOND_BID_ROOM)
        return min(13.0, max(0.0, mu)), TWO_SPREAD[1]
    a, b, sd = _FIT_4P
    # Four seats of 13 cards: the features' model (``hand.seat_tricks``), fit on the
    # tricks sides take, reads a hand better than the estimate alone.
    four = obs.players == 4 and rules.hand_size == 13
    mu = (seat_tricks(hand) if four else a + b * estimate_tricks(hand, obs.players)) + b * extra
    partner = plan_for(rules).partner[obs.seat]
    if partner >= 0 and obs.bids[partner] == 0:
        mu += 0.5  # covering a partner's nil wins tricks anyway
    others = sum(b for i, b in enumerate(obs.bids) if b is not None and i != obs.seat)
    if others + mu > rules.hand_size:
        mu -= (others + mu - rules.hand_size) * 0.5
    return max(0.0, mu), sd


def _normal_pmf(mu: float, sd: float) -> list[float]:
    """A discretised normal distribution over 0..13 tricks (or 0..26 for a side)."""
    top = 26
    weights = [math.exp(-0.5 * ((t - mu) / sd) ** 2) for t in range(top + 1)]
    z = sum(weights)
    return [w / z for w in weights]


def contract_value(rules: Rules, contract: int, tricks: int, bags_now: int) -> float:
    """Points a side can expect from a contract and a number of tricks (bags priced in)."""
    if tricks < contract:
        return -10.0 * contract
    base = 10.0 * contract
    if rules.ten_for_two_hundred and contract >= 10:
        base = 200.0
    over = tricks - contract
    cost = bag_cost(rules, bags_now)
    return base - over * cost


def side_pmf(
    mu: float, sd: float, partner_bid: int | None, team: tuple[float, float] | None
) -> tuple[list[float], int]:
    """The chances of the side's tricks (the seat's ``mu`` and ``sd``, a partner's
    ``partner_bid`` and, as in ``best_bid``, ``team``), and the partner's bid (0: none)."""
    if partner_bid is None or partner_bid <= 0:
        return _normal_pmf(mu, sd), 0
    extra, spread = team if team is not None else (0.2, math.hypot(sd, 1.06))
    return _normal_pmf(mu + partner_bid + extra, spread), partner_bid


def best_bid(
    rules: Rules,
    bids: list[int],
    mu: float,
    sd: float,
    partner_bid: int | None,
    bags_now: int,
    *,
    greed: float = 0.0,
    team: tuple[float, float] | None = None,
) -> int:
    """The non-nil bid with the best expected value for the side, given the seat's tricks
    (mean ``mu``, spread ``sd``) and the partner's bid (its tricks assumed near its bid;
    ``team``: the tricks the partner takes beyond its bid and the side's spread, when
    measured for this estimate)."""
    pmf, base = side_pmf(mu, sd, partner_bid, team)
    best, best_v = None, -1e9
    for b in bids:
        if b <= 0:
            continue
        contract = base + b
        v = sum(p * contract_value(rules, contract, t, bags_now) for t, p in enumerate(pmf) if p > 1e-6)
        v += greed * 10 * contract * sum(p for t, p in enumerate(pmf) if t >= contract)
        if v > best_v:
            best, best_v = b, v
    return best if best is not None else min(bids)


# R-S-1: the nil danger (``hand.nil_danger``) of a median 13-card hand: the partner's
# hand, unseen, is as likely to be a safer nil as not below this.
SUICIDE_NIL_DANGER = 4.1


def fixed_bid(hand: int, rules: Rules, mu: float) -> int | None:
    """The bid a hand makes when the rules fix it by the spade-suit cards held (R-M-1
    Mirror: that count; R-W-1 Whiz: that count, or nil for a hand unlikely to take a
    trick), or None when the rules leave the number free."""
    plan = plan_for(rules)
    if plan.bid_mode == MODE_FREE:
        return None
    count = (hand & plan.trump).bit_count()
    if (
        plan.bid_mode == MODE_WHIZ
        and rules.nil.enabled
        and (count == 0 or (mu <= 2.5 and nil_danger(hand) <= 1.8))
    ):
        return 0
    return count


def nil_ok(obs: Observation, rules: Rules, hand: int, mu: float) -> bool:
    if not rules.nil.enabled:
        return False
    danger = nil_danger(hand)
    # A nil worth less than the usual 100 is worth less risk (R-C-10, nil.value).
    scale = min(1.0, rules.nil.value / 100)
    if plan_for(rules).partner[obs.seat] >= 0:
        pb = obs.bids[plan_for(rules).partner[obs.seat]]
        if pb == 0:
            return False  # both partners nil leaves no contract
        limit = 1.8 if (pb is None or pb >= 3) else 1.5  # a low partner bid: less cover (README)
        return danger <= limit * scale and mu <= 2.5
    return danger <= 0.9 * scale and mu <= 2.5


def _beside_nil_ok(obs: Observation, rules: Rules, desperate: bool) -> bool:
    """R-4P-7: a nil beside the partner's nil or blind nil (the blind one declared before
    the partner's bid is made) leaves the side no contract and two nils to defend with
    nobody to cover them: only when the opponents are about to win the game and the
    side, behind, needs both nils' points to catch them."""
    p = plan_for(rules).partner[obs.seat]
    if p < 0:
        return True
    if obs.bids[p] != 0 and not obs.declared[p]:
        return True
    theirs = rules.blind_nil.value if obs.declared[p] else rules.nil.value
    return desperate and obs.scores[rules.side_of(obs.seat)] + theirs + rules.nil.value >= rules.target


# R-NV-4: a hand expected to take fewer tricks than this bids zero rather than 1.
ZERO_BELOW = 0.75


def bid_choice(
    obs: Observation,
    rules: Rules,
    estimate: tuple[float, float] | None = None,
    nil_verdict: bool | None = None,
) -> tuple[int, str]:
    """The bid. ``estimate`` (mean and spread of the seat's tricks) and ``nil_verdict``
    (whether nil is a good idea) replace the rule-based ones when given (the hard bot
    measures them by simulation)."""
    bids = _legal_bids(obs.legal)
    hand = mask_of(obs.hand)
    mu, sd = estimate if estimate is not None else expected_tricks(obs, rules)
    side = rules.side_of(obs.seat)
    mine, theirs = _scores(obs, rules)
    sure = sure_tricks(hand, mask_of(obs.own_discards) if obs.players == 2 else 0)
    mu = max(mu, float(sure))
    partner = obs.bids[plan_for(rules).partner[obs.seat]] if plan_for(rules).partner[obs.seat] >= 0 else None
    desperate = theirs >= rules.target - 120 and theirs > mine + 100
    nil_allowed = 0 in bids and rules.nil.enabled and not sure and _beside_nil_ok(obs, rules, desperate)
    go_nil = nil_verdict if nil_verdict is not None else nil_ok(obs, rules, hand, mu)
    if rules.bidding.suicide and partner is None and 0 in bids:
        # R-S-1: one of the two must nil; the first to bid nils when its hand is the safer
        # nil of the two as far as it can tell (no sure trick, less danger than a typical
        # hand), else bids a number and leaves the nil to the partner.
        go_nil = nil_allowed and nil_danger(hand) <= SUICIDE_NIL_DANGER
    if nil_allowed and go_nil:
        return BID_BASE + 0, f"a nil: the hand has little that must win (about {mu:.1f} tricks)"
    greed = 0.0
    if desperate:
        # The opponents are about to win: only a big hand or a nil can catch them.
        greed = 0.5
        if nil_allowed and nil_verdict is None and mu <= 3 and nil_danger(hand) <= 2.5:
            return BID_BASE + 0, "the opponents are close to winning: a risky nil"
    second = estimate is None and obs.players == 4 and rules.hand_size == 13 and partner  # fitted:
    opp = [b for i, b in enumerate(obs.bids) if b is not None and rules.side_of(i) != side]
    team = (side_extra(opp, mu, partner or 0), SIDE_SPREAD_4P) if second else None
    choice = best_bid(rules, bids, mu, sd, partner, obs.bags[side], greed=greed, team=team)
    if ZERO in obs.legal and (choice == 0 or (choice == 1 and mu < ZERO_BELOW and not sure)):
        # R-NV-4: a zero cannot be set: better than a 1 it may miss, or a nil it does not want.
        return ZERO, f"zero: about {mu:.1f} tricks, no nil, and a zero cannot be set"
    why = f"expects about {mu:.1f} tricks"
    if (obs.players == 2 or (partner is not None and partner > 0)) and mine < rules.target:
        reach = reaching_bid(obs, rules, bids, choice, side_pmf(mu, sd, partner, team))
        if reach is not None:
            choice, why = reach
    # Never below the tricks the hand cannot lose: they are taken whatever it bids.
    floor = min((b for b in bids if b >= sure), default=choice)
    if choice < floor:
        return BID_BASE + floor, f"{sure} tricks no lie of the cards can take from it"
    return BID_BASE + choice, why


def reach_chance(obs: Observation, rules: Rules, bid: int, pmf: list[float]) -> float:
    """R-C-11, R-C-9: the chance that a bid of ``bid`` leaves the side's score at the
    target or more after the hand, the bag penalty its overtricks may bring counted (the
    side's tricks as ``pmf``; a partner who bid a number takes that many of them)."""
    seat, n, side = obs.seat, rules.players, rules.side_of(obs.seat)
    mate = plan_for(rules).partner[seat]
    bids = [max(1, b or 1) for b in obs.bids]
    bids[seat] = bid
    seats, base = ([seat], 0) if mate < 0 else ([seat, mate], bids[mate])
    chance = 0.0
    for t in range(base + bid, rules.hand_size + 1):
        if pmf[t] < 1e-6:
            continue
        tricks = [(rules.hand_size - t) // max(1, n - len(seats))] * n
        tricks[seat] = t - base
        if mate >= 0:
            tricks[mate] = base
        if (
            score_side(rules, bids, [False] * n, tricks, seats, obs.scores[side], obs.bags[side]).score
            >= rules.target
        ):
            chance += pmf[t]
    return chance


def reaching_bid(
    obs: Observation, rules: Rules, bids: list[int], choice: int, side: tuple[list[float], int]
) -> tuple[int, str] | None:
    """When a made contract can win the game (R-C-11): the bid that reaches the target
    most often over the side's tricks (``side``: their chances and the partner's bid, as
    ``side_pmf`` gives them), overtricks that cost the bag penalty (R-C-9) counted; the
    nearest to ``choice`` among equals. None when no bid can reach it."""
    mine = obs.scores[rules.side_of(obs.seat)]
    pmf, base = side
    if mine + contract_value(rules, base + choice, base + choice, 0) < rules.target:
        return None  # the bid for points does not end the game: no other aim
    numbers = [
        b for b in bids if b > 0 and mine + contract_value(rules, base + b, base + b, 0) >= rules.target
    ]
    chance = {b: reach_chance(obs, rules, b, pmf) for b in numbers}
    best = max(numbers, key=lambda b: (round(chance[b], 3), -abs(b - choice), -b))
    if best == choice or chance[best] <= 0.0:
        return None
    why = f"a bid of {best} reaches {rules.target} most often ({100 * chance[best]:.0f}%, bags counted)"
    return best, why


# -- play --------------------------------------------------------------------------


def _share(view: TableView, seat: int) -> float:
    """The chance that a given unknown card is in ``seat``'s hand."""
    u = view.unknown.bit_count()
    if u == 0:
        return 0.0
    played = sum(1 for t in view.obs.tricks for i in range(len(t.cards)) if (t.leader + i) % view.n == seat)
    played += sum(1 for s, _ in view.trick if s == seat)
    size = view.rules.hand_size - played
    return min(1.0, size / u)


def beaten_chance(view: TableView, card: int, seat: int) -> float:
    """Chance that ``seat`` (to play later in this trick) holds something that beats ``card``."""
    led = view.led_suit if view.trick else view.order.suit[card]
    suit = view.order.suit[card]
    share = _share(view, seat)
    if share <= 0:
        return 0.0
    void = view.voids[seat]
    order = view.order
    sp_out = view.unknown & order.trump
    higher = view.unknown & order.suit_mask[card] & order.beaten_by[card]
    if suit == SPADES and led != SPADES:
        # A ruff can only be overruffed by a seat that is void in the led suit too.
        if void >> SPADES & 1 or not higher:
            return 0.0
        void_led = (
            1.0
            if void >> led & 1
            else (1 - share) ** (view.unknown & order.suit_mask[view.trick[0][1]]).bit_count()
        )
        return void_led * (1 - (1 - share) ** higher.bit_count())
    if void >> suit & 1:
        if suit == SPADES or void >> SPADES & 1 or not sp_out:
            return 0.0
        return 0.85
    p_high = 1 - (1 - share) ** higher.bit_count()
    if suit == SPADES:
        return p_high
    p_void = (1 - share) ** (view.unknown & order.suit_mask[card]).bit_count()
    p_ruff = p_void * (0.0 if (void >> SPADES & 1 or not sp_out) else 0.8)
    return 1 - (1 - p_high) * (1 - p_ruff)


def win_chance(view: TableView, card: int, *, against_all: bool = False) -> float:
    """Chance that ``card`` played now wins the trick (partner's cards count as ours
    unless ``against_all``)."""
    if view.trick and not view.beats(card, view.win_card):
        return 0.0
    p = 1.0
    for s in view.seats_after():
        if not against_all and view.is_partner(s):
            continue
        p *= 1 - beaten_chance(view, card, s)
    return p


def _need(view: TableView, side: int) -> int:
    return view.contract(side) - view.side_tricks(side, with_nil=view.rules.nil.failed_tricks == "partner")


def play_choice(view: TableView) -> tuple[int, str]:
    cards = list(view.obs.legal)
    me = view.seat
    if view.is_nil(me) and view.obs.tricks_won[me] == 0:
        return _play_nil(view, cards)
    if view.partner >= 0 and view.is_nil(view.partner) and view.obs.tricks_won[view.partner] == 0:
        choice = _cover_partner_nil(view, cards)
        if choice is not None:
            return choice
    cards = no_equal_overtake(view, cards)
    opp_nil = [
        s
        for s in range(view.n)
        if view.rules.side_of(s) != view.side and view.is_nil(s) and view.obs.tricks_won[s] == 0
    ]
    need = _need(view, view.side)
    left = view.tricks_left()
    at_risk = need > 0 and need >= left - 1
    if opp_nil and not at_risk:
        choice = _break_nil(view, cards, opp_nil)
        if choice is not None:
            return choice
    if _wants_tricks(view, need):
        return _play_to_win(view, cards, need)
    return _play_to_duck(view, cards)


def equal_run(view: TableView, low: int, high: int) -> bool:
    """Cards ``low`` below ``high`` in one suit (the rules' order: JJDD's 2S is above the
    ace) with nothing between them but this hand's cards and cards already played:
    whichever of them wins, the other is as good."""
    order = view.order
    if order.suit[low] != order.suit[high] or not order.beaten_by[low] >> high & 1:
        return False
    between = order.suit_mask[low] & order.beaten_by[low] & ~order.beaten_by[high] & ~(1 << high)
    return not between & ~(view.hand | view.played)


def no_equal_overtake(view: TableView, cards: list[int]) -> list[int]:
    """The cards left when those that would only overtake the partner's winning card
    with an equal one are set aside, if a card that stays under it is legal (a partner's
    unbroken nil excepted: that card must be overtaken). Overtaking with an equal card
    wins the side nothing and spends a high card."""
    if view.partner < 0 or view.win_seat != view.partner:
        return cards
    if view.is_nil(view.partner) and view.obs.tricks_won[view.partner] == 0:
        return cards
    w = view.win_card
    if all(view.beats(c, w) for c in cards):
        return cards
    return [c for c in cards if not equal_run(view, w, c)]


def _third_hand_high(view: TableView, cards: list[int]) -> int | None:
    """Third to play after the partner's lead, the trick not safely the side's: the
    highest card of the led suit that beats the card winning it, the lowest of its equal
    run (it makes the fourth hand spend a higher card, or wins)."""
    if view.partner < 0 or view.position != 2 or view.trick[0][0] != view.partner:
        return None
    over = [c for c in cards if view.order.suit[c] == view.led_suit and view.beats(c, view.win_card)]
    if not over:
        return None
    top = max(over, key=lambda c: view.rank[c])
    return min((c for c in over if c == top or equal_run(view, c, top)), key=lambda c: view.rank[c])


def _wants_tricks(view: TableView, need: int) -> bool:
    if need > 0:
        return True
    rules = view.rules
    cost = bag_cost(rules, view.obs.bags[view.side])
    left = view.tricks_left()
    for opp in range(rules.sides):
        if opp != view.side and _set_them(view, opp, left, cost):
            return True
    return cost <= 0


def _set_them(view: TableView, opp: int, left: int, cost: float) -> bool:
    """Whether setting side ``opp``'s contract is worth fighting for now."""
    rules = view.rules
    opp_need = _need(view, opp)
    if opp_need > 0 and view.contract(opp) > 0:
        slack = left - opp_need
        their_score = view.obs.scores[opp]
        # The opponents win the game if they make it: stop them at any cost.
        if their_score + 10 * view.contract(opp) >= rules.target and slack <= 3:
            return True
        # Setting them swings twice their contract; each trick we take may be a bag.
        set_gain = 20 * view.contract(opp)
        if slack <= SET_SLACK or (slack <= SET_SLACK + 1 and set_gain > 8 * cost):
            return True
    return False


def _cheapest(view: TableView, cards: list[int]) -> int:
    """The least valuable card: low rank, non-spade first."""
    return min(cards, key=lambda c: (view.order.suit[c] == SPADES, view.rank[c]))


def _discard(view: TableView, cards: list[int], *, keep_winners: bool = True) -> int:
    """A card to throw when not trying to win: low, from a short side suit, not a master."""
    hand = view.hand

    def key(c: int) -> tuple[int, int, int, int]:
        suit = view.order.suit[c]
        length = (hand & view.order.suit_mask[c]).bit_count()
        master = 1 if keep_winners and view.is_master(c) and view.rank[c] >= 8 else 0
        return (suit == SPADES, master, view.rank[c] + (0 if length <= 2 else 3), length)

    return min(cards, key=key)


def _play_to_win(view: TableView, cards: list[int], need: int) -> tuple[int, str]:
    if not view.trick:
        return _lead_to_win(view, cards)
    win_p = {c: win_chance(view, c) for c in cards}
    partner_winning = view.partner >= 0 and view.win_seat == view.partner
    if partner_winning:
        held = 1.0
        for s in view.seats_after():
            held *= 1 - beaten_chance(view, view.win_card, s)
        high = _third_hand_high(view, cards) if held < 0.6 else None
        if high is not None and win_p[high] > held:
            return high, "third hand high: the last opponent must spend a higher card"
        if held >= 0.6 or not any(win_p[c] > held + 0.25 for c in cards):
            return _discard(view, cards), "leaves the trick to its partner's winning card"
    good = [c for c in cards if win_p[c] >= 0.6]
    if good:
        c = min(good, key=lambda c: (view.order.suit[c] == SPADES and view.led_suit != SPADES, view.rank[c]))
        return c, "wins the trick as cheaply as it safely can"
    high = _third_hand_high(view, cards)
    if high is not None:
        return high, "third hand high: the last opponent must spend a higher card"
    winners = [c for c in cards if win_p[c] > 0]
    left = view.tricks_left()
    if winners and (view.position == view.n - 1 or need >= left - 1):
        c = max(winners, key=lambda c: (win_p[c], -(view.rank[c])))
        return c, "tries for a trick its side needs"
    return _discard(view, cards), "cannot win this trick cheaply: throws a low card"


def _lead_to_win(view: TableView, cards: list[int]) -> tuple[int, str]:
    masters = [c for c in cards if view.order.suit[c] != SPADES and win_chance(view, c) >= 0.7]
    if masters:
        return max(masters, key=lambda c: win_chance(view, c)), "cashes a winner"
    spades = [c for c in cards if view.order.suit[c] == SPADES]
    if spades:
        top = high_card(spades, view.order)
        # Draw trumps when ours are the best ones.
        if view.is_master(top) and len(spades) >= 2:
            return top, "draws trumps with the top spade"
    side = [c for c in cards if view.order.suit[c] != SPADES]
    if side:
        partner_void = view.voids[view.partner] if view.partner >= 0 else 0
        opp_void = 0
        for s in range(view.n):
            if view.rules.side_of(s) != view.side:
                opp_void |= view.voids[s]

        def key(c: int) -> tuple[int, int, int]:
            suit = view.order.suit[c]
            length = (view.hand & view.order.suit_mask[c]).bit_count()
            ruffed = 1 if opp_void >> suit & 1 else 0
            helps = 0 if partner_void >> suit & 1 else 1
            return (ruffed, helps, -length)

        best_suit = view.order.suit[min(side, key=key)]
        return low_card(
            [c for c in side if view.order.suit[c] == best_suit], view.order
        ), "leads low from its longest suit"
    return low_card(cards, view.order), "leads a low spade"


def _play_to_duck(view: TableView, cards: list[int]) -> tuple[int, str]:
    if not view.trick:

        def key(c: int) -> tuple[float, int]:
            return (win_chance(view, c, against_all=True), view.rank[c])

        return min(cards, key=key), "the contract is safe: leads a card unlikely to win"
    losers = [c for c in cards if not view.beats(c, view.win_card)]
    if losers:
        return high_card_nonspade(view, losers), "the contract is safe: ducks with its highest losing card"
    c = min(cards, key=lambda c: (win_chance(view, c, against_all=True), -(view.rank[c])))
    return c, "must win or risk: plays the card least likely to hold"


def high_card_nonspade(view: TableView, cards: list[int]) -> int:
    non = [c for c in cards if view.order.suit[c] != SPADES]
    return high_card(non or cards, view.order)


# -- nil ---------------------------------------------------------------------------


def _play_nil(view: TableView, cards: list[int]) -> tuple[int, str]:
    if not view.trick:

        def lead_key(c: int) -> tuple[float, int]:
            return (win_chance(view, c, against_all=True), view.rank[c])

        return min(cards, key=lead_key), "nil: leads its safest low card"
    losers = [c for c in cards if not view.beats(c, view.win_card)]
    if losers:
        # Throw the most dangerous card that still loses.
        return max(
            losers, key=lambda c: (card_danger(c, view.hand), view.rank[c])
        ), "nil: plays under the winner"
    if view.position == view.n - 1:
        return high_card(cards, view.order), "nil: the trick is lost anyway, so unloads the highest card"
    c = min(cards, key=lambda c: (win_chance(view, c, against_all=True), view.rank[c]))
    return c, "nil: plays the card most likely to be beaten"


def _cover_partner_nil(view: TableView, cards: list[int]) -> tuple[int, str] | None:
    partner = view.partner
    played = {s for s, _ in view.trick}
    if not view.trick:
        # Lead high where the partner can play under, ideally a suit the partner lacks.
        pv = view.voids[partner]
        void_suits = [c for c in cards if pv >> (view.order.suit[c]) & 1]
        if void_suits:
            return high_card(void_suits, view.order), "leads a suit its nil partner lacks"
        strong = [c for c in cards if win_chance(view, c, against_all=True) >= 0.5]
        if strong:
            return high_card(strong, view.order), "leads a winner to cover its partner's nil"
        return high_card_nonspade(view, cards), "leads high to protect its partner's nil"
    if partner in played:
        if view.win_seat == partner:
            over = [c for c in cards if view.beats(c, view.win_card)]
            if over:
                return _cheapest(view, over), "overtakes its nil partner's card"
        return None
    # Partner plays after us: win the trick high so the partner can duck under.
    winners = [c for c in cards if view.beats(c, view.win_card)] if view.trick else cards
    if winners:
        c = max(winners, key=lambda c: (win_chance(view, c, against_all=True), view.rank[c]))
        return c, "plays high to cover its partner's nil"
    return None


def _break_nil(view: TableView, cards: list[int], nils: list[int]) -> tuple[int, str] | None:
    played = {s for s, _ in view.trick}
    if not view.trick:
        # Lead low where the nil bidder still holds cards (not a suit they lack), and not
        # where its partner is void with spades left to ruff over the nil's card.
        target = nils[0]
        tv = view.voids[target]
        cover = plan_for(view.rules).partner[target]
        ruffs = view.voids[cover] if cover >= 0 and not view.voids[cover] >> SPADES & 1 else 0
        side = [c for c in cards if not tv >> (view.order.suit[c]) & 1 and view.order.suit[c] != SPADES]
        cand = [c for c in side if not ruffs >> view.order.suit[c] & 1] or side or cards
        return low_card(cand, view.order), "leads low to pressure the opponent's nil"
    for nil_seat in nils:
        if nil_seat in played and view.win_seat == nil_seat:
            losers = [c for c in cards if not view.beats(c, view.win_card)]
            if losers:
                return _discard(view, losers), "stays under the opponent's nil card"
        elif nil_seat not in played:
            losers = [c for c in cards if not view.beats(c, view.win_card)] if view.trick else []
            low = losers or cards
            if view.win_seat != -1 and view.is_partner(view.win_seat) and losers:
                return low_card(losers, view.order), "keeps the trick low for the opponent's nil to win"
            if not losers:
                return low_card(cards, view.order), "plays low so the opponent's nil may have to win"
            return low_card(low, view.order), "plays low against the opponent's nil"
    return None
