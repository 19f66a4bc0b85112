"""Issue 33: one wrapper for every line the program writes outside the prompt (``replay``,
the printers, ``stats``, ``analyze`` text): broken only between words, at ``COLUMNS``."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner
from helpers.paths import TRANSCRIPTS

from spades_cli.cli.main import main
from spades_cli.view.layout import text_width, wrap_lines

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _run(args: list[str], columns: int | None) -> str:
    env = {"COLUMNS": str(columns) if columns else ""}
    result = CliRunner().invoke(main, args, env=env, catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("columns", [40, 80])
@pytest.mark.parametrize("name", ["four-player", "two-player"])
def test_replay_lines_fit_and_no_word_is_cut(name: str, columns: int) -> None:
    """``made +100, 1 b`` / ``ag +1`` (issue 33, replay at 80 columns): every line fits and
    the words are the whole ones the unwrapped output has."""
    path = str(TRANSCRIPTS / f"{name}.txt")
    whole = _run(["replay", path], None)
    wrapped = _run(["replay", path], columns)
    assert max(text_width(line) for line in whole.splitlines()) > 40  # there is something to wrap
    assert all(text_width(line) <= columns for line in wrapped.splitlines() if len(line.split()) > 1), wrapped
    assert wrapped.split() == whole.split()


def test_stats_lines_fit_at_40_columns() -> None:
    whole = _run(["stats", str(TRANSCRIPTS)], None)
    wrapped = _run(["stats", str(TRANSCRIPTS)], 40)
    assert all(text_width(line) <= 40 for line in wrapped.splitlines() if len(line.split()) > 1), wrapped
    assert wrapped.split() == whole.split()


def test_wrap_lines_counts_colours_and_wide_characters() -> None:
    red = "\x1b[31mQ♥\x1b[0m"
    line = f"South plays {red} and wins the trick for North-South"
    out = wrap_lines(line, 20)
    assert all(text_width(x) <= 20 for x in out.splitlines())
    assert ANSI.sub("", out).split() == ANSI.sub("", line).split()
    assert text_width("スペード") == 8
    # Japanese breaks between characters, never before closing punctuation (。)
    assert wrap_lines("北はスペードをリードします。", 10).splitlines() == [
        "北はスペー",
        "  ドをリー",
        "  ドしま",
        "  す。",
    ]


def test_wrap_lines_leaves_a_pipe_whole() -> None:
    line = "word " * 40
    assert wrap_lines(line, None) == line
