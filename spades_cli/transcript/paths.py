"""Where transcripts go, what new ones are called, and fresh seeds.

The data folder and everything in it is private: folders are created 0700 and files 0600
whatever the umask (a transcript in progress holds the whole deck).
"""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Iterable, Iterator
from pathlib import Path

from spades_cli.errors import UsageError

__all__ = [
    "PRIVATE_FOLDER",
    "default_transcript_dir",
    "new_seed",
    "new_transcript_path",
    "private_folder",
    "transcript_files",
]

PRIVATE_FOLDER = 0o700


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


def private_folder(where: str | os.PathLike[str]) -> Path:
    """Create ``where`` and its missing parents, each readable only by the user (0700 whatever
    the umask); folders that exist are left as they are. OSError if it cannot be made."""
    target = Path(where)
    missing: list[Path] = []
    at = target
    while not at.is_dir() and at != at.parent:
        missing.append(at)
        at = at.parent
    for folder in reversed(missing):
        try:
            os.mkdir(folder, PRIVATE_FOLDER)
        except FileExistsError:
            if folder.is_dir():
                continue
            raise
        os.chmod(folder, PRIVATE_FOLDER)  # the umask may have taken some of the owner's bits
    return target


_SAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def new_transcript_path(seed: str, folder: Path | None = None) -> Iterator[Path]:
    """Candidate file names ``game-<seed>-<n>.txt`` in the default folder (created if needed);
    open each with exclusive creation and take the first that does not exist yet."""
    where = folder if folder is not None else default_transcript_dir()
    try:
        private_folder(where)
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


def transcript_files(paths: Iterable[str]) -> Iterator[Path]:
    """Every ``*.txt`` file in the folders given (not their subfolders), and the files given."""
    for p in paths:
        path = Path(p)
        if path.is_dir():
            yield from sorted(f for f in path.glob("*.txt") if f.is_file())
        else:
            yield path
