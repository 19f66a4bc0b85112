"""The cards, seats and sides of a game as the double-dummy solvers see them.

Both solvers (``solver/search.py`` in Python, ``solver/_ddcore.c`` in C) number the
cards of a position their own way: a *slot card* is ``suit * 16 + slot``, where ``suit``
is the suit the card follows as under the rules' order (engine/play.py ``CardOrder``:
the jokers and a deuce of diamonds among the trumps are spades, R-J-1, R-J-10) and
``slot`` its place among the deck's cards of that suit, the lowest 0. A suit holds up
to 16 cards (16 spades with the two jokers and the two of diamonds, R-J-8), so a hand
is one 64-bit mask and the order inside a suit is the order of the numbers, whatever
the deck. The ordinary 52 cards map to ``suit * 16 + rank``. Everything here is read
from the rules' plan (engine/plan.py), once per rules.

The seats form two *teams* for a question: with two sides (the partnership game, the
two-player game) the sides themselves; with more (cutthroat R-CT-1, solo R-I-1) the
side asked about against every other seat, all of them playing together against it
(the most tricks or points the side can be sure of, whatever the others do).
"""

from __future__ import annotations

from typing import Final, final

from spades_cli.engine.cards import NUM_CARDS
from spades_cli.engine.plan import Plan, plan_for
from spades_cli.engine.play import CardOrder
from spades_cli.engine.rules import Rules
from spades_cli.engine.state import State
from spades_cli.solver.sets import MAX_TRICKS, RADIX

SLOTS: Final = 16  # slots a suit
SUIT_SLOTS: Final = (1 << SLOTS) - 1
ALL_SLOTS: Final = (1 << (4 * SLOTS)) - 1
SUIT_MASKS: Final = tuple(SUIT_SLOTS << (SLOTS * s) for s in range(4))
POP16: Final = tuple(bin(i).count("1") for i in range(1 << SLOTS))  # cards in a suit's slots


class UnsupportedRules(ValueError):
    """Rules whose order of the cards the solvers' layout cannot hold (a suit of more
    than 16 cards, trumps that are not one suit, or a hand longer than 17 tricks, or
    one that could hold 16 cards of a suit)."""


def radix_of(tricks: int) -> int:
    """The base of the outcome index for a hand of ``tricks`` tricks (a digit per group)."""
    return max(RADIX, tricks + 1)


