"""Computer opponents: ``easy``, ``normal``, ``hard`` and ``expert``.

Every bot decides from one seat's :class:`~spades_cli.engine.Observation` only (never
the engine's State), draws randomness only from the generator it is given (seeded by
the game's seed and the position), and keeps no memory between calls: the same
observation and generator give the same action, so resume, undo and the external bot
protocol work.
"""

from __future__ import annotations

import random
from typing import Protocol

from spades_cli.engine import Observation, Rules

LEVELS = ("easy", "normal", "hard", "expert")


class Bot(Protocol):
    level: str

    def act(self, obs: Observation, rules: Rules, rng: random.Random) -> int:
        """A legal action (one of ``obs.legal``)."""
        ...

    def explain(self, obs: Observation, rules: Rules, rng: random.Random) -> tuple[int, str]:
        """The action ``act`` would choose and one short reason (for the REPL's hint)."""
        ...


def make_bot(level: str) -> Bot:
    """A bot of the given level; ValueError for an unknown level."""
    key = level.strip().lower()
    if key == "easy":
        from spades_cli.bots.easy import EasyBot

        return EasyBot()
    if key == "normal":
        from spades_cli.bots.normal import NormalBot

        return NormalBot()
    if key == "hard":
        from spades_cli.bots.hard import HardBot

        return HardBot()
    if key == "expert":
        from spades_cli.bots.expert import ExpertBot

        return ExpertBot()
    raise ValueError(f"unknown bot level {level!r} (levels: {', '.join(LEVELS)})")


__all__ = ["LEVELS", "Bot", "make_bot"]
