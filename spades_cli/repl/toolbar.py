"""The bottom toolbar and the colours of the prompt."""

from __future__ import annotations

from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.styles import Style

from spades_cli.repl.core import PlaySession

STYLE = Style.from_dict(
    {
        "suit-red": "ansired bold",
        "suit-black": "bold",
        "play-error": "ansired",
        "play-title": "bold",
        "play-dim": "ansibrightblack",
        "play-good": "ansigreen",
        "play-bad": "ansired",
        "bottom-toolbar": "reverse",
    }
)

KEYS = "help, Tab, Ctrl-D to leave"


def toolbar(session: PlaySession) -> FormattedText:
    """Two lines: hand, bids and tricks against bids; then score, bags and spades."""
    parts = session.status()
    if not parts:
        return FormattedText([("class:bottom-toolbar", f" {KEYS} ")])
    first = " | ".join(parts[:3])
    second = " | ".join(parts[3:])
    return FormattedText([("class:bottom-toolbar", f" {first} \n {second} | {KEYS} ")])
