"""``spades merge``: add up the results of shards (or parts) of one tournament."""

from __future__ import annotations

import click

from spades_cli.cli.cmd_simulate import show
from spades_cli.simulate import merge_summaries, read_summary
from spades_cli.simulate.report import check_summary_path, write_summary


@click.command("merge")
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option("--json", "as_json", is_flag=True, help="Print the merged result as one JSON object.")
@click.option("--out", "-o", "out", metavar="FILE", default=None, help="Also write the merged JSON to FILE.")
def merge_command(files: tuple[str, ...], as_json: bool, out: str | None) -> None:
    """Combine the JSON results of 'spades simulate --shard K/N --json' (or of interrupted
    runs) of one tournament into the result of the whole: the same as one run of all the
    games gives, apart from timings.

    \b
    Examples:
      spades merge part1.json part2.json part3.json part4.json
      spades merge --json -o all.json part*.json
    """
    if out is not None:
        check_summary_path(out)
    summary = merge_summaries([(name, read_summary(name)) for name in files])
    if out is not None:
        write_summary(summary, out)
    show(summary, as_json)