@final
class SolverDeck:
    """The rules' cards in slot numbers (see the module doc): ``slot_of[card]`` (-1: not
    in the deck), ``card_of[slot]``, the slot order, the play rules' keeps in slots, the
    seats and the hand's length."""

    def __init__(self, rules: Rules) -> None:
        plan = plan_for(rules)
        self.plan: Plan = plan
        order = plan.order
        deck = plan.deck_cards
        slot_of = [-1] * NUM_CARDS
        card_of = [-1] * (4 * SLOTS)
        for c in deck:
            suit = order.suit[c]
            below = sum(1 for d in deck if order.suit[d] == suit and order.beaten_by[d] >> c & 1)
            if suit > 3 or below >= SLOTS:
                raise UnsupportedRules(f"the solver holds 16 cards a suit, not the rules {rules.name!r}")
            slot_of[c] = suit * SLOTS + below
            card_of[suit * SLOTS + below] = c
        self.slot_of: tuple[int, ...] = tuple(slot_of)
        self.card_of: tuple[int, ...] = tuple(card_of)
        self.deck: int = self.slots(plan.deck_mask)
        # The order among slots: a higher slot beats a lower one of its suit, a trump any other.
        self.order: CardOrder = _slot_order(order.trump_suit)
        for c in deck:
            mine = self.order.beaten_by[slot_of[c]] & self.deck
            if mine != self.slots(order.beaten_by[c] & plan.deck_mask):
                raise UnsupportedRules(f"the solver cannot order the cards of the rules {rules.name!r}")
        self.keeps: tuple[tuple[int, ...], ...] = tuple(
            tuple(k if k == 0 else self.slots(k) if k > 0 else -self.slots(-k) for k in row)
            for row in plan.card_keeps
        )
        self.tricks: int = plan.hand_size
        longest = max(POP16[(self.deck >> (SLOTS * s)) & SUIT_SLOTS] for s in range(4))
        if self.tricks > MAX_TRICKS or min(longest, self.tricks) > 15:  # (4 bits a count)
            raise UnsupportedRules(f"the solver plays hands of at most {MAX_TRICKS} tricks")
        self.radix: int = radix_of(self.tricks)
        self.players: int = plan.players
        self.side_of: tuple[int, ...] = plan.side_of
        self.sides: int = plan.sides

    def order_table(self) -> tuple[tuple[int, ...], tuple[int, ...], int, int]:
        """The slot order as the C search core takes it: for each of the 64 slot cards the
        cards of its suit and the cards that beat it (of the deck), the trumps, their suit."""
        every = self.deck
        order = self.order
        return (
            tuple(m & every for m in order.suit_mask),
            tuple(m & every for m in order.beaten_by),
            order.trump & every,
            order.trump_suit,
        )

    def slots(self, mask: int) -> int:
        """A mask of cards as a mask of slot cards."""
        out = 0
        slot_of = self.slot_of
        while mask:
            low = mask & -mask
            out |= 1 << slot_of[low.bit_length() - 1]
            mask ^= low
        return out

    def slot(self, card: int) -> int:
        """A card as a slot card (-1 stays -1: no card); ValueError for a card the deck
        does not hold."""
        if card < 0:
            return -1
        slot = self.slot_of[card] if card < NUM_CARDS else -1
        if slot < 0:
            raise ValueError(f"{card} is not a card of this deck")
        return slot

    def card(self, slot: int) -> int:
        """A slot card as a card (-1 stays -1)."""
        return self.card_of[slot] if slot >= 0 else -1

    def teams(self, side: int) -> tuple[list[int], int]:
        """Each seat's team (0 or 1) for a question about ``side``, and the team that
        stands for ``side`` (see the module doc): the sides themselves when there are
        two, else ``side`` (team 0) against every other seat (team 1)."""
        if not 0 <= side < self.sides:
            raise ValueError(f"no side {side} in a game of {self.sides} sides")
        if self.sides == 2:
            return list(self.side_of), side
        return [0 if self.side_of[s] == side else 1 for s in range(self.players)], 0


def mates(team: list[int]) -> list[int]:
    """Each seat's partner in the cashing bounds (``solver/sure.py``): the other seat of
    a team of two, itself alone in its team, -1 in a team of three (no cashing)."""
    out: list[int] = []
    for s in range(len(team)):
        others = [t for t in range(len(team)) if t != s and team[t] == team[s]]
        out.append(s if not others else others[0] if len(others) == 1 else -1)
    return out


def pairs(team: list[int]) -> bool:
    """True when the teams are the partnership game's (seats 0 and 2 against 1 and 3): the
    move-order heuristics for a seat counted apart from its partner read that layout."""
    return len(team) == 4 and all(team[s] == team[s % 2] != team[1 - s % 2] for s in range(4))


_ORDERS: Final[dict[int, CardOrder]] = {}


def _slot_order(trump_suit: int) -> CardOrder:
    hit = _ORDERS.get(trump_suit)
    if hit is None:
        hit = CardOrder([s // SLOTS for s in range(4 * SLOTS)], trump_suit, range(4 * SLOTS))
        _ORDERS[trump_suit] = hit
    return hit


_DECKS: Final[dict[int, SolverDeck]] = {}


def solver_deck(rules: Rules) -> SolverDeck:
    """The solvers' view of ``rules`` (made once for the rules' plan, which is cached)."""
    plan = plan_for(rules)
    deck = _DECKS.get(id(plan))
    if deck is not None and deck.plan is plan:
        return deck
    if len(_DECKS) > 64:
        _DECKS.clear()
    deck = _DECKS[id(plan)] = SolverDeck(rules)
    return deck


def tricks_left(state: State) -> int:
    """The tricks still to finish in ``state``'s hand (the current one counts)."""
    return solver_deck(state.rules).tricks - state.trick_no


__all__ = [
    "ALL_SLOTS",
    "MAX_TRICKS",
    "POP16",
    "RADIX",
    "SLOTS",
    "SUIT_MASKS",
    "SolverDeck",
    "UnsupportedRules",
    "mates",
    "pairs",
    "radix_of",
    "solver_deck",
    "tricks_left",
]
