"""Play sessions for the prompt tests: a session with chosen seats, and a whole hand
played on a twin session (the bots are deterministic) to know what must appear."""

from __future__ import annotations

from collections.abc import Sequence

from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from spades_cli.app.setup import make_seats
from spades_cli.cli.cmd_play import seat_labels
from spades_cli.engine.notation import action_text
from spades_cli.game.match import Match
from spades_cli.presets import load_rules
from spades_cli.repl.core import Output, PlaySession, PromptSeat
from spades_cli.repl.prompt import PromptFrontEnd
from spades_cli.session.undo import UNDO_DEFAULT


def new_session(
    preset: str = "four-player",
    seed: int = 7,
    seats: Sequence[str] = (),
    overrides: Sequence[str] = (),
    undo: str = UNDO_DEFAULT,
    autoplay: bool = False,
) -> PlaySession:
    rules = load_rules(preset, overrides)
    labels = seat_labels(rules, seats)
    match = Match(rules, seed, make_seats(rules, labels, human=lambda _label: PromptSeat()))
    humans = {s for s, label in labels.items() if label == "human"}
    return PlaySession(
        match, humans, symbols=False, transcript_path="/saved/game.txt", undo=undo, autoplay=autoplay
    )


def first_legal(session: PlaySession) -> str:
    return action_text(session.state.legal_actions()[0])


def texts(outputs: list[Output], kind: str | None = None) -> list[str]:
    return [o.text for o in outputs if kind is None or o.kind == kind]


def play_until(session: PlaySession, done: object, choose: object = first_legal) -> list[Output]:
    """Answer with ``choose(session)`` until ``done(session)``; all outputs, in order."""
    shown: list[Output] = []
    for _ in range(2000):
        if done(session):  # type: ignore[operator]
            return shown
        shown += session.handle(choose(session))  # type: ignore[operator]
    raise AssertionError("the game did not get there")


def script_hand(preset: str, seed: int) -> tuple[list[str], list[Output]]:
    """Play one whole hand on a twin session: the lines typed and what it showed."""
    twin = new_session(preset, seed)
    shown = twin.start()
    lines: list[str] = []
    while not twin.state.results:
        line = action_text(twin.state.legal_actions()[-1])
        lines.append(line)
        shown += twin.handle(line)
    return lines, shown


def run_keys(
    session: PlaySession, keys: str, *, fast: bool = True, speed: str = "normal"
) -> tuple[int, list[Output]]:
    """Type ``keys`` at the prompt of ``session``; the exit code and everything shown."""
    shown: list[Output] = []
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        front = PromptFrontEnd(
            session,
            color=False,
            fast=fast,
            speed=speed,
            input=pipe,
            output=DummyOutput(),
            history=InMemoryHistory(),
            echo=shown.append,
        )
        code = front.run()
    return code, shown
