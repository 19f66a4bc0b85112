"""What a seat may know, as the commands ask it: the :class:`SeatView` protocol.

A game played at this prompt (:class:`spades_cli.repl.core.PlaySession`) and a seat joined
at a table hosted elsewhere (:class:`spades_cli.net.client.RemoteSession`) both supply it;
the commands of :mod:`spades_cli.session.commands` read nothing else, so they answer the
same at both.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from spades_cli.engine import HandResult, Observation, Rules, Trick
from spades_cli.session.output import Output
from spades_cli.view import Look


class SeatView(Protocol):
    """One seat's window on a game."""

    width: int  # the columns the front end writes to: views fit in them
    hint_level: str  # the bot that answers ``hint``
    transcript_path: str | None  # where this program saves the game (None: it does not)
    shared: bool  # a table hosted elsewhere (its host keeps the transcript)
    confirming: bool  # asking "Leave the game?"
    extra_help: tuple[str, ...]  # help lines of the words only this seat understands

    @property
    def look(self) -> Look: ...

    @property
    def rules(self) -> Rules: ...

    def observation(self) -> Observation | None:
        """The view of the seat whose cards are on the screen (None before there is one)."""
        ...

    def deciding(self) -> Observation | None:
        """The view of the seat that must decide now, if one of this session's seats must."""
        ...

    def up_to_date(self) -> bool:
        """Whether :meth:`observation` shows the table as it is now (a joined seat's view
        is only sent when it must decide)."""
        ...

    def hand_tricks(self) -> Sequence[Trick]:
        """The finished tricks of the hand being played."""
        ...

    def previous_trick(self) -> tuple[Trick, int] | None:
        """The last trick of the previous hand and that hand's number (0-based), if known."""
        ...

    def hands_scored(self) -> Sequence[HandResult]:
        """The results of the hands played so far."""
        ...

    def hint_rng(self) -> random.Random | None:
        """The generator of a hint at this decision (None: the table allows no hints)."""
        ...

    def take_back(self) -> list[Output]:
        """Undo this seat's last decision; what to show."""
        ...

    def claim(self) -> list[Output]:
        """Claim the rest of the hand's tricks for this seat's side; what to show."""
        ...
