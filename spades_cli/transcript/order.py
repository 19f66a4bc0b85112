"""Rules of transcript lines that ``replay`` and ``run`` share, each with one message.

The order of a ``bids`` or ``trick`` line:

A ``bids`` line lists the bids in the order they are made, a ``trick`` line the cards in
the order they are played, from the seat it names: each seat on the line acts right after
the seat before it. ``replay`` (which reads the lines in order) and ``run`` (which hands a
line's actions to the seats it names) refuse a line that breaks the rule with the same
words, naming the seat the game has there and the seat the line has.

The card an ``exchange ... draw CARD`` line draws must be in the discard pile:
:func:`draw_problem` says where it is instead.
"""

from __future__ import annotations

from spades_cli.engine import State, card_str, cards_in

__all__ = ["BIDS_RULE", "TRICK_RULE", "bids_started", "draw_problem", "out_of_order"]

BIDS_RULE = "a bids line lists the bids in the order they are made"
TRICK_RULE = "a trick line lists the cards in the order they are played, from the seat it names"


def bids_started(state: State) -> bool:
    """Whether a seat has bid in this hand (a declared double / blind nil is not a bid made
    in the bidding)."""
    return any(b >= 0 and not state.blind[s] for s, b in enumerate(state.bids))


def out_of_order(names: tuple[str, ...], *, trick: int | None, started: bool, actual: int, named: int) -> str:
    """Why a line's seat ``named`` cannot act where the game has ``actual`` acting:
    ``trick`` is the trick number of a trick line (None for a bids line), ``started``
    whether that trick (or the bidding of the hand) had begun."""
    x, y = names[actual], names[named]
    if trick is None:
        what = f"{x} bids next, not {y}" if started else f"{x} bids first in this hand, not {y}"
        return f"{what} ({BIDS_RULE})"
    what = f"{x} plays next in trick {trick}, not {y}" if started else f"trick {trick} is led by {x}, not {y}"
    return f"{what} ({TRICK_RULE})"


def draw_problem(state: State, seat: int, card: int) -> str:
    """Why ``seat`` cannot draw ``card`` in the exchange (a card not in the discard pile)."""
    names = state.rules.seat_names
    c = card_str(card)
    if state.exchange_given >> card & 1:
        where = f"{names[seat]} has just given it up"
    else:
        holder = next((s for s in range(state.rules.players) if state.hands[s] >> card & 1), None)
        where = f"{names[holder]} holds it" if holder is not None else "it is not in the discard pile"
    pile = state.legal_mask()  # the cards it may draw
    shown = " ".join(card_str(x) for x in cards_in(pile)[:8]) + (" ..." if bin(pile).count("1") > 8 else "")
    return f"{names[seat]} cannot draw {c}: {where} (R-2P-3: the draw comes from the discard pile: {shown})"
