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
# tables and tournaments) and `spades --version` start quickly.
_COMMANDS: dict[str, tuple[str, str]] = {
    "bot": ("cmd_bot", "bot_command"),
    "host": ("cmd_host", "host_command"),
    "join": ("cmd_join", "join_command"),
    "merge": ("cmd_merge", "merge_command"),
    "play": ("cmd_play", "play_command"),
    "replay": ("cmd_replay", "replay_command"),
    "resume": ("cmd_resume", "resume_command"),
    "rules": ("cmd_rules", "rules_group"),
    "run": ("cmd_run", "run_command"),
    "simulate": ("cmd_simulate", "simulate_command"),
    "stats": ("cmd_stats", "stats_command"),
    "games": ("cmd_games", "games_command"),
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
