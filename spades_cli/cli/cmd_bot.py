"""``spades bot``: run a built-in bot as a bot-protocol speaker on stdin / stdout.

Other programs, and other spades tables (``--seat N=cmd:'spades bot --level hard'``),
can then use our bots. The protocol is described in docs/bot-protocol.md.
"""

from __future__ import annotations

import sys

import click

from spades_cli.bots import LEVELS, make_bot
from spades_cli.protocol import serve
from spades_cli.stdio import stdin_lines


@click.command("bot")
@click.option(
    "--level",
    type=click.Choice(LEVELS),
    default="normal",
    show_default=True,
    help="Which built-in bot answers.",
)
@click.option("--name", default=None, metavar="NAME", help="The name given in the handshake.")
def bot_command(level: str, name: str | None) -> None:
    """Answer bot-protocol requests on stdin with a built-in bot (see docs/bot-protocol.md).

    It reads commands line by line until 'quit' or the end of input, so a table can seat
    it with --seat SEAT=cmd:'spades bot --level LEVEL'.
    """
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(encoding="utf-8", errors="replace")
    serve(make_bot(level), stdin_lines(), sys.stdout, name=name)
