"""``spades analyze``: hindsight double-dummy analysis of a transcript."""

from __future__ import annotations

import json

from conftest import TRANSCRIPTS, run_cli


def test_analyze_json_on_a_golden_transcript() -> None:
    result = run_cli(["analyze", str(TRANSCRIPTS / "two-player-short.txt"), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["hindsight"] is True and "every hand is known" in data["note"]
    first, second = data["hands"][:2]
    # Best play by both from the deal, under the preset's rules (R-C-6 included).
    assert first["bids"] == {"N": 5, "S": 7} and first["taken"] == {"N": 5, "S": 8}
    assert first["double_dummy"]["sides"] == {"N": 5, "S": 8}
    assert second["double_dummy"]["sides"] == {"N": 4, "S": 9}
    lead = second["cards"][0]
    assert (lead["trick"], lead["seat"], lead["card"], lead["best"]) == (1, "N", "AD", "6C")
    assert lead["cost_tricks"] == 1 and lead["costly"] is True
    assert data["seats"]["N"]["cards_played"] == 26
    assert data["seats"]["N"]["costly_cards"] == sum(
        1 for h in data["hands"] for c in h["cards"] if c["seat"] == "N" and c["costly"]
    )


def test_analyze_text_flags_costly_cards_and_says_it_is_hindsight() -> None:
    result = run_cli(["analyze", str(TRANSCRIPTS / "two-player-short.txt"), "--seat", "n"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("Note: hindsight analysis")
    assert "  hand 2 trick 1: N played AD, 6C kept the contract: cost 1 trick, set N -40" in lines
    assert not any(" S played " in line for line in lines)


def test_analyze_exit_codes() -> None:
    assert run_cli(["analyze", "/nonexistent/game.txt"]).exit_code == 2
    bad_seat = run_cli(["analyze", str(TRANSCRIPTS / "two-player-short.txt"), "--seat", "E"])
    assert bad_seat.exit_code == 2 and "unknown seat" in bad_seat.output
