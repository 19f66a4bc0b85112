"""Seats: one SeatOptions and one factory for every kind of player."""

from __future__ import annotations

from pathlib import Path

import pytest

from spades_cli.app.setup import SeatOptions, make_seat
from spades_cli.errors import SeatFailure, UsageError
from spades_cli.game.events import Event, Noted, Terminated
from spades_cli.game.run import GameRun, Relay
from spades_cli.game.seats import BOT_LEVELS, BotController, Program, RandomController
from spades_cli.presets import load_rules
from spades_cli.protocol import BotFailure, ExternalController


def test_the_factory_builds_every_kind_of_seat(tmp_path: Path) -> None:
    rules = load_rules("four-player")
    assert isinstance(make_seat(SeatOptions("random"), rules), RandomController)
    for level in BOT_LEVELS[1:]:
        seat = make_seat(SeatOptions(level.upper()), rules)
        assert isinstance(seat, BotController) and seat.label == level
    events: list[Event] = []
    options = SeatOptions("cmd:prog --x", 2.0, "easy", tmp_path / "p.log")
    program = make_seat(options, rules, events.append, seat=1)
    assert isinstance(program, ExternalController)
    assert (program.argv, program.timeout, program.on_failure, program.log_path, program.seat) == (
        ["prog", "--x"],
        2.0,
        "easy",
        tmp_path / "p.log",
        1,
    )
    assert program.emit is not None
    with pytest.raises(UsageError, match="interactive prompt"):
        make_seat(SeatOptions("human"), rules)
    with pytest.raises(UsageError, match="unknown player 'genius'"):
        make_seat(SeatOptions("genius"), rules)


def test_a_relay_forwards_to_listeners_that_come_later() -> None:
    relay = Relay()
    relay(Noted(0, "nobody hears this"))
    heard: list[Event] = []
    relay.subscribe(heard.append)
    relay(Terminated(1, "gone"))
    assert heard == [Terminated(1, "gone")]


def test_a_run_seats_its_programs_and_records_what_they_say(tmp_path: Path) -> None:
    """The run hands a program seat its settings and its own report: a program's note
    goes straight to the run's subscribers (no round trip through the writer)."""
    rules = load_rules("two-player")
    placeholder = make_seat(SeatOptions("cmd:prog --x"), rules)
    assert isinstance(placeholder, Program) and not isinstance(BotController("easy"), Program)
    run = GameRun.new(rules, 7, [placeholder, RandomController()], bot_timeout=2.0, on_bot_failure="easy")
    heard: list[Event] = []
    run.subscribe(heard.append)
    with run:
        program = run.match.controllers[0]
        assert isinstance(program, ExternalController) and program is not placeholder
        assert (program.timeout, program.on_failure, program.seat) == (2.0, "easy", 0)
        assert program.emit is not None
        program.emit(Noted(0, "hello"))
    assert heard[0] == Noted(0, "hello")


def test_a_seat_failure_ends_the_run_terminated() -> None:
    rules = load_rules("two-player")
    run = GameRun.new(rules, 7, [RandomController(), RandomController()])
    with pytest.raises(BotFailure), run:
        raise BotFailure(0, "N", "crash", "gone", "cmd:x")
    assert isinstance(BotFailure(0, "N", "crash", "gone", "cmd:x"), SeatFailure)
    assert run.outcome is not None and run.outcome.reason == "terminated"
