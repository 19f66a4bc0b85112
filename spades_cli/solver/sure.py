"""Sure-trick bounds of the double-dummy solver (``solver/search.py``) at a trick's start:
tricks the leader's side can cash, and tricks the spades win whoever leads.

The bounds are on the *counted* tricks still to come (the seats ``counted`` marks), with
the cards they depend on (``rel``: the highest card of a suit that the hand in question
does not hold; more top cards in that hand could only make a bound stronger). The
result is packed in one int: ``lo | hi << 4 | rel << 8``.

``trump`` is the trump suit of the rules' card order (engine/play.py: ``CardOrder``).
The bounds hold for an order whose trumps are one whole suit of the 52 card numbers,
ranked as the numbers, and which every other card follows by its number's suit (today's
only order); a variant with another order (jokers above the ace, the 2 of diamonds a
spade) needs the trumps here ranked by their place in its order.
"""

from __future__ import annotations

from typing import Final

from spades_cli.solver.table import POP13

_SUIT: Final = 0x1FFF


def sure_bounds(
    hands: list[int], leader: int, first: bool, left: int, counted: list[bool], trump: int
) -> int:
    """The tighter of the cashing bounds (``cash_bounds``) and the spade bounds
    (``spade_bounds``), with the cards the bounds kept depended on."""
    got = cash_bounds(hands, leader, first, left, counted, trump)
    more = spade_bounds(hands, left, counted, trump)
    lo = got & 15
    hi = (got >> 4) & 15
    m_lo = more & 15
    m_hi = (more >> 4) & 15
    if m_lo <= lo and m_hi >= hi:
        return got
    if m_lo >= lo and m_hi <= hi:
        return more
    # Each gave one of the bounds: both sets of cards count.
    return (m_lo if m_lo > lo else lo) | (m_hi if m_hi < hi else hi) << 4 | ((got | more) >> 8) << 8


def cash_bounds(
    hands: list[int], leader: int, first: bool, left: int, counted: list[bool], trump: int
) -> int:
    """Bounds from sure tricks (R-C-4): the spades of one hand higher than every other
    spade each win a trick for that hand; the leader's side can cash the leader's top
    cards of the side suits (or, leading to them, the partner's) while every opponent
    who holds a spade must follow."""
    n = len(hands)
    tb = 13 * trump  # the trumps' first card number
    union = 0
    for h in hands:
        union |= h
    lo = 0
    hi = left
    spades = (union >> tb) & _SUIT
    holder = -1
    sure = 0
    rel = 0
    if spades:
        top = 1 << (spades.bit_length() - 1)
        for s in range(n):
            if (hands[s] >> tb) & top:
                holder = s
        own = (hands[holder] >> tb) & _SUIT
        others = spades & ~own
        sure = POP13[own] if others == 0 else POP13[own >> others.bit_length()]
        if others:
            rel = 1 << (tb - 1 + others.bit_length())
    partner = (leader + 2) % 4 if n == 4 else leader
    # The cashed tricks go to the leader's side (its partner may ruff them).
    mine = counted[leader] and counted[partner]
    none = not counted[leader] and not counted[partner]
    if holder >= 0 and holder != leader and holder != partner:
        if counted[holder]:
            lo = sure
        else:
            hi = left - sure
    if first or not (mine or none):
        if holder in (leader, partner):
            if counted[holder]:
                lo = sure
            else:
                hi = left - sure
        if first or partner == leader:
            return lo | hi << 4 | rel << 8
        # One seat of the leader's side is counted (a seat's own tricks).
        seat = leader if counted[leader] else partner
        got = _cash(hands, seat, union, -1 if seat == leader else leader, trump)
        helper = hands[partner if seat == leader else leader]
        # The helper plays a non-spade to every trick of the run (its lead included).
        free = _non_spades(helper, tb)
        cash = got & 15 if got & 15 <= free else free
        cash += sure if holder == seat else 0
        if cash > left:
            cash = left
        if cash > lo:
            lo = cash
            rel |= got >> 4
        return lo | hi << 4 | rel << 8
    got = _cash(hands, leader, union, -1, trump)
    cash = (got & 15 if partner == leader else _forced(got & 15, hands[partner], 0, tb)) + (
        sure if holder == leader else 0
    )
    cash_rel = got >> 4
    if partner != leader:
        via = _cash(hands, partner, union, leader, trump)
        alt = _forced(via & 15, hands[leader], 1, tb) + (sure if holder == partner else 0)
        if alt > cash:
            cash = alt
            cash_rel = via >> 4
    if holder == partner and sure > cash:
        cash = sure
        cash_rel = 0
    if cash > left:
        cash = left
    if mine:
        lo = cash if cash > lo else lo
    elif left - cash < hi:
        hi = left - cash
    return lo | hi << 4 | (rel | cash_rel) << 8


