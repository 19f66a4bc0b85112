"""Hand evaluation for bidding, drafting and nil decisions (no search, a few microseconds).

``estimate_tricks`` counts sure and likely winners: high cards (discounted in long
side suits, where a trump is likely to interfere), spade length and strength, and
ruffing chances from voids and short side suits limited by the spades to ruff with.
``seat_tricks`` (four players) weighs that estimate with a few features of the hand
(spade honours and length, side aces and kings by suit length, ruffing chances), a
linear model fit on the tricks sides take (``side_extra``: the side's second bid, with
the partner's and the opponents' bids); ``two_tricks`` does the same for a
two-player hand after the draft, with the seat's own discards and the opponent's bid.
``nil_danger`` scores how likely a hand is to be forced to take a trick.
``sure_tricks`` is the floor under every bid: the tricks no distribution of the other
cards can take from the hand (the solver's spade bound, ``solver.sure``).
"""

from __future__ import annotations

import functools

from spades_cli.engine.cards import FULL_DECK, SPADES, SUIT_MASKS
from spades_cli.solver.sure import spade_bounds

_SUITS3 = (0, 1, 2)


def estimate_tricks(hand: int, players: int, known_out: int = 0) -> float:
    """Expected tricks from this hand (13 cards, or a partial hand in the draft).

    ``known_out``: cards this seat knows are out of play (2P: its own discards), which
    promote its honours in those suits.
    """
    size = hand.bit_count()
    if size == 0:
        return 0.0
    two = players == 2
    sp_value, spare = _spade_value(hand >> 39, _relevant(hand >> 39, known_out >> 39), two)
    total = sp_value
    ruff = 0.0
    for suit in _SUITS3:
        bits = (hand >> (13 * suit)) & 0x1FFF
        v, r = _side_value(bits, _relevant(bits, (known_out >> (13 * suit)) & 0x1FFF), two)
        total += v
        ruff += r
    total += min(ruff * min(1.0, size / 13), spare * 0.85)
    return total


# Small caches: a bot's decision asks about the same few holdings again and again, while
# across games the holdings rarely repeat (a large cache only grows: issue 34).
_CACHED = 1024


def _relevant(bits: int, out_bits: int) -> int:
    """The cards out of play that change a holding's value: those above its lowest card
    that it does not hold (the key of the caches below)."""
    low = bits & -bits
    return out_bits & ~bits & ~(low - 1) if low else 0


@functools.lru_cache(maxsize=_CACHED)
def _spade_value(bits: int, out_bits: int, two: bool) -> tuple[float, int]:
    """Tricks from a spade holding (a 13-bit pattern) and the spares left to ruff with."""
    spades = [r for r in range(12, -1, -1) if bits >> r & 1]
    s_len = len(spades)
    total = 0.0
    high = 0
    for i, r in enumerate(spades):
        # Spades above this one that are neither ours nor known to be out of play.
        above = sum(1 for x in range(r + 1, 13) if not (bits | out_bits) >> x & 1)
        if above == 0:
            total += 1.0
        elif above <= i:  # enough spades of ours above to draw the higher ones
            total += 0.9
        elif above == 1 and s_len >= 2:
            total += 0.7 if two else 0.6
        elif above == 2 and s_len >= 3:
            total += 0.5 if two else 0.35
        else:
            continue
        high += 1
    total += 0.75 * max(0, s_len - 3 - max(0, high - 3))
    return total, max(0, s_len - high)


@functools.lru_cache(maxsize=_CACHED)
def _side_value(bits: int, out_bits: int, two: bool) -> tuple[float, float]:
    """Tricks from a side-suit holding, and its ruffing potential (voids, short suits)."""
    ranks = [r for r in range(12, -1, -1) if bits >> r & 1]
    length = len(ranks)
    total = 0.0
    for i, r in enumerate(ranks[:3]):
        above = sum(1 for x in range(r + 1, 13) if not (bits | out_bits) >> x & 1)
        if above == 0:
            v = 1.0 if length <= 4 else (0.8 if length == 5 else 0.55)
        elif above == 1 and length >= 2 and i < 2:
            v = 0.75 if length <= 4 else 0.4
        elif above == 2 and length >= 3:
            v = 0.35 if length <= 4 else 0.15
        else:
            v = 0.0
        if two and v:
            v = min(1.0, v + 0.1)
        total += v
    ruff = (1.2 if two else 1.0, 0.6, 0.2)[length] if length <= 2 else 0.0
    return total, ruff


