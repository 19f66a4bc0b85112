"""Words and files from others that once crashed or fooled the readers (a fuzzing sweep):
digits that are not 0-9, separators inside numbers, pastes quoted whole, deep JSON, files
that are not transcripts counted as games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spades_cli.engine import BID, BID_BASE, parse_card
from spades_cli.engine.cards import CardParseError
from spades_cli.engine.notation import NotationError, parse_action
from spades_cli.errors import FileFormatError
from spades_cli.net import wire
from spades_cli.simulate.records import collect
from spades_cli.simulate.report import read_summary


@pytest.mark.parametrize("word", ["²", "٣", "-1", "1 3", "1-2", "+4"])
def test_a_bid_is_written_in_the_digits_0_to_9_alone(word: str) -> None:
    """R-4P-4: a bid is a number 1-13 or nil; ``²`` once raised ValueError from int(),
    ``1 3`` was read as 13 and ``-1`` as 1."""
    with pytest.raises(NotationError, match="is not a bid"):
        parse_action(word, BID)


def test_bid_words_still_read_with_spaces_and_case() -> None:
    assert parse_action(" 13 ", BID) == BID_BASE + 13
    assert parse_action("NIL", BID) == BID_BASE


def test_a_paste_is_quoted_as_a_short_excerpt() -> None:
    with pytest.raises(NotationError) as bid:
        parse_action("3" * 100_000, BID)
    assert len(str(bid.value)) < 100
    with pytest.raises(CardParseError) as card:
        parse_card("x" * 100_000)
    assert str(card.value) == "'" + "x" * 37 + "...' is not a card (try QS, 10h, Th or Q♠)"


def test_deeply_nested_json_is_not_a_message() -> None:
    with pytest.raises(wire.WireError, match="not a JSON line"):
        wire.decode(b"[" * 8000 + b"]" * 8000)


def test_deeply_nested_json_is_not_a_result(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(FileFormatError, match="nested too deeply"):
        read_summary(str(deep))


def test_a_result_from_a_pipe_is_refused_not_waited_on(tmp_path: Path) -> None:
    with pytest.raises(FileFormatError, match="not a regular file"):
        read_summary("/dev/zero")


def test_stats_skips_files_that_are_not_transcripts(tmp_path: Path) -> None:
    (tmp_path / "empty.txt").write_text("")
    (tmp_path / "hello.txt").write_text("hello\n")
    (tmp_path / "result.txt").write_text(json.dumps({"games": 3}))
    stats = collect([str(tmp_path)])
    assert stats.files == 0
    assert len(stats.skipped) == 3
    assert all("not a spades transcript" in s or "cannot" in s or ":1:" in s for s in stats.skipped)
