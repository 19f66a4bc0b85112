"""Standard input as the commands read it (a module of its own, so that ``spades bot``,
which starts once per seat, loads nothing more for it)."""

from __future__ import annotations

import contextlib
import io
import sys
from typing import TextIO


def stdin_lines() -> TextIO:
    """stdin as UTF-8 text that never fails on other bytes (they become U+FFFD)."""
    stdin = sys.stdin
    if stdin is None:  # started with stdin closed: no input at all
        return io.StringIO("")
    if isinstance(stdin, io.TextIOWrapper):
        with contextlib.suppress(ValueError, OSError):
            stdin.reconfigure(encoding="utf-8", errors="replace")
    return stdin
