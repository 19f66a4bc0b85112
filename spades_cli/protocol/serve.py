"""The bot side of the protocol: answer requests with any built-in bot (``spades bot``)."""

from __future__ import annotations

import sys
import traceback
from typing import IO, TYPE_CHECKING

from spades_cli import __version__
from spades_cli.engine.notation import is_number, shown
from spades_cli.protocol.codec import (
    ACTION_TEXT,
    HELLO,
    PROTOCOL_VERSION,
    ProtocolError,
    RequestCache,
    parse_request,
)

if TYPE_CHECKING:
    from spades_cli.bots import Bot

__all__ = ["serve"]


def serve(bot: Bot, stdin: IO[str], stdout: IO[str], *, name: str | None = None) -> None:
    """Answer protocol commands on ``stdin`` with ``bot`` until ``quit`` or end of input."""
    name = " ".join((name or f"spades-{bot.level} {__version__}").split()) or "unnamed"
    cache = RequestCache()

    def answer(text: str) -> None:
        stdout.write(text + "\n")
        stdout.flush()

    while True:
        line = stdin.readline()
        if not line:
            return
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        word, _, rest = text.partition(" ")
        if word == HELLO:
            version = rest.strip()
            if is_number(version) and len(version) < 10 and int(version) >= PROTOCOL_VERSION:
                answer(f"= {PROTOCOL_VERSION} {name}")
            else:
                answer(
                    f"? unsupported protocol version {shown(version)} (this bot speaks {PROTOCOL_VERSION})"
                )
        elif word == "request":
            block = [text]
            while True:
                more = stdin.readline()
                if not more:
                    return
                more = more.strip()
                if more == "end":
                    break
                block.append(more)
            answer(_answer_request(bot, block, cache))
        elif word == "quit":
            answer("= bye")
            return
        else:
            answer(f"? unknown command {shown(word)}")


def _answer_request(bot: Bot, block: list[str], cache: RequestCache) -> str:
    try:
        request = parse_request(block, cache=cache)
    except ProtocolError as exc:
        return f"? bad request: {exc}"
    try:
        action = bot.act(request.obs, request.rules, request.rng())
    except Exception as exc:  # a bug in the bot must not end the conversation
        traceback.print_exc(file=sys.stderr)
        return f"? the bot failed: {type(exc).__name__}: {' '.join(str(exc).split())}"
    if action not in request.obs.legal:
        return f"? the bot chose {action}, which is not legal here"
    return f"= {ACTION_TEXT[action]}"
