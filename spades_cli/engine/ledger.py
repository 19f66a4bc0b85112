"""The scored hands of a game, for :class:`~spades_cli.engine.state.State`.

A hand's scores and bags are counted when it ends; its :class:`HandResult` (and the
SideResults in it) is built from the same numbers the first time the results are read
after that, so random play pays for none. A hand's end adds the hand to the state's tuple
of ended hands; the first read of the results after it makes a new ledger with that longer
``_unscored`` tuple (``plus``); a reader, holding the lock, builds the entries past
``_settled`` from the tuple it read, then moves ``_settled`` on, so two readers on
different threads cannot build one hand twice (a hand's end never takes the lock).
"""

from __future__ import annotations

import threading
from typing import Final, final

from spades_cli.engine.observation import HandResult
from spades_cli.engine.plan import Plan
from spades_cli.engine.scoring import side_result, side_values

# The seats of each side in the partnership game and the two-player game (R-4P-1: partners
# opposite; 2P: one); the plan's ``side_seats`` has them for every rule set.
SIDES: Final[dict[int, tuple[tuple[int, ...], ...]]] = {4: ((0, 2), (1, 3)), 2: ((0,), (1,))}

_SETTLING: Final = threading.Lock()

# A finished hand whose HandResult is not built yet: hand_no, dealer, bids, blind, tricks,
# each side's score and bags before the hand, and the seats that bid zero (R-NV-4; () none).
Unscored = tuple[
    int,
    int,
    tuple[int, ...],
    tuple[bool, ...],
    tuple[int, ...],
    tuple[int, ...],
    tuple[int, ...],
    tuple[bool, ...],
]


@final
class Ledger:
    """The finished hands of one game (see the module doc)."""

    __slots__ = ("_base", "_plan", "_players", "_results", "_settled", "_unscored")

    def __init__(self, plan: Plan, players: int, results: list[HandResult]) -> None:
        """``results``: the hands finished before (a state rebuilt from an observation)."""
        self._plan = plan
        self._players = players
        self._results = results
        self._base = len(results)  # _results: these, then the built entries of _unscored
        self._unscored: tuple[Unscored, ...] = ()
        self._settled = 0  # how many of _unscored are in _results

    @property
    def pending(self) -> tuple[Unscored, ...]:
        """The hands ended since the results given to the constructor."""
        return self._unscored

    def plus(self, hands: tuple[Unscored, ...]) -> Ledger:
        """The ledger with the hands ended since the given results: this one's ``pending``
        and more after them (this one is never changed but for the results it builds when
        read, so states and their clones share it). The state keeps its ended hands in a
        tuple and asks for a ledger only when its results are read."""
        settled = self._settled  # read first: _results holds at least _base + this many
        c = Ledger(self._plan, self._players, self._results[: self._base + settled])
        c._base = self._base
        c._settled = settled
        c._unscored = hands
        return c

    def results(self) -> list[HandResult]:
        """A :class:`HandResult` per finished hand."""
        if len(self._unscored) > self._settled:
            with _SETTLING:
                pending = self._unscored
                plan = self._plan
                seats = plan.side_seats
                for i in range(self._settled, len(pending)):
                    hand_no, dealer, bids, blind, tricks, scores, bags, zero = pending[i]
                    sides = tuple(
                        side_result(
                            side_values(plan, bids, blind, tricks, seats[s], scores[s], bags[s], zero)
                        )
                        for s in range(len(seats))
                    )
                    # tuple.__new__ builds the named tuple without its Python-level __new__.
                    result = tuple.__new__(HandResult, (hand_no, dealer, bids, blind, tricks, sides, zero))
                    self._results.append(result)
                self._settled = len(pending)
        return self._results


@final
class _Fresh:
    """The empty ledger made last, with its plan, as one pair (see plan._Last)."""

    def __init__(self) -> None:
        self.pair: tuple[Plan, Ledger] | None = None


_FRESH: Final = _Fresh()


def fresh_ledger(plan: Plan) -> Ledger:
    """The ledger of a game with no hand ended yet: one shared by the new games of a plan, as
    a state shares its ledger with its clones (never changed: it has nothing to build)."""
    pair = _FRESH.pair
    if pair is None or pair[0] is not plan:
        pair = (plan, Ledger(plan, plan.players, []))
        _FRESH.pair = pair
    return pair[1]
