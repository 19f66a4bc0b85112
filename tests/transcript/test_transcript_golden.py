"""The golden transcripts in ``transcripts/``: each replays, gives the frozen result next to
it (``NAME.json``), and reads-then-writes back to the same bytes.

They were produced by this file from fixed seeds with the project's own bots and writer.
Regenerate them (only when the format or the bots change on purpose) with::

    PYTHONPATH=tests .venv/bin/python tests/transcript/test_transcript_golden.py --regen
"""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from helpers.paths import ROOT

from spades_cli.app.setup import make_controller
from spades_cli.app.summary import game_summary
from spades_cli.game.match import Match
from spades_cli.game.run import GameRun
from spades_cli.presets import load_rules
from spades_cli.transcript import (
    Header,
    TranscriptWriter,
    read_transcript,
    replay,
    write_transcript,
)

TRANSCRIPTS = ROOT / "transcripts"

Event = Callable[[GameRun], None]


@dataclass
class Spec:
    rules: str
    seed: str
    seats: tuple[str, ...]
    overrides: tuple[str, ...] = ()
    stop_after: int | None = None  # decisions and draws; None: play to the end
    stopped: bool = False  # write "end *" (the players left) when stopping
    events: dict[int, Event] = field(default_factory=dict)  # before the n-th step
    # If given, the first seed of SEED-1, SEED-2, ... whose game text satisfies this is used.
    want: Callable[[str], bool] | None = None


def _has_double_nil_exchange(text: str) -> bool:
    return "blind\n" in text and " draw " in text


def _short(text: str) -> bool:
    return text.count("\nhand ") <= 2


def _note(run: GameRun) -> None:
    run.note(0, 'North says "good luck" # this is part of the note, not a comment')


def _undo_south(run: GameRun) -> None:
    run.undo(2)


def _south_to_easy(run: GameRun) -> None:
    controllers = list(run.match.controllers)
    controllers[2] = make_controller("easy", run.rules)
    run.match.controllers = controllers
    run.seat_changed(2, "easy")


SPECS: dict[str, Spec] = {
    # A complete four-player game (R-4P-*).
    "four-player": Spec("four-player", "2024", ("normal", "easy", "normal", "easy")),
    # A complete two-player draft game with double nil declarations and exchanges (R-2P-2, R-2P-3).
    "two-player": Spec("two-player", "draft", ("normal", "normal"), want=_has_double_nil_exchange),
    # House rules (blind nil, nil 50, 7-bag limit), a note, an undo and a change of player.
    "four-player-house": Spec(
        "four-player",
        "house-7",
        ("normal", "easy", "normal", "easy"),
        overrides=("blind_nil.enabled=true", "nil.value=50", "bags.limit=7"),
        events={42: _note, 47: _undo_south, 48: _south_to_easy},
    ),
    # Short complete games (a low target) shown in full in docs/transcript-format.md.
    "four-player-short": Spec(
        "four-player", "doc", ("normal", "easy", "normal", "easy"), overrides=("target=100",), want=_short
    ),
    "two-player-short": Spec(
        "two-player", "doc", ("normal", "normal"), overrides=("target=100",), want=_short
    ),
    # Unfinished: the players left in the third hand (ends with "end *").
    "four-player-unfinished": Spec(
        "four-player", "31", ("easy", "normal", "easy", "normal"), stop_after=130, stopped=True
    ),
    # Unfinished: cut off in the middle of a trick, as a killed process leaves it (no end line).
    "two-player-unfinished": Spec("two-player", "12", ("normal", "easy"), stop_after=95),
}


def build(spec: Spec) -> str:
    """Play a spec's game with the real writer and return the transcript text."""
    if spec.want is None:
        return _build(spec, spec.seed)
    for n in range(1, 500):
        text = _build(spec, f"{spec.seed}-{n}")
        if spec.want(text):
            return text
    raise RuntimeError(f"no seed {spec.seed}-N gives the wanted game")


def _build(spec: Spec, seed: str) -> str:
    rules = load_rules(spec.rules, spec.overrides)
    match = Match(rules, seed, [make_controller(label, rules) for label in spec.seats])
    buffer = io.StringIO()
    writer = TranscriptWriter(buffer)
    assert match.dealer is not None
    writer.write_header(Header(rules, seed, match.dealer, spec.seats, spec.rules, spec.overrides))
    run = GameRun(match, writer=writer)
    steps = 0
    while not match.finished and (spec.stop_after is None or steps < spec.stop_after):
        event = spec.events.get(steps)
        if event is not None:
            event(run)
        run.step()
        steps += 1
    if spec.stopped and not match.finished:
        run.finish("stopped")
    return buffer.getvalue()