def spade_bounds(hands: list[int], left: int, counted: list[bool], trump: int) -> int:
    """Bounds from the spades (R-C-4): a hand's spade loses a trick only to a higher
    spade of another hand played to the same trick, and every card is played to a trick
    of its own, so a hand wins at least as many tricks as it has spades left over when
    each spade of the other hands beats one lower spade of it; for its side, only the
    other side's spades count against it. Packed as ``sure_bounds``; ``rel`` is the
    lowest spade left over (the owners of the spades down to it decide the count)."""
    n = len(hands)
    tb = 13 * trump  # the trumps' first card number
    lo = 0
    hi = left
    rel = 0
    union = 0
    for h in hands:
        union |= h
    spades = (union >> tb) & _SUIT
    extra = 0
    extra_rel = 0
    for side in range(2):
        other = 0
        for s in range(1 - side, n, 2):
            other |= (hands[s] >> tb) & _SUIT
        mine = all(counted[s] for s in range(side, n, 2))
        theirs = not any(counted[s] for s in range(side, n, 2))
        for s in range(side, n, 2):
            own = (hands[s] >> tb) & _SUIT
            if not own:
                continue
            if mine or theirs:
                got = _left_over(own, other)
                k = got & 15
                if k > left:
                    k = left
                if mine and k > lo:
                    lo = k
                    rel |= got >> 4 << tb
                elif theirs and left - k < hi:
                    hi = left - k
                    rel |= got >> 4 << tb
            else:
                # A seat counted alone: its partner's spades count against it too, and
                # the partner's own sure tricks are not the seat's.
                got = _left_over(own, spades & ~own)
                k = got & 15
                if counted[s] and k > lo:
                    lo = k
                    rel |= got >> 4 << tb
                elif not counted[s] and k:
                    extra = k
                    extra_rel = got >> 4 << tb
    if extra and hi - extra >= lo:
        # The other side's sure tricks (in ``hi``) and the partner's are other tricks.
        hi -= extra
        rel |= extra_rel
    return lo | hi << 4 | rel << 8


def _left_over(own: int, other: int) -> int:
    """The spades of ``own`` that no spade of ``other`` can be matched to (each beating
    one lower spade of ``own``), and the lowest of them (packed: ``count | low << 4``)."""
    wins = 0
    low = 0
    avail = 0
    both = own | other
    while both:
        b = 1 << (both.bit_length() - 1)
        both ^= b
        if other & b:
            avail += 1
        elif avail:
            avail -= 1
        else:
            wins += 1
            low = b
    return wins | low << 4


def _non_spades(hand: int, tb: int) -> int:
    """The cards of ``hand`` other than trumps (``tb``: the trumps' first card number)."""
    every = POP13[hand & _SUIT] + POP13[(hand >> 13) & _SUIT]
    every += POP13[(hand >> 26) & _SUIT] + POP13[hand >> 39]
    return every - POP13[(hand >> tb) & _SUIT]


def _forced(cash: int, other: int, led: int, tb: int) -> int:
    """The tricks of ``cash`` the side is sure of when the other hand of the side (which
    already played ``led`` of its non-spades) may run out of non-spades while the
    cashing hand leads: it then has to ruff one, which still wins the trick for the side,
    but the lead passes to it and the rest is not sure."""
    free = _non_spades(other, tb) - led
    return cash if cash <= free + 1 else free + 1


def _cash(hands: list[int], seat: int, union: int, entry: int, trump: int) -> int:
    """Side-suit tricks ``seat`` can cash from the top, each opponent who holds a spade
    having to follow to every one of them (packed: ``cash | rel << 4``). With ``entry``
    (the leader, ``seat`` being its partner), ``seat`` must first be reached: the leader
    leads a suit of which ``seat`` cashes at least one card (else nothing is counted)."""
    n = len(hands)
    hand = hands[seat]
    cash = 0
    rel = 0
    reached = entry < 0
    tb = 13 * trump
    for suit in range(4):
        if suit == trump:
            continue
        base = 13 * suit
        own = (hand >> base) & _SUIT
        if not own:
            continue
        rem = (union >> base) & _SUIT
        others = rem & ~own
        k = POP13[own] if others == 0 else POP13[own >> others.bit_length()]
        for step in (1, 3) if n == 4 else (1,):
            opp = hands[(seat + step) % n]
            if (opp >> tb) & _SUIT:
                length = POP13[(opp >> base) & _SUIT]
                if length < k:
                    k = length
        if k and others:
            rel |= 1 << (base + others.bit_length() - 1)
        if k and entry >= 0 and (hands[entry] >> base) & _SUIT:
            reached = True
        cash += k
    return cash | rel << 4 if reached else 0


__all__ = ["cash_bounds", "spade_bounds", "sure_bounds"]
