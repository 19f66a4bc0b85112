"""How fast ``spades replay`` verifies recorded games, against playing the same games.

For each preset it records GAMES games played by bots (``--bots``, default normal) to
transcript files, then times:

- **verify**: what ``spades replay FILE`` does without printing: read the file, parse it,
  rebuild the rules from its tags, replay every action through the engine with every check
  (legality, trick winners, hand results, scores, winner);
- **play**: the same games (the same seeds, so the same deals, and the same number of
  hands) played in the engine by random bots through the same Match loop.

It prints games per second for both and the ratio verify time / play time (target: at most
1.5). Run it with ``.venv/bin/python bench/replay.py [--games N] [--bots LEVEL]``.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import ParamSpec, TypeVar

from common import build_line

from spades_cli.app.setup import RulesChoice, make_controller, open_transcript
from spades_cli.game.match import Match
from spades_cli.game.run import GameRun
from spades_cli.game.seats import RandomController
from spades_cli.presets import load_rules
from spades_cli.transcript import parse_transcript, replay

TARGET = 1.5


def record(
    rules_name: str, seeds: list[str], bots: str, folder: Path, max_hands: int
) -> list[tuple[Path, int, int]]:
    """Play and record one game per seed (at most ``max_hands`` hands); (file, hands, actions)."""
    rules = load_rules(rules_name)
    out = []
    for seed in seeds:
        match = Match(rules, seed, [make_controller(bots, rules) for _ in range(rules.players)])
        path = folder / f"{rules_name}-{seed}.txt"
        choice = RulesChoice(rules, rules_name, ())
        seats = [c.label for c in match.controllers]
        writer = open_transcript(str(path), match, choice, seats=seats, exclusive=False)
        with GameRun(match, writer=writer, max_hands=max_hands) as run:
            run.play()
        out.append((path, len(match.state.results), len(match.state.history)))
    return out


def verify(paths: list[Path]) -> float:
    start = time.perf_counter()
    for path in paths:
        t = parse_transcript(path.read_bytes().decode("utf-8"), str(path))
        replay(t)
    return time.perf_counter() - start


def play_random(rules_name: str, games: list[tuple[str, int]]) -> tuple[float, int]:
    """Play each (seed, hands) game with random bots for that many hands; (seconds, actions)."""
    rules = load_rules(rules_name)
    actions = 0
    start = time.perf_counter()
    for seed, hands in games:
        match = Match(rules, seed, [RandomController() for _ in range(rules.players)])
        state = match.state
        while not match.finished and len(state.results) < hands:
            match.step()
            state = match.state
        actions += len(state.history)
    return time.perf_counter() - start, actions


P = ParamSpec("P")
R = TypeVar("R", float, tuple[float, int])  # seconds, or seconds and a count


def best_of(repeats: int, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    results = [fn(*args, **kwargs) for _ in range(repeats)]
    return min(results, key=lambda r: r[0] if isinstance(r, tuple) else r)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per preset (default 20)")
    parser.add_argument("--bots", default="normal", help="who plays the recorded games (default normal)")
    parser.add_argument("--repeats", type=int, default=3, help="timing repeats, best kept (default 3)")
    parser.add_argument("--max-hands", type=int, default=40, help="cap on the hands of a game (default 40)")
    args = parser.parse_args()
    print(build_line())
    print(
        f"bench/replay.py: {args.games} games per preset recorded by {args.bots} bots; best of {args.repeats}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for rules_name in ("four-player", "two-player"):
            seeds = [f"bench-{i}" for i in range(args.games)]
            recorded = record(rules_name, seeds, args.bots, Path(tmp), args.max_hands)
            paths = [p for p, _, _ in recorded]
            hands = sum(h for _, h, _ in recorded)
            actions = sum(a for _, _, a in recorded)
            size = sum(p.stat().st_size for p in paths)
            finished = sum(1 for p in paths if not p.read_text().endswith("end *\n"))
            verify_s = best_of(args.repeats, verify, paths)
            play_s, play_actions = best_of(
                args.repeats,
                play_random,
                rules_name,
                [(s, h) for s, (_, h, _) in zip(seeds, recorded, strict=True)],
            )
            n = len(paths)
            ratio = verify_s / play_s
            verdict = "ok" if ratio <= TARGET else "SLOWER THAN TARGET"
            print(
                f"\n{rules_name}: {n} games ({finished} finished, the rest cut at {args.max_hands} hands), "
                f"{hands / n:.1f} hands and {actions / n:.0f} actions per game,"
                f" {size / n / 1024:.1f} KiB each"
            )
            print(
                f"  verify (read + parse + check):   {n / verify_s:8.1f} games/s"
                f"  {actions / verify_s:10.0f} actions/s"
            )
            print(
                f"  play with random bots (engine):  {n / play_s:8.1f} games/s"
                f"  {play_actions / play_s:10.0f} actions/s"
            )
            print(f"  verify time / play time: {ratio:.2f}x (target <= {TARGET}x): {verdict}")


if __name__ == "__main__":
    main()
