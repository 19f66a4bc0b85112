"""Tricks a group of seats takes whatever anyone plays: its trumps that no other seat can
beat (R-C-4: the highest trump in a trick wins it).

A trump of a seat of ``seats`` that no card of another seat beats, neither in the other
seats' hands nor already in the trick, wins the trick it is played to for ``seats``,
whoever plays what; every card of a hand is played by the hand's end, one a trick, so
the seat's such trumps win that many tricks, and the group at least as many as its
seat with the most. The analysis narrows the values a position can end with by these
bounds (no search: :func:`~spades_cli.analysis.hand.trick_window`), and no value
changes: every play of the hand, the best included, keeps them.
"""

from __future__ import annotations

from collections.abc import Iterable

from spades_cli.engine import State
from spades_cli.engine.plan import plan_for


def forced_tricks(st: State, seats: Iterable[int]) -> int:
    """The tricks still to come that ``seats`` take whatever every seat plays (see the
    module doc)."""
    members = set(seats)
    order = plan_for(st.rules).order
    hands = st.hands
    others = 0
    for s in range(st.n):
        if s not in members:
            others |= hands[s]
    for i, card in enumerate(st.trick):
        if (st.leader + i) % st.n not in members:
            others |= 1 << card
    most = 0
    for s in members:
        sure = 0
        trumps = hands[s] & order.trump
        while trumps:
            low = trumps & -trumps
            trumps ^= low
            if not order.beaten_by[low.bit_length() - 1] & others:
                sure += 1
        most = max(most, sure)
    return most


def group_limits(st: State, groups: list[int]) -> tuple[list[int], list[int]]:
    """For each group of seats (``groups[seat]``), the least and the most tricks still to
    come it can take: its forced tricks, and the tricks left less the other seats'."""
    n = st.n
    left = plan_for(st.rules).hand_size - st.trick_no
    count = max(groups) + 1
    least: list[int] = []
    most: list[int] = []
    for g in range(count):
        mine = [s for s in range(n) if groups[s] == g]
        least.append(forced_tricks(st, mine))
        most.append(left - forced_tricks(st, [s for s in range(n) if groups[s] != g]))
    return least, most


__all__ = ["forced_tricks", "group_limits"]
