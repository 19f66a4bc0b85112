"""The building blocks of every view: styled fragments, cards, hands, seats and bid words.

Every view function returns ``Fragments``: a list of ``(style, text)`` pairs, the shape
prompt_toolkit calls formatted text, built without importing prompt_toolkit. The
prompt front end prints them in colour; the batch front end and the tests join the
texts (:func:`plain`). Style names are classes (``class:red``, ``class:error``...)
that the prompt front end maps to colours; ``--no-color`` simply drops them.

Suit symbols or letters are chosen by :class:`Look` (``--ascii``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from string import Formatter

from spades_cli.engine import Rules, Trick
from spades_cli.engine.cards import CLUBS, DIAMONDS, HEARTS, SPADES, card_label, suit_of
from spades_cli.engine.plan import plan_for
from spades_cli.engine.play import STANDARD, CardOrder, trick_winner
from spades_cli.engine.rules import SEAT_WORDS
from spades_cli.i18n import _, seat_word
from spades_cli.view.layout import Frag, Fragments

# Style classes (prefixed: prompt_toolkit's own styles already use names like "red").
RED = "class:suit-red"
BLACK = "class:suit-black"
ERROR = "class:play-error"
TITLE = "class:play-title"
DIM = "class:play-dim"
GOOD = "class:play-good"
BAD = "class:play-bad"
WIN = "class:play-win"

# Suits in the order a player sorts a hand: colours alternate (spades, hearts, clubs, diamonds).
HAND_ORDER = (SPADES, HEARTS, CLUBS, DIAMONDS)


def plain(frags: Iterable[Frag]) -> str:
    """The text of fragments without their styles."""
    return "".join(text for _, text in frags)


def text(s: str, style: str = "") -> Fragments:
    return [(style, s)]


Part = str | int | Frag | Fragments


def say(template: str, style: str = "", **parts: Part) -> Fragments:
    """A translated ``template`` (``"{seat} plays {card}."``) with its named parts put in:
    text and numbers as text, a fragment or fragments (a styled card) as they are, so that
    each language puts the card where its grammar wants it."""
    out: Fragments = []
    for literal, name, spec, _conv in Formatter().parse(template):
        if literal:
            out.append((style, literal))
        if name is None:
            continue
        value = parts[name]
        if isinstance(value, tuple):
            out.append(value)
        elif isinstance(value, list):
            out.extend(value)
        else:
            out.append((style, format(value, spec or "")))
    return out


def join(parts: Sequence[Fragments], sep: str = " ") -> Fragments:
    out: Fragments = []
    for i, part in enumerate(parts):
        if i and sep:
            out.append(("", sep))
        out.extend(part)
    return out


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def winning_index(cards: Sequence[int], order: CardOrder = STANDARD) -> int:
    """R-C-4: the position (in play order, the lead first) of the card winning a trick so
    far, in the rules' order of the cards (``plan_for(rules).order``: jokers, deuces high)."""
    return trick_winner(cards, order)


def bid_word(bid: int, blind: bool, rules: Rules, zero: bool = False) -> str:
    """A bid in words: ``3``, ``nil``, ``blind nil``, ``blind 6``, ``zero`` (R-NV-4)."""
    if zero:
        return _("zero")
    if blind and bid:
        return _("blind {number}").format(number=bid)  # R-BB-1: the side's blind bid
    if blind:
        return _("double nil") if rules.players == 2 else _("blind nil")
    return _("nil") if bid == 0 else str(bid)


def compress_bids(bids: Sequence[int], zero: bool = False) -> str:
    """``nil or 1-13``, ``3-5``, ``nil, 2, 4-6``: the legal bids in few words; ``zero``: the
    zero that is not nil is legal too (R-NV-4: ``nil, zero or 1-13``)."""
    parts: list[str] = []
    numbers = sorted(b for b in bids if b > 0)
    if 0 in bids:
        parts.append(_("nil"))
    run: list[int] = []
    for b in [*numbers, -9]:
        if run and b == run[-1] + 1:
            run.append(b)
            continue
        if run:
            parts.append(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}")
        run = [b]
    if zero:
        parts.insert(1 if 0 in bids else 0, _("zero"))
    if len(parts) == 3 and 0 in bids and zero:
        return _("{nil}, {zero} or {bids}").format(nil=parts[0], zero=parts[1], bids=parts[2])
    if len(parts) == 2 and 0 in bids and not zero:
        return _("{nil} or {bids}").format(nil=parts[0], bids=parts[1])
    return ", ".join(parts)


def card_frag(card: int, symbols: bool = True) -> Frag:
    """One card, styled red or black: ``Q♠`` / ``QS``."""
    style = RED if suit_of(card) in (HEARTS, DIAMONDS) else BLACK  # the printed suit
    return (style, card_label(card, symbols=symbols))


def cards_frags(cards: Iterable[int], symbols: bool = True, sep: str = " ") -> Fragments:
    """Cards in the order given."""
    return join([[card_frag(c, symbols)] for c in cards], sep)