def sure_tricks(hand: int, known_out: int = 0) -> int:
    """Tricks the hand wins however the other cards lie (R-C-4): its spades left over
    when every spade it does not hold (``known_out``: cards known to be out of play)
    beats one lower spade of it. Thirteen top spades are thirteen tricks."""
    rest = FULL_DECK & ~hand & ~known_out
    return spade_bounds([hand, rest], hand.bit_count(), [True, False], SPADES) & 15


def card_danger(card: int, hand: int) -> float:
    """How likely ``card`` is to win a trick its holder would rather lose (for nil)."""
    suit, rank = divmod(card, 13)
    below = ((hand >> (13 * suit)) & ((1 << rank) - 1)).bit_count()
    if suit == SPADES:
        if rank >= 10:
            return 3.0 if rank == 12 else 1.6
        if rank >= 7:
            return 0.7
        return 0.25 if rank >= 4 else 0.05
    if rank >= 11:  # A, K
        return max(0.2, 1.4 - 0.35 * below)
    if rank >= 8:  # T, J, Q
        return max(0.05, 0.7 - 0.2 * below)
    if rank >= 5:
        return max(0.0, 0.2 - 0.07 * below)
    return 0.0


def nil_danger(hand: int) -> float:
    """Sum of the dangers of the hand's cards; long spades add danger."""
    d = 0.0
    m = hand
    while m:
        low = m & -m
        d += card_danger(low.bit_length() - 1, hand)
        m ^= low
    s_len = (hand & SUIT_MASKS[SPADES]).bit_count()
    if s_len > 3:
        d += 0.6 * (s_len - 3)
    return d


# -- four-player: a seat's share of its side's tricks --------------------------------

# The features ``seat_features`` reads of a hand, in order, with their weights in the
# side's tricks (least squares: the side's tricks taken, both hands' features summed,
# over duplicate games of ``normal`` against two outside players; bench/README.md).
SEAT_FEATURES = (
    "estimate",  # estimate_tricks
    "spade ace",
    "spade king",
    "spade queen",
    "spade jack",
    "spade ten",
    "spades",  # the spades held
    "spades over 3",
    "spades over 4",
    "side aces, suit of 5 or fewer",
    "side aces, suit of 6 or more",
    "side kings in 2-4 cards",
    "side kings alone",
    "side queens in 3-4 cards",
    "side ace-kings",
    "side king-queens without the ace",
    "side suits of 6 or more",
    "ruffs: 2 a void, 1 a singleton, 1/4 a doubleton, up to the spades less one",
    "voids times spades (up to 3)",
    "singletons times spades (up to 3)",
)
SEAT_WEIGHTS = (
    0.359, 0.738, 0.594, 0.433, 0.278, 0.185, 0.38, -0.0262, -0.0326, 0.461, 0.499,
    0.26, 0.186, 0.0519, 0.158, 0.119, -0.0356, 0.376, -0.113, -0.0469,
)  # fmt: skip
SEAT_INTERCEPT = -0.566  # the side's: half of it a seat


def seat_features(hand: int) -> tuple[float, ...]:
    """The features of a 13-card hand that ``seat_tricks`` weighs (SEAT_FEATURES)."""
    sp = (hand >> 39) & 0x1FFF
    length = sp.bit_count()
    aces_short = aces_long = kings = kings_alone = queens = ak = kq = long6 = 0
    voids = singles = doubles = 0
    for suit in _SUITS3:
        bits = (hand >> (13 * suit)) & 0x1FFF
        n = bits.bit_count()
        ace, king, queen = bits >> 12 & 1, bits >> 11 & 1, bits >> 10 & 1
        if ace:
            aces_short += n <= 5
            aces_long += n > 5
        if king:
            kings_alone += n == 1
            kings += 2 <= n <= 4
        queens += queen and 3 <= n <= 4
        ak += ace and king
        kq += king and queen and not ace
        long6 += n >= 6
        voids += n == 0
        singles += n == 1
        doubles += n == 2
    short = 2 * voids + singles + 0.25 * doubles
    return (
        estimate_tricks(hand, 4),
        sp >> 12 & 1,
        sp >> 11 & 1,
        sp >> 10 & 1,
        sp >> 9 & 1,
        sp >> 8 & 1,
        length,
        max(0, length - 3),
        max(0, length - 4),
        aces_short,
        aces_long,
        kings,
        kings_alone,
        queens,
        ak,
        kq,
        long6,
        min(short, max(0, length - 1)),
        voids * min(length, 3),
        singles * min(length, 3),
    )


def seat_tricks(hand: int) -> float:
    """Four-player: the tricks a seat's 13 cards take on average, its side's partner
    unknown (half the side's intercept plus its features weighed)."""
    return SEAT_INTERCEPT / 2 + sum(w * f for w, f in zip(SEAT_WEIGHTS, seat_features(hand), strict=True))


