"""The batch front end: when stdin is not a terminal, read moves and commands line by line.

No prompts, no colours, no pauses: the same outputs as the prompt, as plain text, so
``spades play --seed 7 < moves.txt`` works in a pipe. End of input saves and leaves
(exit 3 if the game is unfinished); Ctrl-C saves and leaves with exit 130, SIGTERM and
SIGHUP with exit 143.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TextIO

from spades_cli.errors import EXIT_INTERRUPTED, Interrupted, SpadesError
from spades_cli.repl.session import Session
from spades_cli.repl.signals import Caught, check_stop, exit_on_hangup, held_signals
from spades_cli.session.output import PAUSE, Output
from spades_cli.view import output_width, wrap


def write_plain(out: TextIO, outputs: Iterable[Output], width: int | None = None) -> None:
    """The outputs as plain text, wrapped at ``width`` between words when given (no pause
    in a pipe)."""
    for item in outputs:
        if item.kind == PAUSE:
            continue
        out.write((wrap(item.text, width) if width else item.text) + "\n")
    out.flush()


def run_batch(session: Session, stdin: TextIO, stdout: TextIO, intro: Iterable[str] = ()) -> int:
    """Play ``session`` from the lines of ``stdin``; return the exit code."""
    with exit_on_hangup():
        return _loop(session, stdin, stdout, intro)


def _loop(session: Session, stdin: TextIO, stdout: TextIO, intro: Iterable[str]) -> int:
    caught = Caught()
    width = output_width(stdout)
    try:
        with held_signals() as caught:
            outputs = session.start(intro)
        write_plain(stdout, outputs, width)
        _check(caught)
        while not session.done:
            try:
                line = stdin.readline()
            except (OSError, ValueError):  # input closed under us: the same as its end
                line = ""
            with held_signals() as caught:
                outputs = session.handle(line.rstrip("\r\n")) if line else session.leave()
            write_plain(stdout, outputs, width)
            _check(caught)
    except SpadesError:
        write_plain(stdout, session.take_output(), width)  # the moves made before the error
        raise
    except Interrupted:
        raise  # SIGTERM or SIGHUP: the run records end * on the way out (exit 143)
    except KeyboardInterrupt:
        stdout.write("Interrupted.\n")
        write_plain(stdout, session.leave(), width)
        return EXIT_INTERRUPTED
    return session.exit_code


def _check(caught: Caught) -> None:
    check_stop(caught)
    if caught.interrupted:
        raise KeyboardInterrupt
