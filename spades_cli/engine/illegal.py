"""Why an action is illegal: the one place that words it.

:class:`IllegalAction` carries the reason (a sentence for people) and the ID of the
rule that forbids the action (``R-C-3``; for a house rule that has no ID of its own,
its option ID, ``R-H-22``; see docs/rules.md); empty when no rule of the game is
involved, such as a card the seat does not hold). :func:`explain` derives both from
the state's own legality masks, so the message can never disagree with the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from spades_cli.engine.actions import BID_BASE, EXCHANGE_DONE, NUM_ACTIONS, action_label
from spades_cli.engine.cards import NON_SPADE_MASK, SPADES, SUIT_MASKS, SUIT_NAMES, card_label, cards_in
from spades_cli.engine.phases import Phase

if TYPE_CHECKING:
    from spades_cli.engine.rules import Rules
    from spades_cli.engine.state import State


class IllegalAction(ValueError):
    """An action that is not legal in this state: ``reason`` says why, ``rule_id`` names
    the rule that forbids it (or is empty), ``action`` is the action number (-1: none)."""

    def __init__(self, reason: str, rule_id: str = "", action: int = -1) -> None:
        super().__init__(reason)
        self.reason = reason
        self.rule_id = rule_id
        self.action = action


_PHASE_RULE = {
    Phase.DECLARE: "R-2P-3",
    Phase.DRAFT: "R-2P-2",
    Phase.EXCHANGE: "R-2P-3",
    Phase.DRAW: "R-2P-3",
    Phase.BID: "R-C-7",
    Phase.PLAY: "R-C-3",
}


def explain(state: State, action: int, *, symbols: bool = False) -> IllegalAction:
    """The IllegalAction saying why ``action`` is not legal for the seat on turn (call
    it only for an illegal action; ``symbols`` chooses ``Q♠`` over ``QS`` in the text)."""
    reason, rule = _reason(state, action, symbols)
    return IllegalAction(reason, rule, action)


def _reason(state: State, action: int, symbols: bool) -> tuple[str, str]:
    phase = state.phase
    if phase == Phase.OVER:
        return "the game is over", "R-C-11"
    if phase == Phase.DEAL:
        return "the cards must be dealt first", ""
    if not 0 <= action < NUM_ACTIONS:
        return f"there is no action {action}", ""
    if phase == Phase.PLAY and action < 52:
        return _card_reason(state, action, symbols)
    if phase == Phase.BID and action >= BID_BASE and action < BID_BASE + 14:
        legal = [a - BID_BASE for a in state.legal_actions()]
        shown = ", ".join("nil" if b == 0 else str(b) for b in legal)
        return f"that bid is not allowed here; legal bids: {shown}", "R-C-7"
    if phase == Phase.EXCHANGE and action < 52:
        return f"you do not hold {card_label(action, symbols=symbols)}", ""
    if phase == Phase.DRAW and action < 52:
        return f"{card_label(action, symbols=symbols)} is not in the discard pile", "R-2P-3"
    if phase == Phase.EXCHANGE and action == EXCHANGE_DONE:
        return "the exchange is over", "R-2P-3"
    rule = _PHASE_RULE.get(phase, "")
    return f"{action_label(action, symbols=symbols)} is not possible now ({phase})", rule


def _card_reason(state: State, card: int, symbols: bool) -> tuple[str, str]:
    return card_reason(
        state.rules,
        state.hands[state.current],
        state.trick,
        state.first_trick,
        state.spades_broken(),
        card,
        symbols=symbols,
    )


def card_reason(
    rules: Rules,
    hand: int,
    trick: Sequence[int],
    first_trick: bool,
    spades_broken: bool,
    card: int,
    *,
    symbols: bool = False,
) -> tuple[str, str]:
    """Why ``card`` may not be played from ``hand`` (a card mask) to ``trick`` (the cards
    played so far): the reason and the rule ID. Everything it needs is public to the seat
    (its observation), so a view can word a restriction the same way the engine does."""
    label = card_label(card, symbols=symbols)
    if not hand >> card & 1:
        return f"you do not hold {label}", ""
    play = rules.play
    others = hand & NON_SPADE_MASK
    if trick:
        led = trick[0] // 13
        follow = hand & SUIT_MASKS[led]
        if follow and card // 13 != led:
            held = " ".join(card_label(c, symbols=symbols) for c in reversed(cards_in(follow)))
            return f"you must follow {SUIT_NAMES[led]}: you hold {held}", "R-C-3"
        if first_trick and play.no_spades_first_trick and card // 13 == SPADES and others:
            return (
                "spades may not be played to the first trick while you hold other cards",
                "R-H-22",
            )
        return f"{label} is not legal here", "R-C-3"
    if first_trick:
        if play.two_of_clubs_leads and hand & 1 and card != 0:
            return "the two of clubs must lead the first trick", "R-H-21"
        if play.no_spades_first_trick and card // 13 == SPADES and others:
            return "no spade may lead the first trick while you hold another suit", "R-H-22"
    if play.spades_break and not spades_broken and card // 13 == SPADES and others:
        return "spades are not broken yet: lead another suit", "R-C-6"
    return f"{label} is not legal here", "R-C-3"


__all__ = ["IllegalAction", "card_reason", "explain"]
