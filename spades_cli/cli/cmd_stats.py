"""``spades stats [DIR or FILES]``: statistics across games, read from their transcripts."""

from __future__ import annotations

import json

import click

from spades_cli.cli.options import echo_lines
from spades_cli.errors import UsageError
from spades_cli.simulate.records import BY, collect, report
from spades_cli.transcript import default_transcript_dir


@click.command("stats")
@click.argument("paths", nargs=-1, metavar="[DIR or FILES]...")
@click.option(
    "--by",
    "by",
    type=click.Choice(BY),
    default="seat",
    show_default=True,
    help="Group the numbers by seat, by the player's level, or by the rules' name.",
)
@click.option(
    "--player",
    metavar="NAME",
    default=None,
    help="One player's record: only the seats whose Seat tag names NAME (human, hard, cmd:...), "
    "by the seats it sat at, and its side's final score game by game.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead.")
def stats_command(paths: tuple[str, ...], by: str, player: str | None, as_json: bool) -> None:
    """Statistics across games: wins and losses, bid accuracy (made, set, over/under), nils
    and blind / double nils tried and made, bags and penalties, points per hand.

    Reads the transcripts in the folders and files given (default: the per-user
    transcripts folder). Files that cannot be read are skipped and named on stderr.
    """
    where = list(paths) or [str(default_transcript_dir())]
    stats = collect(where, by, player)
    for problem in stats.skipped:
        click.echo(f"spades: skipped {problem}", err=True)
    if as_json:
        click.echo(json.dumps(stats.as_json(), indent=2))
        return
    if not stats.files:
        raise UsageError(f"no transcript read from {', '.join(where)}")
    echo_lines("\n".join(report(stats)))
