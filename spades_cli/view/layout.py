"""Fitting text to the terminal: its width, line wrapping at word boundaries, suit symbols.

Every line the game prints goes through :func:`wrap_frags` (styled) or :func:`wrap`
(plain) so that no word is ever cut in two, whatever the width. Suit symbols are used
only when the output can write them: not with ``--ascii``, not when the output's
encoding cannot encode ``♠``, and not in the C / POSIX locale (``LANG=C``), where
Python writes UTF-8 anyway but the terminal usually cannot show it.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable
from typing import TextIO

Frag = tuple[str, str]
Fragments = list[Frag]

MIN_WIDTH = 20
DEFAULT_WIDTH = 80
MAX_WIDTH = 100  # long lines are hard to read even on a wide terminal
INDENT = "  "  # the start of a line that continues a wrapped one


def output_width(stream: TextIO | None = None) -> int | None:
    """The width to write for: ``$COLUMNS``, else the terminal's; None for a pipe or a file
    (their lines are not wrapped, so a program reading them gets whole lines). Between 20
    and 100 (long lines are hard to read even on a wide terminal)."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isascii() and columns.isdigit() and len(columns) < 10 and int(columns) > 0:
        width = int(columns)
    else:
        try:
            out = stream or sys.stdout
            if not out.isatty():
                return None
            width = os.get_terminal_size(out.fileno()).columns
        except (OSError, ValueError, AttributeError):
            return None
    return max(MIN_WIDTH, min(width, MAX_WIDTH))


def terminal_width(stream: TextIO | None = None) -> int:
    """The width the views are laid out for: :func:`output_width`, else 80."""
    return output_width(stream) or DEFAULT_WIDTH


def _c_locale() -> bool:
    """True in the C / POSIX locale (``LANG=C``, ``LC_ALL=C``). Python coerces a C locale to
    C.UTF-8 (PEP 538) by setting ``LC_CTYPE`` while ``LANG`` stays ``C``: that counts as C."""
    env = os.environ
    name = env.get("LC_ALL") or env.get("LC_CTYPE") or env.get("LANG") or ""
    if not env.get("LC_ALL") and env.get("LC_CTYPE") == "C.UTF-8" and env.get("LANG") in ("C", "POSIX"):
        return True
    return name in ("C", "POSIX")


def symbols_ok(ascii_only: bool = False, stream: TextIO | None = None) -> bool:
    """Suit symbols unless ``--ascii``, the C locale, or an output that cannot encode them."""
    if ascii_only or _c_locale():
        return False
    encoding = getattr(stream if stream is not None else sys.stdout, "encoding", None) or "ascii"
    try:
        "♠♥♦♣".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


_PIECES = re.compile(r"\n|[ \t]+|[^ \t\n]+")


def wrap_frags(frags: Iterable[Frag], width: int, indent: str = INDENT) -> Fragments:
    """Styled text wrapped at ``width``: breaks only between words, never inside one (a word
    longer than a line stays whole); lines that continue a wrapped one start with ``indent``;
    the leading spaces of a line are kept."""
    words: list[list[Frag]] = []  # each: a word (one or more styled pieces) or a space or "\n"
    joined = True
    for style, chunk in frags:
        for piece in _PIECES.findall(chunk):
            is_word = not piece.isspace()
            if is_word and joined and words and not words[-1][0][1].isspace():
                words[-1].append((style, piece))
            else:
                words.append([(style, piece)])
            joined = is_word
        # a word split over two fragments ("Q♥" then ".") stays one word
    out: Fragments = []
    col = 0
    pending: list[Frag] = []  # spaces waiting for the next word on the line
    at_start = True
    for word in words:
        first = word[0][1]
        if first == "\n":
            out.append(("", "\n"))
            col, pending, at_start = 0, [], True
            continue
        if first.isspace():
            if at_start:
                out.append(word[0])
                col += len(first)
            else:
                pending = word
            continue
        size = sum(len(t) for _, t in word)
        gap = sum(len(t) for _, t in pending)
        if not at_start and col + gap + size > width:
            out.append(("", "\n" + indent))
            col = len(indent)
        else:
            out.extend(pending)
            col += gap
        pending = []
        out.extend(word)
        col += size
        at_start = False
    return out


def wrap(text: str, width: int, indent: str = INDENT) -> str:
    """Plain text wrapped at ``width`` between words (see :func:`wrap_frags`)."""
    return "".join(t for _, t in wrap_frags([("", text)], width, indent))
