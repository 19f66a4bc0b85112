"""``spades join HOST:PORT --token T``: take a seat at a table opened with ``spades host``."""

from __future__ import annotations

import sys
from functools import partial

import click

from spades_cli.cli.options import autoplay_option, pace_options
from spades_cli.engine.notation import is_number
from spades_cli.errors import UsageError
from spades_cli.i18n import _
from spades_cli.net import tls
from spades_cli.net.client import Connection, RemoteSession


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` or ``[IPV6]:PORT``."""
    host, sep, port_text = text.rpartition(":")
    host = host.strip("[]")
    if not sep or not host:
        raise UsageError(f"{text!r}: expected HOST:PORT, as printed by 'spades host'")
    if not (is_number(port_text) and len(port_text) <= 5):
        raise UsageError(f"{text!r}: expected HOST:PORT, as printed by 'spades host'")
    port = int(port_text)
    if not 0 < port <= 65535:
        raise UsageError(f"{text!r}: the port must be between 1 and 65535")
    return host, port


@click.command("join")
@click.argument("address", metavar="HOST:PORT")
@click.option(
    "--token",
    envvar="SPADES_TOKEN",
    default=None,
    metavar="TOKEN",
    help="Your seat's secret, from the host's join line. Better in $SPADES_TOKEN, or typed "
    "when asked: a command line is visible to every user of this machine.",
)
@click.option(
    "--fingerprint",
    default=None,
    metavar="SHA256",
    help="The table's certificate, as its join line names it (implies TLS). Without it, "
    "--tls trusts the certificate HOST:PORT shows the first time and refuses another later (exit 4).",
)
@click.option("--tls", "use_tls", is_flag=True, help="Connect with TLS (when the join line says --tls).")
@click.option(
    "--tls-ca",
    type=click.Path(dir_okay=False, exists=True),
    default=None,
    help="Trust this certificate (PEM), e.g. the host's own self-signed one.",
)
@click.option("--ascii", "ascii_only", is_flag=True, help="Suit letters (QS) instead of symbols (Q♠).")
@click.option("--no-color", is_flag=True, help="No colours (also off with NO_COLOR or without a terminal).")
@pace_options
@autoplay_option
def join_command(
    address: str,
    token: str | None,
    fingerprint: str | None,
    use_tls: bool,
    tls_ca: str | None,
    ascii_only: bool,
    no_color: bool,
    fast: bool,
    speed: str,
    autoplay: bool | None,
) -> None:
    """Take your seat at a table hosted with 'spades host'.

    The prompt is the one of 'spades play' (Tab completion, hint, score, ...), plus
    'say TEXT' to talk to the table. Without a terminal, moves are read line by line from
    stdin, as in 'spades play'. If the connection drops, the same command takes the seat
    again. Exit codes: 0 the game ended; 3 you left or the game stopped before its end;
    2 the table could not be reached or refused the token; 4 the table's certificate is not
    the one expected; 130 Ctrl-C; 143 SIGTERM or SIGHUP (at any moment: the seat is
    released and the same command takes it again).
    """
    host, port = parse_address(address)
    given = tls.parse_fingerprint(fingerprint) if fingerprint is not None else None
    token = token if token is not None else ask_token()
    say = partial(click.echo, err=True)
    conn = tls.connect(host, port, tls=use_tls, cafile=tls_ca, given=given, say=say)
    code = take_seat(
        conn,
        token,
        intro=[_("Connecting to {address}...").format(address=f"{host}:{port}")],
        ascii_only=ascii_only,
        no_color=no_color,
        fast=fast,
        speed=speed,
        autoplay=autoplay,
    )
    if code:
        raise SystemExit(code)


def ask_token() -> str:
    """The token typed at the terminal, not shown (a UsageError without a terminal)."""
    from spades_cli.repl import interactive

    if not interactive():
        raise UsageError("give your seat's token: SPADES_TOKEN=TOKEN, or --token TOKEN")
    token: str = click.prompt("Your seat's token", hide_input=True, err=True)
    return token.strip()


def take_seat(
    conn: Connection,
    token: str,
    *,
    intro: list[str],
    ascii_only: bool,
    no_color: bool,
    fast: bool,
    speed: str = "normal",
    autoplay: bool | None = None,
) -> int:
    """Play a seat over ``conn`` at the prompt (batch mode without a terminal); the exit code.
    ``autoplay``: play the seat's only legal card for it (None: at a terminal, not in a pipe)."""
    from spades_cli.repl import interactive, run_session, symbols_ok, use_color
    from spades_cli.repl.batch import write_plain

    autoplay = interactive() if autoplay is None else autoplay
    session = RemoteSession(conn, token, symbols=symbols_ok(ascii_only), autoplay=autoplay)
    try:
        if interactive():
            from spades_cli.repl.prompt import PromptFrontEnd
            from spades_cli.repl.signals import Caught

            front = PromptFrontEnd(session, color=use_color(no_color), fast=fast, speed=speed)
            session.live = lambda shown: front._show(shown, Caught())
            code = front.run(intro)
        else:
            session.live = lambda shown: write_plain(sys.stdout, shown)
            code = run_session(session, intro=intro, batch=True)
    finally:
        conn.close()
    sys.stdout.flush()
    return code
