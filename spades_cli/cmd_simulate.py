"""``spades simulate``: bot tournaments with confidence intervals.

Every seat not named with ``--seat`` is played by the normal bot. Games run in worker
processes (``--jobs``); each game's seed comes from ``--seed`` and its number, so the
results are the same whatever the number of workers.
"""

from __future__ import annotations

import json
import os
import secrets
import sys

import click

from spades_cli.cli_options import bot_options, rules_options
from spades_cli.errors import EXIT_ILLEGAL, UsageError
from spades_cli.presets import load_rules
from spades_cli.simulate import MAX_HANDS, format_summary, run_tournament

DEFAULT_LEVEL = "normal"


class _Progress:
    """A progress bar on stderr; plain lines every tenth of the way when not a terminal."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total = total
        self.enabled = enabled
        self.tty = sys.stderr.isatty()
        self.bar: object | None = None
        self.done = 0
        self.next_mark = 0.1
        if enabled and self.tty:
            self.bar = click.progressbar(length=total, label="games", file=sys.stderr, show_pos=True)
            self.bar.__enter__()

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        step = done - self.done
        self.done = done
        if self.bar is not None:
            self.bar.update(step)  # type: ignore[attr-defined]
        elif done >= total or done >= self.next_mark * total:
            click.echo(f"simulate: {done}/{total} games", err=True)
            while self.next_mark * total <= done:
                self.next_mark += 0.1

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)  # type: ignore[attr-defined]
            self.bar = None


@click.command("simulate")
@click.option("--games", "-n", type=int, default=100, show_default=True, help="Games to play (per copy).")
@rules_options
@click.option(
    "--seat",
    "seats",
    multiple=True,
    metavar="SEAT=LEVEL",
    help="Who plays a seat: easy, normal, hard, random or cmd:PROGRAM (repeatable; default normal).",
)
@click.option("--jobs", "-j", type=int, default=None, help="Worker processes [default: number of CPUs].")
@click.option(
    "--seed",
    type=int,
    default=None,
    help="Tournament seed; the games' seeds follow from it (default: a fresh random one, printed "
    "with the results, so that a program at the table cannot guess the deals).",
)
@click.option("--duplicate", is_flag=True, help="Play every deal twice with the sides' seats exchanged.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as one JSON object.")
@click.option(
    "--max-hands",
    type=int,
    default=MAX_HANDS,
    show_default=True,
    help="Stop a game without a winner after this many hands (reported).",
)
@click.option(
    "--transcripts", "transcript_dir", metavar="DIR", default=None, help="Save every game's transcript here."
)
@click.option("--quiet", "-q", is_flag=True, help="No progress output on stderr.")
@bot_options
def simulate_command(
    games: int,
    rules: str,
    overrides: tuple[str, ...],
    seats: tuple[str, ...],
    jobs: int | None,
    seed: int | None,
    duplicate: bool,
    as_json: bool,
    max_hands: int,
    transcript_dir: str | None,
    quiet: bool,
    bot_timeout: float,
    on_bot_failure: str | None,
) -> None:
    """Play bots against each other and report wins, points, contracts, nils, bags and
    decision times, with 95% confidence intervals.

    \b
    Examples:
      spades simulate --games 200 --seat N=hard --seat S=hard
      spades simulate --rules two-player --games 200 --seat N=normal --seat S=easy --duplicate
    """
    from spades_cli.cmd_game import check_bot_timeout
    from spades_cli.seats import parse_seat_specs

    check_bot_timeout(bot_timeout)

    if games < 1:
        raise UsageError(f"--games must be at least 1 (got {games})")
    if jobs is not None and jobs < 1:
        raise UsageError(f"--jobs must be at least 1 (got {jobs})")
    if max_hands < 1:
        raise UsageError(f"--max-hands must be at least 1 (got {max_hands})")
    if seed is None:
        seed = secrets.randbits(63)
    the_rules = load_rules(rules, overrides)
    chosen = parse_seat_specs(the_rules, seats, allow_human=False)
    labels = tuple(chosen.get(s, DEFAULT_LEVEL) for s in range(the_rules.players))
    if transcript_dir is not None:
        try:
            os.makedirs(transcript_dir, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"--transcripts {transcript_dir}: {exc.strerror or exc}") from None
    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    total = games * (2 if duplicate else 1)
    progress = _Progress(total, enabled=not quiet)
    try:
        summary = run_tournament(
            the_rules,
            labels,
            games,
            seed,
            jobs=workers,
            duplicate=duplicate,
            max_hands=max_hands,
            transcript_dir=transcript_dir,
            rules_source=rules,
            overrides=overrides,
            progress=progress,
            bot_timeout=bot_timeout,
            on_failure=on_bot_failure,
        )
    finally:
        progress.close()
    if as_json:
        click.echo(json.dumps(summary.to_json(), indent=2))
    else:
        click.echo(format_summary(summary))
    if any(r.terminated is not None for r in summary.records):
        sys.exit(EXIT_ILLEGAL)  # a cmd: bot failed and ended a game (reported above)
