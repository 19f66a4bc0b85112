"""The rules of the play, written once: which cards may be played and who wins a trick.

**The order of the cards** in a trick is data, built once per rules (:func:`card_order`,
held by the rules' :class:`~spades_cli.engine.plan.Plan`): each card's suit for following,
whether it is a trump (which also breaks spades, R-C-6), and its place in the trick order;
from these, for each card the mask of the cards that beat it (:class:`CardOrder`). The
state, :func:`beats` and :func:`trick_winner`, the views, the Python solver and the C
search core (renumbered by solver/deck.py and handed over as data) all read it. Today's only order
(R-C-4): the four suits of :mod:`spades_cli.engine.cards`, spades trump, a higher card
number higher in its suit.

**Legality** is a short list of *restrictions* (:func:`restrictions`). Each applies in
some situations (leading or following, the hand's first trick, spades not broken yet)
and keeps some cards (the suit led, the cards other than spades, the two of clubs). The
first restriction that applies and keeps a card of the hand decides: the legal cards are
the hand's cards it keeps, and an illegal card is refused under its rule ID in its words.
When none keeps a card, the whole hand is legal. The state's legal moves, the reason of an
:class:`~spades_cli.engine.illegal.IllegalAction`, the views, the Python solver and the C
search core (handed :func:`keep_table` as data) all read the one list.

**The first lead** is the seat after the dealer, or the holder of the two of clubs
(:func:`first_leader`). **The trick** is won by the highest trump played, else the highest
card of the suit led (:func:`beats`, :func:`trick_winner`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple, final

from spades_cli.engine.cards import CLUBS, FULL_DECK, NUM_CARDS, SPADES, TWO_OF_CLUBS
from spades_cli.engine.rules import PlayRules, Rules


@final
class CardOrder:
    """The order of the cards in a trick under one set of rules, as data (see the module
    doc): for each card number, ``suit`` (the suit it belongs to for following),
    ``suit_mask`` (the cards of that suit) and ``beaten_by`` (the cards that beat it when
    it wins the trick so far: a higher card of its suit, and every trump above it);
    ``trump`` is the mask of the trumps, ``trump_suit`` their suit."""

    def __init__(self, suits: Sequence[int], trump_suit: int, power: Sequence[int]) -> None:
        cards = range(len(suits))
        self.suit: tuple[int, ...] = tuple(suits)
        self.trump_suit: int = trump_suit
        masks = [0] * (max(suits) + 1)
        for c in cards:
            masks[suits[c]] |= 1 << c
        self.suit_mask: tuple[int, ...] = tuple(masks[suits[c]] for c in cards)
        self.trump: int = masks[trump_suit]
        self.beaten_by: tuple[int, ...] = tuple(self._beating(c, suits, trump_suit, power) for c in cards)

    @staticmethod
    def _beating(w: int, suits: Sequence[int], trump_suit: int, power: Sequence[int]) -> int:
        """The cards that beat ``w``: a higher card of its suit, or a trump on a card of
        another suit (R-C-4)."""
        out = 0
        for c in range(len(suits)):
            same = suits[c] == suits[w]
            if (same and power[c] > power[w]) or (not same and suits[c] == trump_suit):
                out |= 1 << c
        return out


def card_order(rules: Rules) -> CardOrder:
    """The order of the cards under ``rules`` (R-C-4): spades trump over the four suits;
    the cards of ``deck.trumps`` (R-J-1 jokers, R-J-8 the 2 of diamonds, R-J-17 deuces
    high) rank above the ace of spades in the order listed and count as spades for
    following, leading and breaking. The ordinary order is :data:`STANDARD`."""
    trumps = rules.trump_cards
    if not trumps:
        return STANDARD
    suits = [min(c // 13, SPADES) for c in range(NUM_CARDS)]
    power = list(range(NUM_CARDS))
    for i, c in enumerate(trumps):
        suits[c] = SPADES
        power[c] = 100 + len(trumps) - i
    return CardOrder(suits, SPADES, power)


def deck_cards(rules: Rules) -> tuple[int, ...]:
    """The cards of the deck under ``rules`` in their unshuffled order, the order every
    shuffle starts from (R-C-1, R-CT-1, R-J-1: :attr:`Rules.deck_cards`); the seeded deal,
    the state's deal and the scripts' deals all start from it."""
    return rules.deck_cards


# The ordinary order, over every card number: the jokers (in no ordinary deck) are a suit
# of their own that never wins, so that a caller asking about any card gets an answer.
STANDARD: Final = CardOrder([c // 13 for c in range(NUM_CARDS)], SPADES, range(NUM_CARDS))

# A situation of play is three bits; a restriction applies in a set of the 8 situations.
FOLLOWING: Final = 1  # a card was led to the trick
FIRST_TRICK: Final = 2  # the first trick of the hand
UNBROKEN: Final = 4  # spades are not broken yet
SITUATIONS: Final = 8

# A restriction's ``keep`` that stands for the cards of the suit led (no fixed mask).
SUIT_LED: Final = 0
# A negative ``keep`` -m stands for the lowest card the hand holds of the mask m (R-F-3:
# the lowest club).


def kept(keep: int, hand: int, led: int) -> int:
    """The cards of ``hand`` a restriction's ``keep`` keeps (``led``: the suit led's mask)."""
    if keep < 0:
        m = hand & -keep
        return m & -m
    return hand & (keep if keep != SUIT_LED else led)


class Restriction(NamedTuple):
    """One rule of legal play: in the ``situations`` (a mask over the 8 situation numbers)
    the cards of ``keep`` (a card mask, or SUIT_LED) are the legal ones whenever the hand
    holds one. ``rule_id`` is its rule in docs/rules.md; ``words`` says why another card
    is refused (``{suit}`` and ``{held}`` filled in for the suit led)."""

    situations: int
    keep: int
    rule_id: str
    words: str


def situation(following: bool, first_trick: bool, spades_broken: bool) -> int:
    """The situation number of a card to play."""
    return (
        (FOLLOWING if following else 0)
        | (FIRST_TRICK if first_trick else 0)
        | (0 if spades_broken else UNBROKEN)
    )


def _where(following: bool, first_trick: bool = False, unbroken: bool = False) -> int:
    """The situations that are following (or leading), and in the first trick and with
    spades unbroken where asked."""
    out = 0
    for s in range(SITUATIONS):
        if bool(s & FOLLOWING) != following:
            continue
        if first_trick and not s & FIRST_TRICK:
            continue
        if unbroken and not s & UNBROKEN:
            continue
        out |= 1 << s
    return out


def restrictions(
    play: PlayRules, order: CardOrder = STANDARD, deck: int = FULL_DECK, lead: int = TWO_OF_CLUBS
) -> tuple[Restriction, ...]:
    """The restrictions of these play rules under ``order`` for the cards of ``deck`` (a
    mask; ``lead``: the club that leads the first trick, R-H-21), the first to decide first."""
    side_cards = deck & ~order.trump  # the cards other than trumps
    rows: list[Restriction] = []
    if play.lowest_club_first_trick:
        clubs = deck & sum(1 << c for c in range(len(order.suit)) if order.suit[c] == CLUBS)
        words = "every player plays their lowest club to the first trick"
        first = _where(True, first_trick=True) | _where(False, first_trick=True)
        rows.append(Restriction(first, -clubs, "R-F-3", words))
    rows.append(Restriction(_where(True), SUIT_LED, "R-C-3", "you must follow {suit}: you hold {held}"))
    if play.lowest_club_first_trick:
        words = "with no club, play any card but a spade to the first trick"
        first = _where(True, first_trick=True) | _where(False, first_trick=True)
        rows.append(Restriction(first, side_cards, "R-F-3", words))
    if play.no_spades_first_trick:
        words = "spades may not be played to the first trick while you hold other cards"
        rows.append(Restriction(_where(True, first_trick=True), side_cards, "R-H-22", words))
    if play.two_of_clubs_leads:
        words = "the two of clubs must lead the first trick"
        rows.append(Restriction(_where(False, first_trick=True), 1 << max(lead, 0), "R-H-21", words))
    if play.no_spades_first_trick or play.no_spade_lead_first_trick:
        words = "no spade may lead the first trick while you hold another suit"
        rule = "R-H-22" if play.no_spades_first_trick else "R-L-5"
        rows.append(Restriction(_where(False, first_trick=True), side_cards, rule, words))
    if play.spades_break:
        words = "spades are not broken yet: lead another suit"
        rows.append(Restriction(_where(False, unbroken=True), side_cards, "R-C-6", words))
    return tuple(rows)


def rows_by_situation(rows: Sequence[Restriction]) -> tuple[tuple[Restriction, ...], ...]:
    """For each situation number, the restrictions that apply there, in order."""
    return tuple(tuple(r for r in rows if r.situations >> s & 1) for s in range(SITUATIONS))


def keep_table(rows: Sequence[Restriction]) -> tuple[tuple[int, ...], ...]:
    """For each situation number, the ``keep`` of each restriction that applies there,
    in order: the play rules as data (for the state and the solvers)."""
    return tuple(tuple(r.keep for r in rs) for rs in rows_by_situation(rows))


def legal_cards(keeps: tuple[int, ...], hand: int, led: int) -> int:
    """The legal cards of ``hand`` (a mask) under ``keeps`` (one situation's row of
    :func:`keep_table`; ``led``: the mask of the suit led, 0 when leading): what the first
    restriction that keeps a card of the hand keeps, else the whole hand."""
    for k in keeps:
        if k < 0:
            m = hand & -k
            m &= -m
        else:
            m = hand & (k if k != SUIT_LED else led)
        if m:
            return m
    return hand


def deciding(keeps: tuple[int, ...], hand: int, led: int) -> int:
    """The index in ``keeps`` of the restriction whose cards :func:`legal_cards` gives for
    ``hand`` (not empty); -1 when none decided (every card of the hand is legal)."""
    legal = legal_cards(keeps, hand, led)
    for i in range(len(keeps)):
        if kept(keeps[i], hand, led) == legal:
            return i
    return -1


def legal_play(
    table: tuple[tuple[int, ...], ...],
    hand: int,
    led: int,
    first: bool,
    broken: bool,
    order: CardOrder = STANDARD,
) -> int:
    """The legal cards of ``hand`` (a mask) under ``table`` (:func:`keep_table`): ``led``
    is the card led to the trick (-1 when leading), ``first`` whether this is the hand's
    first trick, ``broken`` whether spades are broken; ``led``'s suit is its suit under
    ``order``."""
    keeps = table[situation(led >= 0, first, broken)]
    if not keeps:
        return hand
    return legal_cards(keeps, hand, order.suit_mask[led] if led >= 0 else 0)


def first_leader(
    two_of_clubs_leads: bool, dealer: int, hands: Sequence[int], lead: int = TWO_OF_CLUBS
) -> int:
    """Who leads the hand's first trick: the seat after the dealer (R-4P-5, R-2P-5), or
    with ``two_of_clubs_leads`` (R-H-21) the holder of ``lead``, the lowest club of the
    deck (R-CT-6: the 3 of clubs when the two is out)."""
    if two_of_clubs_leads:
        for seat in range(len(hands)):
            if hands[seat] >> lead & 1:
                return seat
    return (dealer + 1) % len(hands)


def beats(card: int, best: int, order: CardOrder = STANDARD) -> bool:
    """R-C-4: does ``card`` beat ``best``, the card winning the trick so far? A higher card
    of the same suit does, and so does any trump played on a card of another suit."""
    return order.beaten_by[best] >> card & 1 == 1


def beating_mask(best: int, order: CardOrder = STANDARD) -> int:
    """R-C-4: the mask of every card that would beat ``best`` (see :func:`beats`)."""
    return order.beaten_by[best]


def trick_winner(cards: Sequence[int], order: CardOrder = STANDARD) -> int:
    """R-C-4: the position in ``cards`` (in the order played, the lead first) of the card
    that wins the trick: the highest trump if any was played, else the highest card of
    the suit led. 0 for a trick with only its lead so far."""
    beaten_by = order.beaten_by
    win = 0
    best = cards[0]
    for i in range(1, len(cards)):
        c = cards[i]
        if beaten_by[best] >> c & 1:
            win, best = i, c
    return win


__all__ = [
    "FIRST_TRICK",
    "FOLLOWING",
    "SITUATIONS",
    "STANDARD",
    "SUIT_LED",
    "UNBROKEN",
    "CardOrder",
    "Restriction",
    "beating_mask",
    "beats",
    "card_order",
    "deciding",
    "deck_cards",
    "first_leader",
    "keep_table",
    "kept",
    "legal_cards",
    "legal_play",
    "restrictions",
    "rows_by_situation",
    "situation",
    "trick_winner",
]
