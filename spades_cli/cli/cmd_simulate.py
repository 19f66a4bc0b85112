"""``spades simulate``: bot tournaments with confidence intervals.

Every seat not named with ``--seat`` is played by the ``--level`` bot (normal). Games run in
worker processes (``--jobs``) or on a Dask cluster (``--scheduler``); each game's seed comes from
``--seed`` and its number, so the results are the same however they are played, in one
run or in shards (``--shard K/N``, then ``spades merge``).
"""

from __future__ import annotations

import json
import secrets
import sys

import click

from spades_cli.cli.options import bot_options, level_option, rules_options
from spades_cli.errors import EXIT_ILLEGAL, UsageError
from spades_cli.presets import load_rules
from spades_cli.simulate import MAX_HANDS, Interrupted, Summary, format_summary, read_summary, run_tournament
from spades_cli.simulate.progress import ProgressBar
from spades_cli.simulate.report import check_summary_path, partial_path, write_summary
from spades_cli.simulate.runner import parse_shard
from spades_cli.transcript.paths import private_folder
from spades_cli.view.look import plural
from spades_cli.workers import default_workers


@click.command("simulate")
@click.option("--games", "-n", type=int, default=100, show_default=True, help="Games to play (per copy).")
@rules_options
@click.option(
    "--seat",
    "seats",
    multiple=True,
    metavar="SEAT=LEVEL",
    help="Who plays a seat: easy, normal, hard, expert, random or cmd:PROGRAM (repeatable; default --level).",
)
@level_option
@click.option("--jobs", "-j", type=int, default=None, help="Worker processes [default: number of CPUs].")
@click.option(
    "--seed",
    type=int,
    default=None,
    help="Tournament seed; the games' seeds follow from it (default: a fresh random one, printed "
    "with the results, so that a program at the table cannot guess the deals; with --resume-from, "
    "the saved one).",
)
@click.option("--duplicate", is_flag=True, help="Play every deal twice with the sides' seats exchanged.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as one JSON object (mergeable).")
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
@click.option("--shard", metavar="K/N", default=None, help="Play the K-th of N equal parts of the games.")
@click.option(
    "--out",
    "-o",
    "out",
    metavar="FILE",
    default=None,
    help="Also write the JSON result to FILE (also where Ctrl-C saves the totals so far).",
)
@click.option(
    "--resume-from",
    "resume_from",
    metavar="FILE",
    default=None,
    help="Go on with an interrupted run of the same tournament, skipping the games it has.",
)
@click.option(
    "--scheduler",
    metavar="tcp://HOST:PORT|local",
    default=None,
    help="Play on a Dask cluster ('local': start one here with --jobs workers); "
    "needs pip install 'spades[cluster]'.",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress output on stderr.")
@bot_options
def simulate_command(
    games: int,
    preset: str,
    overrides: tuple[str, ...],
    seats: tuple[str, ...],
    level: str,
    jobs: int | None,
    seed: int | None,
    duplicate: bool,
    as_json: bool,
    max_hands: int,
    transcript_dir: str | None,
    shard: str | None,
    out: str | None,
    resume_from: str | None,
    scheduler: str | None,
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
      spades simulate --games 10000 --seed 7 --shard 1/4 --json > part1.json
      spades simulate --games 10000 --scheduler tcp://10.0.0.5:8786
    """
    from spades_cli.cli.options import check_bot_timeout
    from spades_cli.game.seats import parse_seat_specs

    check_bot_timeout(bot_timeout)
    for name, value in (("--games", games), ("--jobs", jobs), ("--max-hands", max_hands)):
        if value is not None and value < 1:
            raise UsageError(f"{name} must be at least 1 (got {value})")
    the_shard = parse_shard(shard) if shard is not None else None
    if out is not None:
        check_summary_path(out)  # before the games, not after them
    resume = read_summary(resume_from) if resume_from is not None else None
    if seed is None:
        seed = resume.tournament.seed if resume is not None else secrets.randbits(63)
    rules = load_rules(preset, overrides)
    chosen = parse_seat_specs(rules, seats, allow_human=False)
    labels = tuple(chosen.get(s, level) for s in range(rules.players))
    _make_folder(transcript_dir)
    progress = ProgressBar(enabled=not quiet)
    try:
        summary = run_tournament(
            rules,
            labels,
            games,
            seed,
            jobs=jobs if jobs is not None else default_workers(),
            duplicate=duplicate,
            max_hands=max_hands,
            transcript_dir=transcript_dir,
            rules_source=preset,
            overrides=overrides,
            progress=progress,
            bot_timeout=bot_timeout,
            on_failure=on_bot_failure,
            shard=the_shard,
            resume=resume,
            scheduler=scheduler,
        )
    except Interrupted as stop:
        progress.close()
        _save_and_exit(stop, out or resume_from or partial_path(seed, the_shard), as_json)
    finally:
        progress.close()
    if out is not None:
        write_summary(summary, out)
    show(summary, as_json)
    if summary.totals.terminated:
        sys.exit(EXIT_ILLEGAL)  # a cmd: bot failed and ended a game (reported above)


def _save_and_exit(stop: Interrupted, where: str, as_json: bool) -> None:
    """After Ctrl-C (exit 130), SIGTERM or SIGHUP (exit 143): save the totals so far, print
    them and say where they are."""
    summary = stop.summary
    write_summary(summary, where)
    show(summary, as_json)
    click.echo(
        f"spades: interrupted after {summary.totals.games_done} of "
        f"{plural(summary.tournament.games, 'game')}; "
        f"the totals so far are saved in {where}; to go on, run the same command with --resume-from {where}",
        err=True,
    )
    sys.exit(stop.exit_code)


def _make_folder(folder: str | None) -> None:
    if folder is not None:
        try:
            private_folder(folder)
        except OSError as exc:
            raise UsageError(f"--transcripts {folder}: {exc.strerror or exc}") from None


def show(summary: Summary, as_json: bool) -> None:
    """Print ``summary`` on stdout: its JSON, or the text for people."""
    if as_json:
        click.echo(json.dumps(summary.to_json(), indent=2))
    else:
        click.echo(format_summary(summary))
