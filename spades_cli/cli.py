"""The ``spades`` command: a thin click layer that builds games and maps errors to exit codes.

Each command group lives in its own ``cmd_*`` module and is registered here.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from spades_cli import __version__
from spades_cli.errors import EXIT_INTERRUPTED, EXIT_USAGE, SpadesError


class SpadesGroup(click.Group):
    """A click group that turns every SpadesError into one message and its exit code."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except SpadesError as exc:
            click.echo(f"spades: {exc}" if "\n" not in str(exc) else str(exc), err=True)
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


def _register() -> None:
    import importlib

    for module in ("cmd_rules", "cmd_game", "cmd_play", "cmd_simulate", "cmd_bot"):
        try:
            mod = importlib.import_module(f"spades_cli.{module}")
        except ModuleNotFoundError as exc:
            if exc.name != f"spades_cli.{module}":
                raise
            continue
        mod.register(main)


_register()
