"""R-NV-4 at the prompt: the turn line offers zero beside nil, ``help`` explains it, typing
``zero`` bids it, and the table and the hand's summary show it as zero, not nil."""

from __future__ import annotations

from helpers.prompt import first_legal, new_session, play_until, texts

from spades_cli.engine import BID, ZERO
from spades_cli.repl.core import HAND, OWN, VIEW
from spades_cli.session.commands import ZERO_HELP


def test_r_nv_4_zero_is_offered_typed_and_shown_at_the_prompt() -> None:
    """R-NV-4, R-H-43: South bids zero at a table that offers it."""
    session = new_session(overrides=["nil.zero=true"])
    shown = session.start()
    assert session.state.phase == BID and session.on_turn == 2
    assert texts(shown, VIEW)[-1].endswith("to bid: nil, zero or 1-13")
    helped = "\n".join(texts(session.handle("help")))
    assert ZERO_HELP in helped
    shown = session.handle("zero")
    assert texts(shown, OWN) == ["South bids zero."]
    assert session.state.bids[2] == 0 and session.state.zero[2]
    assert "S zero" in "\n".join(texts(session.handle("bids")))
    shown = play_until(session, lambda s: len(s.state.results) == 1)
    (summary,) = texts(shown, HAND)
    assert "S zero" in summary and "nil" not in summary.split("North-South")[1].split("\n")[0]


def test_r_nv_4_zero_is_refused_where_it_is_not_offered() -> None:
    """R-NV-4: at the shipped four-player table ``zero`` is no bid; help says nothing of it."""
    session = new_session()
    session.start()
    assert ZERO_HELP not in "\n".join(texts(session.handle("help")))
    said = "\n".join(texts(session.handle("zero")))
    assert "Zero (a bid of 0 that is not nil) is not allowed here; legal bids: nil, 1," in said
    assert session.state.phase == BID and ZERO not in session.state.legal_actions()
    session.handle(first_legal(session))
