"""What the front ends need of a session: a local :class:`~spades_cli.repl.core.PlaySession`,
or a seat at a table hosted elsewhere (:class:`spades_cli.net.client.RemoteSession`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from spades_cli.engine import Observation
from spades_cli.session.output import Output


class Session(Protocol):
    """The prompt, batch mode, completer and toolbar drive any object of this shape."""

    width: int  # the columns the front end writes to (the prompt keeps it up to date)
    confirming: bool  # asking "Leave the game?"

    @property
    def done(self) -> bool: ...

    @property
    def exit_code(self) -> int: ...

    def start(self, intro: Iterable[str] = ()) -> list[Output]: ...

    def handle(self, line: str) -> list[Output]: ...

    def leave(self) -> list[Output]: ...

    def take_output(self) -> list[Output]: ...

    def prompt_text(self) -> str: ...

    def status(self) -> list[str]: ...

    def completions(self) -> list[tuple[str, str, str]]: ...

    def deciding(self) -> Observation | None:
        """The view of the seat that must decide now, if one of this session's seats must."""
        ...
