"""Why an action is illegal: the one place that words it (a card refused by a play rule
is worded by that rule's restriction, :mod:`spades_cli.engine.play`).

:class:`IllegalAction` carries the reason (a sentence for people) and the ID of the
rule that forbids the action (``R-C-3``; for a house rule that has no ID of its own,
its option ID, ``R-H-22``; see docs/rules.md); empty when no rule of the game is
involved, such as a card the seat does not hold). :func:`card_reason` takes both
from the restriction of :mod:`spades_cli.engine.play` that decides the legal cards, so the
message can never disagree with the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from spades_cli.engine.actions import (
    BID_BASE,
    EXCHANGE_DONE,
    MAX_BID,
    NUM_ACTIONS,
    ZERO,
    action_label,
    action_text,
)
from spades_cli.engine.cards import NUM_CARDS, SUIT_NAMES, card_label, cards_in
from spades_cli.engine.phases import Phase
from spades_cli.engine.plan import plan_for
from spades_cli.engine.play import SUIT_LED, deciding, kept, situation
from spades_cli.engine.rules import Rules


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
    Phase.PASS: "R-BN-4",
    Phase.DISCARD: "R-J-6",
}


def explain(phase: Phase, action: int, legal: Sequence[int], *, symbols: bool = False) -> IllegalAction:
    """The IllegalAction saying why ``action`` is not legal in ``phase`` (``legal``: the
    legal actions there) for any action but a card to play (:func:`card_reason` words
    those); ``symbols`` chooses ``Q♠`` over ``QS`` in the text."""
    reason, rule = _reason(phase, action, legal, symbols)
    return IllegalAction(reason, rule, action)


def _reason(phase: Phase, action: int, legal: Sequence[int], symbols: bool) -> tuple[str, str]:
    if phase == Phase.OVER:
        return "the game is over", "R-C-11"
    if phase == Phase.DEAL:
        return "the cards must be dealt first", ""
    if not 0 <= action < NUM_ACTIONS:
        return f"there is no action {action}", ""
    if phase == Phase.BID and action >= BID_BASE and action <= BID_BASE + MAX_BID:
        shown = ", ".join(action_text(a) for a in legal)
        return f"that bid is not allowed here; legal bids: {shown}", "R-C-7"
    if phase == Phase.BID and action == ZERO:
        shown = ", ".join(action_text(a) for a in legal)
        return f"zero (a bid of 0 that is not nil) is not allowed here; legal bids: {shown}", "R-NV-4"
    if phase in (Phase.EXCHANGE, Phase.PASS, Phase.DISCARD) and action < NUM_CARDS:
        rule = "" if phase == Phase.EXCHANGE else _PHASE_RULE[phase]
        return f"you do not hold {card_label(action, symbols=symbols)}", rule
    if phase == Phase.DRAW and action < NUM_CARDS:
        return f"{card_label(action, symbols=symbols)} is not in the discard pile", "R-2P-3"
    if phase == Phase.EXCHANGE and action == EXCHANGE_DONE:
        return "the exchange is over", "R-2P-3"
    rule = _PHASE_RULE.get(phase, "")
    return f"{action_label(action, symbols=symbols)} is not possible now ({phase})", rule


def bid_reason(rules: Rules, legal: Sequence[int], spades: int, partner_bid: int) -> tuple[str, str]:
    """Why a bid is refused when the variant's bidding rule decides it: Mirror (R-M-1), Whiz
    (R-W-1) or Suicide (R-S-1, R-S-2); ``spades``: the spade-suit cards the seat holds,
    ``partner_bid``: the partner's bid (-1: none yet). The plain refusal otherwise."""
    bidding = rules.bidding
    if bidding.mode == "mirror":
        return f"in Mirror you bid the spades you hold: {spades or 'nil'}", "R-M-1"
    if bidding.mode == "whiz":
        return f"in Whiz you bid nil or the spades you hold ({spades})", "R-W-1"
    if bidding.suicide and partner_bid >= 0:
        if rules.is_nil(partner_bid):
            return f"in Suicide your partner bid nil: bid a number, at least {bidding.suicide_min}", "R-S-2"
        return "in Suicide your partner bid a number: you bid nil", "R-S-1"
    return _reason(Phase.BID, BID_BASE, legal, False)


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
    played so far): the reason and the rule ID, from the restriction that decides the
    legal cards (:mod:`spades_cli.engine.play`). Everything it needs is public to the seat
    (its observation), so a view can word a restriction the same way the engine does."""
    label = card_label(card, symbols=symbols)
    if not hand >> card & 1:
        return f"you do not hold {label}", ""
    plan = plan_for(rules)
    led = plan.suit_mask[trick[0]] if trick else 0
    at = situation(bool(trick), first_trick, spades_broken)
    i = deciding(plan.card_keeps[at], hand, led)
    if i < 0:
        return f"{label} is not legal here", "R-C-3"
    row = plan.card_rows[at][i]
    keeps = kept(row.keep, hand, led)
    if keeps >> card & 1:
        return f"{label} is not legal here", "R-C-3"
    if row.keep != SUIT_LED:
        return row.words, row.rule_id
    held = " ".join(card_label(c, symbols=symbols) for c in reversed(cards_in(keeps)))
    return row.words.format(suit=SUIT_NAMES[plan.order.suit[trick[0]]], held=held), row.rule_id


class Refused(Protocol):
    """What :func:`refusal` reads of a :class:`~spades_cli.engine.state.State`."""

    rules: Rules
    current: int
    first_trick: bool
    broken: bool

    @property
    def phase(self) -> Phase: ...
    @property
    def trick(self) -> list[int]: ...
    def legal_actions(self, seat: int | None = None) -> tuple[int, ...]: ...
    def spade_count(self, seat: int) -> int: ...
    def _hand(self, seat: int) -> int: ...
    def _partner_bid(self) -> int: ...


def refusal(st: Refused, action: int, symbols: bool) -> IllegalAction:
    """The IllegalAction for ``action``, not legal in the state ``st`` now (cold: only
    an illegal action comes here)."""
    phase = st.phase
    if phase == Phase.PLAY and 0 <= action < NUM_CARDS:
        hand = st._hand(st.current)
        why = card_reason(st.rules, hand, st.trick, st.first_trick, st.broken, action, symbols=symbols)
        return IllegalAction(why[0], why[1], action)
    if phase == Phase.BID and 0 <= action - BID_BASE <= MAX_BID:
        why = bid_reason(st.rules, st.legal_actions(), st.spade_count(st.current), st._partner_bid())
        return IllegalAction(why[0], why[1], action)
    return explain(phase, action, st.legal_actions(), symbols=symbols)


__all__ = ["IllegalAction", "bid_reason", "card_reason", "explain", "refusal"]
