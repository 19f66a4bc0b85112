"""Sure-trick bounds of the double-dummy solver (``solver/search.py``) at a trick's start:
tricks the leader's side can cash, and tricks the spades win whoever leads.

The bounds are on the *counted* tricks still to come (the seats ``counted`` marks), with
the cards they depend on (``rel``: the highest card of a suit that the hand in question
does not hold; more top cards in that hand could only make a bound stronger). The
result is packed in one int: ``lo | hi << 5 | rel << 10``.

The hands are slot masks (solver/deck.py): every suit, the trumps included, is 16 slots
ranked as their numbers, whatever the rules' deck (jokers above the ace, the 2 of
diamonds a spade), and ``trump`` is the trumps' suit. ``team`` is each seat's team (two
teams: the two sides, or a side against every other seat) and ``mate`` each seat's
partner for cashing (solver/deck.py ``mates``: itself when alone in its team, -1 when
its team is three seats: nothing is cashed for it then).
"""

from __future__ import annotations

from typing import Final

from spades_cli.solver.deck import POP16

_SUIT: Final = 0xFFFF


def sure_bounds(
    hands: list[int],
    leader: int,
    first: bool,
    left: int,
    counted: list[bool],
    trump: int,
    team: list[int],
    mate: list[int],
) -> int:
    """The tighter of the cashing bounds (``cash_bounds``) and the spade bounds
    (``spade_bounds``), with the cards the bounds kept depended on."""
    got = cash_bounds(hands, (leader, first, left), counted, trump, (team, mate))
    more = team_spade_bounds(hands, left, counted, trump, team)
    lo = got & 31
    hi = (got >> 5) & 31
    m_lo = more & 31
    m_hi = (more >> 5) & 31
    if m_lo <= lo and m_hi >= hi:
        return got
    if m_lo >= lo and m_hi <= hi:
        return more
    # Each gave one of the bounds: both sets of cards count.
    return (m_lo if m_lo > lo else lo) | (m_hi if m_hi < hi else hi) << 5 | ((got | more) >> 10) << 10


Teams = tuple[list[int], list[int]]  # each seat's team and its mate (solver/deck.py)


At = tuple[int, bool, int]  # the leader, whether this is the first trick, the tricks left


def cash_bounds(hands: list[int], at: At, counted: list[bool], trump: int, seats: Teams) -> int:
    """Bounds from sure tricks (R-C-4): the spades of one hand higher than every other
    spade each win a trick for that hand; the leader's team can cash the leader's top
    cards of the side suits (or, leading to them, its mate's) while every seat of the
    other team who holds a spade must follow (``at``: the leader, whether this is the
    first trick, the tricks left; ``seats``: the teams and the mates)."""
    leader, first, left = at
    team, mate = seats
    tb = 16 * trump  # the trumps' first slot card
    union = 0
    for h in hands:
        union |= h
    lo = 0
    hi = left
    holder, sure, rel = _top_spades(hands, union, tb)
    partner = mate[leader]
    if partner < 0:
        # The leader's team is three seats: only the top spades' holder is sure.
        if holder >= 0:
            if counted[holder]:
                lo = sure
            else:
                hi = left - sure
        return lo | hi << 5 | rel << 10
    # The cashed tricks go to the leader's team (its mate may ruff them).
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
            return lo | hi << 5 | rel << 10
        # One seat of the leader's team is counted (a seat's own tricks).
        seat = leader if counted[leader] else partner
        got = _cash_apart(hands, (seat, partner if seat == leader else leader, leader), union, trump, team)
        cash = (got & 31) + (sure if holder == seat else 0)
        if cash > left:
            cash = left
        if cash > lo:
            lo = cash
            rel |= got >> 5
        return lo | hi << 5 | rel << 10
    got = _cash(hands, leader, union, -1, trump, team)
    cash = (got & 31 if partner == leader else _forced(got & 31, hands[partner], 0, tb)) + (
        sure if holder == leader else 0
    )
    cash_rel = got >> 5
    if partner != leader:
        via = _cash(hands, partner, union, leader, trump, team)
        alt = _forced(via & 31, hands[leader], 1, tb) + (sure if holder == partner else 0)
        if alt > cash:
            cash = alt
            cash_rel = via >> 5
    if holder == partner and sure > cash:
        cash = sure
        cash_rel = 0
    if cash > left:
        cash = left
    if mine:
        lo = cash if cash > lo else lo
    elif left - cash < hi:
        hi = left - cash
    return lo | hi << 5 | (rel | cash_rel) << 10


def spade_bounds(hands: list[int], left: int, counted: list[bool], trump: int) -> int:
    """:func:`team_spade_bounds` for masks of the ordinary 52 card numbers (13 a suit,
    engine/cards.py) and seats whose teams alternate (a bot's view, bots/hand.py)."""
    slots = [sum(((h >> (13 * s)) & 0x1FFF) << (16 * s) for s in range(4)) for h in hands]
    got = team_spade_bounds(slots, left, counted, trump, [s % 2 for s in range(len(hands))])
    return got & 1023  # the bounds (lo | hi << 5); the cards are in slot numbers


