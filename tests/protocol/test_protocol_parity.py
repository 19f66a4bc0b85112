"""External bots over the protocol play exactly like the same bots in-process.

A full game of each preset with a ``spades bot`` process in every seat gives the same
actions, hands and scores as the game with the built-in bots (issue 6).
"""

from __future__ import annotations

import importlib.util
import shlex
import sys
from collections import Counter

import pytest
from helpers.paths import BOT_PROGRAMS, ROOT

from spades_cli import __version__
from spades_cli.engine import BID_BASE, KEEP
from spades_cli.game.match import BaseListener, Controller, Match
from spades_cli.game.run import GameRun
from spades_cli.game.seats import BotController
from spades_cli.presets import load_rules
from spades_cli.protocol import ExternalController

BOTS = BOT_PROGRAMS
LEVEL = "normal"
COMMAND = f"{shlex.quote(sys.executable)} -m spades_cli bot --level {LEVEL}"


def play_external(preset: str, seed: str) -> tuple[Match, list[ExternalController]]:
    rules = load_rules(preset)
    programs = [ExternalController(COMMAND, rules, timeout=30.0) for _ in range(rules.players)]
    match = Match(rules, seed, programs)
    try:
        for program in programs:
            assert program.start() == f"spades-{LEVEL} {__version__}"
        GameRun(match).play()
    finally:
        for program in programs:
            program.close()
    return match, programs


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "seed"), [("two-player", "parity-2"), ("four-player", "parity-4")])
def test_a_full_game_of_external_bots_equals_the_game_in_process(preset: str, seed: str) -> None:
    external, programs = play_external(preset, seed)
    rules = load_rules(preset)
    internal = Match(rules, seed, [BotController(LEVEL) for _ in range(rules.players)])
    GameRun(internal).play()
    assert external.finished and internal.finished
    assert external.state.history == internal.state.history
    assert external.state.results == internal.state.results
    assert external.state.scores == internal.state.scores
    assert all(program.pid is None and not program.takeovers for program in programs)
    # The game asked for every kind of decision its rules have (R-2P-2 draft, R-C-7 bids).
    kinds = Counter(
        "bid" if BID_BASE <= a < BID_BASE + 14 else "draft" if a in (KEEP, KEEP + 1) else "other"
        for a in external.state.history
    )
    assert kinds["bid"] == rules.players * len(external.state.results)
    if preset == "two-player":
        assert kinds["draft"] == 26 * len(external.state.results)


def _declaring_class() -> type:
    spec = importlib.util.spec_from_file_location("declaring_bot", BOTS / "declaring.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Declaring  # type: ignore[no-any-return]


def test_double_nil_declarations_and_exchanges_are_the_same_over_the_protocol() -> None:
    """R-2P-3: a seat that always declares double nil exchanges cards after the draft; its
    double-nil and exchange requests give the same decisions as in-process."""
    rules = load_rules("two-player", ["target=300"])
    seed = "parity-dn"
    declaring = _declaring_class()

    class InProcess:
        label = "declaring"

        def __init__(self) -> None:
            self.bot = declaring("easy")

        def decide(self, match: Match, seat: int) -> int:
            return self.bot.act(match.observation(seat), match.rules, match.rng("bot", seat))

    internal = Match(rules, seed, [InProcess(), BotController("normal")])
    GameRun(internal).play()
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(BOTS / 'declaring.py'))} easy"
    draws = Draws()
    with ExternalController(command, rules, timeout=30.0) as program:
        external = Match(rules, seed, [program, BotController("normal")], listeners=[draws])
        GameRun(external).play()
        assert program.name == "declaring easy"
    assert external.finished
    assert external.state.history == internal.state.history
    assert len(external.state.results) >= 2
    assert all(result.blind[0] for result in external.state.results)
    assert draws.count >= len(external.state.results)  # cards given up and drawn again


class Draws(BaseListener):
    """Counts the cards drawn from the discard pile (the chance actions of an exchange)."""

    def __init__(self) -> None:
        self.count = 0

    def on_action(self, match: Match, seat: int, action: int) -> None:
        self.count += seat < 0


@pytest.mark.parametrize("preset", ["two-player", "four-player"])
def test_the_example_bot_plays_whole_games_against_ours(preset: str) -> None:
    """examples/simple_bot.py answers every request of a game legally (no failure, no takeover)."""
    rules = load_rules(preset)
    example = ROOT / "examples" / "simple_bot.py"
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(example))}"
    programs = [ExternalController(command, rules, timeout=30.0) for _ in range(rules.players // 2)]
    seats: list[Controller] = [programs[0], BotController("normal")]
    if rules.players == 4:
        seats += [programs[1], BotController("normal")]
    match = Match(rules, f"example-{preset}", seats)
    try:
        GameRun(match).play()
    finally:
        for program in programs:
            program.close()
    assert match.finished
    assert all(program.name == "simple-example 1.0" and not program.takeovers for program in programs)
