"""Replay takes each kind of transcript line by one handler, found by the line's type."""

from __future__ import annotations

import importlib
from typing import get_args

from spades_cli.transcript.syntax import Line


def test_every_kind_of_line_has_its_handler() -> None:
    replay = importlib.import_module("spades_cli.transcript.replay")
    assert set(replay._BY_KIND) == set(get_args(Line))
