"""Transcripts and the bot protocol carry the newer family options: a blind bid is written
``declare N blind6`` and replays (R-BB-1); the rules travel as ``[Rule]`` tags and ``--set``
keys only when they are not the default (R-H-38, R-H-37); a zero is written ``S:zero``
(R-NV-4)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from helpers.cli import run_cli

from spades_cli.engine import ZERO, Rules, blind_bid_of
from spades_cli.game.match import Match
from spades_cli.game.run import GameRun
from spades_cli.game.seats import RandomController
from spades_cli.presets import load_rules
from spades_cli.protocol import bid_token
from spades_cli.protocol.codec import _bid
from spades_cli.transcript import (
    BidsLine,
    DeclareLine,
    Header,
    TranscriptWriter,
    flat_rules,
    parse_transcript,
    transcript_rules,
    write_transcript,
)

SETS = [
    "blind_bid.enabled=true",
    "blind_bid.behind_by=null",
    "blind_bid.exact=true",
    "play.lowest_club_first_trick=true",
    "play.two_of_clubs_leads=true",
    "hand_limit=3",
]


def random_game(sets: list[str], seed: str) -> tuple[Rules, Match, str]:
    """A four-player game of random players under ``sets``, played to its end: the rules,
    the match and its transcript."""
    rules = load_rules("four-player", sets)
    match = Match(rules, seed, [RandomController() for _ in range(4)])
    buf = io.StringIO()
    writer = TranscriptWriter(buf)
    assert match.dealer is not None
    writer.write_header(Header(rules, seed, match.dealer, ("random",) * 4, "four-player", tuple(sets)))
    GameRun(match, writer=writer).play()
    return rules, match, buf.getvalue()


def test_r_bb_1_a_game_with_blind_bids_is_written_and_replays() -> None:
    """R-BB-1, R-F-3: random players (who bid blind often) play three hands; the text
    names the blind bids, reads back the same rules, and is written again byte for byte."""
    rules, _match, text = random_game(SETS, "blind")
    t = parse_transcript(text, "b")
    blind = [e for e in t.events if isinstance(e, DeclareLine) and blind_bid_of(e.action)]
    assert blind and f"declare {blind[0].seat} blind{blind_bid_of(blind[0].action)}\n" in text
    assert transcript_rules(t) == rules
    assert write_transcript(t) == text


def test_r_h_38_the_new_keys_are_quiet_unless_set() -> None:
    """R-H-38, R-H-37: the shipped four-player rules write no blind_bid or lowest-club tag;
    set, they are written and read back."""
    assert not [k for k, _v in flat_rules(load_rules("four-player")) if k.startswith("blind_bid.")]
    keys = dict(flat_rules(load_rules("four-player", SETS)))
    assert keys["blind_bid.enabled"] == "true" and keys["play.lowest_club_first_trick"] == "true"


def test_r_bb_1_the_protocol_writes_a_blind_bid_as_a_word() -> None:
    """R-BB-1: the protocol's ``bids`` line writes a blind six as blind6 and reads it back."""
    assert bid_token(6, True) == "blind6" and _bid("blind6") == (6, True)
    assert bid_token(0, True) == "blind" and _bid("blind") == (0, True)


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_r_bb_1_the_bots_stay_legal_when_blind_bids_are_offered(tmp_path: Path, level: str) -> None:
    """R-BB-1, R-F-3: easy and normal bots (who decline a blind number) play two hands
    with blind bids on and the lowest-club rule, and the transcripts replay."""
    out = tmp_path / "games"
    sets = [x for s in SETS for x in ("--set", s)]
    args = ["simulate", "--rules", "four-player", *sets, "--games", "2", "--level", level]
    result = run_cli([*args, "-j", "1", "--seed", "3", "--transcripts", str(out)])
    assert result.exit_code == 0, result.output
    for f in sorted(out.iterdir()):
        assert "declare N noblind" in f.read_text(encoding="utf-8")
        assert run_cli(["replay", str(f)]).exit_code == 0


ZERO_SETS = ["nil.zero=true", "hand_limit=3"]


def test_r_nv_4_a_game_with_zero_bids_is_written_and_replays(tmp_path: Path) -> None:
    """R-NV-4, R-H-43: random players (who bid zero now and then) play three hands; the text
    writes a zero as ``S:zero`` and the rule as a tag, reads back the same rules, is written
    again byte for byte, and ``spades replay`` checks every recorded score."""
    rules, match, text = random_game(ZERO_SETS, "zero")
    assert ":zero" in text and '[Rule "nil.zero" "true"]' in text
    assert any(r.zero for r in match.state.results)
    t = parse_transcript(text, "z")
    zeros = [seat for e in t.events if isinstance(e, BidsLine) for seat, action in e.bids if action == ZERO]
    assert zeros
    assert transcript_rules(t) == rules
    assert write_transcript(t) == text
    path = tmp_path / "zero.txt"
    path.write_text(text, encoding="utf-8")
    assert run_cli(["replay", str(path)]).exit_code == 0
    hands = json.loads(run_cli(["replay", str(path), "--json"]).stdout)["hands"]
    zero_hands = [h for h in hands if "zero" in h]
    assert zero_hands and all(h["bids"][seat] == 0 for h in zero_hands for seat in h["zero"])
    assert "nil.zero" not in dict(flat_rules(load_rules("four-player")))  # quiet by default


def test_r_nv_4_the_protocol_writes_a_zero_as_a_word() -> None:
    """R-NV-4: the protocol writes a zero as ``zero`` and reads it back as a bid of 0."""
    assert bid_token(0, False, True) == "zero" and _bid("zero") == (0, False)
    assert bid_token(0, False) == "nil" and _bid("nil") == (0, False)
