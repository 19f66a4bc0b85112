"""R-J-6 / R-J-7: the cards laid aside in transcripts: one ``discard SEAT CARD`` line per
card, replayed, written back byte for byte, resumed, scripted, and refused out of place."""

from __future__ import annotations

import pytest
from helpers.recorded import recorded_game

from spades_cli.engine import DISCARD_PHASE, State
from spades_cli.errors import SpadesError
from spades_cli.transcript import DiscardLine, parse_transcript, replay, write_transcript

SEATS = ("normal", "easy", "normal", "easy")


def game_text(seed: str, overrides: tuple[str, ...] = (), *, undo_at_discard: bool = False) -> str:
    """A short game of the jokers-discard preset, bots at every seat; with
    ``undo_at_discard`` the dealer takes back its first card laid aside."""

    def undo_when(st: State) -> bool:
        return undo_at_discard and st.phase == DISCARD_PHASE and len(st.legal_actions()) == 14

    return recorded_game("jokers-discard", seed, SEATS, ("target=150", *overrides), undo_when)


def _discards(lines: list[str]) -> list[int]:
    return [i for i, line in enumerate(lines) if line.startswith("discard ")]


def test_r_j_6_the_cards_laid_aside_are_written_one_a_line_and_replay() -> None:
    """R-J-6: each hand has two ``discard SEAT CARD`` lines by its dealer, right after the
    deck line and before the bids; the text replays and is written back to the same bytes."""
    text = game_text("discard-1")
    lines = text.splitlines()
    at = _discards(lines)
    assert len(at) >= 2 and len(at) % 2 == 0
    first = at[0]
    assert lines[first - 1].startswith("deck ") and lines[first + 2].startswith("bids ")
    dealer = lines[first - 2].split()[-1]
    assert lines[first].split()[1] == lines[first + 1].split()[1] == dealer
    assert '[Rule "deck.discard" "2"]' in text
    transcript = parse_transcript(text, "game.txt")
    assert any(isinstance(e, DiscardLine) for e in transcript.events)
    assert replay(transcript).match.finished
    assert write_transcript(transcript) == text


def test_r_j_7_after_the_bids_and_to_the_holder_of_the_two_of_clubs() -> None:
    """R-J-7 (a) and (b): the two lines come after the bids, by the holder of 2C (or the
    dealer when 2C was left over), and the game replays to the same bytes."""
    text = game_text("discard-2", ("deck.discard_after_bids=true", "deck.discard_to=two_of_clubs"))
    lines = text.splitlines()
    first = _discards(lines)[0]
    assert lines[first - 1].startswith("bids ") and lines[first + 2].startswith("trick 1 ")
    assert write_transcript(parse_transcript(text, "game.txt")) == text
    assert replay(parse_transcript(text, "game.txt")).match.finished


def test_r_j_6_an_undone_discard_replays_byte_for_byte() -> None:
    """R-J-6: a card laid aside and taken back (``undo``) is recorded and replays the same."""
    text = game_text("discard-1", undo_at_discard=True)
    assert "undo " in text
    assert write_transcript(parse_transcript(text, "game.txt")) == text


def test_r_j_6_a_discard_line_out_of_place_is_refused() -> None:
    """R-J-6: a discard where none is due, by the wrong seat, or written wrong: FILE:LINE."""
    text = game_text("discard-1")
    lines = text.splitlines(keepends=True)
    first = _discards([line.rstrip("\n") for line in lines])[0]
    moved = [*lines[:first], lines[first + 2], lines[first], lines[first + 1], *lines[first + 3 :]]
    with pytest.raises(SpadesError, match=r"game\.txt:\d+: "):
        replay(parse_transcript("".join(moved), "game.txt"))
    seat = lines[first].split()[1]
    other = "N" if seat != "N" else "E"
    wrong = text.replace(lines[first], lines[first].replace(f" {seat} ", f" {other} "), 1)
    with pytest.raises(SpadesError, match=r"game\.txt:\d+: "):
        replay(parse_transcript(wrong, "game.txt"))
    with pytest.raises(SpadesError, match=r"game\.txt:\d+: expected 'discard SEAT CARD'"):
        parse_transcript(text.replace(lines[first], "discard N\n", 1), "game.txt")
