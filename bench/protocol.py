"""What the bot protocol costs per decision: an external bot against the same bot in-process.

    python bench/protocol.py [--preset four-player] [--level normal] [--games 3] [--repeat 3]

Plays the same games (same seeds) twice: with the built-in bot in every seat in-process,
and with a ``spades bot --level LEVEL`` process in every seat (started before the clock
runs). Both give the same actions, so the difference in time per decision is the
protocol's overhead: writing the request, the pipes, reading it back on the bot side,
the answer and its check. It also times the table's request writer and the bot side's
reader alone. Best of ``--repeat`` runs. Target: under 1 ms of overhead per decision.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from collections.abc import Sequence

from common import build_line

from spades_cli.game.match import Controller, Match
from spades_cli.game.run import GameRun
from spades_cli.game.seats import BotController
from spades_cli.presets import load_rules
from spades_cli.protocol import (
    ExternalController,
    RequestCache,
    format_request,
    parse_request,
    rules_lines,
)


class _Count:
    """Wraps a controller and counts its decisions."""

    def __init__(self, inner: Controller) -> None:
        self.inner = inner
        self.label = inner.label
        self.count = 0

    def decide(self, match: Match, seat: int) -> int:
        self.count += 1
        return self.inner.decide(match, seat)


MAX_ACTIONS = 5000  # a game of bots that cannot finish stops here


def run_games(
    rules_name: str, seeds: list[str], controllers: Sequence[Controller]
) -> tuple[float, int, list[list[int]]]:
    """Seconds spent in the games, decisions taken, and each game's actions."""
    rules = load_rules(rules_name)
    elapsed = 0.0
    decisions = 0
    histories = []
    for seed in seeds:
        counted = [_Count(c) for c in controllers]
        match = Match(rules, seed, counted)
        start = time.perf_counter()
        GameRun(match).play(max_actions=MAX_ACTIONS)
        elapsed += time.perf_counter() - start
        decisions += sum(c.count for c in counted)
        histories.append(list(match.state.history))
    return elapsed, decisions, histories


def codec_cost(rules_name: str, seed: str, level: str) -> tuple[float, float, int, float]:
    """Microseconds per decision to write a request (table) and to read it (bot side)."""
    rules = load_rules(rules_name)
    samples = []

    class Keep:
        label = level

        def __init__(self) -> None:
            self.inner = BotController(level)

        def decide(self, match: Match, seat: int) -> int:
            samples.append((match.observation(seat), match.rng_key("bot", seat)))
            return self.inner.decide(match, seat)

    GameRun(Match(rules, seed, [Keep() for _ in range(rules.players)])).play(max_actions=MAX_ACTIONS)
    text = "\n".join(rules_lines(rules))
    best_write = best_read = float("inf")
    size = 0
    for _ in range(3):
        start = time.perf_counter()
        requests = [format_request(obs, rules, key, rules_text=text) for obs, key in samples]
        best_write = min(best_write, time.perf_counter() - start)
        cache = RequestCache()
        start = time.perf_counter()
        for request in requests:
            parse_request(request.split("\n"), cache=cache)
        best_read = min(best_read, time.perf_counter() - start)
        size = sum(len(r) for r in requests)
    n = len(samples)
    return best_write / n * 1e6, best_read / n * 1e6, n, size / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="four-player")
    parser.add_argument("--level", default="normal", choices=["easy", "normal", "hard"])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(build_line())
    seeds = [f"bench-{i}" for i in range(args.games)]
    command = f"{shlex.quote(sys.executable)} -m spades_cli bot --level {args.level}"
    rules = load_rules(args.preset)
    programs = [ExternalController(command, rules, timeout=60.0) for _ in range(rules.players)]
    for program in programs:
        program.start()
    best_in = best_ext = float("inf")
    decisions = 0
    try:
        for _ in range(args.repeat):
            in_process = [BotController(args.level) for _ in range(rules.players)]
            t_in, n_in, h_in = run_games(args.preset, seeds, in_process)
            t_ext, n_ext, h_ext = run_games(args.preset, seeds, programs)
            if h_in != h_ext or n_in != n_ext:
                raise SystemExit("the external games differ from the in-process games")
            best_in, best_ext, decisions = min(best_in, t_in), min(best_ext, t_ext), n_in
    finally:
        for program in programs:
            program.close()
    per_in = best_in / decisions * 1e3
    per_ext = best_ext / decisions * 1e3
    write_us, read_us, _, size = codec_cost(args.preset, seeds[0], args.level)
    print(f"{args.preset}, {args.level} bot, {args.games} games, {decisions} decisions", end="")
    print(f" (best of {args.repeat})")
    print(f"  in-process          {per_in:8.3f} ms per decision")
    print(f"  external (protocol) {per_ext:8.3f} ms per decision")
    print(f"  protocol overhead   {per_ext - per_in:8.3f} ms per decision (target < 1 ms)")
    print(f"    request written   {write_us / 1e3:8.3f} ms ({size:.0f} bytes on average)")
    print(f"    request read      {read_us / 1e3:8.3f} ms (bot side)")
    print(f"    pipes, processes  {per_ext - per_in - (write_us + read_us) / 1e3:8.3f} ms (the rest)")


if __name__ == "__main__":
    main()