def sort_hand(cards: Iterable[int], order: CardOrder = STANDARD) -> list[list[int]]:
    """The cards grouped by the suit they follow as (spades, hearts, clubs, diamonds), high
    to low, both as the rules' ``order`` says: with jokers or deuces high (R-J-1, R-J-10)
    those cards lead the spades (``BJ LJ 2♦ 2♠ A♠ ...``)."""
    held = sorted(set(cards))
    suits = [*HAND_ORDER, *sorted({order.suit[c] for c in held} - set(HAND_ORDER))]
    groups = []
    for suit in suits:
        group = [c for c in held if order.suit[c] == suit]
        # The fewer cards of its own suit beat a card, the higher it is.
        group.sort(key=lambda c: (order.beaten_by[c] & order.suit_mask[c]).bit_count())
        if group:
            groups.append(group)
    return groups


def hand_frags(cards: Iterable[int], symbols: bool = True, order: CardOrder = STANDARD) -> Fragments:
    """A hand sorted by suit, suits two spaces apart: ``A♠ 10♠  Q♥  9♣ 2♣``."""
    groups = sort_hand(cards, order)
    if not groups:
        return text(_("(no cards)"), DIM)
    return join([cards_frags(g, symbols) for g in groups], "  ")


@dataclass(frozen=True)
class Look:
    """How cards and seats are written: suit symbols or letters, seat names."""

    rules: Rules
    symbols: bool = True

    # -- seats and sides ----------------------------------------------------------

    def seat(self, seat: int) -> str:
        """``North``, ``East``..."""
        letter = self.rules.seat_names[seat]
        return seat_word(letter, SEAT_WORDS[letter])

    def letter(self, seat: int) -> str:
        return self.rules.seat_names[seat]

    def side(self, side: int) -> str:
        """``North-South`` / ``East-West`` (partners), else the seat's name (2P, 3P, solo)."""
        if not self.rules.partnerships:
            return self.seat(side)
        return (_("North-South"), _("East-West"))[side]

    def wins_word(self) -> bool:
        """Whether a winner is one player (``wins``) rather than partners (``win``)."""
        return not self.rules.partnerships

    def losers(self, scores: Sequence[int], winner: int) -> str:
        """The scores of every side but ``winner``'s: ``340``; ``430 and 210`` without
        partners (R-CT-7)."""
        others = [str(scores[s]) for s in range(len(scores)) if s != winner]
        if len(others) == 1:
            return others[0]
        return _("{some} and {last}").format(some=", ".join(others[:-1]), last=others[-1])

    def side_short(self, side: int) -> str:
        return self.rules.side_name(side)

    def side_seats(self, side: int) -> tuple[int, ...]:
        return self.rules.side_seats(side)

    # -- cards --------------------------------------------------------------------

    @property
    def order(self) -> CardOrder:
        """The rules' order of the cards: each card's suit for following, the trumps."""
        return plan_for(self.rules).order

    def suit(self, card: int) -> int:
        """The suit ``card`` follows as (a joker or a high deuce is a spade: R-J-10)."""
        return self.order.suit[card]

    def is_trump(self, card: int) -> bool:
        return self.order.suit[card] == self.order.trump_suit

    def winning(self, cards: Sequence[int]) -> int:
        """The position of the card winning a trick so far (R-C-4, in the rules' order)."""
        return winning_index(cards, self.order)

    def card(self, card: int) -> Frag:
        return card_frag(card, self.symbols)

    def card_text(self, card: int) -> str:
        return card_label(card, symbols=self.symbols)

    def cards(self, cards: Iterable[int], sep: str = " ") -> Fragments:
        return cards_frags(cards, self.symbols, sep)

    def sorted_hand(self, cards: Iterable[int]) -> list[list[int]]:
        return sort_hand(cards, self.order)

    def hand(self, cards: Iterable[int]) -> Fragments:
        """A hand sorted by suit, suits two spaces apart: ``A♠ 10♠  Q♥  9♣ 2♣``."""
        return hand_frags(cards, self.symbols, self.order)

    def card_list(self, cards: Iterable[int]) -> Fragments:
        """Cards high to low in hand order, one space apart."""
        return join([self.cards(g) for g in sort_hand(cards, self.order)], " ")

    def marked(self, card: int) -> Fragments:
        """The card winning a trick: in brackets, ``[Q♠]``."""
        return [(WIN, "["), self.card(card), (WIN, "]")]

    def played(self, trick: Sequence[tuple[int, int]], winning: int | None = None) -> Fragments:
        """``N 4♣, E [K♣]``: the cards of a trick with who played them, the winning one marked."""
        parts: list[Fragments] = []
        for i, (s, c) in enumerate(trick):
            card = self.marked(c) if i == winning else [self.card(c)]
            parts.append([("", self.letter(s) + " "), *card])
        return join(parts, ", ")

    def finished_trick(self, no: int, trick: Trick) -> Fragments:
        n = self.rules.players
        pairs = [(trick.seat_of(i, n), c) for i, c in enumerate(trick.cards)]
        index = (trick.winner - trick.leader) % n
        return say(
            _("Trick {no} ({seat} led): {cards} - {winner} wins with {card}"),
            no=no,
            seat=self.seat(trick.leader),
            cards=self.played(pairs, index),
            winner=self.seat(trick.winner),
            card=self.card(trick.cards[index]),
        )