# The side's second bid (the partner bid a number): the side's tricks beyond the seat's
# estimate and the partner's bid, an intercept plus weights on the opponents' bids made
# so far (summed), how many of them were made, the seat's estimate and the partner's bid;
# the tricks spread SIDE_SPREAD_4P about it. Least squares on the tricks ``normal``'s
# sides took in duplicate games against two outside players (``bench/seatfit.py --four``;
# bench/README.md says on which games): opponents who bid high leave the side fewer.
SIDE_FIT_4P = (1.23, -0.268, 0.789, -0.189, -0.0872)
SIDE_SPREAD_4P = 1.01


def side_extra(opp_bids: list[int], mu: float, partner_bid: int) -> float:
    """Four players: the tricks a side takes beyond its second bidder's estimate ``mu``
    and the partner's bid, given the opponents' bids made so far (SIDE_FIT_4P)."""
    a, b, c, d, e = SIDE_FIT_4P
    return a + b * sum(opp_bids) + c * len(opp_bids) + d * mu + e * partner_bid


# -- two players: a seat's tricks after the draft -----------------------------------

# The features ``two_features`` reads of a drafted hand and its holder's own discards,
# in order. Their weights (after an intercept) come from least squares on the tricks
# ``normal`` took in duplicate two-player games against two outside players, bidding
# first, or second with the opponent's bid last (bench/README.md, bench/seatfit.py).
TWO_FEATURES = (
    "estimate",  # estimate_tricks with the own discards
    "sure tricks",  # sure_tricks with the own discards
    "spade ace",
    "spade king",
    "spade queen",
    "spade jack",
    "spades",
    "spades over 4",
    "spades over 6",
    "spades among the own discards",
    "side aces",
    "side kings in 2 or more cards",
    "side kings alone",
    "side queens in 3 or more cards",
    "ruffs: 2 a void, 1 a singleton, up to the spades less one",
    "side cards past 5 in a suit",
)
TWO_WEIGHTS_FIRST = (
    -0.0237, 0.329, 0.234, 0.454, 0.456, 0.387, 0.352, 0.516, -0.278,
    -0.14, 0.288, 0.314, 0.207, 0.103, -0.00285, 0.203, -0.0797,
)  # fmt: skip
TWO_WEIGHTS_SECOND = (
    5.49, 0.188, 0.0619, 0.319, 0.379, 0.286, 0.207, 0.383, -0.153,
    -0.0834, 0.0697, 0.147, 0.166, -0.0466, 0.103, 0.198, -0.235, -0.539,
)  # fmt: skip
TWO_SPREAD = (1.19, 0.92)  # the tricks' spread about the fit: first bid, second bid


def two_features(hand: int, own: int) -> tuple[float, ...]:
    """The features of a drafted 13-card hand that ``two_tricks`` weighs (TWO_FEATURES);
    ``own``: the seat's own discards, out of play."""
    sp = (hand >> 39) & 0x1FFF
    length = sp.bit_count()
    aces = kings = kings_alone = queens = voids = singles = long_cards = 0
    for suit in _SUITS3:
        bits = (hand >> (13 * suit)) & 0x1FFF
        n = bits.bit_count()
        king = bits >> 11 & 1
        aces += bits >> 12 & 1
        kings += king if n >= 2 else 0
        kings_alone += king if n == 1 else 0
        queens += bits >> 10 & 1 if n >= 3 else 0
        voids += n == 0
        singles += n == 1
        long_cards += max(0, n - 5)
    return (
        estimate_tricks(hand, 2, own),
        sure_tricks(hand, own),
        *(sp >> rank & 1 for rank in (12, 11, 10, 9)),  # A K Q J
        length,
        max(0, length - 4),
        max(0, length - 6),
        ((own >> 39) & 0x1FFF).bit_count(),
        aces,
        kings,
        kings_alone,
        queens,
        min(2 * voids + singles, max(0, length - 1)),
        long_cards,
    )


def two_tricks(hand: int, own: int, opponent_bid: int | None) -> float:
    """Two players: the tricks a drafted hand takes on average, bidding first
    (``opponent_bid`` None) or after the opponent's bid of a number."""
    f = two_features(hand, own)
    if opponent_bid is None:
        first = TWO_WEIGHTS_FIRST
        return first[0] + sum(a * b for a, b in zip(first[1:], f, strict=True))
    second = TWO_WEIGHTS_SECOND
    return second[0] + sum(a * b for a, b in zip(second[1:-1], f, strict=True)) + second[-1] * opponent_bid
