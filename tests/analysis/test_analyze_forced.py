"""The tricks a group of seats takes whatever anyone plays (``analysis.forced``): its
trumps that no other seat can beat (R-C-4), which narrow the values a position can end
with (``analysis.hand.trick_window``)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import pytest
from helpers.paths import TRANSCRIPTS

from spades_cli.analysis.forced import forced_tricks, group_limits
from spades_cli.analysis.hand import plays
from spades_cli.engine import PLAY, State, deck_cards, deck_for
from spades_cli.presets import load_rules
from spades_cli.solver.deck import tricks_left
from spades_cli.transcript import read_transcript, replay

Pick = Callable[[list[int]], int]


@cache
def _recorded(name: str) -> list[tuple[State, list[int]]]:
    return plays(replay(read_transcript(TRANSCRIPTS / f"{name}.txt")).match)


def test_r_c_4_the_top_trumps_of_one_seat_are_its_tricks() -> None:
    """R-C-4: hand 7 of four-player.txt, North holds the ace and king of spades: two
    tricks for North and for N-S whatever anyone plays; hand 1, East's ace: one for
    East, none for South's king, queen and jack below it."""
    start = _recorded("four-player")[6][0]
    assert [forced_tricks(start, [s]) for s in range(4)] == [2, 0, 0, 0]
    assert forced_tricks(start, [0, 2]) == 2 and forced_tricks(start, [1, 3]) == 0
    start = _recorded("four-player")[0][0]
    assert [forced_tricks(start, [s]) for s in range(4)] == [0, 1, 0, 0]
    least, most = group_limits(start, [0, 1, 2, 1])  # North's nil (R-4P-7)
    assert least == [0, 1, 0] and most == [10, 13, 12]  # South's spades below East's ace: 3 for E-S-W


def _played_out(start: State, pick: Pick) -> list[State]:
    """Every position of ``start``'s hand played to its end by ``pick``."""
    st = start.clone()
    out = []
    while st.phase == PLAY:
        out.append(st.clone())
        st.apply(pick(st.legal_actions()))
    out.append(st)
    return out


def _taken(positions: list[State], i: int, seats: list[int]) -> int:
    """The tricks ``seats`` took from position ``i`` (the trick in play included)."""
    won = positions[-1].results[-1].tricks if positions[-1].phase != PLAY else positions[-1].tricks_won
    return sum(won[s] - positions[i].tricks_won[s] for s in seats)


@pytest.mark.parametrize("rules", ["four-player", "jokers", "two-player"])
def test_r_c_4_no_play_takes_fewer_tricks_than_the_forced_ones(rules: str) -> None:
    """R-C-4, R-J-1, R-2P-1: at every position of hands played out three ways (the lowest
    legal card, the highest, the middle one), every seat, side and pair of seats takes
    at least its forced tricks and at most the tricks left less the others'."""
    game = load_rules(rules)
    picks: list[Pick] = [
        lambda legal: legal[0],
        lambda legal: legal[-1],
        lambda legal: legal[len(legal) // 2],
    ]
    for seed in range(3):
        state = State(game, seed % game.players)
        state.deal(deck_for(f"forced-{seed}", 0, deck_cards(game)))
        while state.phase != PLAY:
            state.apply(state.legal_actions()[-1])
        n = state.n
        groups = [[s] for s in range(n)] + [[a, b] for a in range(n) for b in range(a + 1, n)]
        for pick in picks:
            positions = _played_out(state, pick)
            for i, st in enumerate(positions[:-1]):
                for seats in groups:
                    others = [s for s in range(n) if s not in seats]
                    taken = _taken(positions, i, seats)
                    assert forced_tricks(st, seats) <= taken
                    assert taken <= tricks_left(st) - forced_tricks(st, others)
