"""A preset is data someone may have sent: whatever it holds, one clear line and exit 2.

Issue 10, item 5: the inputs that used to end in a traceback, each through the CLI as a
user meets it (``spades rules validate FILE``, ``spades play --set ...`` with stdin
closed, ``spades run --rules FILE``). The limits are stated in README.md ("Rules and presets").
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from helpers.paths import ROOT

from spades_cli.errors import MultiError
from spades_cli.presets import MAX_SHOWN, rules_from_dict
from spades_cli.presets.codec import MAX_INT_DIGITS
from spades_cli.presets.yaml_source import MAX_DEPTH, MAX_FILE_BYTES, MAX_LINE_CHARS

Cli = Callable[..., Result]


def refused(result: Result, *needles: str) -> str:
    """The run ended with exit 2 and no traceback; its stderr holds every needle."""
    assert result.exit_code == 2, (result.exit_code, result.stderr, result.exception)
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.stderr
    for needle in needles:
        assert needle in result.stderr, result.stderr
    return str(result.stderr)


def preset(tmp_path: Path, text: str | bytes) -> str:
    path = tmp_path / "sent.yaml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return str(path)


def nested(depth: int) -> str:
    """``nil:`` holding ``depth`` flow lists, one bracket per line (short lines)."""
    return "nil:\n" + "".join(" [\n" for _ in range(depth)) + "".join(" ]\n" for _ in range(depth))


def test_a_preset_nested_500_deep_is_refused(tmp_path: Path, cli: Cli) -> None:
    path = preset(tmp_path, nested(500))
    refused(cli(["rules", "validate", path]), f"{path}:{MAX_DEPTH + 2}: invalid YAML: nested deeper than")


def test_a_preset_nested_500_deep_in_block_style_is_refused(tmp_path: Path, cli: Cli) -> None:
    text = "nil:\n" + "".join(" " * (i + 1) + f"k{i}:\n" for i in range(500))
    refused(cli(["rules", "validate", preset(tmp_path, text)]), "nil.k0: unknown key")


def test_a_5000_digit_integer_is_refused(tmp_path: Path, cli: Cli) -> None:
    path = preset(tmp_path, "target:\n  " + "9" * 900 + "\n")
    refused(cli(["rules", "validate", path]), f"{path}:1: target: cannot read this value: an integer of more")
    path = preset(tmp_path, "target: " + "9" * 5000 + "\n")
    refused(cli(["rules", "validate", path]), f"{path}:1: a line longer than {MAX_LINE_CHARS} characters")


def test_an_escape_beyond_unicode_is_refused(tmp_path: Path, cli: Cli) -> None:
    path = preset(tmp_path, 'players: 4\nname: "\\U00110000"\n')
    refused(cli(["rules", "validate", path]), f"{path}:2: invalid YAML")


def test_a_preset_named_with_a_lone_surrogate_is_refused_at_validation(tmp_path: Path, cli: Cli) -> None:
    path = preset(tmp_path, 'players: 4\nname: "\\ud800"\n')
    refused(cli(["rules", "validate", path]), f"{path}:2:")
    script = ROOT / "transcripts" / "scripts" / "four-player.txt"
    out = tmp_path / "game.txt"
    refused(cli(["run", str(script), "--rules", path, "-o", str(out)]), f"{path}:2:")
    assert not out.exists()
    with pytest.raises(MultiError, match="lone surrogate"):
        rules_from_dict({"name": "\ud800"})  # the same check for rules that come as data


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ("nil=" + "[" * 500 + "]" * 500, "nil: cannot parse the value: nested deeper than"),
        ("target=" + "9" * 5000, f"target: cannot read the value: an integer of more than {MAX_INT_DIGITS}"),
        ("nil={value: " + "9" * 5000 + "}", "nil.value: cannot read this value: an integer of more"),
        ('name="\\U00110000"', "name: cannot read the value"),
        ('nil={enabled: "\\U00110000"}', "nil: cannot parse the value"),
        ('name="\\ud800"', "name: cannot read the value"),
        ("target=8:20", "target: expected an integer, got '8:20'"),
    ],
)
def test_the_same_through_set(cli: Cli, override: str, message: str) -> None:
    stderr = refused(cli(["play", "--set", override], input=""), message)
    assert max(len(line) for line in stderr.splitlines()) < 300  # a short excerpt, not the value


def test_yaml_11_base_60_is_not_a_number(tmp_path: Path, cli: Cli) -> None:
    path = preset(tmp_path, "target: 8:20\n")
    refused(cli(["rules", "validate", path]), f"{path}:1: target: expected an integer, got '8:20'")


def test_a_device_is_refused_without_reading_it(cli: Cli) -> None:
    refused(cli(["rules", "validate", os.devnull]), "is not a regular file")
    if Path("/dev/zero").exists():
        refused(cli(["rules", "validate", "/dev/zero"]), "/dev/zero: is not a regular file")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path, cli: Cli) -> None:
    fifo = tmp_path / "preset.yaml"
    os.mkfifo(fifo)
    refused(cli(["rules", "validate", str(fifo)]), "is not a regular file")


def test_a_huge_file_is_refused(tmp_path: Path, cli: Cli) -> None:
    path = preset(tmp_path, "# padding\n" * (MAX_FILE_BYTES // 10 + 1))
    refused(cli(["rules", "validate", path]), f"is longer than {MAX_FILE_BYTES // 1024} KiB")


def test_a_non_utf8_preset_names_its_line(tmp_path: Path, cli: Cli) -> None:
    path = preset(tmp_path, b"players: 4\nname: caf\xe9\n")
    refused(cli(["rules", "validate", path]), f"{path}:2: not UTF-8 text: byte 0xe9 in column 10")


@pytest.mark.slow
def test_100k_unknown_keys_show_the_first_and_a_count(tmp_path: Path, cli: Cli) -> None:
    path = preset(tmp_path, "".join(f"k{i}: 1\n" for i in range(100_000)))
    stderr = refused(cli(["rules", "validate", path]), f"{path}:1: k0: unknown key")
    lines = stderr.strip().splitlines()
    assert len(lines) == MAX_SHOWN + 1
    assert lines[-1] == f"... and {100_000 - MAX_SHOWN} more problems"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_an_unreadable_preset_is_one_line(tmp_path: Path, cli: Cli) -> None:
    path = preset(tmp_path, "players: 4\n")
    os.chmod(path, 0)
    if os.access(path, os.R_OK):
        pytest.skip("running as root")
    refused(cli(["rules", "validate", path]), f"{path}: cannot read")
