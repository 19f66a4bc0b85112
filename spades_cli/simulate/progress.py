"""Progress of a tournament on stderr: a bar on a terminal, else a line every tenth of the way."""

from __future__ import annotations

import sys
import time
from typing import TextIO

WIDTH = 30


def _clock(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


class ProgressBar:
    """Called with (games played, games in this run), or other ``unit``s done; ``close``
    ends the bar's line, ``clear`` wipes it (other output follows, the bar comes back at
    the next call)."""

    def __init__(self, enabled: bool, stream: TextIO | None = None, unit: str = "games") -> None:
        self.enabled = enabled
        self.unit = unit
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty()
        self.started = time.monotonic()
        self.next_mark = 0.1
        self.drawn = False

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total <= 0:
            return
        if self.tty:
            elapsed = time.monotonic() - self.started
            left = elapsed / done * (total - done) if done else 0.0
            fill = WIDTH * done // total
            bar = "#" * fill + "-" * (WIDTH - fill)
            self.stream.write(
                f"\r{self.unit} {done}/{total} [{bar}] elapsed {_clock(elapsed)}, left about {_clock(left)} "
            )
            self.stream.flush()
            self.drawn = True
        elif done >= total or done >= self.next_mark * total:
            self.stream.write(f"simulate: {done}/{total} {self.unit}\n")
            self.stream.flush()
            while self.next_mark * total <= done:
                self.next_mark += 0.1

    def clear(self) -> None:
        if self.drawn:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.drawn = False

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
            self.drawn = False
