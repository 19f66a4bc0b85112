"""``spades run SCRIPT``: play a script (a transcript with parts left out) unattended.

Seats without scripted actions are played by ``--seat SEAT=LEVEL``; ``--then LEVEL`` lets
a bot finish for a scripted seat whose actions run out. Exit codes: 0 the game ended (or
reached ``--max-hands``); 1 an illegal scripted action or a recorded result that differs;
2 a usage error or a file that cannot be read; 3 a scripted seat ran out of actions;
130 Ctrl-C; 143 SIGTERM or SIGHUP (the game is saved in every case).
"""

from __future__ import annotations

import click
from click.core import ParameterSource

from spades_cli.app.launch import BotFlags, script_game
from spades_cli.app.printer import Printer
from spades_cli.app.summary import game_summary
from spades_cli.cli.options import (
    bot_options,
    check_bot_timeout,
    display_options,
    echo_for,
    echo_json,
    force_option,
    lang_option,
    max_hands_option,
    say_err,
    script_rules_options,
    trust_programs_option,
    use_color,
)
from spades_cli.game.run import stop_signals
from spades_cli.presets import DEFAULT_PRESET
from spades_cli.transcript import ScriptExhausted, finish_script, new_seed
from spades_cli.view.look import plural


@click.command("run")
@click.argument("script", metavar="SCRIPT")
@script_rules_options
@click.option(
    "--seed", help="Seed for the deals the script leaves out (default: the script's [Seed], else new)."
)
@click.option(
    "--seat",
    "seat_specs",
    multiple=True,
    metavar="SEAT=LEVEL",
    help="Who plays a seat without scripted actions: random, easy, normal, hard, expert or "
    "cmd:PROGRAM (repeatable).",
)
@click.option(
    "--then", "then", metavar="LEVEL", help="A bot that takes over a scripted seat whose actions run out."
)
@click.option("-o", "--transcript", "transcript_path", metavar="PATH", help="Write the transcript here.")
@force_option
@max_hands_option
@trust_programs_option
@display_options
@lang_option
@bot_options
@click.pass_context
def run_command(
    ctx: click.Context,
    script: str,
    preset: str,
    overrides: tuple[str, ...],
    seed: str | None,
    seat_specs: tuple[str, ...],
    then: str | None,
    transcript_path: str | None,
    force: bool,
    max_hands: int,
    trust_programs: bool,
    as_json: bool,
    ascii_only: bool,
    color: bool | None,
    bot_timeout: float,
    on_bot_failure: str | None,
) -> None:
    """Play a scripted game: a transcript with parts left out.

    The script may fix the deck of some hands and list actions for some or all seats;
    the other seats are played by --seat SEAT=LEVEL, the other deals come from the seed.
    A scripted seat that runs out of actions stops the game (exit 3) unless --then LEVEL
    lets a bot finish. Recorded results in the script (trick winners, hand results,
    scores, the winner) are checked (exit 1 if different). The script's rules apply
    unless --rules is given; --set changes them.
    """
    check_bot_timeout(bot_timeout)
    explicit = ctx.get_parameter_source("preset") not in (ParameterSource.DEFAULT, None)
    flags = BotFlags(bot_timeout, on_bot_failure, max_hands, trust_programs, say_err)
    game = script_game(
        script,
        preset=preset if explicit else None,
        default_preset=DEFAULT_PRESET,
        overrides=overrides,
        seed=seed,
        seat_specs=seat_specs,
        then=then,
        transcript=transcript_path,
        flags=flags,
        new_seed=new_seed,
        force=force,
    )
    run = game.run
    path = run.writer.path if run.writer is not None else None
    if not as_json:
        colored = use_color(color)
        run.subscribe(Printer(run, echo_for(colored), detail=False, symbols=not ascii_only, color=colored))
    try:
        with run, stop_signals(run):
            run.start()
            run.play()
        finish_script(game.seats, run)
    except ScriptExhausted as exc:
        if as_json:
            echo_json(game_summary(run.match, game.labels, transcript=path))
        raise ScriptExhausted(
            f"{exc.message}. The game so far is in {path}: "
            f"'spades resume {path} --seat SEAT=LEVEL' continues it",
            file=exc.file,
            line=exc.line,
        ) from None
    if as_json:
        echo_json(game_summary(run.match, game.labels, transcript=path))
        return
    if not run.match.finished:
        click.echo(f"\nStopped after {plural(len(run.state.results), 'hand')} (--max-hands)")
    click.echo(f"Transcript: {path}")
