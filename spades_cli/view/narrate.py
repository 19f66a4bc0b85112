"""The one narrator of a game: its typed events (:mod:`spades_cli.game.events`) put into
words, for the prompt and batch mode, a joined seat (whose client turns the table's
messages into the same events), ``replay --step`` and the line printer.

A move's words depend on what the seat they are told to may see of it: a card given up in
the exchange, the two cards of a draft decision. The caller says so; the words are here.
"""

from __future__ import annotations

from collections.abc import Sequence

from spades_cli.engine import (
    BID,
    BID_BASE,
    BLIND,
    DECLARE,
    DISCARD_PHASE,
    DRAFT,
    DRAW,
    EXCHANGE,
    EXCHANGE_DONE,
    KEEP,
    PASS,
    PLAY,
    ZERO,
)
from spades_cli.game.events import Decided, HandStarted, TrickWon
from spades_cli.i18n import _
from spades_cli.view.layout import Fragments
from spades_cli.view.look import Look, say
from spades_cli.view.table import finished_trick

HIDDEN = -1  # the card of a move the seat told may not see (a card given up in the exchange)

__all__ = ["HIDDEN", "dealt", "game_won", "move", "trick"]


def move(
    look: Look,
    e: Decided,
    *,
    lead: bool = False,
    private: bool = False,
    declined: bool = False,
    draft: Sequence[int] = (),
    owner: int | None = None,
    forced: bool = False,
) -> Fragments | None:
    """A move in words, None when nothing is said of it. ``lead``: the card opens a trick;
    ``private``: the seat told made the move (or draws the card) and sees its cards;
    ``declined``: say a decision not to declare too; ``draft``: the two cards of a draft
    decision (the one drawn, the next); ``owner``: the seat drawing a card (``e.seat`` is
    chance's); ``forced``: a card played for a person, the only legal one (``--autoplay``)."""
    name = look.seat(e.seat) if e.seat >= 0 else ""
    action, two = e.action, look.rules.players == 2
    if e.phase == PLAY:
        if forced:
            said = (
                _("{seat} leads {card} (the only legal card).")
                if lead
                else _("{seat} plays {card} (the only legal card).")
            )
        else:
            said = _("{seat} leads {card}.") if lead else _("{seat} plays {card}.")
        return say(said, seat=name, card=look.card(action))
    if e.phase == BID:
        bid = action - BID_BASE
        if action == ZERO:
            return say(_("{seat} bids {bid}."), seat=name, bid=_("zero"))  # R-NV-4
        return say(_("{seat} bids {bid}."), seat=name, bid=_("nil") if bid == 0 else bid)
    if e.phase == DECLARE:
        if action == BLIND:
            return say(_("{seat} declares double nil.") if two else _("{seat} bids blind nil."), seat=name)
        if not declined:
            return None
        return say(
            _("{seat} does not declare double nil.") if two else _("{seat} does not bid blind nil."),
            seat=name,
        )
    if e.phase == DRAFT:
        if not private or len(draft) != 2:
            return say(_("{seat} takes a card."), seat=name)
        kept, gone = (draft[0], draft[1]) if action == KEEP else (draft[1], draft[0])
        if action == KEEP:
            said = _("{seat} keeps {kept} and discards {gone}.")
        else:
            said = _("{seat} discards {gone} and keeps {kept}.")
        return say(said, seat=name, kept=look.card(kept), gone=look.card(gone))
    if e.phase == EXCHANGE:
        if action == EXCHANGE_DONE:
            return say(_("{seat} keeps the other cards."), seat=name) if private else None
        if private:
            return say(_("{seat} gives up {card}."), seat=name, card=look.card(action))
        return say(_("{seat} gives up a card and draws one from the discard pile."), seat=name)
    if e.phase == PASS:  # R-BN-4: face down, seen by the two partners (``private``)
        if private:
            return say(_("{seat} passes {card} to their partner."), seat=name, card=look.card(action))
        return say(_("{seat} passes a card to their partner."), seat=name)
    if e.phase == DISCARD_PHASE:  # R-J-6: face down, seen by its owner only (``private``)
        if private:
            return say(_("{seat} lays {card} aside."), seat=name, card=look.card(action))
        return say(_("{seat} lays a card aside face down."), seat=name)
    if e.phase == DRAW and private and owner is not None:
        return say(
            _("{seat} draws {card} from the discard pile."), seat=look.seat(owner), card=look.card(action)
        )
    return None


def trick(look: Look, e: TrickWon) -> Fragments:
    """``Trick 3: East wins with K♣.``"""
    winning = next(card for seat, card in e.cards if seat == e.winner)
    return say(
        _("Trick {no}: {seat} wins with {card}."),
        no=e.trick_no,
        seat=look.seat(e.winner),
        card=look.card(winning),
    )


def trick_shown(look: Look, e: TrickWon, width: int = 80) -> Fragments:
    """What a seat at the prompt sees when a trick ends: :func:`trick`'s line, then the
    trick laid out by seat with the winner's card marked."""
    return [*trick(look, e), ("", "\n"), *finished_trick(look, e.cards, e.winner, width)]


def dealt(look: Look, e: HandStarted) -> str:
    """``Hand 2: East deals.`` (two players: who draws first, who bids first and leads)."""
    if look.rules.players == 2:
        first, second = look.seat(e.dealer), look.seat(1 - e.dealer)
        return _("Hand {no}: {first} draws first; {second} bids first and leads.").format(
            no=e.hand_no + 1, first=first, second=second
        )
    return _("Hand {no}: {seat} deals.").format(no=e.hand_no + 1, seat=look.seat(e.dealer))


def game_won(look: Look, win: int, scores: Sequence[int], me: int | None) -> str:
    """``Game over: North-South win, 512 to 340.`` and, told to a player ``me``, who won."""
    said = (
        _("Game over: {side} wins, {won} to {lost}.")
        if look.wins_word()
        else _("Game over: {side} win, {won} to {lost}.")
    )
    line = said.format(side=look.side(win), won=scores[win], lost=look.losers(scores, win))
    if me is not None:
        line += _(" You win!") if look.rules.side_of(me) == win else _(" You lose.")
    return line
