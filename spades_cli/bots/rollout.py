"""Playing out the rest of a hand quickly, in a world where every hand is known.

The hard bot samples worlds (``bots.determinize``) and, for each candidate action,
plays the hand to its end with :func:`fast_card`, a cheap contract-minded policy that
reads the world's hands directly (so it knows exactly whether a card can be beaten).
:func:`hand_utility` turns the finished hand into a number for the deciding side:
the score difference, with carried bags priced as future penalties and a large
bonus or loss when the hand ends the game.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from spades_cli.engine import HandResult, Rules, State
from spades_cli.engine.cards import NON_SPADE_MASK, SPADE_MASK, SUIT_MASKS
from spades_cli.engine.plan import plan_for
from spades_cli.engine.play import beating_mask, beats
from spades_cli.engine.scoring import game_over

WIN_VALUE = 600.0
# The race to the target, for :func:`game_utility`: a side's points in one hand average
# about HAND_MEAN, and the difference between the two sides' points in one hand varies
# by about HAND_SPREAD (standard deviation), keyed by the number of players (games of
# the hard bot against the normal bot).
HAND_MEAN = {2: 48.0, 4: 48.0}
HAND_SPREAD = {2: 85.0, 4: 85.0}
POINT_WEIGHT = 0.1  # game_utility: points still break ties between equal chances


@dataclass(slots=True)
class Context:
    """Facts about the hand that do not change during a rollout."""

    nil: list[bool]  # per seat: bid nil (or blind nil)
    contract: list[int]  # per side
    nil_toward: bool  # a failed nil's tricks count toward the partner's bid
    duck: list[bool]  # per side: once the contract is made, avoid overtricks
    n: int
    side_of: tuple[int, ...]  # per seat: its side (R-4P-1, R-CT-1, R-I-1)
    seats: tuple[tuple[int, ...], ...]  # per side: its seats
    partner: tuple[int, ...]  # per seat: its partner, -1 for none
    tricks: int  # the tricks of a hand (rules.hand_size)


def make_context(st: State) -> Context:
    rules = st.rules
    n = st.n
    nil = [rules.is_nil(st.bids[s], st.blind[s], st.zero[s]) for s in range(n)]
    plan = plan_for(rules)
    side_of = tuple(rules.side_of(s) for s in range(n))
    contract = [0] * plan.sides
    for s in range(n):
        if not nil[s] and st.bids[s] > 0:
            contract[side_of[s]] += st.bids[s]
    duck = [_bag_hurts(rules, st.bags[side]) for side in range(plan.sides)]
    toward = rules.nil.failed_tricks == "partner"
    return Context(nil, contract, toward, duck, n, side_of, plan.side_seats, plan.partner, plan.hand_size)


def _bag_hurts(rules: Rules, bags_now: int) -> bool:
    b = rules.bags
    if not b.enabled:
        return False
    cost = -b.value + (b.penalty / b.limit if b.limit else 0.0)
    return cost > 0


def _low(m: int) -> int:
    return (m & -m).bit_length() - 1


def _high(m: int) -> int:
    return m.bit_length() - 1


def _lowest_rank(m: int) -> int:
    """The lowest-ranked card of a mask (non-spades before spades at equal rank)."""
    best = -1
    best_key = 99
    for suit in (0, 1, 2, 3):
        part = m & SUIT_MASKS[suit]
        if part:
            c = _low(part)
            key = (c - 13 * suit) * 2 + (suit == 3)
            if key < best_key:
                best, best_key = c, key
    return best if best >= 0 or not m else _low(m)  # (only jokers: the Little one)


def _highest_rank(m: int) -> int:
    best = -1
    best_key = -99
    for suit in (0, 1, 2, 3):
        part = m & SUIT_MASKS[suit]
        if part:
            c = _high(part)
            key = (c - 13 * suit) * 2 - (suit == 3)
            if key > best_key:
                best, best_key = c, key
    return best if best >= 0 or not m else _high(m)  # (only jokers: the Big one)


def _beaten_later(st: State, card: int, led: int, seats: list[int]) -> bool:
    """Can any of ``seats`` (still to play this trick) beat ``card``?"""
    hands = st.hands
    for t in seats:
        h = hands[t]
        follow = h & SUIT_MASKS[led]
        if follow:
            if min(card // 13, 3) == led and beats(_high(follow), card):
                return True
        else:
            sp = h & SPADE_MASK
            if sp and beats(_high(sp), card):
                return True
    return False


def fast_card(st: State, ctx: Context) -> int:
    """A card for the seat on turn (the play phase), knowing every hand."""
    mask = st.legal_mask()
    if not mask & (mask - 1):
        return _low(mask)
    s = st.current
    n = ctx.n
    side = ctx.side_of[s]
    trick = st.trick
    pos = len(trick)
    later = [(s + k) % n for k in range(1, n - pos)]
    opp_later = [t for t in later if ctx.side_of[t] != side]
    won = st.tricks_won
    # My own nil: stay under.
    if ctx.nil[s] and won[s] == 0:
        return _duck(st, mask, trick, later, nil=True)
    partner = ctx.partner[s]
    if partner >= 0 and ctx.nil[partner] and won[partner] == 0:
        c = _cover(st, mask, trick, partner, later, opp_later)
        if c >= 0:
            return c
    for t in range(n):
        if ctx.side_of[t] != side and ctx.nil[t] and won[t] == 0 and not _at_risk(st, ctx, side):
            c = _against_nil(st, mask, trick, t, later)
            if c >= 0:
                return c
    want = _wants(st, ctx, side)
    if want:
        return _win(st, mask, trick, partner, later, opp_later)
    return _duck(st, mask, trick, later, nil=False)


def _toward(st: State, ctx: Context, side: int) -> int:
    won = st.tricks_won
    total = 0
    for t in ctx.seats[side]:
        if not ctx.nil[t] or ctx.nil_toward:
            total += won[t]
    return total


def _at_risk(st: State, ctx: Context, side: int) -> bool:
    need = ctx.contract[side] - _toward(st, ctx, side)
    return need > 0 and need >= ctx.tricks - 1 - st.trick_no


def losing_cards(mask: int, win: int) -> int:
    """The cards of ``mask`` that would not beat ``win``, the card winning the trick (R-C-4):
    a higher card of its suit or, unless it is a spade, any spade would beat it."""
    return mask & ~beating_mask(win)


def _against_nil(st: State, mask: int, trick: list[int], nil_seat: int, later: list[int]) -> int:
    """Try to make an opponent's nil take a trick; -1 when nothing applies."""
    if trick:
        win = st.win_card
        under = losing_cards(mask, win)
        if st.win_seat == nil_seat:
            return _highest_rank(under & NON_SPADE_MASK or under) if under else -1
        if nil_seat in later:
            return _lowest_rank(under or mask)
        return -1
    # Lead low in a suit where the nil bidder's lowest card is above ours.
    theirs = st.hands[nil_seat]
    for suit in (0, 1, 2, 3):
        mine = mask & SUIT_MASKS[suit]
        their = theirs & SUIT_MASKS[suit]
        if mine and their and _low(their) > _low(mine):
            return _low(mine)
    return -1


