"""Cards as small integers (R-C-1) and their text forms.

A card is ``suit * 13 + rank`` with suits clubs=0, diamonds=1, hearts=2,
spades=3 and ranks 0 (the two) to 12 (the ace), so within a suit a higher
number is a higher card and every spade is above every other card. The two jokers
of the variants that add them (R-J-1) are 52 (the Little Joker) and 53 (the Big
Joker); which cards a game's deck holds, and where each ranks, is the rules' (see
``engine/play.py``). A set of cards is a mask with bit ``card`` set.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Final, cast

from spades_cli.engine.text import shown

if TYPE_CHECKING:
    from spades_cli.engine._native import i64  # a machine word once compiled (see there)

CLUBS: Final = 0
DIAMONDS: Final = 1
HEARTS: Final = 2
SPADES: Final = 3
SUITS: Final = (CLUBS, DIAMONDS, HEARTS, SPADES)
SUIT_LETTERS: Final = "CDHS"
SUIT_SYMBOLS: Final = "♣♦♥♠"
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
RANK_CHARS: Final = "23456789TJQKA"
RANK_NAMES: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

FULL_SUIT: Final = (1 << 13) - 1
SUIT_MASKS: Final = tuple(FULL_SUIT << (13 * s) for s in SUITS)
SPADE_MASK: Final = SUIT_MASKS[SPADES]
NON_SPADE_MASK: Final = (1 << 39) - 1
FULL_DECK: Final = (1 << 52) - 1
DECK: Final = tuple(range(52))  # the 52 cards in their unshuffled order (R-C-1)
TWO_OF_CLUBS: Final = 0
# R-J-1: the jokers, numbered after the 52 cards of the ordinary deck.
LITTLE_JOKER: Final = 52
BIG_JOKER: Final = 53
NUM_CARDS: Final = 54  # every card number is below this; the action numbers follow
ALL_CARDS: Final = (1 << NUM_CARDS) - 1
# The jokers' card words (transcripts, the protocol, the prompt: one form everywhere).
JOKER_WORDS: Final = {LITTLE_JOKER: "LJ", BIG_JOKER: "BJ"}


def suit_of(card: int) -> int:
    return card // 13


def rank_of(card: int) -> int:
    return card % 13


def make_card(suit: int, rank: int) -> int:
    return suit * 13 + rank


# The numbers of the cards and actions as ready-made objects: cards_in and State.apply
# append these, so that the compiled build does not box each number again (the lists
# hold the same ints either way).
SMALL_INTS: Final[tuple[object, ...]] = tuple(range(128))


def is_card(action: int) -> bool:
    """Is this action number a card (of any deck, jokers included)?"""
    return 0 <= action < NUM_CARDS


# The number of each power of two below 2**62 from its remainder modulo 67 (a different
# remainder for each), as the ready int objects: cards_in's lookup of a bit's card.
_BIT_AT: Final[tuple[object, ...]] = tuple(
    next((SMALL_INTS[i] for i in range(62) if (1 << i) % 67 == r), None) for r in range(67)
)


def cards_in(mask: int) -> list[int]:
    """The cards of a mask, low to high (clubs first, spades, then the jokers); bits past
    the cards give the action numbers from NUM_CARDS up."""
    out: list[object] = []
    if mask >> 61 == 0:  # every mask of cards: machine-word arithmetic, a lookup a bit
        m: i64 = mask
        while m > 0:
            rest = m & (m - 1)  # the mask without its lowest bit
            out.append(_BIT_AT[(m ^ rest) % 67])
            m = rest
        return cast(list[int], out)
    while mask > 0:
        low = mask & -mask
        out.append(SMALL_INTS[low.bit_length() - 1])
        mask ^= low
    return cast(list[int], out)


# The cards of each 13-bit block of a mask (block b holds cards 13b to 13b + 12), as
# ready tuples indexed by ``b << 13 | bits``, made the first time a block's bits are
# asked: card_tuple shares them rather than finding a mask's cards one by one.
_BLOCK_BITS: Final = 13
_BLOCK_ROWS: Final[list[tuple[int, ...] | None]] = [None] * (5 << _BLOCK_BITS)


def _block_row(at: int) -> tuple[int, ...]:
    base = (at >> _BLOCK_BITS) * _BLOCK_BITS
    row = tuple([cast(int, SMALL_INTS[base + i]) for i in range(_BLOCK_BITS) if (at >> i) & 1])
    _BLOCK_ROWS[at] = row
    return row


def card_tuple(mask: int) -> tuple[int, ...]:
    """The cards of a mask of cards, low to high, as a tuple that may be shared."""
    m: i64 = mask
    out: tuple[int, ...] | None = None
    at: i64 = 0
    while m:
        bits = m & FULL_SUIT
        if bits:
            row = _BLOCK_ROWS[at | bits]
            if row is None:
                row = _block_row(at | bits)
            out = row if out is None else out + row
        m >>= _BLOCK_BITS
        at += 1 << _BLOCK_BITS
    return out if out is not None else ()


# The actions of masks without cards (bids, declarations, the draft's choices): few
# masks, each made once into a tuple for State.legal_actions to share (bounded, in case).
_ACTION_ROWS: Final[dict[int, tuple[int, ...]]] = {}


def action_tuple(mask: int) -> tuple[int, ...]:
    """The actions of a legal-action mask, in increasing order, as a tuple that may be shared."""
    row = _ACTION_ROWS.get(mask)
    if row is None:
        row = tuple(mask_actions(mask))
        if len(_ACTION_ROWS) < 4096:
            _ACTION_ROWS[mask] = row
    return row


def mask_actions(mask: int) -> list[int]:
    """The actions of a legal-action mask, in increasing order (the bits past the deck
    shifted down first: as one number they would not fit a machine word)."""
    out = cards_in(mask & ALL_CARDS)
    rest = mask >> NUM_CARDS
    while rest:
        low = rest & -rest
        out.append(NUM_CARDS - 1 + low.bit_length())
        rest ^= low
    return out


def mask_tuple(mask: int) -> tuple[int, ...]:
    """The actions of any legal-action mask as a tuple, in increasing order: the masks of
    actions alone shared (action_tuple), whole hands (passing, laying aside) made fresh."""
    if mask >> NUM_CARDS:
        return action_tuple(mask) if not mask & ALL_CARDS else tuple(mask_actions(mask))
    return tuple(cards_in(mask))


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def card_str(card: int) -> str:
    """Canonical two-character form used in transcripts: ``QS``, ``TH``, ``2C``, ``BJ``."""
    if card >= LITTLE_JOKER:
        return JOKER_WORDS[card]
    return RANK_CHARS[card % 13] + SUIT_LETTERS[card // 13]


def card_label(card: int, *, symbols: bool = True) -> str:
    """Human form for display: ``Q♠``, ``10♥`` (or ``QS``, ``10H`` with symbols off)."""
    if card >= LITTLE_JOKER:
        return JOKER_WORDS[card]
    suit = SUIT_SYMBOLS if symbols else SUIT_LETTERS
    return RANK_NAMES[card % 13] + suit[card // 13]


class CardParseError(ValueError):
    """Text that does not name a card."""


_SUIT_ALIASES = {
    "S": SPADES,
    "♠": SPADES,
    "♤": SPADES,
    "H": HEARTS,
    "♥": HEARTS,
    "♡": HEARTS,
    "D": DIAMONDS,
    "♦": DIAMONDS,
    "♢": DIAMONDS,
    "C": CLUBS,
    "♣": CLUBS,
    "♧": CLUBS,
}
_RANK_ALIASES = {name: i for i, name in enumerate(RANK_NAMES)} | {"T": 8}
# The jokers, read as forgivingly as a card (case, spaces and hyphens aside).
_JOKER_ALIASES = {
    "BJ": BIG_JOKER,
    "JB": BIG_JOKER,
    "BIGJOKER": BIG_JOKER,
    "LJ": LITTLE_JOKER,
    "JL": LITTLE_JOKER,
    "LITTLEJOKER": LITTLE_JOKER,
}


def parse_card(text: str) -> int:
    """Read a card forgivingly: ``QS``, ``qs``, ``Q♠``, ``10h``, ``Th``, ``sq``; the
    jokers ``BJ`` / ``LJ`` (also ``big joker``, ``little-joker``). Whether the game's deck
    holds the card is the rules' question."""
    t = text.strip().upper().replace(" ", "")
    joker = _JOKER_ALIASES.get(t.replace("-", "").replace("_", ""))
    if joker is not None:
        return joker
    if len(t) >= 2:
        for rank_part, suit_part in ((t[:-1], t[-1]), (t[1:], t[0])):
            if suit_part in _SUIT_ALIASES and rank_part in _RANK_ALIASES:
                return make_card(_SUIT_ALIASES[suit_part], _RANK_ALIASES[rank_part])
    raise CardParseError(f"{shown(text.strip())} is not a card (try QS, 10h, Th or Q♠)")
