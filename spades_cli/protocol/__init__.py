"""The bot protocol: any program can take a seat, and our bots can sit at other tables.

Both sides of the line-based protocol described in ``docs/bot-protocol.md`` live here:

* :mod:`.codec`: the requests both sides share (:func:`format_request`,
  :func:`parse_request`, :func:`rules_lines`);
* :mod:`.serve`: the bot side, :func:`serve`, which answers requests with any built-in
  bot (``spades bot --level LEVEL``);
* :mod:`.table`: the table side, :class:`ExternalController`, a seat played by a program,
  with :class:`BotFailure` and :class:`Takeover`;
* :mod:`.channel`: one running program (pipes, deadlines, caps, its log);
* :mod:`.reaper`: every program dies with its table.

The table side is imported only when it is used, so that ``spades bot`` starts quickly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from spades_cli.protocol.codec import (
    DEFAULT_TIMEOUT,
    HELLO,
    KIND_OF_PHASE,
    PHASE_OF_KIND,
    PROTOCOL_VERSION,
    ProtocolError,
    Request,
    RequestCache,
    bid_token,
    format_request,
    parse_request,
    rules_from_lines,
    rules_lines,
)
from spades_cli.protocol.serve import serve

if TYPE_CHECKING:
    from spades_cli.protocol.channel import parse_command
    from spades_cli.protocol.table import BotFailure, ExternalController, Takeover

__all__ = [
    "DEFAULT_TIMEOUT",
    "HELLO",
    "KIND_OF_PHASE",
    "PHASE_OF_KIND",
    "PROTOCOL_VERSION",
    "BotFailure",
    "ExternalController",
    "ProtocolError",
    "Request",
    "RequestCache",
    "Takeover",
    "bid_token",
    "format_request",
    "parse_command",
    "parse_request",
    "rules_from_lines",
    "rules_lines",
    "serve",
]

_LAZY = {
    "BotFailure": "table",
    "ExternalController": "table",
    "Takeover": "table",
    "parse_command": "channel",
}


def __getattr__(name: str) -> Any:
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module 'spades_cli.protocol' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"spades_cli.protocol.{where}"), name)
    globals()[name] = value
    return value
