"""Issue 33, item 6 at the table: a game in Polish, Japanese or Persian, its typed words,
the language from the environment, and the transcript in the canonical words."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from helpers.paths import TRANSCRIPTS

from spades_cli import i18n
from spades_cli.cli.main import main
from spades_cli.errors import EXIT_UNFINISHED, EXIT_USAGE
from spades_cli.transcript import read_transcript, replay
from spades_cli.view import Look, score_table
from spades_cli.view.layout import text_width

HOT_SEAT = ["--rules", "two-player", "--seed", "3", "--seat", "N=human", "--seat", "S=human"]
ENGLISH = ["noblind", "discard", "noblind", "keep", "hand", "10", "keep"]


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.use("en")


def _play(args: list[str], lines: list[str], home: Path, env: dict[str, str | None] | None = None) -> Result:
    env = {
        "SPADES_HOME": str(home),
        "LANGUAGE": None,
        "LC_ALL": None,
        "LC_MESSAGES": None,
        "LANG": None,
        **(env or {}),
    }
    return CliRunner().invoke(main, ["play", *args], input="".join(f"{x}\n" for x in lines), env=env)


def _moves(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith(("[", "#"))]


@pytest.mark.parametrize(
    ("lang", "words", "said"),
    [
        (
            "pl",
            ["jawnie", "odrzuć", "jawnie", "zatrzymaj", "pomoc", "10", "Zatrzymaj"],
            "Północ dobiera kartę 1 z 13",
        ),
        (
            "ja",
            ["ノーブラインド", "捨てる", "ノーブラインド", "キープ", "ヘルプ", "10", "キープ"],
            "北は13枚中1枚目を引きます",
        ),
        ("fa", ["باز", "بسوزان", "باز", "نگه", "راهنما", "10", "نگه"], "شمال کارت 1 از 13 را برمی‌دارد"),
    ],
)
def test_a_game_in_each_language_records_the_canonical_words(
    tmp_path: Path, lang: str, words: list[str], said: str
) -> None:
    # R-2P-2 / R-2P-3: the same hot-seat draft typed in English and in the language's own words.
    english = _play([*HOT_SEAT, "--transcript", str(tmp_path / "en.txt")], ENGLISH, tmp_path)
    other = _play(["--lang", lang, *HOT_SEAT, "--transcript", str(tmp_path / "x.txt")], words, tmp_path)
    assert english.exit_code == other.exit_code == EXIT_UNFINISHED, other.output
    assert _moves(tmp_path / "x.txt") == _moves(tmp_path / "en.txt")  # keep, discard, noblind ...
    assert said in other.output and "draws card" not in other.output
    assert "keep = " in other.output  # help lists the language's words for the moves


def test_the_language_comes_from_the_environment(tmp_path: Path) -> None:
    polish = _play([*HOT_SEAT], ["noblind"], tmp_path, {"LANG": "pl_PL.UTF-8"})
    assert "Północ: zgłosić podwójnego nila" in polish.output
    c_locale = _play([*HOT_SEAT], ["noblind"], tmp_path, {"LC_ALL": "C", "LANG": "pl_PL.UTF-8"})
    assert "North: declare double nil" in c_locale.output
    listed = _play([*HOT_SEAT], ["noblind"], tmp_path, {"LANGUAGE": "de:ja", "LANG": "pl_PL.UTF-8"})
    assert "北: 最初のカードの前にダブルニルを宣言しますか" in listed.output


def test_an_unknown_language_is_a_usage_error(tmp_path: Path) -> None:
    result = _play(["--lang", "xx", *HOT_SEAT], [], tmp_path)
    assert result.exit_code == EXIT_USAGE and "unknown language 'xx'" in result.output


def test_the_japanese_score_table_lines_up_by_display_width() -> None:
    """A Japanese heading is two columns a character: the rows still line up."""
    run = replay(read_transcript(TRANSCRIPTS / "four-player.txt")).run
    i18n.use("ja")
    lines = plain_lines(score_table(Look(run.rules), run.rules, run.state.results))
    assert lines[0].startswith("回")
    assert len({text_width(x) for x in lines[:-1]}) == 1  # the heading and every hand: one width
    columns = [i for i, ch in enumerate(lines[1]) if ch == " " and lines[1][i + 1 : i + 2] != " "]
    assert columns  # the data rows share their column starts
    assert all(text_width(x[: columns[0]]) == text_width(lines[1][: columns[0]]) for x in lines[1:-1])


def plain_lines(frags: list[tuple[str, str]]) -> list[str]:
    return "".join(t for _s, t in frags).split("\n")


def test_persian_keeps_card_codes_and_numbers_left_to_right(tmp_path: Path) -> None:
    """Persian is written in logical order, with no direction marks: card codes, seat
    letters and numbers are the Latin ones of every language."""
    result = _play(["--lang", "fa", "--ascii", *HOT_SEAT], ["noblind", "discard", "noblind"], tmp_path)
    out = result.output
    assert "شمال کارت 1 از 13 را برمی‌دارد" in out
    assert re.search(r": (10|[2-9JQKA])[SHDC] - ", out)  # the card drawn, as in every language
    assert not any(ch in out for ch in "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
    assert not any("\u06f0" <= ch <= "\u06f9" for ch in out)  # Latin digits, not Persian ones
    assert "S ۱" not in out and "N -, S -" in out
