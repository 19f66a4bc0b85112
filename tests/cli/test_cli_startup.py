"""Start-up (issue 12, item 4): ``spades --help`` lists the commands without importing them.

The short help of each command is kept in cli.py's table; these tests keep the table and
the commands' own docstrings from drifting apart, and check what ``--help`` and
``spades bot`` import (in a fresh interpreter), not how long they take.
"""

from __future__ import annotations

import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from spades_cli.cli.main import _COMMANDS, SpadesGroup, main


@pytest.mark.parametrize("name", sorted(_COMMANDS))
def test_the_table_s_short_help_is_the_command_s_own(name: str) -> None:
    command = main.get_command(click.Context(main), name)
    assert command is not None
    assert command.help is not None
    # The first sentence of the docstring, as click shortens it when nothing limits it.
    assert _COMMANDS[name][2] == command.get_short_help_str(limit=10_000)


def test_help_lists_the_commands_as_click_would() -> None:
    with click.Context(main) as ctx:
        ours, clicks = ctx.make_formatter(), ctx.make_formatter()
        main.format_commands(ctx, ours)
        click.Group.format_commands(main, ctx, clicks)  # imports every command for its help
    assert ours.getvalue() == clicks.getvalue()
    assert "  play      Play a game at the prompt against the bots.\n" in ours.getvalue()
    assert isinstance(main, SpadesGroup)
    assert "Commands:" in CliRunner().invoke(main, ["--help"]).output


def _imported(*args: str, stdin: str = "") -> set[str]:
    code = (
        "import sys\n"
        "from spades_cli.cli.main import main\n"
        "try:\n"
        f"    main({list(args)!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        "sys.stderr.write(' '.join(sorted(sys.modules)))\n"
    )
    argv = [sys.executable, "-c", code]
    out = subprocess.run(argv, input=stdin, capture_output=True, text=True, check=True)
    return set(out.stderr.split())


def test_help_imports_no_command_and_no_heavy_module() -> None:
    modules = _imported("--help")
    assert not {m for m in modules if m.startswith("spades_cli.cmd_")}
    assert not {"yaml", "multiprocessing", "statistics", "prompt_toolkit", "spades_cli.engine"} & modules


def test_the_bot_speaker_loads_neither_yaml_nor_the_table_side() -> None:
    modules = _imported("bot", "--level", "easy", stdin="spades-protocol 1\nquit\n")
    assert "spades_cli.protocol.serve" in modules
    heavy = {"yaml", "multiprocessing", "statistics", "prompt_toolkit", "spades_cli.protocol.table"}
    assert not heavy & modules
