"""A bot that always declares double / blind nil and otherwise plays like a built-in bot.

    python declaring.py LEVEL

Run as a program it speaks the bot protocol (``spades_cli.protocol.serve``); the tests
also use the ``Declaring`` class in-process, to compare the two (R-2P-3 exchanges).
"""

from __future__ import annotations

import random
import sys

from spades_cli.bots import make_bot
from spades_cli.engine import BLIND, Observation, Rules
from spades_cli.protocol import serve


class Declaring:
    level = "declaring"

    def __init__(self, level: str) -> None:
        self.inner = make_bot(level)

    def act(self, obs: Observation, rules: Rules, rng: random.Random) -> int:
        return self.explain(obs, rules, rng)[0]

    def explain(self, obs: Observation, rules: Rules, rng: random.Random) -> tuple[int, str]:
        if BLIND in obs.legal:
            return BLIND, "always declares"
        return self.inner.explain(obs, rules, rng)


if __name__ == "__main__":
    serve(Declaring(sys.argv[1]), sys.stdin, sys.stdout, name=f"declaring {sys.argv[1]}")
