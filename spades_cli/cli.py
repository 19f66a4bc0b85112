"""The ``spades`` command: a thin click layer that builds games and maps errors to exit codes.

Each command group lives in its own ``cmd_*`` module and is registered here.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

from spades_cli import __version__
from spades_cli.errors import EXIT_INTERRUPTED, EXIT_USAGE, Interrupted, SpadesError

# Commands are imported only when used, so that `spades bot` (started once per seat by
# tables and tournaments), `spades --help` and `spades --version` start quickly. Each entry
# is the command's module, its attribute and its short help (the first sentence of its
# docstring, which `spades --help` lists; tests/test_cli_startup.py keeps them equal).
_COMMANDS: dict[str, tuple[str, str, str]] = {
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

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        where = _COMMANDS.get(cmd_name)
        if where is None:
            return None
        module = importlib.import_module(f"spades_cli.{where[0]}")
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

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except SpadesError as exc:
            click.echo(f"spades: {exc}" if "\n" not in str(exc) else str(exc), err=True)
            ctx.exit(exc.exit_code)
        except Interrupted as exc:
            click.echo(f"\nspades: stopped by signal {exc.signum}; the game is saved", err=True)
            ctx.exit(exc.exit_code)
        except KeyboardInterrupt:
            click.echo("\nspades: interrupted", err=True)
            ctx.exit(EXIT_INTERRUPTED)
        except BrokenPipeError:
            sys.stderr.close()
            ctx.exit(EXIT_USAGE)


@click.group(cls=SpadesGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="spades")
def main() -> None:
    """Spades at the command line: the two-player draft game and four-player partnership Spades."""
