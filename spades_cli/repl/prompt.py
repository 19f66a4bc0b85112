"""The interactive front end: a prompt_toolkit prompt around a :class:`PlaySession`.

Colours through prompt_toolkit's formatted text (off with ``--no-color`` or ``NO_COLOR``),
a two-line bottom toolbar with bids, tricks, score and spades, Tab completion of the legal
moves and the commands, and a history kept between runs in the per-user data folder.
The other seats' moves appear one at a time with a short pause (none with ``--fast``).

Keys: Ctrl-C clears the line being typed; Ctrl-D (or a closed input) saves and leaves;
a closed terminal ends the process at once with nothing lost, since every move is
already in the transcript.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from prompt_toolkit import PromptSession, print_formatted_text
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.output import ColorDepth, Output, create_output

from spades_cli.engine import DRAFT
from spades_cli.errors import Interrupted, SpadesError
from spades_cli.i18n import _
from spades_cli.repl.completer import PlayCompleter
from spades_cli.repl.keys import DRAFT_KEYS, single_keys
from spades_cli.repl.session import Session
from spades_cli.repl.signals import Caught, check_stop, exit_on_hangup, held_signals
from spades_cli.repl.toolbar import STYLE, toolbar
from spades_cli.session.output import ASK, HANDOFF, MOVE, OWN, PAUSE, STATUS, TRICK, VIEW
from spades_cli.session.output import Output as Shown
from spades_cli.transcript import default_transcript_dir
from spades_cli.transcript.paths import private_folder
from spades_cli.view import plain, wrap_frags
from spades_cli.view.layout import MAX_WIDTH, MIN_WIDTH

# Seconds to wait after another seat's move and after the end of a trick, per --speed.
SPEEDS: dict[str, tuple[float, float]] = {"slow": (1.0, 2.0), "normal": (0.5, 1.0), "fast": (0.15, 0.3)}
MOVE_PAUSE, TRICK_PAUSE = SPEEDS["normal"]


def data_dir() -> Path:
    """The per-user folder of spades, where the transcripts folder also lives: ``$SPADES_HOME``,
    else ``$XDG_DATA_HOME/spades``, else ``~/.local/share/spades``."""
    return default_transcript_dir().parent


def history_file() -> Path:
    return data_dir() / "history"


HISTORY_LINES = 500
"""The most lines typed at the prompt the history file keeps (the oldest go first)."""


def open_history(path: Path | None = None) -> History:
    """The prompt's history, kept in a file between runs (in memory if the file cannot be
    written). The file is private (0600, whatever the umask) and keeps the last
    :data:`HISTORY_LINES` lines typed."""
    target = path or history_file()
    try:
        private_folder(target.parent)
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            os.fchmod(fd, 0o600)
        finally:
            os.close(fd)
        _trim_history(target, HISTORY_LINES)
    except OSError:
        return InMemoryHistory()
    return FileHistory(str(target))


def _trim_history(path: Path, keep: int) -> None:
    """Keep the last ``keep`` entries of a prompt_toolkit history file (an entry is a
    ``# date`` comment line followed by ``+text`` lines), rewritten in place when longer."""
    text = path.read_text(encoding="utf-8", errors="replace")
    entries: list[list[str]] = []
    for line in text.splitlines(keepends=True):
        if line.startswith("#") or not entries:
            entries.append([])
        entries[-1].append(line)
    typed = [e for e in entries if any(x.startswith("+") for x in e)]
    if len(typed) <= keep:
        return
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.writelines(line for e in typed[-keep:] for line in e)
    os.replace(tmp, path)


class _InputEnded(Exception):
    """Input ended while waiting for the next player at a hot seat."""


class _TerminalGone(Exception):
    """The terminal cannot be written to any more."""


def _drafting(session: Session) -> bool:
    """Whether the seat at the prompt must keep or discard a draft card now (its single keys)."""
    obs = session.deciding()
    return obs is not None and obs.phase == DRAFT and not session.confirming


class PromptFrontEnd:
    """Drives a session at an interactive terminal."""

    def __init__(
        self,
        session: Session,
        *,
        color: bool = True,
        fast: bool = False,
        speed: str = "normal",
        input: Input | None = None,
        output: Output | None = None,
        history: History | None = None,
        echo: Callable[[Shown], None] | None = None,
    ) -> None:
        self.session = session
        self.color = color
        self.fast = fast
        self.pauses = SPEEDS.get(speed, SPEEDS["normal"])
        self.private_shown = False  # hot seat: cards were shown since the screen was last cleared
        self.output = output if output is not None else create_output()
        self.input = input
        self.echo = echo
        self.depth = None if color else ColorDepth.DEPTH_1_BIT
        self.prompt = PromptSession[str](
            key_bindings=single_keys(DRAFT_KEYS, lambda: _drafting(session), self._key_pressed),
            history=history if history is not None else open_history(),
            completer=PlayCompleter(session),
            complete_while_typing=False,
            bottom_toolbar=lambda: toolbar(session),
            style=STYLE,
            color_depth=self.depth,
            input=input,
            output=self.output,
        )
        self.enter = PromptSession[str](input=input, output=self.output, color_depth=self.depth)
        session.width = self._columns()

    _rest: str | None = None  # the rest of the word whose first letter was a single key (k: "eep")
    _pressed = False

    def _key_pressed(self, answer: str) -> None:
        self._rest, self._pressed = answer[1:], True

    def _typed_on(self, line: str) -> bool:
        """Whether ``line`` is the rest of the word whose first letter answered at once (the
        player typed "keep" in full: its "k" kept the card, "eep" is no new answer)."""
        rest, pressed = self._rest, self._pressed
        self._pressed = False
        if pressed:
            return False
        self._rest = None
        return rest is not None and line.strip().lower() == rest

    def _columns(self) -> int:
        try:
            columns = self.output.get_size().columns
        except (OSError, ValueError):
            columns = 80
        return max(MIN_WIDTH, min(columns, MAX_WIDTH))

    def run(self, intro: Iterable[str] = ()) -> int:
        """Play until the game ends or the player leaves; return the exit code."""
        with exit_on_hangup():
            try:
                self._loop(intro)
            except _InputEnded:
                with contextlib.suppress(_TerminalGone):
                    self._show(self.session.leave(), Caught())
            except _TerminalGone:
                pass  # nobody to show anything to; every move is already saved
            except SpadesError:
                with contextlib.suppress(_TerminalGone):
                    self._show(self.session.take_output(), Caught())  # the moves before the error
                raise
        return self.session.exit_code

    def _loop(self, intro: Iterable[str]) -> None:
        session = self.session
        with held_signals() as caught:
            shown = session.start(intro)
        self._show(shown, caught)
        while not session.done:
            try:
                line: str | None = self.prompt.prompt(session.prompt_text())
            except Interrupted:
                raise  # SIGTERM or SIGHUP: the run records end * on the way out (exit 143)
            except KeyboardInterrupt:
                continue  # Ctrl-C clears the line and asks again
            except EOFError:
                line = None
            except OSError:
                raise _TerminalGone from None
            if line is not None and self._typed_on(line):
                continue
            with held_signals() as caught:
                shown = session.handle(line) if line is not None else session.leave()
            self._show(shown, caught)

    # -- showing outputs ------------------------------------------------------------------

    def _show(self, shown: list[Shown], caught: Caught) -> None:
        check_stop(caught)
        hurry = self.fast or caught.interrupted
        self.session.width = self._columns()
        for item in shown:
            if item.kind in (STATUS, ASK):
                continue  # the toolbar shows the status; the prompt line asks the question
            if item.kind == HANDOFF:
                self._handoff(item)
                continue
            if item.kind == PAUSE:
                if not self.fast:
                    self._wait_enter(item.text + " ")
                continue
            self._print(item)
            if item.kind in (VIEW, OWN):
                self.private_shown = True
            if not hurry and item.kind in (MOVE, TRICK):
                try:
                    time.sleep(self.pauses[0] if item.kind == MOVE else self.pauses[1])
                except Interrupted:
                    raise  # SIGTERM or SIGHUP (a KeyboardInterrupt too): the game is saved, exit 143
                except KeyboardInterrupt:
                    hurry = True  # Ctrl-C while the bots play: show the rest at once

    def _print(self, item: Shown) -> None:
        if self.echo is not None:
            self.echo(item)
            return
        frags = wrap_frags(item.frags, self.session.width)
        try:
            if self.color:
                print_formatted_text(
                    FormattedText(frags), style=STYLE, output=self.output, color_depth=self.depth
                )
            else:
                print_formatted_text(plain(frags), output=self.output, color_depth=self.depth)
        except OSError:
            raise _TerminalGone from None

    def _handoff(self, item: Shown) -> None:
        """Hot seat: hide the last player's cards (the opening lines stay while no cards have been
        shown) and wait for the next player."""
        out = self.output
        if self.private_shown:
            try:
                out.erase_screen()
                out.write_raw("\x1b[3J")  # the scrollback too, where the terminal supports it
                out.cursor_goto(0, 0)
                out.flush()
            except OSError:
                raise _TerminalGone from None
            self.private_shown = False
        self._print(item)
        self._wait_enter(_("Press Enter when ready.") + " ")

    def _wait_enter(self, question: str) -> None:
        while True:
            try:
                self.enter.prompt(question)
                break
            except Interrupted:
                raise  # SIGTERM or SIGHUP: not a Ctrl-C to ignore
            except KeyboardInterrupt:
                continue
            except EOFError:
                raise _InputEnded from None
            except OSError:
                raise _TerminalGone from None
