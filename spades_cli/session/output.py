"""What a seat session hands its front end: :class:`Output` items of a few kinds."""

from __future__ import annotations

from dataclasses import dataclass

from spades_cli.view import ERROR as ERROR_STYLE
from spades_cli.view import Fragments, plain, text

# Kinds of output. The prompt pauses after MOVE and TRICK (unless --fast), hides the
# screen at HANDOFF (hot seat) and leaves STATUS to its toolbar.
INFO = "info"
REPLY = "reply"
ERROR = "error"
MOVE = "move"  # a move of a seat other than the one deciding now
OWN = "own"  # the move just typed, as the table saw it
TRICK = "trick"
HAND = "hand"
TABLE = "table"  # the score table of the last hands, after a hand's result
GAME = "game"
GAP = "gap"  # an empty line before the view of the table
STATUS = "status"
VIEW = "view"
HANDOFF = "handoff"
PAUSE = "pause"  # the end of a hand: the prompt waits for Enter (unless --fast)
ASK = "ask"  # a question the prompt asks in its prompt line (batch mode prints it)


@dataclass(frozen=True)
class Output:
    kind: str
    frags: Fragments
    seat: int | None = None

    @property
    def text(self) -> str:
        return plain(self.frags)


def reply(s: str) -> Output:
    return Output(REPLY, text(s))


def error(s: str) -> Output:
    return Output(ERROR, text(s, ERROR_STYLE))
