"""Reading and writing the transcript format: syntax, canonical writing, rules tags, undo."""

from __future__ import annotations

import io

import pytest
from helpers.paths import TRANSCRIPTS

from spades_cli.app.setup import make_controller
from spades_cli.engine import BID_BASE, card_str
from spades_cli.errors import FileFormatError, IllegalActionError, MismatchError, MultiError
from spades_cli.game.match import Match
from spades_cli.game.run import GameRun, actors, take_back
from spades_cli.game.seats import RandomController
from spades_cli.presets import load_rules
from spades_cli.transcript import (
    ActionsLine,
    BidsLine,
    DraftLine,
    EndLine,
    ExchangeLine,
    HandLine,
    Header,
    NoteLine,
    TerminatedLine,
    TranscriptWriter,
    TrickLine,
    flat_rules,
    parse_transcript,
    read_transcript,
    replay,
    transcript_rules,
    write_transcript,
)

FOUR = (TRANSCRIPTS / "four-player.txt").read_text()
TWO = (TRANSCRIPTS / "two-player.txt").read_text()


def _problems(text: str) -> list[str]:
    with pytest.raises(MultiError) as info:
        parse_transcript(text, "t.txt")
    return info.value.problems


# ----------------------------------------------------------------------------- syntax


def test_body_lines_parse_into_events() -> None:
    t = parse_transcript(
        '[Seed "x"]\n'
        "bids e:3 S:NIL w:10\n"
        "trick 2 E: qs 10h Td\n"
        "draft N discard 4H keep 3C\n"
        "exchange S give JS draw 3C\n"
        "exchange S done\n"
        'note W "hello # not a comment"  # a comment\n'
        'terminated E "timeout after 5s"\n'
        "S: 4 AS kd\n"
        "end *\n",
        "t.txt",
    )
    assert t.seed == "x"
    bids, trick, draft, give, done, note, term, acts, end = t.events
    assert bids == BidsLine(2, (("E", BID_BASE + 3), ("S", BID_BASE), ("W", BID_BASE + 10)))
    assert isinstance(trick, TrickLine) and trick.number == 2 and trick.seat == "E" and trick.winner is None
    assert len(trick.cards) == 3
    assert draft == DraftLine(4, "N", False, (2 * 13 + 2, 1))
    assert give == ExchangeLine(5, "S", 3 * 13 + 9, 1)
    assert done == ExchangeLine(6, "S", None, None)
    assert note == NoteLine(7, "W", "hello # not a comment")
    assert term == TerminatedLine(8, "E", "timeout after 5s")
    assert acts == ActionsLine(9, "S", ("4", "AS", "kd"))
    assert end == EndLine(10, None)


def test_every_problem_is_collected_with_its_line() -> None:
    problems = _problems(
        "[Seed 42]\n"  # unquoted tag value
        "hand one dealer N\n"
        "deck AS AS\n"
        "bids E3\n"
        "trick 1 N: 4H XX\n"
        "frobnicate\n"
        '[Seed "late"]\n'
    )
    assert [p.split(":")[1] for p in problems] == ["1", "2", "3", "4", "5", "6", "7"]
    assert all(p.startswith("t.txt:") for p in problems)
    assert "tag values are quoted" in problems[0]
    assert "'XX' is not a card" in problems[4]
    assert "unknown line starting with 'frobnicate'" in problems[5]
    assert "tags come before the first hand" in problems[6]


def test_not_utf8_is_a_format_error_with_a_line(tmp_path) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes(b'[Game "spades"]\n\xff\xfe junk\n')
    with pytest.raises(FileFormatError) as info:
        read_transcript(path)
    assert str(info.value) == f"{path}:2: not UTF-8 text (a transcript is plain UTF-8)"
    assert info.value.exit_code == 2


def test_missing_file_is_a_format_error(tmp_path) -> None:
    with pytest.raises(FileFormatError) as info:
        read_transcript(tmp_path / "nope.txt")
    assert info.value.exit_code == 2
    assert "cannot read" in str(info.value)


def test_quoted_text_round_trips_escapes() -> None:
    text = 'tab\there "quoted" back\\slash\nnew line \x01 # hash'
    buf = io.StringIO()
    rules = load_rules("two-player")
    run = GameRun(Match(rules, 1, [RandomController(), RandomController()]), writer=TranscriptWriter(buf))
    run.note(1, text)
    (event,) = parse_transcript(buf.getvalue(), "t").events
    assert event == NoteLine(1, "S", text)


# ----------------------------------------------------------------------------- canonical writing


@pytest.mark.parametrize("text", [FOUR, TWO], ids=["four", "two"])
def test_lenient_spelling_is_written_canonically(text: str) -> None:
    # Lower-case cards, 10 for T, extra spaces and comments: read, then written canonically.
    messy = text.replace(" TS ", " 10s ").replace("trick 1 ", "trick  1 ").replace("bids ", "bid ")
    messy = messy.replace("[Game", "# a comment line\n[Game", 1).lower().replace("[game", "[Game")
    messy = _restore_tags(messy, text)
    assert write_transcript(parse_transcript(messy, "m")) == text


