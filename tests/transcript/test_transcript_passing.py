"""R-BN-4: the blind-nil partner exchange in transcripts: one ``pass SEAT CARD`` line per
card, replayed, written back byte for byte, and refused where it does not fit."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.recorded import recorded_game

from spades_cli.engine import PASS, State
from spades_cli.errors import SpadesError
from spades_cli.transcript import PassLine, parse_transcript, replay, write_transcript

OVERRIDES = ("blind_nil.enabled=true", "blind_nil.behind_by=null", "blind_nil.pass_cards=2", "target=100")
SEATS = ("random", "normal", "easy", "normal")


def game_text(seed: str, *, undo_at_pass: bool = False) -> str:
    """A short four-player game (N plays at random, so it bids blind nil now and then);
    with ``undo_at_pass`` the passer takes back its first card."""

    def undo_when(st: State) -> bool:
        return undo_at_pass and st.phase == PASS and len(st.legal_actions()) < 13

    return recorded_game("four-player", seed, SEATS, OVERRIDES, undo_when)


def test_r_bn_4_passes_are_written_one_card_a_line_and_replay() -> None:
    """R-BN-4: each pass is ``pass SEAT CARD``, two by the blind nil then two by its
    partner, right after the bids; the text replays and is written back to the same bytes."""
    text = game_text("pass-1")
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("pass "))
    assert lines[first - 1].startswith("bids ")
    seats = [line.split()[1] for line in lines[first : first + 4]]
    assert seats[0] == seats[1] and seats[2] == seats[3] and seats[0] != seats[2]
    assert lines[first + 4].startswith("trick 1 ")
    assert '[Rule "blind_nil.pass_cards" "2"]' in text
    transcript = parse_transcript(text, "game.txt")
    assert any(isinstance(e, PassLine) for e in transcript.events)
    assert replay(transcript).match.finished
    assert write_transcript(transcript) == text


def test_r_bn_4_an_undone_pass_replays_byte_for_byte() -> None:
    """R-BN-4: a pass taken back (``undo``) is recorded and replays to the same text."""
    text = game_text("pass-1", undo_at_pass=True)
    assert "undo " in text
    assert write_transcript(parse_transcript(text, "game.txt")) == text


def test_r_bn_4_a_pass_line_out_of_place_is_refused(tmp_path: Path) -> None:
    """R-BN-4: a pass where no exchange is due, or of a card not held, ends in FILE:LINE."""
    text = game_text("pass-1")
    lines = text.splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if line.startswith("pass "))
    moved = [*lines[: first - 1], lines[first], lines[first - 1], *lines[first + 1 :]]
    with pytest.raises(SpadesError, match=r"game\.txt:\d+: .*passed to a partner"):
        replay(parse_transcript("".join(moved), "game.txt"))
    with pytest.raises(SpadesError, match=r"game\.txt:\d+: expected 'pass SEAT CARD'"):
        parse_transcript(text.replace(lines[first], "pass N\n", 1), "game.txt")
