"""R-J-6: a script of the jokers-discard game: a ``deal`` line fixes a seat's thirteen (the
rest, the cards left over included, is shuffled from the seed) and ``discard`` lines say
which cards the dealer lays aside."""

from __future__ import annotations

from pathlib import Path

from helpers.cli import run_cli

from spades_cli.transcript import read_transcript, replay, write_transcript


def test_r_j_6_a_scripted_dealer_lays_two_cards_aside(tmp_path: Path) -> None:
    """R-J-6: S deals itself AS .. 2S and lays aside 2S and 3S, scripted; the game runs, the
    transcript holds the two discard lines and replays to the same bytes."""
    script = tmp_path / "s.txt"
    script.write_text(
        '[Rules "jokers-discard"]\n[Seed "3"]\n\nhand 1 dealer S\n'
        "deal S AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S\n"
        "discard S 2S\ndiscard S 3S\n",
        encoding="utf-8",
    )
    out = tmp_path / "g.txt"
    seats = ["--seat", "N=random", "--seat", "E=random", "--seat", "W=random", "--then", "random"]
    result = run_cli(["run", str(script), "-o", str(out), "--set", "hand_limit=1", *seats])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert "\ndiscard S 2S\ndiscard S 3S\nbids " in text
    transcript = read_transcript(str(out))
    assert replay(transcript).match.finished
    assert write_transcript(transcript) == text
