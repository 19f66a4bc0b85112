"""Seats: one SeatOptions and one factory for every kind of player."""

from __future__ import annotations

from pathlib import Path

import pytest

from spades_cli.errors import UsageError
from spades_cli.game.events import Event, Noted, Terminated
from spades_cli.game.seats import (
    BOT_LEVELS,
    BotController,
    RandomController,
    Relay,
    SeatOptions,
    make_seat,
    to_transcript,
)
from spades_cli.presets import load_rules
from spades_cli.protocol import ExternalController


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


def test_to_transcript_records_notes_and_terminations() -> None:
    rules = load_rules("two-player")
    calls: list[tuple[str, int | None, str]] = []

    class Sink:
        path = None

        def note(self, seat: int | None, text: str, rules: object) -> None:
            calls.append(("note", seat, text))

        def terminated(self, seat: int | None, reason: str, rules: object) -> None:
            calls.append(("terminated", seat, reason))

        def seat_changed(self, seat: int, label: str, rules: object) -> None:
            calls.append(("seat", seat, label))

    emit = to_transcript(Sink(), rules)
    emit(Noted(None, "hello"))
    emit(Terminated(0, "failed"))
    assert calls == [("note", None, "hello"), ("terminated", 0, "failed")]
