"""Card counting from one seat's observation, in words: the cards it has not seen yet, by
suit (``out``), and the suits each seat has shown out of (``voids``). The deck and the
suit each card follows are the rules' (``rules.deck_cards``, ``plan_for(rules).order``):
with jokers they are counted with the spades, and a card put aside is never "out"."""

from __future__ import annotations

from collections.abc import Iterator

from spades_cli.engine import Observation, Trick
from spades_cli.engine.cards import SUIT_LETTERS, SUIT_SYMBOLS, suit_of
from spades_cli.i18n import _, ngettext
from spades_cli.view.look import HAND_ORDER, Look
from spades_cli.view.table import suit_name


def _played(look: Look, obs: Observation) -> Iterator[tuple[int, int, int]]:
    """``(seat, card, led suit)`` of every card played in this hand so far."""
    n = obs.players
    tricks = [*obs.tricks, Trick(obs.leader, obs.current_trick, -1)]
    for trick in tricks:
        for i, card in enumerate(trick.cards):
            yield trick.seat_of(i, n), card, look.suit(trick.cards[0])


def unseen(look: Look, obs: Observation) -> set[int]:
    """The cards of the rules' deck ``obs``'s seat has not seen in this hand: not in its
    hand, not played, not among its own discards or the card it is drafting."""
    seen = {*obs.hand, *obs.own_discards, *(card for _, card, _ in _played(look, obs))}
    if obs.draft_card is not None:
        seen.add(obs.draft_card)
    return set(look.rules.deck_cards) - seen


def shown_out(look: Look, obs: Observation) -> dict[int, set[int]]:
    """The suits each seat has shown out of in this hand (it did not follow them)."""
    voids: dict[int, set[int]] = {}
    for seat, card, led in _played(look, obs):
        if look.suit(card) != led:
            voids.setdefault(seat, set()).add(led)
    return voids


def out_lines(look: Look, obs: Observation) -> str:
    """``Not seen yet (39 cards):`` then a line per suit, high to low."""
    cards = unseen(look, obs)
    marks = SUIT_SYMBOLS if look.symbols else SUIT_LETTERS
    lines = [
        ngettext("Not seen yet ({n} card):", "Not seen yet ({n} cards):", len(cards)).format(n=len(cards))
    ]
    by_suit = {look.suit(group[0]): group for group in look.sorted_hand(cards)}
    for suit in HAND_ORDER:
        # A card of its printed suit shows its rank alone (``Q``); a joker or a high deuce
        # counted with the spades shows whole (``BJ``, ``2♦``).
        ranks = [
            look.card_text(c)[:-1] if suit_of(c) == suit else look.card_text(c) for c in by_suit.get(suit, [])
        ]
        lines.append(f"  {marks[suit]} {' '.join(ranks) if ranks else '-'}")
    return "\n".join(lines)


def voids_line(look: Look, obs: Observation) -> str:
    """``Shown out: West of hearts; North of clubs and diamonds.``"""
    voids = shown_out(look, obs)
    if not voids:
        return _("Nobody has shown out of a suit in this hand yet.")
    parts = []
    for seat in range(obs.players):
        if seat in voids:
            suits = [suit_name(s) for s in HAND_ORDER if s in voids[seat]]
            said = (
                _("{some} and {last}").format(some=", ".join(suits[:-1]), last=suits[-1])
                if len(suits) > 1
                else suits[0]
            )
            parts.append(_("{seat} of {suits}").format(seat=look.seat(seat), suits=said))
    return _("Shown out: {seats}.").format(seats="; ".join(parts))
