"""The one quoting policy for text the program did not write: words and lines of a
transcript or a script, a peer's reason or chat, a preset's key or value in a problem.

Such text is shown escaped (control characters, marks that reverse the text and other
unprintable characters, lone surrogates included, as ``\\x1b``, ``\\u202e``, ``\\udc80``)
and cut to a short excerpt (at most :data:`EXCERPT` characters of it, the last three
``...`` when it was cut), so that neither an escape sequence nor a
whole paste reaches the terminal. Text kept or shown whole (a chat line stored in a
transcript, a label or a description a peer sent) goes through :func:`safe_line`: the
same escapes, no cut. It lives in the engine, the one part every other may
import, because the engine's own messages quote the words they were given.
"""

from __future__ import annotations

from typing import Final

__all__ = ["EXCERPT", "MARK", "excerpt", "safe_line", "shown"]

EXCERPT: Final = 40  # characters at most that a message quotes of what it was given
MARK: Final = "..."  # ends an excerpt that was cut


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - len(MARK)] + MARK


def safe_line(text: str) -> str:
    """``text`` whole, as one line that may reach a terminal: every character that is not
    printable escaped (control characters C0 and C1, ESC and NUL among them, the marks that
    reverse the text, zero-width characters, line breaks, lone surrogates)."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """At most ``limit`` characters of ``text`` (the last three ``...`` when it is cut),
    unprintable characters escaped."""
    return safe_line(_cut(text, limit))


def shown(text: str, limit: int = EXCERPT) -> str:
    """The same excerpt as a message quotes it: in quotes, by Python's ``repr`` (which
    escapes the same characters, and the quotes and backslashes too)."""
    return repr(_cut(text, limit))
