"""Messages for people who write scripts by hand (``spades run``), and the one spelling of
each answer (README, "Playing").

Every problem in a script names the file and line, the seat and the word that was
written, in the words of docs/transcript-format.md; ``run`` and ``replay`` give the same
message for the same broken line.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers.cli import run_cli
from helpers.paths import ROOT, TRANSCRIPTS

from spades_cli.engine import (
    BID,
    BID_BASE,
    BLIND,
    DECLARE,
    DISCARD,
    DRAFT,
    EXCHANGE,
    EXCHANGE_DONE,
    KEEP,
    NO_BLIND,
)
from spades_cli.engine.notation import ANSWERS, NotationError, parse_action

PILE = " ".join(f"{r}{s}" for s in "CDHS" for r in "23456789TJQKA")  # two of clubs on top
TWO = f'[Rules "two-player"]\n[Seed "msg"]\n\nhand 1 dealer N\ndeck {PILE}\n'
KEEPS = "N: " + " ".join(["keep"] * 13) + "\n"
FOUR = '[Rules "four-player"]\n[Seed "msg"]\n[Seat "N" "random"]\n[Seat "E" "random"]\n[Seat "W" "random"]\n'
BIDS = "a bids line lists the bids in the order they are made"
TRICKS = "a trick line lists the cards in the order they are played, from the seat it names"
FOUR_DECK = (TRANSCRIPTS / "four-player-short.txt").read_text().split("\ndeck ")[1].split("\n")[0]


def run(tmp_path: Path, text: str, *extra: str) -> tuple[Path, int, str]:
    script = tmp_path / "s.txt"
    script.write_text(text)
    result = run_cli(["run", str(script), "-o", str(tmp_path / "out.txt"), "--force", *extra])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return script, result.exit_code, result.stderr


def hand_one(path: Path) -> list[str]:
    return path.read_text().split("\nhand 2 ")[0].splitlines()


def test_r_2p_3_a_two_player_list_without_the_declaration_asks_for_noblind(tmp_path: Path) -> None:
    # R-2P-3: each hand of the two-player game opens with the double nil question.
    script, code, err = run(tmp_path, TWO + "N: keep keep\n", "--seat", "S=random")
    assert code == 1
    assert err == (
        f"spades: {script}:6: N 'keep': the double nil declaration that opens each hand of the two-player "
        "game is wanted here (hand 1): "
        "answer blind to declare double / blind nil, or noblind\n"
    )


def test_r_2p_3_cards_on_a_list_are_given_up_only_when_done_closes_them(tmp_path: Path) -> None:
    # R-2P-3: after a double nil the seat may give up cards; a list that goes on with cards
    # meant as plays is refused at that line instead of losing them in the exchange.
    text = TWO + "N: blind\n" + KEEPS + "N: 2C 6C\n"
    script, code, err = run(tmp_path, text, "--seat", "S=random")
    assert code == 1
    assert err.startswith(
        f"spades: {script}:8: N '2C': N declared double nil and may now give up to 3 cards for cards "
        "of the discard pile (hand 1); on a N: list the cards to give up end with done (N: 2C done), "
        "and done alone keeps every card"
    )


@pytest.mark.slow
def test_r_2p_3_an_exchange_on_a_list_ends_with_done(tmp_path: Path) -> None:
    # R-2P-3: North keeps 2C, 6C, TC (the top card of her turns) and gives them up.
    bots = ("--seat", "S=random", "--then", "random")
    _, code, err = run(tmp_path, TWO + "N: blind\n" + KEEPS + "N: 2C done\n", *bots)
    assert code == 0, err
    lines = hand_one(tmp_path / "out.txt")
    gives = [x.split(" draw ")[0] for x in lines if x.startswith("exchange N")]
    assert gives == ["exchange N give 2C", "exchange N done"]
    # giving every card allowed ends the exchange: the done after the last one is not a bid
    _, code, err = run(tmp_path, TWO + "N: blind\n" + KEEPS + "N: 2C 6C TC done\n", *bots)
    assert code == 0, err
    lines = hand_one(tmp_path / "out.txt")
    gives = [x.split(" draw ")[0] for x in lines if x.startswith("exchange N")]
    assert gives == ["exchange N give 2C", "exchange N give 6C", "exchange N give TC"]


def test_r_2p_3_a_draw_names_where_the_card_is_in_run_and_replay(tmp_path: Path) -> None:
    # R-2P-3: the card drawn comes from the discard pile; a card just given up is not there.
    golden = (TRANSCRIPTS / "two-player.txt").read_text()
    given = re.search(r"^exchange S give (\w\w) draw (\w\w)$", golden, re.MULTILINE)
    assert given is not None
    bad = golden.replace(given.group(0), f"exchange S give {given.group(1)} draw {given.group(1)}")
    path = tmp_path / "bad.txt"
    path.write_text(bad)
    line = bad[: bad.index(f"draw {given.group(1)}\n")].count("\n") + 1
    want = f"spades: {path}:{line}: S cannot draw {given.group(1)}: S has just given it up (R-2P-3: the draw"
    replayed = run_cli(["replay", str(path)])
    assert replayed.exit_code == 1 and replayed.stderr.startswith(want), replayed.stderr
    ran = run_cli(["run", str(path), "-o", str(tmp_path / "o.txt")])
    assert ran.exit_code == 1 and ran.stderr.startswith(want), ran.stderr
    text = TWO + "N: blind\n" + KEEPS + "exchange N give JS draw 2C\n"
    _, code, err = run(tmp_path, text, "--seat", "S=random")
    assert code == 1 and "N cannot draw 2C: N holds it (R-2P-3" in err


@pytest.mark.slow
@pytest.mark.parametrize(
    ("body", "message"),
    [
        # R-4P-4: W (left of the dealer S) bids first; the line has N first
        ("bids N:3 W:3 E:3 S:3\n", f"W bids first in this hand, not N ({BIDS})"),
        ("bids W:3 N:3 E:3 S:3\n", ""),  # in order: both accept it
        # R-C-5 / R-4P-5: W leads the first trick; the line names S
        ("bids W:3 N:3 E:3 S:3\ntrick 1 S: 5S 2S 3S 4S\n", f"trick 1 is led by W, not S ({TRICKS})"),
        ("bids W:3 E:3 N:3 S:3\n", f"N bids next, not E ({BIDS})"),
    ],
)
def test_r_4p_4_lines_in_the_wrong_order_are_refused_alike_by_run_and_replay(
    body: str, message: str, tmp_path: Path
) -> None:
    path = tmp_path / "t.txt"
    path.write_text(f'[Rules "four-player"]\n[Seed "msg"]\n\nhand 1 dealer S\ndeck {FOUR_DECK}\n{body}')
    line = 6 if "trick" not in message else 7
    replayed = run_cli(["replay", str(path)])
    ran = run_cli(["run", str(path), "-o", str(tmp_path / "o.txt"), "--then", "random"])
    if not message:
        assert replayed.exit_code == 0, replayed.stderr
        assert ran.exit_code == 0, ran.stderr
        return
    assert replayed.stderr == ran.stderr == f"spades: {path}:{line}: {message}\n"
    assert replayed.exit_code == ran.exit_code == 1


def test_r_4p_4_a_bot_between_two_seats_of_a_bids_line_breaks_its_order(tmp_path: Path) -> None:
    # R-4P-4: with S the dealer, W, N, E, S bid in turn; "bids W:3 E:3" skips N, a bot here.
    text = '[Rules "four-player"]\n[Seed "msg"]\n[Seat "N" "random"]\n[Seat "S" "random"]\n'
    text += "hand 1 dealer S\nbids W:3 E:3\n"
    script, code, err = run(tmp_path, text, "--then", "random")
    assert code == 1
    assert err == f"spades: {script}:6: N bids next, not E ({BIDS})\n"


@pytest.mark.parametrize(
    ("word", "why"),
    [
        ("19", "S '19' is not a move: a bid is a number 1-13, or nil"),
        (
            "pass",
            "S 'pass' is not a move: did you mean done (in an exchange) or noblind (declaring)? "
            "(nobody may pass a bid)",
        ),
        ("n", "S 'n' is not a move: did you mean nil (bidding) or noblind (declaring)?"),
        ("keep", "S 'keep': a bid is wanted here (hand 1): bid a number 1-13, or nil"),
    ],
)
def test_r_c_7_a_bad_move_word_is_exit_1_naming_the_seat_line_and_word(
    word: str, why: str, tmp_path: Path
) -> None:
    # R-C-7: a bid is 1 to 13 or nil; any other word on a SEAT: list is an illegal move (exit 1).
    script, code, err = run(tmp_path, FOUR + f"S: {word}\n")
    assert code == 1
    assert err == f"spades: {script}:6: {why}\n"


def test_a_bids_line_with_a_bad_bid_is_a_format_error_naming_the_seat(tmp_path: Path) -> None:
    script, code, err = run(tmp_path, FOUR + "hand 1 dealer W\nbids N:3 E:3 S:19 W:2\n")
    assert code == 2
    assert err == f"spades: {script}:7: S '19': a bid is a number 1-13, or nil\n"


# -- one spelling per answer ---------------------------------------------------------------------


def readme_answers() -> dict[str, list[str]]:
    """The answer table of README.md: its first column and the `words` of its second."""
    text = (ROOT / "README.md").read_text()
    table = text.split("| when | answers |\n|---|---|\n")[1].split("\n\n")[0]
    rows = {}
    for row in table.splitlines():
        when, answers = row.strip("|").split("|", 1)
        rows[when.strip()] = re.findall(r"`([^`]+)`", answers)
    return rows


def test_the_readme_table_is_the_one_the_parser_reads() -> None:
    rows = readme_answers()
    words = {w for ws in rows.values() for w in ws}
    for phase, answers in ANSWERS.items():
        assert set(answers) <= words, phase
    assert parse_action("blind", DECLARE) == BLIND and parse_action("noblind", DECLARE) == NO_BLIND
    assert parse_action("keep", DRAFT) == KEEP and parse_action("discard", DRAFT) == DISCARD
    assert parse_action("done", EXCHANGE) == EXCHANGE_DONE
    assert parse_action("nil", BID) == parse_action("0", BID) == BID_BASE
    assert parse_action("13", BID) == BID_BASE + 13
    assert parse_action("No Blind", DECLARE) == NO_BLIND  # case and spaces do not matter


@pytest.mark.parametrize(
    ("word", "phase", "meant"),
    [
        # R-2P-3: the declaration; R-2P-2: the draft; R-C-7: bidding (a nil is nil)
        ("no", DECLARE, "noblind"),
        ("n", DECLARE, "noblind"),
        ("pass", DECLARE, "noblind"),
        ("yes", DECLARE, "blind"),
        ("double nil", DECLARE, "blind"),
        ("no", DRAFT, "discard"),
        ("yes", DRAFT, "keep"),
        ("k", DRAFT, "keep"),
        ("pass", EXCHANGE, "done"),
        ("stop", EXCHANGE, "done"),
        ("n", BID, "nil"),
    ],
)
def test_colliding_words_are_refused_with_the_word_of_the_phase(word: str, phase: int, meant: str) -> None:
    with pytest.raises(NotationError) as refused:
        parse_action(word, phase)  # type: ignore[arg-type]
    assert f"{word!r}: did you mean {meant}?" in str(refused.value)


def test_r_c_7_pass_is_not_a_bid() -> None:
    with pytest.raises(NotationError, match="nobody may pass in Spades"):
        parse_action("pass", BID)
    with pytest.raises(NotationError, match=r"'19' is not a bid \(a number 1-13, or nil\)"):
        parse_action("19", BID)


@pytest.mark.parametrize(
    ("pile", "why"),
    [
        (PILE.removeprefix("2C "), "a deck line must hold each of the 52 cards of the deck once"),
        (PILE + " 2C", "the deck names 2C twice"),
        (PILE.replace("2C", "3C", 1), "the deck names 3C twice"),
    ],
)
def test_r_c_1_a_deck_line_without_each_card_once_names_its_line(tmp_path: Path, pile: str, why: str) -> None:
    # R-C-1: the deck holds each card once; a deck line short of a card, with one too many
    # or with one twice is refused at its own line, by run and by replay alike.
    script, code, err = run(tmp_path, TWO.replace(PILE, pile) + KEEPS, "--seat", "S=random")
    want = f"spades: {script}:5: {why}\n"
    assert (code, err) == (2, want)
    replayed = run_cli(["replay", str(script)])
    assert (replayed.exit_code, replayed.stderr) == (2, want)