def team_spade_bounds(hands: list[int], left: int, counted: list[bool], trump: int, team: list[int]) -> int:
    """Bounds from the spades (R-C-4): a hand's spade loses a trick only to a higher
    spade of another hand played to the same trick, and every card is played to a trick
    of its own, so a hand wins at least as many tricks as it has spades left over when
    each spade of the other hands beats one lower spade of it; for its team, only the
    other team's spades count against it. Packed as ``sure_bounds``; ``rel`` is the
    lowest spade left over (the owners of the spades down to it decide the count)."""
    n = len(hands)
    tb = 16 * trump  # the trumps' first slot card
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
        mine = True
        theirs = True
        for s in range(n):
            if team[s] != side:
                other |= (hands[s] >> tb) & _SUIT
            elif counted[s]:
                theirs = False
            else:
                mine = False
        for s in range(n):
            own = (hands[s] >> tb) & _SUIT
            if team[s] != side or not own:
                continue
            if mine or theirs:
                got = _left_over(own, other)
                k = got & 31
                if k > left:
                    k = left
                if mine and k > lo:
                    lo = k
                    rel |= got >> 5 << tb
                elif theirs and left - k < hi:
                    hi = left - k
                    rel |= got >> 5 << tb
            else:
                # A seat counted alone: its mates' spades count against it too, and
                # their own sure tricks are not the seat's.
                got = _left_over(own, spades & ~own)
                k = got & 31
                if counted[s] and k > lo:
                    lo = k
                    rel |= got >> 5 << tb
                elif not counted[s] and k:
                    extra = k
                    extra_rel = got >> 5 << tb
    if extra and hi - extra >= lo:
        # The other team's sure tricks (in ``hi``) and the mate's are other tricks.
        hi -= extra
        rel |= extra_rel
    return lo | hi << 5 | rel << 10


def _top_spades(hands: list[int], union: int, tb: int) -> tuple[int, int, int]:
    """The holder of the highest spade (-1: none left), how many of its spades are above
    every other spade, and the highest spade of the others (a mask: what that depends on)."""
    spades = (union >> tb) & _SUIT
    if not spades:
        return -1, 0, 0
    top = 1 << (spades.bit_length() - 1)
    holder = -1
    for s in range(len(hands)):
        if (hands[s] >> tb) & top:
            holder = s
    own = (hands[holder] >> tb) & _SUIT
    others = spades & ~own
    if not others:
        return holder, POP16[own], 0
    return holder, POP16[own >> others.bit_length()], 1 << (tb - 1 + others.bit_length())


def _cash_apart(hands: list[int], who: tuple[int, int, int], union: int, trump: int, team: list[int]) -> int:
    """The side-suit tricks ``seat`` cashes while its mate ``helper`` plays a non-spade to
    every trick of the run (its lead included), ``leader`` leading (``who``: the three;
    packed as :func:`_cash`)."""
    seat, helper, leader = who
    got = _cash(hands, seat, union, -1 if seat == leader else leader, trump, team)
    free = _non_spades(hands[helper], 16 * trump)
    return (got & 31 if got & 31 <= free else free) | (got >> 5) << 5


def _left_over(own: int, other: int) -> int:
    """The spades of ``own`` that no spade of ``other`` can be matched to (each beating
    one lower spade of ``own``), and the lowest of them (packed: ``count | low << 5``)."""
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
    return wins | low << 5


def _non_spades(hand: int, tb: int) -> int:
    """The cards of ``hand`` other than trumps (``tb``: the trumps' first slot card)."""
    every = POP16[hand & _SUIT] + POP16[(hand >> 16) & _SUIT]
    every += POP16[(hand >> 32) & _SUIT] + POP16[hand >> 48]
    return every - POP16[(hand >> tb) & _SUIT]


def _forced(cash: int, other: int, led: int, tb: int) -> int:
    """The tricks of ``cash`` the side is sure of when the other hand of the side (which
    already played ``led`` of its non-spades) may run out of non-spades while the
    cashing hand leads: it then has to ruff one, which still wins the trick for the side,
    but the lead passes to it and the rest is not sure."""
    free = _non_spades(other, tb) - led
    return cash if cash <= free + 1 else free + 1


def _cash(hands: list[int], seat: int, union: int, entry: int, trump: int, team: list[int]) -> int:
    """Side-suit tricks ``seat`` can cash from the top, each seat of the other team who
    holds a spade having to follow to every one of them (packed: ``cash | rel << 5``).
    With ``entry`` (the leader, ``seat`` being its mate), ``seat`` must first be reached:
    the leader leads a suit of which ``seat`` cashes at least one card (else nothing)."""
    n = len(hands)
    hand = hands[seat]
    cash = 0
    rel = 0
    reached = entry < 0
    tb = 16 * trump
    for suit in range(4):
        if suit == trump:
            continue
        base = 16 * suit
        own = (hand >> base) & _SUIT
        if not own:
            continue
        rem = (union >> base) & _SUIT
        others = rem & ~own
        k = POP16[own] if others == 0 else POP16[own >> others.bit_length()]
        for opp_seat in range(n):
            if team[opp_seat] == team[seat]:
                continue
            opp = hands[opp_seat]
            if (opp >> tb) & _SUIT:
                length = POP16[(opp >> base) & _SUIT]
                if length < k:
                    k = length
        if k and others:
            rel |= 1 << (base + others.bit_length() - 1)
        if k and entry >= 0 and (hands[entry] >> base) & _SUIT:
            reached = True
        cash += k
    return cash | rel << 5 if reached else 0


__all__ = ["cash_bounds", "spade_bounds", "sure_bounds", "team_spade_bounds"]
