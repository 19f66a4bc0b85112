"""R-J-6 at the prompt: South deals a jokers-discard hand, holds fifteen cards, is asked to
lay two aside (turn line, completions, ``help``, ``discards``), types them, and the table
is told only that cards were laid aside."""

from __future__ import annotations

from helpers.prompt import new_session, play_until, texts

from spades_cli.engine import BID, DISCARD_PHASE, card_label
from spades_cli.repl.core import OWN, VIEW
from spades_cli.session.commands import DISCARD_AFTER_HELP, DISCARD_HELP
from spades_cli.session.moves import completions


def test_r_j_6_the_dealer_lays_two_cards_aside_at_the_prompt() -> None:
    """R-J-6, R-H-45: South (human, the dealer) sees fifteen cards and the turn line, types
    one card as ``discard QS`` and one bare, and bids on the thirteen left."""
    session = new_session("jokers-discard", overrides=["first_dealer=S"])
    shown = session.start()
    assert session.state.phase == DISCARD_PHASE and session.on_turn == 2
    assert texts(shown, VIEW)[-1].endswith(
        "South: lay a card aside face down, out of play (2 cards to lay aside)"
    )
    assert DISCARD_HELP.format(n=2, who="the dealer") in "\n".join(texts(session.handle("help")))
    assert "You have laid no cards aside this hand." in texts(session.handle("discards"))[0]
    obs = session.state.observation(2)
    notes = {note for _, _, note in completions(session.look, session.rules, obs)}
    assert "lay aside, out of play" in notes
    low = sorted(session.state.hand_of(2))[:2]
    shown = session.handle(f"discard {card_label(low[0], symbols=False)}")
    assert texts(shown, OWN)[0] == f"South lays {session.look.card_text(low[0])} aside."
    assert texts(shown, VIEW)[-1].endswith("(1 card to lay aside)")
    shown = session.handle(card_label(low[1], symbols=False))
    assert session.state.phase == BID and len(session.state.hand_of(2)) == 13
    said = "\n".join(texts(session.handle("discards")))
    assert all(session.look.card_text(c) in said for c in low)


def test_r_j_6_the_others_see_a_card_laid_aside_face_down() -> None:
    """R-J-6: at another seat the move is told without the card."""
    session = new_session("jokers-discard", overrides=["first_dealer=E"])
    shown = session.start()
    said = [t for t in texts(shown) if "aside" in t]
    assert said == ["East lays a card aside face down."] * 2


def test_r_j_7_b_the_dealer_bids_on_fifteen_then_discards() -> None:
    """R-J-7 (b): with the discard after the bids, the help says so and the discard comes
    once South has bid."""
    session = new_session("jokers-discard", overrides=["first_dealer=S", "deck.discard_after_bids=true"])
    session.start()
    assert DISCARD_AFTER_HELP.format(n=2, who="the dealer") in "\n".join(texts(session.handle("help")))
    play_until(session, lambda s: s.state.phase != BID)
    assert session.state.phase == DISCARD_PHASE and session.on_turn == 2
