"""``spades host``: open a table that friends join from their own terminals (``spades join``)."""

from __future__ import annotations

import sys
from functools import partial

import click

from spades_cli.app.launch import BotFlags
from spades_cli.app.setup import choose_rules
from spades_cli.cli.cmd_join import take_seat
from spades_cli.cli.cmd_play import describe_seats, seat_labels
from spades_cli.cli.options import bot_options, check_bot_timeout, level_option, pace_options, rules_options
from spades_cli.errors import UsageError
from spades_cli.game.seats import BOT_LEVELS
from spades_cli.net import hosting
from spades_cli.transcript import new_seed


def _say(line: str) -> None:
    click.echo(line)
    sys.stdout.flush()


@click.command("host")
@rules_options
@click.option(
    "--seed",
    type=int,
    default=None,
    help="A seed, stretched with a secret of this table so that no seat can predict the deals "
    "(default: a fresh random one). The transcript records the stretched seed, from which "
    "'spades replay' and '--resume' deal the same cards.",
)
@click.option(
    "--seat",
    "seats",
    multiple=True,
    metavar="SEAT=WHO",
    help="Who plays a seat: human (joins with 'spades join'), easy, normal, hard, expert or "
    "cmd:PROGRAM "
    "(repeatable). Default: South joins, bots at the --level level play the others.",
)
@level_option
@click.option(
    "--transcript",
    type=click.Path(dir_okay=False),
    default=None,
    help="Where to save the game (default: a new file in the per-user transcripts folder).",
)
@click.option(
    "--listen",
    default="127.0.0.1:0",
    show_default=True,
    metavar="HOST:PORT",
    help="Where to accept players (port 0: a free port). Other interfaces only when named.",
)
@click.option("--tls-cert", type=click.Path(dir_okay=False), default=None, help="TLS certificate (PEM).")
@click.option("--tls-key", type=click.Path(dir_okay=False), default=None, help="TLS private key (PEM).")
@click.option(
    "--tls",
    "force_tls",
    is_flag=True,
    help="TLS on loopback too (beyond it TLS is the default: the table's own certificate, "
    "made on first use, its fingerprint in the join lines).",
)
@click.option(
    "--insecure",
    is_flag=True,
    help="Plain TCP beyond loopback: the tokens and the cards cross the network in clear.",
)
@click.option(
    "--reconnect-timeout",
    type=click.FloatRange(min=0, max=86400),
    default=60.0,
    show_default=True,
    metavar="SECONDS",
    help="How long the game waits for a player who lost the connection.",
)
@click.option(
    "--move-clock",
    type=click.FloatRange(min=1, max=86400),
    default=None,
    metavar="SECONDS",
    help="How long a connected player has for each decision; then --on-leave applies "
    "(its bot moves for them, or the game is saved and stops). Default: no limit.",
)
@click.option(
    "--on-leave",
    type=click.Choice(BOT_LEVELS),
    default=None,
    metavar="LEVEL",
    help="A bot that takes the seat of a player who does not come back (default: save and stop).",
)
@click.option(
    "--watch-token",
    is_flag=True,
    help="Also print a token for spectators (they see no hand in play, every hand once it is scored).",
)
@click.option("--no-hints", is_flag=True, help="Do not offer the 'hint' command at the joined seats.")
@click.option(
    "--play",
    metavar="SEAT",
    default=None,
    help="Play this human seat here, at the prompt of 'spades join' (the others join from afar).",
)
@click.option("--ascii", "ascii_only", is_flag=True, help="With --play: suit letters instead of symbols.")
@click.option("--no-color", is_flag=True, help="With --play: no colours.")
@pace_options
@click.option(
    "--resume",
    "resume_file",
    metavar="FILE",
    default=None,
    help="Open the table of an unfinished hosted game again, with the same tokens.",
)
@bot_options
def host_command(
    preset: str,
    overrides: tuple[str, ...],
    seed: int | None,
    seats: tuple[str, ...],
    level: str,
    transcript: str | None,
    listen: str,
    tls_cert: str | None,
    tls_key: str | None,
    force_tls: bool,
    insecure: bool,
    reconnect_timeout: float,
    move_clock: float | None,
    on_leave: str | None,
    watch_token: bool,
    no_hints: bool,
    play: str | None,
    ascii_only: bool,
    no_color: bool,
    fast: bool,
    speed: str,
    resume_file: str | None,
    bot_timeout: float,
    on_bot_failure: str | None,
) -> None:
    """Host a game that people join from other terminals with 'spades join'.

    Each human seat gets its own join line with a secret token. The host deals, checks
    every move and keeps the transcript. A player who loses the connection can join
    again with the same line; 'spades host --resume FILE' reopens a table after a crash.
    Exit codes: 0 the game ended; 3 stopped before its end and saved; 2 usage; 130 Ctrl-C;
    143 SIGTERM or SIGHUP.
    """
    check_bot_timeout(bot_timeout)
    address = hosting.parse_listen(listen)
    context, pin = hosting.table_tls(address[0], tls_cert, tls_key, force=force_tls, insecure=insecure)
    if resume_file is not None:
        if seats or seed is not None or transcript is not None or overrides:
            raise UsageError("--resume takes the rules, seed, seats and transcript from FILE")
        game = hosting.resumed_game(
            resume_file,
            on_leave=on_leave,
            reconnect=reconnect_timeout,
            move_clock=move_clock,
            hints=not no_hints,
            log=_say,
            flags=BotFlags(timeout=bot_timeout, fallback=on_bot_failure, say=_say),
        )
        _say(f"Resuming {resume_file} (hand {game.run.state.hand_no + 1}).")
    else:
        choice = choose_rules(preset, overrides, default=preset)
        rules, labels = choice.rules, seat_labels(choice.rules, seats, level)
        the_seed = hosting.table_seed(seed if seed is not None else new_seed())
        game = hosting.new_game(
            choice,
            the_seed,
            labels,
            transcript,
            watch=watch_token,
            on_leave=on_leave,
            reconnect=reconnect_timeout,
            hints=not no_hints,
            log=_say,
            bot_timeout=bot_timeout,
            on_bot_failure=on_bot_failure,
            move_clock=move_clock,
        )
        chosen = f"Seed {seed} with this table's secret" if seed is not None else "A fresh seed"
        _say(f"Spades, {rules.name} rules: game to {rules.target}. {chosen} (in the transcript).")
        _say(describe_seats(rules, labels).replace("a person", "joined").replace("you", "joined"))
    server, bound = hosting.open_table(game, address, context, log=_say, pin=pin)
    if play is None:
        hosting.host(game, server, log=_say)
        return
    here = partial(take_seat, intro=[], ascii_only=ascii_only, no_color=no_color, fast=fast, speed=speed)
    code = hosting.play_here(game, server, bound, play, pin, here)
    if code:
        _say(hosting.resume_hint(game))
        raise SystemExit(code)
