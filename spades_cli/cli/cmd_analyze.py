"""``spades analyze FILE``: hindsight analysis of a transcript with the double-dummy solver."""

from __future__ import annotations

import json

import click

from spades_cli.errors import UsageError


@click.command("analyze")
@click.argument("file", metavar="FILE")
@click.option("--json", "as_json", is_flag=True, help="Write the analysis as JSON.")
@click.option("--seat", "seat_name", metavar="S", help="Look at one seat's cards only.")
@click.option(
    "--tricks",
    type=click.IntRange(1, 13),
    default=None,
    help="Analyse the cards of this many last tricks of each hand (default: all 13).",
)
@click.option(
    "--budget",
    type=click.IntRange(1000, 10**15),
    default=None,
    metavar="N",
    help="Positions one search question may visit before it gives up (default 20000000 with "
    "the C search core, 200000 with the Python solver).",
)
def analyze_command(
    file: str, as_json: bool, seat_name: str | None, tricks: int | None, budget: int | None
) -> None:
    """Hindsight double-dummy check of a transcript: what each card gave up with every hand known.

    For each hand: the tricks each side and seat can take with best play from the deal,
    beside the bids. For each card played: the tricks and points it gave up against the
    best card (no player could know every hand: this is hindsight). The transcript is
    replayed and checked first (exit 1 if it breaks the rules, 2 if it cannot be read).
    As text, each hand is shown as soon as it is analysed."""
    from spades_cli.analysis.analyze import analyze_hands
    from spades_cli.analysis.output import text_chunks, to_json
    from spades_cli.analysis.reading import read_for_analysis, replayed
    from spades_cli.cli.options import analysis_progress, clear_progress, echo_lines, output_piped

    t = read_for_analysis(file)
    rules, match = replayed(t)
    seat = None
    if seat_name is not None:
        try:
            seat = rules.seat_index(seat_name)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    # As text the hands come one by one: a progress line between them would mix, on the
    # terminal, with what a pipe's reader (head, grep) writes there.
    shown = analysis_progress() if as_json or not output_piped() else None
    hands = analyze_hands(match, tricks=tricks, budget=budget, progress=shown)
    if as_json:
        click.echo(json.dumps(to_json(rules, list(hands), seat), indent=2, ensure_ascii=False))
        return
    for chunk in text_chunks(rules, hands, seat):
        clear_progress()  # the line saying which hand is being analysed
        for line in chunk:
            echo_lines(line)
