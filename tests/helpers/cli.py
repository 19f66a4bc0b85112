"""The ``spades`` command run in-process."""

from __future__ import annotations

from collections.abc import Sequence

from click.testing import CliRunner, Result

from spades_cli.cli.main import main


def run_cli(args: Sequence[str], input: str | None = None) -> Result:
    """Run ``spades ARGS`` in-process (exceptions are caught and left in ``result.exception``)."""
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=True)