def _restore_tags(messy: str, original: str) -> str:
    """Keep the tag lines as they were (tag names and quoted values are case-sensitive)."""
    tags = [line for line in original.splitlines() if line.startswith("[")]
    body = [line for line in messy.splitlines() if not line.startswith("[")]
    head = [line for line in body if line.startswith("#")]
    rest = [line for line in body if not line.startswith("#")]
    return "\n".join([*head, *tags, *rest]) + ("\n" if messy.endswith("\n") else "")


def test_every_prefix_written_by_the_writer_is_canonical() -> None:
    # After any action the file is a canonical transcript of the game so far.
    rules = load_rules("two-player")
    match = Match(rules, "prefix", [RandomController(), make_controller("easy", rules)])
    snapshots: list[str] = []

    class Recording(io.StringIO):
        def flush(self) -> None:
            snapshots.append(self.getvalue())

    writer = TranscriptWriter(Recording())
    assert match.dealer is not None
    writer.write_header(Header(rules, "prefix", match.dealer, ("random", "easy"), "two-player"))
    run = GameRun(match, writer=writer)
    for _ in range(160):
        run.step()
    for snapshot in snapshots[1::9]:
        assert write_transcript(parse_transcript(snapshot, "p")) == snapshot


# ----------------------------------------------------------------------------- rules


def test_rule_tags_rebuild_the_rules_exactly() -> None:
    rules = load_rules("four-player", ["nil.value=50", "bags.limit=null", "first_dealer=S"])
    tags = "".join(f'[Rule "{k}" "{v}"]\n' for k, v in flat_rules(rules))
    assert transcript_rules(parse_transcript(tags, "r")) == rules


def test_rule_tags_take_precedence_over_the_preset_name() -> None:
    text = FOUR.replace('[Rule "nil.value" "100"]', '[Rule "nil.value" "50"]')
    t = parse_transcript(text, "r")
    rules = transcript_rules(t)
    assert rules is not None and rules.nil.value == 50


def test_bad_rule_tag_names_its_line() -> None:
    text = FOUR.replace('[Rule "nil.value" "100"]', '[Rule "nil.value" "lots"]')
    line = text.splitlines().index('[Rule "nil.value" "lots"]') + 1
    with pytest.raises(MultiError) as info:
        transcript_rules(parse_transcript(text, "r"))
    assert info.value.problems[0].startswith(f"r:{line}: nil.value")


def test_unknown_rule_key_is_reported() -> None:
    text = FOUR.replace('[Rule "nil.value" "100"]', '[Rule "nil.valu" "100"]')
    with pytest.raises(MultiError) as info:
        transcript_rules(parse_transcript(text, "r"))
    assert "nil.valu" in str(info.value)


def test_rules_from_preset_and_set_tags() -> None:
    t = parse_transcript('[Rules "two-player"]\n[Set "nil.value=70"]\n', "r")
    rules = transcript_rules(t)
    assert rules == load_rules("two-player", ["nil.value=70"])


def test_no_rules_at_all_is_a_format_error() -> None:
    with pytest.raises(FileFormatError) as info:
        transcript_rules(parse_transcript("", "r"))
    assert str(info.value).startswith("r:1: names no rules")


# ----------------------------------------------------------------------------- replay checks


def _replace_line(text: str, start: str, new: str) -> tuple[str, int]:
    lines = text.split("\n")
    index = next(i for i, line in enumerate(lines) if line.startswith(start))
    lines[index] = new
    return "\n".join(lines), index + 1


def test_illegal_card_is_exit_1_with_its_line() -> None:
    # R-C-3: the second card of the first trick must follow suit when it can.
    lines = FOUR.split("\n")
    index = next(i for i, line in enumerate(lines) if line.startswith("trick 1 "))
    words = lines[index].split()
    prefix = "\n".join([*lines[:index], " ".join(words[:4])])
    state = replay(parse_transcript(prefix, "g")).match.state
    seat = state.current_player()
    held = state.hand_of(seat)
    legal = set(state.legal_actions())
    wrong = next(c for c in held if c not in legal)
    lines[index] = " ".join([*words[:4], card_str(wrong), *words[5:]])
    with pytest.raises(IllegalActionError) as info:
        replay(parse_transcript("\n".join(lines), "g"))
    name = "NESW"[seat]
    assert str(info.value).startswith(
        f"g:{index + 1}: {name} {card_str(wrong)} is not legal: you must follow"
    )
    assert info.value.exit_code == 1


