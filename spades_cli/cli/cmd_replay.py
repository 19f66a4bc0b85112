"""``spades replay FILE``: check a transcript against the rules and show the game.

Replay never starts a program and never opens another file than FILE (and a preset file
given with ``--rules``). Exit codes: 0 the transcript is correct (also an unfinished one);
1 an illegal action or a recorded result that differs; 2 a file that cannot be read.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from spades_cli.analysis.analyze import analyze_match, in_background
from spades_cli.app.printer import Printer, progress
from spades_cli.app.summary import game_summary
from spades_cli.cli.options import (
    analysis_progress,
    analysis_waiting,
    display_options,
    echo_for,
    echo_json,
    echo_lines,
    lang_option,
    preset_file_option,
    use_color,
)
from spades_cli.errors import UsageError
from spades_cli.game.run import GameRun
from spades_cli.repl.stepper import step_through
from spades_cli.solver import backend
from spades_cli.stdio import stdin_lines
from spades_cli.transcript import read_transcript, replay, transcript_rules
from spades_cli.transcript.decks import deck_origins, stacked_deck_warnings
from spades_cli.view import symbols_ok, terminal_width
from spades_cli.view.analysis import HandNotes
from spades_cli.view.look import plural


@click.command("replay")
@click.argument("file", metavar="FILE")
@click.option(
    "--step",
    is_flag=True,
    help="Study the game move by move: forward and back by move, trick or hand (keys shown).",
)
@click.option(
    "--analyze",
    "with_analysis",
    is_flag=True,
    help="With --step: show the hindsight double-dummy analysis beside each trick.",
)
@preset_file_option
@display_options
@lang_option
def replay_command(
    file: str,
    step: bool,
    with_analysis: bool,
    preset_files: tuple[str, ...],
    as_json: bool,
    ascii_only: bool,
    color: bool | None,
) -> None:
    """Check a transcript against the rules and show the game hand by hand.

    Every action must be legal and every recorded result (trick winners, hand results,
    running scores, the winner) must be what the rules give: otherwise the first
    difference is reported as FILE:LINE (exit 1). An unfinished game replays up to its
    last action (exit 0).
    """
    if with_analysis and (not step or as_json):
        raise UsageError("--analyze goes with --step (for a whole game's analysis: spades analyze FILE)")
    t = read_transcript(file)
    rules = transcript_rules(t, preset_files=preset_files)
    assert rules is not None
    colored = use_color(color)

    def printer(run: GameRun) -> Printer:
        return Printer(run, echo_for(colored), detail=True, symbols=not ascii_only, color=colored)

    result = replay(t, rules, watchers=[] if as_json or step else [printer])
    run = result.run
    origins = deck_origins(t, rules)
    for warning in stacked_deck_warnings(t, origins):
        click.echo(warning, err=True)
    if step and not as_json:
        from spades_cli.repl import interactive
        from spades_cli.repl.keys import key_reader

        match = run.match
        assert match.dealer is not None
        # With the C core the hands are analysed in the background, one after another:
        # stepping starts once the first one is (the Python solver would hold the
        # interpreter while the stepper waits for keys, so it analyses them all first).
        later = in_background(match) if with_analysis and backend.c_core() else None
        analysis: HandNotes | None = None
        if later is not None:
            analysis = analysis_waiting(later, later.ready)
        elif with_analysis:
            analysis = analyze_match(match, progress=analysis_progress())
        try:
            step_through(
                rules,
                match.dealer,
                match.decks,
                run.state.history,
                key_reader() if interactive() else stdin_lines(),
                sys.stdout,
                symbols=symbols_ok(ascii_only),
                width=terminal_width(),
                analysis=analysis,
            )
        finally:
            if later is not None:
                later.close()
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
        echo_lines(
            f"\n{file}: ok, {plural(actions, 'action')} and {plural(len(run.state.results), 'hand')} checked"
        )
    else:
        echo_lines(progress(f"\n{file}: ok so far, {actions} actions checked; the game is unfinished", run))
        echo_lines(f"Continue it with: spades resume {file}")
