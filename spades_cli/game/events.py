"""The typed events of one game run.

A :class:`~spades_cli.game.run.GameRun` emits these, in order, to every subscriber: the
transcript writer, the printer, the prompt, the replay checker, ``simulate``'s totals and
the network table all follow a game the same way. Events are small frozen values; a
subscriber that needs more (the hands, the legal moves) reads the run's state, which is
already updated when the event arrives.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from spades_cli.engine import HandResult

__all__ = [
    "Decided",
    "Emit",
    "Event",
    "GameOver",
    "GameStarted",
    "HandScored",
    "HandStarted",
    "Noted",
    "SeatChanged",
    "Terminated",
    "TrickWon",
    "Undone",
]


@dataclass(frozen=True, slots=True)
class GameStarted:
    """A game begins (or a resumed one continues): who sits where, and the seed."""

    seed: str
    labels: tuple[str, ...]  # per seat: "human", "easy", ..., "cmd:..."
    dealer: int
    resumed: bool = False


@dataclass(frozen=True, slots=True)
class HandStarted:
    """A hand was dealt: ``deck`` is its order, top first (the 2P draft pile too)."""

    hand_no: int
    dealer: int
    deck: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Decided:
    """``seat`` made ``action`` (``seat`` is -1 for a card drawn by chance in the exchange).
    ``phase`` is the phase the action was made in; the state already shows its effect."""

    seat: int
    action: int
    phase: int
    hand_no: int


@dataclass(frozen=True, slots=True)
class TrickWon:
    """A trick was completed: ``cards`` in play order as (seat, card)."""

    hand_no: int
    trick_no: int  # 1-based within the hand
    leader: int
    cards: tuple[tuple[int, int], ...]
    winner: int


@dataclass(frozen=True, slots=True)
class HandScored:
    """A hand was scored; ``scores`` and ``bags`` are the running totals per side."""

    hand_no: int
    result: HandResult
    scores: tuple[int, ...]
    bags: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SeatChanged:
    """Another player took ``seat`` (``--seat`` on resume, a fallback bot, a reconnect)."""

    seat: int
    label: str


@dataclass(frozen=True, slots=True)
class Noted:
    """A remark for the record (a bot's note, a chat line, why a game stopped)."""

    seat: int | None
    text: str


@dataclass(frozen=True, slots=True)
class Undone:
    """``seat`` took back its last decision; ``removed`` actions were taken back in all."""

    seat: int
    removed: int


@dataclass(frozen=True, slots=True)
class Terminated:
    """The game cannot go on (a failed external bot, a lost player): recorded, not scored."""

    seat: int | None
    reason: str


@dataclass(frozen=True, slots=True)
class GameOver:
    """The run ends. ``winner`` is a side when the game was won, else None; ``reason`` is
    one of ``"won"``, ``"max-hands"``, ``"stopped"`` (end of input, quit, a script ran out),
    ``"interrupted"`` (Ctrl-C, SIGTERM, SIGHUP), ``"terminated"``, ``"failed"`` (a write
    failed, an illegal recorded action)."""

    winner: int | None
    reason: str
    hands: int


Event = (
    GameStarted
    | HandStarted
    | Decided
    | TrickWon
    | HandScored
    | SeatChanged
    | Noted
    | Undone
    | Terminated
    | GameOver
)
Emit = Callable[[Event], None]
