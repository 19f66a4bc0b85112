"""Shared fixtures.

- Every test session records games into a private temporary folder (``SPADES_HOME``), never
  into the user's real transcripts folder.
- ``cli`` runs the ``spades`` command in-process and returns click's Result
  (``exit_code``, ``stdout``, ``stderr``, ``exception``).
- The header names the ``spades_cli`` under test: the installed package, never the source
  tree by accident (only ``tests/`` is on ``sys.path``).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator

import pytest
from click.testing import Result
from helpers.cli import run_cli

import spades_cli
from spades_cli.engine import compiled


def pytest_report_header() -> str:
    return f"spades_cli: {os.path.dirname(spades_cli.__file__)} (engine compiled with mypyc: {compiled()})"


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


@pytest.fixture
def cli() -> Callable[..., Result]:
    return run_cli
