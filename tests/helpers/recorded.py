"""A bots' game recorded as a transcript in memory, with one move taken back on the way."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

from spades_cli.app.setup import make_controller
from spades_cli.engine import State
from spades_cli.game.match import Match
from spades_cli.game.run import GameRun
from spades_cli.presets import load_rules
from spades_cli.transcript import Header, TranscriptWriter


def recorded_game(
    preset: str,
    seed: str,
    seats: Sequence[str],
    overrides: Sequence[str] = (),
    undo_when: Callable[[State], bool] | None = None,
) -> str:
    """The transcript of a game of ``preset`` played by ``seats``; the first time
    ``undo_when(state)`` holds, the seat on turn takes back its last move (``undo``)."""
    rules = load_rules(preset, overrides)
    match = Match(rules, seed, [make_controller(label, rules) for label in seats])
    buffer = io.StringIO()
    writer = TranscriptWriter(buffer)
    assert match.dealer is not None
    writer.write_header(Header(rules, seed, match.dealer, tuple(seats), preset, tuple(overrides)))
    run = GameRun(match, writer=writer)
    undone = False
    while not match.finished:
        st = match.state
        if undo_when is not None and not undone and undo_when(st):
            run.undo(st.current_player())
            undone = True
        run.step()
    return buffer.getvalue()
