"""The words of a hindsight analysis (``spades analyze``, ``replay --step --analyze``).

Values in, strings out: a hand's double-dummy figures and the costly cards, read the same
by both commands. The analysis itself is made elsewhere (``spades_cli.analysis``); this
module only needs the fields below.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from spades_cli.engine import Rules, card_str

HINDSIGHT = "hindsight analysis: every hand is known to the solver, as no player could know it"


class CardNote(Protocol):
    """One analysed card (``analysis.report.CardReport``)."""

    @property
    def hand(self) -> int: ...
    @property
    def trick(self) -> int: ...
    @property
    def seat(self) -> int: ...
    @property
    def card(self) -> int: ...
    @property
    def best(self) -> int: ...
    @property
    def cost_tricks(self) -> int: ...
    @property
    def cost_points(self) -> float: ...
    @property
    def kept(self) -> bool: ...
    @property
    def outcome(self) -> str: ...


class HandNote(Protocol):
    """One analysed hand (``analysis.report.HandReport``)."""

    @property
    def hand(self) -> int: ...
    @property
    def bids(self) -> tuple[int, ...]: ...
    @property
    def side_tricks(self) -> Sequence[int | None]: ...
    @property
    def seat_tricks(self) -> Sequence[int | None]: ...
    @property
    def seat_floors(self) -> Sequence[int]: ...
    @property
    def cards(self) -> Sequence[CardNote]: ...


# The hands of an analysis: all of them, or a lookup by hand number (1-based) that may
# wait for the hand's analysis to end (None: the hand was not analysed).
HandNotes = Sequence[HandNote] | Callable[[int], HandNote | None]


def note_of(analysis: HandNotes, hand: int) -> HandNote | None:
    """The analysis of hand ``hand`` (1-based), if there is one."""
    if callable(analysis):
        return analysis(hand)
    return next((h for h in analysis if h.hand == hand), None)


def flag_line(rules: Rules, c: CardNote) -> str:
    """``hand 3 trick 7: W played KD, 2D kept the contract: cost 1 trick, set NS -60``."""
    who = rules.seat_names[c.seat]
    better = f"{card_str(c.best)} kept the contract" if c.kept else f"{card_str(c.best)} was better"
    return (
        f"hand {c.hand} trick {c.trick}: {who} played {card_str(c.card)}, {better}: "
        f"cost {tricks_words(c.cost_tricks)}, {c.outcome}"
    )


def tricks_words(n: int) -> str:
    """``1 trick``, ``2 tricks``."""
    return f"{n} trick" if n == 1 else f"{n} tricks"


def points_words(n: float) -> str:
    """``1 point``, ``-40 points``, ``2.5 points``."""
    return f"{n:g} point" if n == 1 else f"{n:g} points"


def deal_figures(rules: Rules, h: HandNote) -> str:
    """``bids N:4 E:5 S:nil W:5; double dummy NS 7 EW 6 (seats: N 5 E 4 S 6 W 5)``; a seat
    whose figure was over the budget shows what it was shown to reach (``S 4+``), or ``?``."""
    names = rules.seat_names
    bids = " ".join(f"{names[s]}:{'nil' if b == 0 else b}" for s, b in enumerate(h.bids))
    dd = " ".join(f"{rules.side_name(k)} {_num(v)}" for k, v in enumerate(h.side_tricks))
    per_seat = " ".join(
        f"{names[s]} {_num(v) if v is not None or not floor else f'{floor}+'}"
        for s, (v, floor) in enumerate(zip(h.seat_tricks, h.seat_floors, strict=True))
    )
    return f"bids {bids}; double dummy {dd} (seats: {per_seat})"


def trick_notes(rules: Rules, h: HandNote, trick: int) -> list[str]:
    """The costly cards of one trick (1-based) of an analysed hand, as flag lines."""
    return [flag_line(rules, c) for c in h.cards if c.trick == trick and c.cost_points > 0]


def _num(v: int | None) -> str:
    return "?" if v is None else str(v)


__all__ = [
    "HINDSIGHT",
    "CardNote",
    "HandNote",
    "HandNotes",
    "deal_figures",
    "flag_line",
    "note_of",
    "points_words",
    "trick_notes",
    "tricks_words",
]
