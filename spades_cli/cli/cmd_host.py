"""``spades host``: open a table that friends join from their own terminals (``spades join``)."""

from __future__ import annotations

import sys
import threading
from typing import Any

import click

from spades_cli.app.launch import BotFlags
from spades_cli.app.printer import Printer
from spades_cli.app.setup import choose_rules
from spades_cli.cli.cmd_join import take_seat
from spades_cli.cli.cmd_play import describe_seats, seat_labels
from spades_cli.cli.options import bot_options, check_bot_timeout, pace_options, rules_options
from spades_cli.engine.rules import SEAT_WORDS
from spades_cli.errors import UsageError
from spades_cli.game.seats import BOT_LEVELS, HUMAN
from spades_cli.net import hosting
from spades_cli.net.client import Connection
from spades_cli.net.server import Host, SeatLost
from spades_cli.transcript import new_seed


def _say(line: str) -> None:
    click.echo(line)
    sys.stdout.flush()


def join_lines(game: hosting.HostedGame, address: tuple[str, int], tls: bool) -> list[str]:
    host, port = address
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    extra = " --tls" if tls else ""
    rules, tokens = game.run.rules, game.table.tokens
    lines = [f"Table open on {where}. Give each player their line (the tokens are secret):"]
    for seat, token in sorted(tokens.seats.items()):
        lines.append(f"  {SEAT_WORDS[rules.seat_names[seat]]}: spades join {where} --token {token}{extra}")
    if tokens.watch is not None:
        lines.append(f"  Spectators: spades join {where} --token {tokens.watch}{extra}")
    if host in ("0.0.0.0", "::"):
        lines.append(f"  (the table listens on every interface: give them this machine's address for {host})")
    return lines


@click.command("host")
@rules_options
@click.option("--seed", type=int, default=None, help="The game's seed (default: a fresh random one).")
@click.option(
    "--seat",
    "seats",
    multiple=True,
    metavar="SEAT=WHO",
    help="Who plays a seat: human (joins with 'spades join'), easy, normal, hard, expert or "
    "cmd:PROGRAM "
    "(repeatable). Default: South joins, bots at the normal level play the others.",
)
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
    "--reconnect-timeout",
    type=click.FloatRange(min=0, max=86400),
    default=60.0,
    show_default=True,
    metavar="SECONDS",
    help="How long the game waits for a player who lost the connection.",
)
@click.option(
    "--on-leave",
    type=click.Choice(BOT_LEVELS),
    default=None,
    metavar="LEVEL",
    help="A bot that takes the seat of a player who does not come back (default: save and stop).",
)
@click.option("--watch-token", is_flag=True, help="Also print a token for spectators (no hands shown).")
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
    transcript: str | None,
    listen: str,
    tls_cert: str | None,
    tls_key: str | None,
    reconnect_timeout: float,
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
    context = hosting.tls_context(tls_cert, tls_key)
    if resume_file is not None:
        if seats or seed is not None or transcript is not None or overrides:
            raise UsageError("--resume takes the rules, seed, seats and transcript from FILE")
        flags = BotFlags(timeout=bot_timeout, fallback=on_bot_failure, say=_say)
        game = hosting.resumed_game(
            resume_file,
            on_leave=on_leave,
            reconnect=reconnect_timeout,
            hints=not no_hints,
            log=_say,
            flags=flags,
        )
        _say(f"Resuming {resume_file} (hand {game.run.state.hand_no + 1}).")
    else:
        choice = choose_rules(preset, overrides, default=preset)
        rules = choice.rules
        labels = seat_labels(rules, seats)
        the_seed: int | str = seed if seed is not None else new_seed()
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
        )
        _say(f"Spades, {rules.name} rules: game to {rules.target}. Seed {the_seed}.")
        _say(describe_seats(rules, labels).replace("a person", "joined").replace("you", "joined"))
    if not any(label == HUMAN for label in game.labels.values()):
        game.run.close()
        raise UsageError("no seat is joined from afar: give one to a person, e.g. --seat S=human")
    _say(f"Saving the game in {game.path}")
    server = Host(ssl_context=context, log=_say)
    server.add(game.table)
    try:
        bound = server.start(*address)
    except OSError as exc:
        game.run.close()
        raise UsageError(str(exc)) from None
    for line in join_lines(game, bound, context is not None):
        _say(line)
    if play is None:
        try:
            hosting.play(game, listeners=[Printer(game.run, _say, detail=False)])
        except SeatLost as exc:
            raise SeatLost(f"{exc}: {_resume_hint(game)}") from None
        finally:
            server.stop()
        _say(f"Transcript: {game.path}")
        return
    look = {"ascii_only": ascii_only, "no_color": no_color, "fast": fast, "speed": speed}
    code = _play_here(game, server, bound, play, tls_cert, look)
    if code:
        _say(_resume_hint(game))
        raise SystemExit(code)


def _resume_hint(game: hosting.HostedGame) -> str:
    path = game.path
    return f"the game is saved in {path}; 'spades host --resume {path}' continues it with the same tokens"


def _play_here(
    game: hosting.HostedGame,
    server: Host,
    bound: tuple[str, int],
    letter: str,
    cert: str | None,
    look: dict[str, Any],
) -> int:
    """``--play SEAT``: the game runs on a thread; this terminal plays SEAT like a joined seat."""
    rules = game.run.rules
    try:
        seat = rules.seat_index(letter)
    except ValueError as exc:
        raise UsageError(f"--play {letter}: {exc}") from None
    if seat not in game.table.tokens.seats:
        raise UsageError(f"--play {letter}: that seat is not played by a person (--seat {letter}=human)")
    failed: list[BaseException] = []

    def run() -> None:
        try:
            hosting.play(game)
        except BaseException as exc:  # reported below, on the main thread
            failed.append(exc)

    thread = threading.Thread(target=run, name="spades-table", daemon=True)
    thread.start()
    where = "127.0.0.1" if bound[0] in ("0.0.0.0", "::") else bound[0]
    own = hosting.own_seat_context(cert) if cert is not None else None
    try:
        conn = Connection(where, bound[1], context=own)
        code = take_seat(conn, game.table.tokens.seats[seat], intro=[], **look)
    finally:
        game.table.stopping = "the host left the table"
        thread.join(30)
        server.stop()
    if failed and not isinstance(failed[0], SeatLost):
        raise failed[0]
    return code