def _wants(st: State, ctx: Context, side: int) -> bool:
    won = st.tricks_won
    if _toward(st, ctx, side) < ctx.contract[side]:
        return True
    for opp in range(len(ctx.contract)):
        need = ctx.contract[opp]
        if opp == side or not need:
            continue
        have = 0
        for t in ctx.seats[opp]:
            if not ctx.nil[t] or ctx.nil_toward:
                have += won[t]
        if have < need and (ctx.tricks - st.trick_no) - (need - have) <= 1:
            return True  # the opponents can barely make it: try to set them
    return not ctx.duck[side]


def _win(st: State, mask: int, trick: list[int], partner: int, later: list[int], opp_later: list[int]) -> int:
    if trick:
        led = min(trick[0] // 13, 3)  # (a joker: a spade)
        win = st.win_card
        if st.win_seat == partner and not _beaten_later(st, win, led, opp_later):
            return _throw(st, mask)
        best = -1
        m = mask
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            # Cards that beat the winner are all of one suit (followers or trumps): the
            # first one found, scanning upward, is the cheapest.
            if beats(c, win) and not _beaten_later(st, c, led, opp_later):
                best = c
                break
        if best >= 0:
            return best
        return _throw(st, mask)
    # Leading: a card nobody on the other side can beat, else low from a long suit.
    m = mask
    sure = -1
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        if not _beaten_later(st, c, min(c // 13, 3), opp_later) and (sure < 0 or c < 39 <= sure):
            sure = c
    if sure >= 0:
        return sure
    side_cards = mask & NON_SPADE_MASK
    pool = side_cards or mask
    hand = st.hands[st.current]
    best_suit, best_len = 0, -1
    for suit in (0, 1, 2, 3):
        if pool & SUIT_MASKS[suit]:
            length = (hand & SUIT_MASKS[suit]).bit_count()
            if length > best_len:
                best_suit, best_len = suit, length
    return _low(pool & SUIT_MASKS[best_suit])


def _throw(st: State, mask: int) -> int:
    """A card to lose with: the lowest side-suit card, from the shortest suit."""
    side_cards = mask & NON_SPADE_MASK
    if not side_cards:
        return _low(mask)
    hand = st.hands[st.current]
    best, best_key = -1, 99
    for suit in (0, 1, 2):
        part = side_cards & SUIT_MASKS[suit]
        if part:
            c = _low(part)
            key = (c - 13 * suit) * 2 + ((hand & SUIT_MASKS[suit]).bit_count() > 2) * 6
            if key < best_key:
                best, best_key = c, key
    return best


def _duck(st: State, mask: int, trick: list[int], later: list[int], *, nil: bool) -> int:
    if not trick:
        # Lead the card most likely to be beaten: the lowest rank, side suits first.
        return _lowest_rank(mask)
    win = st.win_card
    led = min(trick[0] // 13, 3)
    under = losing_cards(mask, win)
    if under:
        # The highest card that still loses (unload danger), side suits first.
        side_under = under & NON_SPADE_MASK
        return _highest_rank(side_under or under)
    if not later:
        return _highest_rank(mask)
    # Everything beats the current winner: play one a later seat can beat, else the lowest.
    m = mask
    pick = -1
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        if _beaten_later(st, c, led, later) and (pick < 0 or c % 13 > pick % 13):
            pick = c
    return pick if pick >= 0 else _lowest_rank(mask)


def _cover(
    st: State, mask: int, trick: list[int], partner: int, later: list[int], opp_later: list[int]
) -> int:
    """Protect the partner's nil; -1 when there is nothing special to do."""
    if partner in later:
        # Win high so the partner can play under.
        if trick:
            win = st.win_card
            over = 0
            m = mask
            while m:
                low = m & -m
                c = low.bit_length() - 1
                m ^= low
                if beats(c, win):
                    over |= low
            if over:
                return _high(over)
            return -1
        return _highest_rank(mask)
    if trick and st.win_seat == partner:
        win = st.win_card
        best = -1
        m = mask
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            if beats(c, win):
                best = c
                break
        return best
    return -1


def play_out(st: State, ctx: Context) -> HandResult:
    """Play the hand to its end with :func:`fast_card`; the state is consumed."""
    hands_before = len(st.results)
    apply = st.apply
    while len(st.results) == hands_before:
        if st.current < 0:  # a chance node or the end: the play phase was left early
            raise RuntimeError("a rollout left the play phase before the hand ended")
        card = fast_card(st, ctx)
        apply(card if card >= 0 else _low(st.legal_mask()))  # (-1: a joker no heuristic reads)
    return st.results[-1]


def _rival(result: HandResult, side: int) -> int:
    """The other side that ``side`` races: the other one of two, else the best scored
    (cutthroat and solo, R-CT-1, R-I-1)."""
    if len(result.sides) == 2:
        return 1 - side
    others = [t for t in range(len(result.sides)) if t != side]
    return max(others, key=lambda t: result.sides[t].score)


def hand_utility(rules: Rules, side: int, result: HandResult) -> float:
    """The value of a finished hand for ``side``: points gained over the opponents, where
    a bag carried is priced at its share of the future penalty (so a penalty is spread
    over the bags that cause it), plus a large bonus or loss when the hand ends the game."""
    b = rules.bags
    per_bag = b.penalty / b.limit if (b.enabled and b.limit) else 0.0
    value = 0.0
    rival = _rival(result, side)
    for k, sr in ((1.0, result.sides[side]), (-1.0, result.sides[rival])):
        carried = sr.bags
        if per_bag and sr.bag_penalty:
            carried -= (b.limit or 0) * (-sr.bag_penalty // b.penalty)
        value += k * (sr.points - per_bag * carried)
    me, opp = result.sides[side].score, result.sides[rival].score
    if game_over(rules, (me, opp)):
        # R-C-11: once the game is decided, only who won matters.
        return WIN_VALUE if me > opp else -WIN_VALUE
    return value


def win_chance(rules: Rules, me: float, opp: float) -> float:
    """The chance that the side with score ``me`` (bags carried priced in) wins the game
    against ``opp``: the lead against the spread of the hands still to play, of which
    there are about as many as the leader needs to reach the target."""
    n = rules.players
    left = max(1.0, (rules.target - max(me, opp)) / HAND_MEAN.get(n, 48.0))
    z = (me - opp) / (HAND_SPREAD.get(n, 85.0) * math.sqrt(left))
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def game_utility(rules: Rules, side: int, result: HandResult) -> float:
    """The value of a finished hand for ``side`` in terms of the game: the chance of
    winning it from the scores after the hand (spread over -WIN_VALUE .. WIN_VALUE), with
    the hand's points (:func:`hand_utility`) as a small tie-break. Near the target this
    weighs a set or a made contract by what it does to the race, not by its points."""
    mine, theirs = result.sides[side], result.sides[_rival(result, side)]
    if game_over(rules, (mine.score, theirs.score)):
        return WIN_VALUE if mine.score > theirs.score else -WIN_VALUE
    value = hand_utility(rules, side, result)
    b = rules.bags
    per_bag = b.penalty / b.limit if (b.enabled and b.limit) else 0.0
    me = mine.score - per_bag * mine.bags_total
    chance = win_chance(rules, me, theirs.score - per_bag * theirs.bags_total)
    return WIN_VALUE * (2.0 * chance - 1.0) + POINT_WEIGHT * value
