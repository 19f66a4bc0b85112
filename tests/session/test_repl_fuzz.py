"""Random input at the prompt never breaks the game, and the transcript always matches it.

Lines are drawn from legal moves, illegal moves, commands (undo included) and noise;
after every line the session's game must equal the game its transcript replays to.
"""

from __future__ import annotations

import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spades_cli.app.setup import make_seats
from spades_cli.cli.cmd_play import seat_labels
from spades_cli.engine.notation import action_text
from spades_cli.game.match import Match
from spades_cli.game.run import GameRun
from spades_cli.presets import load_rules
from spades_cli.repl.core import ERROR, PlaySession, PromptSeat
from spades_cli.transcript import Header, TranscriptWriter, parse_transcript, replay

TABLES = [
    ("four-player", ()),
    ("two-player", ()),
    ("four-player", ("blind_nil.enabled=true", "target=150")),
    ("two-player", ("target=100",)),
]
NOISE = [
    "",
    "zz",
    "14",
    "pass",
    "qs",
    "10h",
    "Th",
    "q",
    "nil",
    "double nil",
    "keep",
    "discard",
    "done",
    "blind",
    "no",
    "play",
    "hand",
    "table",
    "last",
    "tricks",
    "score",
    "bids",
    "help",
    "undo",
    "undo",
    "transcript",
    "quit",
    "rules",
]


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 10_000), data=st.data())
def test_random_input_keeps_game_and_transcript_in_step(
    table: tuple[str, tuple[str, ...]], seed: int, data: st.DataObject
) -> None:
    preset, overrides = table
    rules = load_rules(preset, overrides)
    labels = seat_labels(rules, ["N=human"] if data.draw(st.booleans()) else [])
    match = Match(rules, seed, make_seats(rules, labels, human=lambda _label: PromptSeat()))
    buffer = io.StringIO()
    writer = TranscriptWriter(buffer)
    assert match.dealer is not None
    writer.write_header(
        Header(
            rules=rules,
            seed=str(seed),
            first_dealer=match.dealer,
            seats=tuple(labels[s] for s in range(rules.players)),
            rules_source=preset,
            overrides=overrides,
        )
    )
    humans = {s for s, label in labels.items() if label == "human"}
    session = PlaySession(GameRun(match, writer=writer), humans, symbols=False)
    session.start()
    for _ in range(data.draw(st.integers(20, 160))):
        if session.done:
            break
        if data.draw(st.integers(0, 3)):
            legal = session.state.legal_actions()
            line = action_text(data.draw(st.sampled_from(legal)))
            before = len(session.state.history)
            shown = session.handle(line)
            assert not any(o.kind == ERROR for o in shown), line
            assert len(session.state.history) > before
        else:
            before_history = list(session.state.history)
            line = data.draw(st.sampled_from(NOISE))
            shown = session.handle(line)
            if line == "quit":
                shown += session.handle("no")
            if any(o.kind == ERROR for o in shown):
                assert session.state.history == before_history  # an error changes nothing
    again = replay(parse_transcript(buffer.getvalue()))
    assert again.match.state.history == session.state.history
