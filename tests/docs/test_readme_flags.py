"""Every flag that ``spades CMD --help`` lists is in the README, in a section that names
the command (issue 34: ``simulate --transcripts/--max-hands``, ``resume --force``,
``--color`` ... were in the help only); ``run --help`` shows no ``--rules`` default that
does not apply."""

from __future__ import annotations

import re
from pathlib import Path

import click
from click.testing import CliRunner

from spades_cli.cli.main import main

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
SECTIONS = re.split(r"\n(?=#)", README)


def _commands() -> list[tuple[str, click.Command]]:
    ctx = click.Context(main)
    found: list[tuple[str, click.Command]] = []
    for name in main.list_commands(ctx):
        cmd = main.get_command(ctx, name)
        assert cmd is not None
        if isinstance(cmd, click.Group):
            subs = [(f"{name} {n}", cmd.get_command(ctx, n)) for n in cmd.list_commands(ctx)]
            found += [(full, sub) for full, sub in subs if sub is not None]
        else:
            found.append((name, cmd))
    return found


def _documented(command: str, flag: str) -> bool:
    top = command.split()[0]
    named = (f"spades {top}", f"`{top}`")
    pattern = re.compile(re.escape(flag) + r"(?![\w-])")
    return any(pattern.search(part) and any(n in part for n in named) for part in SECTIONS)


def test_every_flag_of_every_command_is_in_the_readme() -> None:
    missing = []
    for command, cmd in _commands():
        for param in cmd.params:
            if isinstance(param, click.Option) and not param.hidden:
                for flag in [*param.opts, *param.secondary_opts]:
                    if flag.startswith("--") and not _documented(command, flag):
                        missing.append(f"{command} {flag}")
    assert missing == []


def test_the_check_finds_a_flag_the_readme_does_not_name() -> None:
    assert not _documented("simulate", "--no-such-flag")
    assert _documented("simulate", "--transcripts")


def test_run_help_shows_no_rules_default_it_would_not_use() -> None:
    out = CliRunner().invoke(main, ["run", "--help"]).output
    rules_help = out.split("--rules NAME|FILE", 1)[1].split("--set", 1)[0]
    assert "[default:" not in rules_help and "script's rules" in rules_help
