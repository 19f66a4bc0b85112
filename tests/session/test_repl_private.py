"""The prompt's signal handling and history file (issues: SIG_IGN respected; history private and bounded)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from spades_cli.repl.prompt import HISTORY_LINES, open_history
from spades_cli.repl.signals import held_signals


def test_an_inherited_ignored_sigint_stays_ignored() -> None:
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with held_signals() as caught:
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
            os.kill(os.getpid(), signal.SIGINT)
        assert not caught.interrupted
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)


def test_sigint_is_held_and_noted_when_not_ignored() -> None:
    with held_signals() as caught:
        os.kill(os.getpid(), signal.SIGINT)
    assert caught.interrupted


def test_history_file_is_private_whatever_the_umask(tmp_path: Path) -> None:
    path = tmp_path / "history"
    old = os.umask(0)
    try:
        open_history(path)
    finally:
        os.umask(old)
    assert path.stat().st_mode & 0o777 == 0o600


def test_history_keeps_the_documented_number_of_lines(tmp_path: Path) -> None:
    path = tmp_path / "history"
    path.write_text("".join(f"\n# 2026-01-01\n+line {i}\n" for i in range(HISTORY_LINES + 40)))
    history = open_history(path)
    kept = list(history.load_history_strings())
    assert len(kept) == HISTORY_LINES
    assert kept[0] == f"line {HISTORY_LINES + 39}"  # newest first; the oldest were dropped
    assert path.stat().st_mode & 0o777 == 0o600
