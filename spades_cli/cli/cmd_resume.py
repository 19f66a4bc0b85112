"""``spades resume FILE``: continue an unfinished game with the same rules and seats.

The transcript is checked like ``spades replay``, then the game goes on from its last
action (at the prompt when a seat is human). A seat the file gives to a ``cmd:`` program
needs ``--seat SEAT=...`` (or ``--trust-programs``). Exit codes: 0 the game ended (or
reached ``--max-hands``); 1 an illegal action or a failed bot; 2 a usage error or a file
that cannot be read; 3 left unfinished at the prompt; 130 Ctrl-C; 143 SIGTERM or SIGHUP.
"""

from __future__ import annotations

import sys

import click

from spades_cli.app.launch import BotFlags, resume_game
from spades_cli.app.printer import Printer, progress
from spades_cli.app.summary import game_summary
from spades_cli.cli.options import (
    autoplay_option,
    bot_options,
    check_bot_timeout,
    display_options,
    echo_for,
    echo_json,
    force_option,
    max_hands_option,
    pace_options,
    preset_file_option,
    say_err,
    trust_programs_option,
    undo_option,
    use_color,
)
from spades_cli.game.run import stop_signals
from spades_cli.transcript.games import latest_game
from spades_cli.view.look import plural


@click.command("resume")
@click.argument("file", metavar="[FILE]", required=False)
@click.option(
    "--seat",
    "seat_specs",
    multiple=True,
    metavar="SEAT=LEVEL",
    help="Give a seat to another player (random, easy, normal, hard, expert, human, "
    "cmd:PROGRAM) (repeatable); human:noautoplay: that person types even an only legal card.",
)
@preset_file_option
@click.option(
    "--transcript",
    "transcript_path",
    metavar="PATH",
    help="Write the continued game here instead of into FILE.",
)
@force_option
@max_hands_option
@trust_programs_option
@display_options
@pace_options
@undo_option(None)
@autoplay_option
@bot_options
def resume_command(
    file: str | None,
    seat_specs: tuple[str, ...],
    preset_files: tuple[str, ...],
    transcript_path: str | None,
    force: bool,
    max_hands: int,
    trust_programs: bool,
    as_json: bool,
    ascii_only: bool,
    color: bool | None,
    fast: bool,
    speed: str,
    undo: str | None,
    autoplay: bool | None,
    bot_timeout: float,
    on_bot_failure: str | None,
) -> None:
    """Continue an unfinished game with the same rules and seats.

    The transcript is checked like 'spades replay', then the game goes on from its last
    action and is appended to FILE (or written to --transcript PATH). Without FILE, the
    most recently played unfinished game in the per-user folder ('spades games' lists them).
    """
    from spades_cli.repl import PromptSeat, play_match
    from spades_cli.session.undo import undo_policy
    from spades_cli.transcript.tags import recorded_undo

    check_bot_timeout(bot_timeout)
    file = file if file is not None else latest_game()
    flags = BotFlags(bot_timeout, on_bot_failure, max_hands, trust_programs, say_err)
    resumed = resume_game(
        file,
        seat_specs=seat_specs,
        preset_files=preset_files,
        transcript=transcript_path,
        flags=flags,
        human=lambda _label: PromptSeat(),
        force=force,
    )
    run = resumed.run
    if resumed.humans:
        # A person sits at this table: continue at the prompt (or in batch mode when
        # stdin is not a terminal); the session shows the game itself.
        run.max_hands = None
        code = play_match(
            run,
            resumed.humans,
            intro=[f"Resuming {file}"],
            ascii_only=ascii_only,
            no_color=not use_color(color),
            fast=fast,
            speed=speed,
            undo=undo or undo_policy(recorded_undo(resumed.tags)),
            autoplay=autoplay,
            manual=resumed.manual,
        )
        if code:
            sys.exit(code)
        return
    if not as_json:
        colored = use_color(color)
        run.subscribe(Printer(run, echo_for(colored), detail=False, symbols=not ascii_only, color=colored))
        click.echo(progress(f"Resuming {file}", run))
    path = run.writer.path if run.writer is not None else None
    with run, stop_signals(run):
        run.start(resumed=True)
        run.play()
    if as_json:
        echo_json(game_summary(run.match, resumed.replayed.header_labels, transcript=path))
        return
    if not run.match.finished:
        click.echo(f"\nStopped after {plural(len(run.state.results), 'hand')} (--max-hands)")
    click.echo(f"Transcript: {path}")
