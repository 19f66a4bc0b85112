"""The folders the tests read: the repository's own files and the tests' fixtures."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TRANSCRIPTS = ROOT / "transcripts"
FIXTURES = ROOT / "tests" / "fixtures"
# Bot programs the protocol tests start (declaring.py, misbehave.py).
BOT_PROGRAMS = FIXTURES / "bots"
