"""``spades analyze FILE|DIR``: hindsight analysis of transcripts with the double-dummy solver."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from spades_cli.errors import UsageError
from spades_cli.solver.sets import MAX_TRICKS

if TYPE_CHECKING:
    from spades_cli.analysis.many import Game


@click.command("analyze")
@click.argument("file", metavar="FILE|DIR")
@click.option("--json", "as_json", is_flag=True, help="Write the analysis as JSON.")
@click.option("--seat", "seat_name", metavar="S", help="Look at one seat's cards only.")
@click.option(
    "--tricks",
    type=click.IntRange(1, MAX_TRICKS),
    default=None,
    help="Analyse the cards of this many last tricks of each hand (default: every trick).",
)
@click.option(
    "--budget",
    type=click.IntRange(1000, 10**15),
    default=None,
    metavar="N",
    help="Positions one search question may visit before it gives up (default 20000000 with "
    "the C search core, 200000 with the Python solver).",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(1, 1024),
    default=None,
    help="Worker processes [default: number of CPUs].",
)
@click.option(
    "--scheduler",
    metavar="tcp://HOST:PORT|local",
    default=None,
    help="Analyse the hands on a Dask cluster ('local': start one here with --jobs workers); "
    "needs pip install 'spades[cluster]'.",
)
def analyze_command(
    file: str,
    as_json: bool,
    seat_name: str | None,
    tricks: int | None,
    budget: int | None,
    jobs: int | None,
    scheduler: str | None,
) -> None:
    """Hindsight double-dummy check of a transcript, or of every transcript (*.txt) in a folder:
    what each card gave up with every hand known.

    For each hand: the tricks each side and seat can take with best play from the deal,
    beside the bids. For each card played: the tricks and points it gave up against the
    best card (no player could know every hand: this is hindsight). Each transcript is
    replayed and checked first (exit 1 if it breaks the rules, 2 if it cannot be read).
    The hands are analysed in --jobs worker processes; as text, each is shown as soon as
    it and the hands before it are done."""
    from spades_cli.analysis.many import analyzed_in_order, by_game, read_games
    from spades_cli.analysis.output import text_chunks, to_json
    from spades_cli.cli.options import analysis_progress, clear_progress, echo_lines, output_piped
    from spades_cli.simulate.progress import ProgressBar
    from spades_cli.transcript.paths import transcript_files
    from spades_cli.workers import default_workers

    folder = Path(file).is_dir()
    paths = list(transcript_files([file]))
    if folder and not paths:
        raise UsageError(f"{file}: no transcripts (*.txt) in this folder")
    games = read_games(paths)
    seats = [_seat(g, seat_name) for g in games]
    # As text the hands come one by one: a progress line between them would mix, on the
    # terminal, with what a pipe's reader (head, grep) writes there.
    quiet = not as_json and output_piped()
    bar = ProgressBar(folder and not quiet and sys.stderr.isatty(), unit="hands")
    shown: Callable[[int, int], None] | None = bar if folder else (None if quiet else analysis_progress())
    workers = jobs if jobs is not None else default_workers()
    reports = analyzed_in_order(
        games, tricks=tricks, budget=budget, jobs=workers, scheduler=scheduler, progress=shown
    )
    per_game = by_game(games, reports)
    if as_json:
        got = [(g, to_json(g.rules, list(rs), seat)) for (g, rs), seat in zip(per_game, seats, strict=True)]
        bar.close()
        out = {"files": [{"file": g.name, **data} for g, data in got]} if folder else got[0][1]
        click.echo(json.dumps(out, indent=2, ensure_ascii=False))
        return
    for (game, rs), seat in zip(per_game, seats, strict=True):
        if folder:
            bar.clear()
            click.echo(f"== {game.name} ==")
        for chunk in text_chunks(game.rules, rs, seat):
            if folder:  # the progress line
                bar.clear()
            else:
                clear_progress()
            for line in chunk:
                echo_lines(line)
    bar.close()


def _seat(game: Game, name: str | None) -> int | None:
    if name is None:
        return None
    try:
        return int(game.rules.seat_index(name))
    except ValueError as exc:
        raise UsageError(str(exc)) from None
