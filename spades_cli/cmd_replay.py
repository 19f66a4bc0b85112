"""``spades replay FILE``: check a transcript against the rules and show the game.

Replay never starts a program and never opens another file than FILE (and a preset file
given with ``--rules``). Exit codes: 0 the transcript is correct (also an unfinished one);
1 an illegal action or a recorded result that differs; 2 a file that cannot be read.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from spades_cli.cli_options import display_options, echo_for, echo_json, preset_file_option, use_color
from spades_cli.game.printer import Printer, progress
from spades_cli.game.run import GameRun
from spades_cli.game.summary import game_summary
from spades_cli.transcript import read_transcript, replay, transcript_rules


class _Stepper:
    """Waits for Enter (``q`` then Enter, or the end of input, stops waiting)."""

    def __init__(self) -> None:
        self.on = True

    def __call__(self) -> None:
        if not self.on:
            return
        click.echo("-- Enter: next trick, q: run to the end --", err=True, nl=False)
        line = sys.stdin.readline()
        click.echo("", err=True)
        if not line or line.strip().lower() in ("q", "quit"):
            self.on = False


@click.command("replay")
@click.argument("file", metavar="FILE")
@click.option("--step", is_flag=True, help="Wait for Enter after each trick.")
@preset_file_option
@display_options
def replay_command(
    file: str, step: bool, preset_files: tuple[str, ...], as_json: bool, ascii_only: bool, color: bool | None
) -> None:
    """Check a transcript against the rules and show the game hand by hand.

    Every action must be legal and every recorded result (trick winners, hand results,
    running scores, the winner) must be what the rules give: otherwise the first
    difference is reported as FILE:LINE (exit 1). An unfinished game replays up to its
    last action (exit 0).
    """
    t = read_transcript(file)
    rules = transcript_rules(t, preset_files=preset_files)
    assert rules is not None
    colored = use_color(color)
    stepper = _Stepper() if step else None

    def printer(run: GameRun) -> Printer:
        echo = echo_for(colored)
        return Printer(run, echo, detail=True, symbols=not ascii_only, color=colored, step=stepper)

    result = replay(t, rules, watchers=[] if as_json else [printer])
    run = result.run
    if as_json:
        extra: dict[str, Any] = {"file": file}
        if result.terminated is not None:
            seat, reason = result.terminated
            who = rules.seat_names[seat] if seat is not None else None
            extra["terminated"] = {"seat": who, "reason": reason}
        echo_json(game_summary(run.match, result.header_labels, **extra))
        return
    actions = len(run.state.history)
    if run.match.finished:
        click.echo(f"\n{file}: ok, {actions} actions and {len(run.state.results)} hands checked")
    else:
        click.echo(progress(f"\n{file}: ok so far, {actions} actions checked; the game is unfinished", run))
        click.echo(f"Continue it with: spades resume {file}")
