"""Playing at the prompt (``spades play``): a terminal-independent session and two front ends.

- :class:`~spades_cli.repl.core.PlaySession` (``core``): one game; takes a line, returns
  what to show; lets the bots move until a person must decide.
- ``prompt``: the prompt_toolkit front end (colours, toolbar, completion, history, pauses).
- ``batch``: plain lines in, plain text out, for pipes.

:func:`run_session` picks the front end: the prompt when stdin and stdout are terminals,
batch mode otherwise. ``spades play`` and ``spades resume`` both end up here.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from spades_cli.repl.core import PlaySession, PromptSeat
from spades_cli.repl.session import Session
from spades_cli.session.output import Output
from spades_cli.session.undo import UNDO_DEFAULT
from spades_cli.stdio import stdin_lines
from spades_cli.view import symbols_ok, terminal_width

if TYPE_CHECKING:
    from spades_cli.game.run import GameRun

__all__ = [
    "Output",
    "PlaySession",
    "PromptSeat",
    "interactive",
    "play_match",
    "run_session",
    "symbols_ok",
    "use_color",
]


def interactive() -> bool:
    """True when a person types at a terminal (stdin and stdout are both terminals)."""
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def use_color(no_color: bool) -> bool:
    """Colours unless ``--no-color``, ``NO_COLOR`` set, or output that is not a terminal."""
    return not no_color and not os.environ.get("NO_COLOR") and interactive()


def run_session(
    session: Session,
    *,
    intro: Iterable[str] = (),
    color: bool = True,
    fast: bool = False,
    batch: bool | None = None,
    speed: str = "normal",
) -> int:
    """Play ``session`` at the terminal (or from a pipe); return the exit code (0 finished,
    3 left unfinished and saved, 130 interrupted in batch mode)."""
    if batch is None:
        batch = not interactive()
    if batch:
        from spades_cli.repl.batch import run_batch

        return run_batch(session, stdin_lines(), sys.stdout, intro)
    from spades_cli.repl.prompt import PromptFrontEnd

    return PromptFrontEnd(session, color=color, fast=fast, speed=speed).run(intro)


def play_match(
    run: GameRun,
    humans: Iterable[int],
    *,
    intro: Iterable[str] = (),
    ascii_only: bool = False,
    no_color: bool = False,
    fast: bool = False,
    batch: bool | None = None,
    speed: str = "normal",
    on_play_again: Callable[[], None] | None = None,
    undo: str = UNDO_DEFAULT,
    autoplay: bool | None = None,
    manual: Iterable[int] = (),
) -> int:
    """Play a game run at the prompt (``spades play``; ``spades resume`` of a game with
    human seats, whose controllers must be :class:`PromptSeat`). The run records undo in
    its transcript; when the player leaves it is finished (``end *`` if the game is not
    over, after what its programs write on the way out) and closed. With
    ``on_play_again``, the end of the game asks "Play again?" and calls it on yes (after
    the transcript is closed). ``speed`` paces the bots at the prompt (``slow``,
    ``normal``, ``fast``); ``undo`` is the table's undo policy (:mod:`spades_cli.session.undo`);
    ``autoplay`` plays a person's only legal card for them (None: at a terminal, not in
    batch mode, where each line typed stays the answer to the decision it was meant for);
    ``manual``: seats that type even their only legal card (``--seat S=human:noautoplay``).
    Returns the exit code."""
    path = run.writer.path if run.writer is not None else None
    session = PlaySession(
        run,
        humans,
        symbols=symbols_ok(ascii_only),
        transcript_path=path,
        width=terminal_width(),
        ask_again=on_play_again is not None,
        undo=undo,
        autoplay=(not batch if batch is not None else interactive()) if autoplay is None else autoplay,
        manual=manual,
    )
    try:
        with run:
            return run_session(
                session, intro=intro, color=use_color(no_color), fast=fast, batch=batch, speed=speed
            )
    finally:
        if session.play_again and on_play_again is not None:
            on_play_again()
