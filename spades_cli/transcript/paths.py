"""Where transcripts go, what new ones are called, and fresh seeds."""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Iterator
from pathlib import Path

from spades_cli.errors import UsageError

__all__ = ["default_transcript_dir", "new_seed", "new_transcript_path"]


def default_transcript_dir() -> Path:
    """``$SPADES_HOME/transcripts``, else ``$XDG_DATA_HOME/spades/transcripts``, else
    ``~/.local/share/spades/transcripts``."""
    home = os.environ.get("SPADES_HOME")
    if home:
        return Path(home) / "transcripts"
    xdg = os.environ.get("XDG_DATA_HOME")
    if xdg:
        return Path(xdg) / "spades" / "transcripts"
    return Path.home() / ".local" / "share" / "spades" / "transcripts"


_SAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def new_transcript_path(seed: str, folder: Path | None = None) -> Iterator[Path]:
    """Candidate file names ``game-<seed>-<n>.txt`` in the default folder (created if needed);
    open each with exclusive creation and take the first that does not exist yet."""
    where = folder if folder is not None else default_transcript_dir()
    try:
        where.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"{where}: cannot create the transcript folder: {exc.strerror or exc}") from None
    stem = _SAFE.sub("_", seed)[:40].strip("._") or "game"
    n = 1
    while True:
        yield where / f"game-{stem}-{n}.txt"
        n += 1


def new_seed() -> str:
    """A fresh seed for a game that was given none (recorded in its transcript)."""
    # 64 bits: an external bot must not be able to find the seed (and so every
    # deal) by trying seeds against its own cards.
    return str(secrets.randbits(64))
