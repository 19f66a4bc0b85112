"""Bot benchmark: decision times per level and the strength targets of issue 5.

    python bench/bots.py --times              # decision times only (a minute or two)
    python bench/bots.py --quick              # times + small strength runs (a few minutes)
    python bench/bots.py                      # the full targets (an hour or more on 2 cores)

Strength runs use ``spades_cli.simulate`` (the same code as ``spades simulate``):

* full games, 2 x 100 by default (each deal played twice with the sides' seats
  exchanged), both presets: hard's win rate against normal (target >= 60%) and normal's
  against easy (target >= 90%), with 95% confidence intervals;
* from the same runs, the points per deal of the duplicate pairs (four players: at least
  400 deals; target: normal - easy and hard - normal both above zero).

Decision times are measured in this one process on positions from games played by the
normal bot (targets: hard median <= 0.2 s and max <= 1 s; normal and easy under 5 ms).
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time

from common import build_line

from spades_cli.bots import LEVELS, make_bot
from spades_cli.engine import CHANCE, DEAL, Observation, Rules, State, deck_for, draw_for, rng_for
from spades_cli.presets import load_rules
from spades_cli.simulate import Summary, run_tournament, wilson


def positions(rules: Rules, count: int, seed: int) -> list[Observation]:
    """Observations of the seat on turn, from games played by the normal bot."""
    bot = make_bot("normal")
    out: list[Observation] = []
    game = 0
    while len(out) < count:
        state = State(rules, game % rules.players)
        draws = 0
        while not state.is_terminal() and len(state.results) < 3 and len(out) < count:
            seat = state.current_player()
            if seat == CHANCE:
                if state.phase == DEAL:
                    state.deal(deck_for(f"{seed}-{game}", state.hand_no))
                    draws = 0
                else:
                    state.apply(draw_for(seed, state.hand_no, draws, state.legal_actions()))
                    draws += 1
                continue
            obs = state.observation(seat)
            if len(obs.legal) > 1:
                out.append(obs)
            state.apply(bot.act(obs, rules, rng_for(seed, game, len(state.history))))
        game += 1
    return out


def time_levels(samples: dict[str, int]) -> None:
    print("decision time per level (one process, positions with a choice):")
    print(f"  {'level':<7} {'preset':<12} {'n':>5} {'median':>10} {'mean':>10} {'p95':>10} {'max':>10}")
    for name in ("four-player", "two-player"):
        rules = load_rules(name)
        for level in LEVELS:
            n = samples[level]
            obs_list = positions(rules, n, seed=7)
            bot = make_bot(level)
            bot.act(obs_list[0], rules, rng_for(0, "warm"))  # imports and caches
            # The harness's own objects need not be scanned by the collector while timing.
            gc.collect()
            gc.freeze()
            by_phase: dict[str, list[float]] = {}
            for i, obs in enumerate(obs_list):
                t0 = time.perf_counter()
                bot.act(obs, rules, rng_for(1, "bench", i))
                by_phase.setdefault(obs.phase, []).append(time.perf_counter() - t0)
            gc.unfreeze()
            _row(level, name, [t for ts in by_phase.values() for t in ts])
            if level == "hard":
                for phase in ("bid", "play"):
                    if phase in by_phase:
                        _row(f"  {phase}", name, by_phase[phase])


def _row(level: str, name: str, times: list[float]) -> None:
    times = sorted(times)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    print(
        f"  {level:<7} {name:<12} {len(times):>5} {_ms(statistics.median(times))} "
        f"{_ms(statistics.fmean(times))} {_ms(p95)} {_ms(times[-1])}"
    )


def _ms(seconds: float) -> str:
    return f"{1000 * seconds:8.2f}ms"


def _line(title: str, s: Summary) -> None:
    a, b = s.team_names
    win = s.totals.teams[0]
    w = wilson(win.wins, win.games)
    d = s.diff
    print(
        f"  {title:<44} {a} wins {win.wins}/{win.games} = {100 * w.value:.1f}% "
        f"[{100 * w.low:.1f}, {100 * w.high:.1f}]; points/{'deal' if s.tournament.duplicate else 'hand'} "
        f"{a} - {b} = {d.value:+.1f} [{d.low:+.1f}, {d.high:+.1f}] (n={s.totals.diff_n})"
        + (f"; {s.totals.capped} capped" if s.totals.capped else "")
    )
    sys.stdout.flush()


def strength(games: int, jobs: int, seed: int) -> None:
    print(f"strength ({jobs} worker processes; every game played twice, seats exchanged):")
    for name in ("four-player", "two-player"):
        rules = load_rules(name)
        for hi, lo in (("normal", "easy"), ("hard", "normal")):
            labels = (hi, lo, hi, lo) if rules.players == 4 else (hi, lo)
            t0 = time.perf_counter()
            s = run_tournament(rules, labels, games, seed, jobs=jobs, duplicate=True)
            _line(f"{name} {hi} vs {lo} ({2 * games} games)", s)
            print(f"    ({time.perf_counter() - t0:.0f} s)")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--times", action="store_true", help="decision times only")
    p.add_argument("--quick", action="store_true", help="small strength runs")
    p.add_argument("--games", type=int, default=100, help="games per copy (x2 with seats exchanged)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--seed", type=int, default=2024)
    args = p.parse_args()
    print(build_line())
    samples = {"easy": 2000, "normal": 2000, "hard": 300}
    if args.quick:
        samples = {"easy": 500, "normal": 500, "hard": 60}
    time_levels(samples)
    if args.times:
        return
    strength(args.games if not args.quick else 4, args.jobs, args.seed)


if __name__ == "__main__":
    main()
