"""``spades games``: the saved games (newest first), and deleting old finished ones."""

from __future__ import annotations

import json
from pathlib import Path

import click

from spades_cli.errors import EXIT_ILLEGAL, MultiError
from spades_cli.transcript.games import SavedGame, delete_finished, describe, saved_games


@click.command("games")
@click.option(
    "--folder",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where the games are saved (default: the per-user transcripts folder).",
)
@click.option(
    "--delete-finished-older-than",
    "days",
    type=click.FloatRange(min=0),
    default=None,
    metavar="DAYS",
    help="Delete the finished games last played more than DAYS days ago.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead.")
def games_command(folder: Path | None, days: float | None, as_json: bool) -> None:
    """List the saved games: date, rules, seats, score, finished or not.

    'spades resume' without a file continues the most recent unfinished one.
    """
    games, problems = saved_games(folder)
    for problem in problems:
        click.echo(f"spades: skipped {problem}", err=True)
    gone, kept = delete_finished(games, days) if days is not None else ([], [])
    games = [g for g in games if g.path not in gone]
    if as_json:
        data = {"games": [g.as_json() for g in games], "deleted": [str(p) for p in gone]}
        click.echo(json.dumps(data, indent=2))
    else:
        _list(games, gone)
    if kept:  # a game that was to be deleted and could not be (a read-only folder, say)
        raise MultiError(kept, exit_code=EXIT_ILLEGAL)


def _list(games: list[SavedGame], gone: list[Path]) -> None:
    for path in gone:
        click.echo(f"Deleted {path}")
    if not games:
        click.echo("No saved games.")
        return
    for g in games:
        click.echo("\n".join(describe(g)))
    if any(not g.finished for g in games):
        click.echo("Continue the most recent unfinished game with: spades resume")
