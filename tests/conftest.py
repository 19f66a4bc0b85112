"""Shared fixtures.

- Every test session records games into a private temporary folder (``SPADES_HOME``), never
  into the user's real transcripts folder.
- ``cli`` runs the ``spades`` command in-process and returns click's Result
  (``exit_code``, ``stdout``, ``stderr``, ``exception``).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from spades_cli.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
TRANSCRIPTS = ROOT / "transcripts"


@pytest.fixture(scope="session", autouse=True)
def _private_spades_home() -> Iterator[str]:
    old = os.environ.get("SPADES_HOME")
    with tempfile.TemporaryDirectory(prefix="spades-home-") as home:
        os.environ["SPADES_HOME"] = home
        try:
            yield home
        finally:
            if old is None:
                os.environ.pop("SPADES_HOME", None)
            else:
                os.environ["SPADES_HOME"] = old


def run_cli(args: Sequence[str], input: str | None = None) -> Result:
    """Run ``spades ARGS`` in-process (exceptions are caught and left in ``result.exception``)."""
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=True)


@pytest.fixture
def cli() -> Callable[..., Result]:
    return run_cli
