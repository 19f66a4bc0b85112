"""Bot benchmark: decision times, and the gauntlet: each level against every outside
player we have and against the levels below it.

    python bench/bots.py --times                          # decision times only
    python bench/bots.py --games 40 --search-games 10     # a small gauntlet (hours on 2 cores)
    python bench/bots.py --levels normal --against trickster,classic --games 40
    python bench/bots.py --no-times --levels normal --presets two-player --seed 2025

It imports the *installed* package (``pip install .`` compiles the engine and the
solver), never the checkout beside it, and prints which build ran.

* Decision times per level (median and maximum; the hard and expert rows also by
  phase) in this one process, on positions from games played by the normal bot.
* The gauntlet with ``spades_cli.simulate`` (the code of ``spades simulate --duplicate``):
  for each level of ``--levels``, each opponent of ``--against`` (the levels below it,
  and the outside players), both presets: ``--games`` deals for normal and easy,
  ``--search-games`` for hard and expert, each played twice with the sides' seats
  exchanged; the win rate and the points per deal of the duplicate pairs, each with its
  95% confidence interval. The outside players speak the bot protocol:
  ``classic`` is ``bench/classic.py`` (written apart from the bots), ``trickster`` is the
  Trickster Cards bot at ``../shared/peers/trickster_spades_bot.py`` beside the project
  root (skipped, with a message, when it is not there). ``--transcripts DIR`` keeps every
  pairing's games and prints, after its figures, where the points went (``study.py``).
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import os
import statistics
import sys
import time

from common import build_line
from study import study

from spades_cli.bots import LEVELS, make_bot
from spades_cli.engine import BID, CHANCE, DEAL, PLAY, Observation, Rules, State, deck_for, draw_for, rng_for
from spades_cli.presets import load_rules
from spades_cli.simulate import Summary, run_tournament, wilson

HERE = os.path.dirname(os.path.abspath(__file__))


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


def near_the_target(rules: Rules, obs_list: list[Observation]) -> list[Observation]:
    """The bids of ``obs_list`` again, every side 20-140 points short of the target
    (a bid that may end the game weighs the race: the search bots' costliest bids)."""
    out = []
    for i, obs in enumerate(o for o in obs_list if o.phase == BID):
        scores = tuple(rules.target - 20 - (37 * i + 53 * k) % 121 for k in range(len(obs.scores)))
        out.append(dataclasses.replace(obs, scores=scores))
    return out


def time_levels(samples: dict[str, int], levels: list[str]) -> None:
    print("decision time per level (one process, positions with a choice; wall clock, and the")
    print("process's own CPU time, which the machine's other jobs do not stretch):")
    print(
        f"  {'level':<7} {'preset':<12} {'n':>5} {'median':>10} {'mean':>10} {'p95':>10} {'max':>10}"
        f" {'cpu median':>11} {'cpu max':>10}"
    )
    for name in ("four-player", "two-player"):
        rules = load_rules(name)
        for level in (lv for lv in LEVELS if lv in levels):
            n = samples[level]
            obs_list = positions(rules, n, seed=7)
            if level in ("hard", "expert"):
                obs_list += near_the_target(rules, obs_list)
            bot = make_bot(level)
            bot.act(obs_list[0], rules, rng_for(0, "warm"))  # imports and caches
            # The harness's own objects need not be scanned by the collector while timing.
            gc.collect()
            gc.freeze()
            by_phase: dict[str, list[tuple[float, float]]] = {}
            for i, obs in enumerate(obs_list):
                t0, c0 = time.perf_counter(), time.thread_time()
                bot.act(obs, rules, rng_for(1, "bench", i))
                spent = (time.perf_counter() - t0, time.thread_time() - c0)
                by_phase.setdefault(_kind(obs, rules), []).append(spent)
            gc.unfreeze()
            _row(level, name, [t for ts in by_phase.values() for t in ts])
            if level in ("hard", "expert"):
                for phase in ("bid", "bid-end", "play", "play-end"):
                    if phase in by_phase:
                        _row(f"  {phase}", name, by_phase[phase])


def _kind(obs: Observation, rules: Rules) -> str:
    """The phase, and for a bid near the target or a card of the last six tricks (the
    expert's solved endings) a row of its own."""
    if obs.phase == BID and max(obs.scores) >= rules.target - 150:
        return "bid-end"
    if obs.phase == PLAY and rules.hand_size - len(obs.tricks) <= 6:
        return "play-end"
    return str(obs.phase)


def _row(level: str, name: str, spent: list[tuple[float, float]]) -> None:
    times = sorted(w for w, _ in spent)
    cpu = sorted(c for _, c in spent)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    print(
        f"  {level:<7} {name:<12} {len(times):>5} {_ms(statistics.median(times))} "
        f"{_ms(statistics.fmean(times))} {_ms(p95)} {_ms(times[-1])} "
        f"{_ms(statistics.median(cpu)):>11} {_ms(cpu[-1])}"
    )


def _ms(seconds: float) -> str:
    return f"{1000 * seconds:8.2f}ms"


def _line(title: str, s: Summary, them: str) -> None:
    a, b = s.team_names[0], them
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


OUTSIDE = ("classic", "trickster")


def outside_players() -> dict[str, str]:
    """The outside players found, as ``cmd:`` seat labels; a message for each one missing."""
    root = os.path.dirname(HERE)
    paths = {
        "classic": os.path.join(HERE, "classic.py"),
        "trickster": os.path.join(root, "..", "shared", "peers", "trickster_spades_bot.py"),
    }
    found = {}
    for name, path in paths.items():
        if os.path.exists(path):
            found[name] = f"cmd:{sys.executable} {os.path.normpath(path)}"
        else:
            print(f"  ({name} skipped: {os.path.normpath(path)} is not there)")
    return found


def strength(
    levels: list[str],
    against: list[str],
    games: dict[str, int],
    jobs: int,
    seed: int,
    folder: str | None,
    presets: list[str],
) -> None:
    print(f"gauntlet ({jobs} worker processes; every deal played twice, seats exchanged):")
    outside = outside_players()
    for name in presets:
        rules = load_rules(name)
        for hi in levels:
            below = [lo for lo in LEVELS[: LEVELS.index(hi)] if lo in against]
            rivals = [*below, *(o for o in OUTSIDE if o in against and o in outside)]
            for lo in rivals:
                seat = outside.get(lo, lo)
                labels = (hi, seat, hi, seat) if rules.players == 4 else (hi, seat)
                t0 = time.perf_counter()
                where = os.path.join(folder, f"{name}-{hi}-vs-{lo}") if folder else None
                if where:
                    os.makedirs(where, exist_ok=True)
                s = run_tournament(
                    rules, labels, games[hi], seed, jobs=jobs, duplicate=True, transcript_dir=where
                )
                _line(f"{name} {hi} vs {lo} ({2 * games[hi]} games)", s, lo)
                print(f"    ({time.perf_counter() - t0:.0f} s)")
                if where:
                    study(where, hi)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--times", action="store_true", help="decision times only")
    p.add_argument("--no-times", action="store_true", help="the gauntlet only")
    p.add_argument("--games", type=int, default=100, help="deals per pairing for easy and normal (x2)")
    p.add_argument("--search-games", type=int, default=25, help="deals per pairing for hard and expert (x2)")
    p.add_argument("--levels", default="normal,hard,expert", help="the levels measured (comma-separated)")
    p.add_argument(
        "--against",
        default=",".join((*LEVELS, *OUTSIDE)),
        help="their opponents: levels below them and outside players (classic, trickster)",
    )
    p.add_argument("--samples", type=int, default=300, help="positions timed per search level")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--seed", type=int, default=2024)
    p.add_argument("--presets", default="four-player,two-player", help="the presets played (comma-separated)")
    p.add_argument(
        "--transcripts",
        metavar="DIR",
        help="keep each pairing's games in DIR/PRESET-LEVEL-vs-OPPONENT; print where the points went",
    )
    args = p.parse_args()
    print(build_line())
    if not args.no_times:
        quick = max(args.samples, 1)
        levels = [lv for lv in args.levels.split(",") if lv] if args.times else list(LEVELS)
        time_levels({"easy": 2000, "normal": 2000, "hard": quick, "expert": quick}, levels)
    if args.times:
        return
    games = {lv: args.games if lv in ("easy", "normal") else args.search_games for lv in LEVELS}
    levels = [lv for lv in args.levels.split(",") if lv]
    against = [a for a in args.against.split(",") if a]
    presets = [p for p in args.presets.split(",") if p]
    strength(levels, against, games, args.jobs, args.seed, args.transcripts, presets)


if __name__ == "__main__":
    main()
