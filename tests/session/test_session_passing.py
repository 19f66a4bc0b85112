"""R-BN-4 at the prompt: South bids blind nil, is asked for the cards to pass one at a
time (turn line, completions, ``help``), types them, and is told what North passes back."""

from __future__ import annotations

from helpers.prompt import new_session, play_until, texts

from spades_cli.engine import DECLARE, PASS, card_label
from spades_cli.repl.core import OWN, VIEW
from spades_cli.session.commands import PASS_HELP
from spades_cli.session.moves import completions

OVERRIDES = ["blind_nil.enabled=true", "blind_nil.behind_by=null", "blind_nil.pass_cards=2"]


def test_r_bn_4_the_blind_nil_passes_at_the_prompt_and_sees_what_comes_back() -> None:
    """R-BN-4, R-H-44: South (human) declares blind nil, passes its two highest cards
    (typed ``pass QS``-style and bare), and reads the two cards North passes back."""
    session = new_session(overrides=OVERRIDES)
    session.start()
    play_until(session, lambda s: s.state.phase == DECLARE and s.on_turn == 2, lambda s: "noblind")
    shown = session.handle("blind")
    assert session.state.phase == PASS and session.on_turn == 2
    assert texts(shown, VIEW)[-1].endswith("South: pass a card face down to your partner (2 cards to pass)")
    assert PASS_HELP.format(n=2) in "\n".join(texts(session.handle("help")))
    obs = session.state.observation(2)
    notes = {note for _, _, note in completions(session.look, session.rules, obs)}
    assert "pass to your partner" in notes
    high = sorted(session.state.hand_of(2))[-2:]
    shown = session.handle(f"pass {card_label(high[1], symbols=False)}")
    assert texts(shown, OWN)[0] == f"South passes {session.look.card_text(high[1])} to their partner."
    assert texts(shown, VIEW)[-1].endswith("(1 card to pass)")
    shown = session.handle(card_label(high[0], symbols=False))
    assert session.state.phase != PASS
    got = [t for t in texts(shown, OWN) if t.startswith("North passes ")]
    assert len(got) == 2  # North's two cards, told to its partner
    assert not set(high) & set(session.state.hand_of(2))
