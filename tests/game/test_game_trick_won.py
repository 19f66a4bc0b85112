"""The game run's ``TrickWon`` events name every trick's cards, leader and winner, the
hand's last trick included (read from ``State.last_trick``, never from trick counts)."""

from __future__ import annotations

import pytest
from helpers.engine import FOUR, TWO

from spades_cli.engine import Rules, trick_winner
from spades_cli.game.events import Event, HandScored, TrickWon
from spades_cli.game.match import Match
from spades_cli.game.run import GameRun


class _Random:
    label = "random"

    def decide(self, match: Match, seat: int) -> int:
        legal = match.state.legal_actions()
        return legal[match.rng("trick-won").randrange(len(legal))]


@pytest.mark.parametrize("rules", [FOUR, TWO], ids=["four-player", "two-player"])
def test_every_trick_of_a_hand_is_announced_with_its_winner(rules: Rules) -> None:
    match = Match(rules, "trick-won", [_Random() for _ in range(rules.players)])
    run = GameRun(match)
    events: list[Event] = []
    run.subscribe(events.append)
    run.play(max_actions=400)
    scored = [i for i, e in enumerate(events) if isinstance(e, HandScored)]
    assert scored
    won = [e for e in events[: scored[0]] if isinstance(e, TrickWon)]
    assert [e.trick_no for e in won] == list(range(1, 14))
    for e in won:
        assert e.cards[0][0] == e.leader
        assert e.winner == e.cards[trick_winner([c for _, c in e.cards])][0]
    result = events[scored[0]]
    assert isinstance(result, HandScored)
    counts = [sum(1 for e in won if e.winner == s) for s in range(rules.players)]
    assert tuple(counts) == result.result.tricks
