"""The bottom toolbar and the colours of the prompt."""

from __future__ import annotations

from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.styles import Style

from spades_cli.repl.session import Session
from spades_cli.view import pack

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

KEYS = "help, Tab, Ctrl-D"


def toolbar(session: Session) -> FormattedText:
    """The hand, every seat's bid and tricks, each side's tricks, score and bags, spades, and
    the keys, packed into as few lines as fit the terminal's width (60 columns: three)."""
    parts = [*session.status(), KEYS]
    lines = pack(parts, session.width - 2)
    return FormattedText([("class:bottom-toolbar", "\n".join(f" {line} " for line in lines))])