DOC = ROOT / "docs" / "transcript-format.md"
DOC_EXAMPLES = ("four-player-short", "two-player-short")
_EXAMPLE = re.compile(r"(<!-- example: (?P<name>[\w-]+) -->\n).*?(<!-- end example -->)", re.DOTALL)


def doc_with_examples(doc: str) -> str:
    """The format document with each example block holding its golden transcript."""

    def fill(m: re.Match[str]) -> str:
        text = (TRANSCRIPTS / f"{m.group('name')}.txt").read_text(encoding="utf-8")
        return f"{m.group(1)}```\n{text}```\n{m.group(3)}"

    return _EXAMPLE.sub(fill, doc)


def regen() -> None:
    TRANSCRIPTS.mkdir(exist_ok=True)
    for name, spec in SPECS.items():
        text = build(spec)
        path = TRANSCRIPTS / f"{name}.txt"
        path.write_text(text, encoding="utf-8", newline="\n")
        summary = _summary(path)
        (TRANSCRIPTS / f"{name}.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
        print(
            f"{path}: {summary['actions']} actions, {len(summary['hands'])} hands, winner {summary['winner']}"
        )
    DOC.write_text(doc_with_examples(DOC.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"{DOC}: examples updated")


def _summary(path: Path) -> dict[str, object]:
    result = replay(read_transcript(path))
    return game_summary(result.match, result.header_labels)


NAMES = sorted(SPECS)


@pytest.mark.parametrize("name", NAMES)
def test_golden_replays_to_its_frozen_result(name: str) -> None:
    path = TRANSCRIPTS / f"{name}.txt"
    expected = json.loads((TRANSCRIPTS / f"{name}.json").read_text(encoding="utf-8"))
    assert _summary(path) == expected


@pytest.mark.parametrize("name", NAMES)
def test_golden_round_trips_byte_for_byte(name: str) -> None:
    path = TRANSCRIPTS / f"{name}.txt"
    data = path.read_bytes()
    assert write_transcript(read_transcript(path)).encode("utf-8") == data


def test_goldens_cover_both_presets_finished_and_unfinished() -> None:
    summaries = {name: json.loads((TRANSCRIPTS / f"{name}.json").read_text()) for name in NAMES}
    finished = {s["rules"] for s in summaries.values() if s["finished"]}
    unfinished = [n for n, s in summaries.items() if not s["finished"]]
    assert finished == {"four-player", "two-player"}
    assert {n for n, s in summaries.items() if s["finished"]} >= {"four-player", "two-player"}
    assert sorted(unfinished) == ["four-player-unfinished", "two-player-unfinished"]
    two = summaries["two-player"]
    # R-2P-3: the two-player golden includes double nil declarations.
    assert any(h["declared"] for h in two["hands"])
    text = (TRANSCRIPTS / "two-player.txt").read_text()
    assert "declare" in text and " draw " in text and "draft " in text


def test_format_document_shows_the_short_goldens_verbatim() -> None:
    doc = DOC.read_text(encoding="utf-8")
    assert doc_with_examples(doc) == doc
    for name in DOC_EXAMPLES:
        text = (TRANSCRIPTS / f"{name}.txt").read_text(encoding="utf-8")
        assert f"```\n{text}```" in doc
        assert json.loads((TRANSCRIPTS / f"{name}.json").read_text())["finished"] is True


def test_house_golden_has_note_undo_and_seat_lines() -> None:
    text = (TRANSCRIPTS / "four-player-house.txt").read_text()
    lines = text.splitlines()
    assert any(line.startswith("note N ") for line in lines)
    assert "undo S" in lines
    assert 'seat S "easy"' in lines
    assert '[Set "blind_nil.enabled=true"]' in lines


def test_unfinished_goldens_end_as_recorded() -> None:
    four = (TRANSCRIPTS / "four-player-unfinished.txt").read_text()
    assert four.endswith("\nend *\n")
    two = (TRANSCRIPTS / "two-player-unfinished.txt").read_text()
    last = two.rsplit("\n", 1)[-1]
    assert last.startswith("trick ") and "won" not in last  # a trick cut off mid-way, no newline


if __name__ == "__main__":
    if sys.argv[1:] == ["--regen"]:
        regen()
    else:
        print(__doc__)