def test_wrong_trick_winner_is_a_mismatch() -> None:
    lines = FOUR.split("\n")
    index = next(i for i, line in enumerate(lines) if line.startswith("trick 1 "))
    winner = lines[index].split()[-1]
    other = "E" if winner != "E" else "W"
    lines[index] = lines[index][:-1] + other
    with pytest.raises(MismatchError) as info:
        replay(parse_transcript("\n".join(lines), "g"))
    assert str(info.value) == f"g:{index + 1}: trick 1 is won by {winner}, not {other}"


def test_wrong_score_is_a_mismatch() -> None:
    text, line = _replace_line(FOUR, "score ", "score NS 1 EW 2 bags NS 0 EW 0")
    with pytest.raises(MismatchError) as info:
        replay(parse_transcript(text, "g"))
    assert str(info.value).startswith(f"g:{line}: after hand 1: NS score recorded 1, the rules give ")


def test_missing_deck_is_a_format_error() -> None:
    text = "\n".join(line for line in FOUR.split("\n") if not line.startswith("deck "))
    with pytest.raises(FileFormatError) as info:
        replay(parse_transcript(text, "g"))
    assert "a deck line must follow the hand line" in str(info.value)


def test_missing_result_line_is_a_format_error() -> None:
    lines = FOUR.split("\n")
    index = next(i for i, line in enumerate(lines) if line.startswith("result "))
    del lines[index]
    with pytest.raises(FileFormatError) as info:
        replay(parse_transcript("\n".join(lines), "g"))
    assert str(info.value).startswith(f"g:{index + 1}: a score line comes right after the result line")


def test_wrong_end_line_is_a_mismatch() -> None:
    text = FOUR.replace("end winner NS", "end winner EW")
    with pytest.raises(MismatchError) as info:
        replay(parse_transcript(text, "g"))
    assert "EW did not win" in str(info.value)
    text = FOUR.replace("end winner NS", "end *")
    with pytest.raises(MismatchError):
        replay(parse_transcript(text, "g"))


def test_a_truncated_transcript_replays_up_to_its_last_action() -> None:
    lines = FOUR.split("\n")
    for cut in (30, 41, 77):
        text = "\n".join(lines[:cut])
        result = replay(parse_transcript(text, "g"))
        assert not result.match.finished


def test_two_player_bids_and_double_nil() -> None:
    # R-2P-3: a declared double nil is the player's bid; R-2P-4: the second player bids first.
    result = replay(parse_transcript(TWO, "two"))
    declared = [r for r in result.match.state.results if any(r.blind)]
    assert declared
    for r in declared:
        for seat in range(2):
            if r.blind[seat]:
                assert r.bids[seat] == 0
    dealer = None
    both_bid = 0
    for e in parse_transcript(TWO, "two").events:
        if isinstance(e, HandLine):
            dealer = e.dealer
        elif isinstance(e, BidsLine) and len(e.bids) == 2:
            assert e.bids[0][0] != dealer
            both_bid += 1
    assert both_bid > 0


# ----------------------------------------------------------------------------- undo


def test_take_back_removes_the_seat_last_decision_and_what_followed() -> None:
    rules = load_rules("four-player")
    match = Match(rules, "u", [RandomController() for _ in range(4)])
    GameRun(match).play(max_actions=20)
    history = list(match.state.history)
    # the seat that made the 10th action of the game
    who = actors(rules, match.dealer or 0, match.decks, history)
    seat = who[-3]
    kept = take_back(match, seat)
    last = max(i for i, s in enumerate(who) if s == seat)
    assert kept == history[:last]


def test_undo_line_replays_and_round_trips() -> None:
    house = (TRANSCRIPTS / "four-player-house.txt").read_text()
    result = replay(parse_transcript(house, "h"))
    assert result.labels[2] == "easy" and result.header_labels[2] == "normal"
    assert write_transcript(parse_transcript(house, "h")) == house


def test_undo_of_a_seat_without_decisions_is_illegal() -> None:
    lines = FOUR.split("\n")
    index = next(i for i, line in enumerate(lines) if line.startswith("deck "))
    lines.insert(index + 1, "undo N")
    with pytest.raises(IllegalActionError) as info:
        replay(parse_transcript("\n".join(lines), "g"))
    assert str(info.value) == f"g:{index + 2}: N has no decision to take back"


def test_r_ct_1_a_short_deal_or_deck_line_names_no_fixed_size() -> None:
    """R-CT-1, R-J-2: a hand and a deck have the rules' size (17 cards in cutthroat, 52 or
    54 with jokers), so the reader's message does not say 13 or 52."""
    problems = _problems('[Rules "cutthroat"]\nhand 1 dealer N\ndeal N AS KS\ndeck AS KS QS\n')
    assert any("expected 'deal SEAT' and the seat's whole hand" in p for p in problems)
    assert any("a deck lists the rules' whole deck, top first; this one has 3" in p for p in problems)
