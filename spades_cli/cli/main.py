"""The ``spades`` command: a thin click layer that builds games and maps errors to exit codes.

Each command group lives in its own ``cmd_*`` module and is registered here.
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import os
import sys
from typing import Any

import click

from spades_cli import __version__, i18n
from spades_cli.errors import (
    EXIT_ILLEGAL,
    EXIT_INTERRUPTED,
    Interrupted,
    SpadesError,
    UsageError,
    on_signals,
    raise_stopped,
)

# Commands are imported only when used, so that `spades bot` (started once per seat by
# tables and tournaments), `spades --help` and `spades --version` start quickly. Each entry
# is the command's module, its attribute and its short help (the first sentence of its
# docstring, which `spades --help` lists; tests/cli/test_cli_startup.py keeps them equal).
_COMMANDS: dict[str, tuple[str, str, str]] = {
    "analyze": (
        "cmd_analyze",
        "analyze_command",
        "Hindsight double-dummy check of a transcript, or of every transcript (*.txt) in a folder: "
        "what each card gave up with every hand known.",
    ),
    "bot": (
        "cmd_bot",
        "bot_command",
        "Answer bot-protocol requests on stdin with a built-in bot (see docs/bot-protocol.md).",
    ),
    "host": (
        "cmd_host",
        "host_command",
        "Host a game that people join from other terminals with 'spades join'.",
    ),
    "join": ("cmd_join", "join_command", "Take your seat at a table hosted with 'spades host'."),
    "games": (
        "cmd_games",
        "games_command",
        "List the saved games: date, rules, seats, score, finished or not.",
    ),
    "merge": (
        "cmd_merge",
        "merge_command",
        "Combine the JSON results of 'spades simulate --shard K/N --json' (or of interrupted runs) of "
        "one tournament into the result of the whole: the same as one run of all the games gives, "
        "apart from timings.",
    ),
    "play": ("cmd_play", "play_command", "Play a game at the prompt against the bots."),
    "replay": (
        "cmd_replay",
        "replay_command",
        "Check a transcript against the rules and show the game hand by hand.",
    ),
    "resume": ("cmd_resume", "resume_command", "Continue an unfinished game with the same rules and seats."),
    "rules": (
        "cmd_rules",
        "rules_group",
        "The rule presets: list them, show one in full, or check a YAML file.",
    ),
    "run": ("cmd_run", "run_command", "Play a scripted game: a transcript with parts left out."),
    "simulate": (
        "cmd_simulate",
        "simulate_command",
        "Play bots against each other and report wins, points, contracts, nils, bags and decision "
        "times, with 95% confidence intervals.",
    ),
    "stats": (
        "cmd_stats",
        "stats_command",
        "Statistics across games: wins and losses, bid accuracy (made, set, over/under), nils and "
        "blind / double nils tried and made, bags and penalties, points per hand.",
    ),
}


class SpadesGroup(click.Group):
    """A click group with lazily imported commands that turns every SpadesError into one
    message and its exit code."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_COMMANDS)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().main(*args, **kwargs)
        except OSError as exc:  # the top-level --help or --version into a full output
            if not _output_failed(exc):
                raise
            _cannot_write(exc)
            sys.exit(EXIT_ILLEGAL)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        where = _COMMANDS.get(cmd_name)
        if where is None:
            return None
        module = importlib.import_module(f"spades_cli.cli.{where[0]}")
        command: click.Command = getattr(module, where[1])
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list of ``spades --help``, from the table: no command is imported."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        # A bare Command shortens the text exactly as click does for the real one.
        rows = [
            (name, click.Command(name, help=_COMMANDS[name][2]).get_short_help_str(limit)) for name in names
        ]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name, command, rest = super().resolve_command(ctx, args)
        if command is not None:
            check_text_arguments(command, rest)
        return name, command, rest

    def invoke(self, ctx: click.Context) -> Any:
        i18n.use()  # the environment's language; a command's --lang chooses another
        try:
            # SIGTERM and SIGHUP end any command in one line, not silently; a game sets
            # handlers of its own inside, which save it first.
            with on_signals(raise_stopped):
                result = super().invoke(ctx)
            sys.stdout.flush()  # a full or broken output shows here, not at exit
            return result
        except SpadesError as exc:
            click.echo(f"spades: {exc}" if "\n" not in str(exc) else str(exc), err=True)
            ctx.exit(exc.exit_code)
        except Interrupted as exc:
            with contextlib.suppress(OSError):  # after SIGHUP the terminal may be gone
                saved = "; the game is saved" if exc.saved else ""
                click.echo(f"\nspades: stopped by signal {exc.signum}{saved}", err=True)
            ctx.exit(exc.exit_code)
        except KeyboardInterrupt:
            click.echo("\nspades: interrupted", err=True)
            ctx.exit(EXIT_INTERRUPTED)
        except BrokenPipeError:  # the reader of the output went away (``| head``): quietly
            sys.stderr.close()
            ctx.exit(EXIT_ILLEGAL)
        except OSError as exc:
            if not _output_failed(exc):
                raise
            _cannot_write(exc)
            ctx.exit(EXIT_ILLEGAL)


def _cannot_write(exc: OSError) -> None:
    what = "disk full" if exc.errno == errno.ENOSPC else (exc.strerror or str(exc)).lower()
    with contextlib.suppress(OSError):
        click.echo(f"spades: cannot write the output: {what}", err=True)


# Options whose values are file names: any bytes the system allows. Every other value is
# text that may end up in a transcript or a message, so it must be UTF-8.
_PATH_OPTIONS = frozenset({"-o", "--transcript", "--transcripts"})


def check_text_arguments(command: click.Command, args: list[str]) -> None:
    """UsageError naming the option whose value is not UTF-8 text (on POSIX, bytes that are
    not UTF-8 reach Python as lone surrogates); file names are left as they are."""
    options: dict[str, click.Option] = {}
    for param in command.params:
        if isinstance(param, click.Option):
            options.update(dict.fromkeys([*param.opts, *param.secondary_opts], param))
    i = 0
    while i < len(args) and args[i] != "--":
        name, eq, value = args[i].partition("=")
        option = options.get(name) if args[i].startswith("-") else None
        if option is not None and not option.is_flag and not option.count:
            if not eq:
                i += 1
                value = args[i] if i < len(args) else ""
            if name not in _PATH_OPTIONS and not isinstance(option.type, click.Path) and not _is_text(value):
                raise UsageError(f"{name}: not UTF-8 text (write the value in UTF-8)")
        i += 1


def _is_text(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _output_failed(exc: OSError) -> bool:
    """Whether ``exc`` is the output that cannot be written (a full disk, /dev/full): the
    transcript and the programs' logs report their own failures, so what reaches here is
    standard output. It is then pointed at the null device, so nothing fails again at exit."""
    if exc.errno not in _WRITE_ERRORS:
        return False
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass
    return True


_WRITE_ERRORS = frozenset({errno.ENOSPC, errno.EFBIG, errno.EIO, getattr(errno, "EDQUOT", errno.ENOSPC)})


@click.group(cls=SpadesGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="spades")
def main() -> None:
    """Spades at the command line: the two-player draft game and four-player partnership Spades."""
