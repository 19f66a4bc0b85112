"""Fitting text to the terminal: its width, line wrapping at word boundaries, suit symbols.

Every line the game prints goes through :func:`wrap_frags` (styled) or :func:`wrap`
(plain; :func:`wrap_lines` for a writer of whole lines, ANSI colours allowed) so that no
word is ever cut in two, whatever the width. Widths are display widths (:func:`text_width`:
``wcwidth``, as prompt_toolkit measures them), so a Japanese character counts two columns.
Suit symbols are used only when the output can write them: not with ``--ascii``, not when the output's
encoding cannot encode ``♠``, and not in the C / POSIX locale (``LANG=C``), where
Python writes UTF-8 anyway but the terminal usually cannot show it.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable
from typing import TextIO

from wcwidth import wcwidth

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


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def text_width(s: str) -> int:
    """The columns ``s`` takes on a terminal: wide (East Asian) characters two, combining
    marks and ANSI colour codes none."""
    if s.isascii():
        return len(_ANSI.sub("", s)) if "\x1b" in s else len(s)
    return sum(max(0, wcwidth(c)) for c in _ANSI.sub("", s))


def ljust(s: str, columns: int) -> str:
    """``s`` padded with spaces to ``columns`` display columns."""
    return s + " " * max(0, columns - text_width(s))


def rjust(s: str, columns: int) -> str:
    return " " * max(0, columns - text_width(s)) + s


_WIDE = "\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef"  # CJK: a line may break between them
_PIECES = re.compile(rf"\n|[ \t]+|[{_WIDE}]|[^ \t\n{_WIDE}]+")
_NO_BREAK_BEFORE = frozenset("、。，．）」』】！？：；ー々.,;:!?)]")  # Japanese: never at the start of a line
_NO_BREAK_AFTER = frozenset("（「『【")  # never at the end of one


def _breaks(before: str, piece: str) -> bool:
    """Whether a line may break between two pieces with no space between them: only
    around a CJK character, and not before closing or after opening punctuation."""
    wide = re.match(rf"[{_WIDE}]", piece) is not None or re.match(rf"[{_WIDE}]", before[-1:]) is not None
    return wide and piece[:1] not in _NO_BREAK_BEFORE and before[-1:] not in _NO_BREAK_AFTER


def wrap_frags(frags: Iterable[Frag], width: int, indent: str = INDENT) -> Fragments:
    """Styled text wrapped at ``width``: breaks only between words, never inside one (a word
    longer than a line stays whole); lines that continue a wrapped one start with ``indent``;
    the leading spaces of a line are kept."""
    words: list[list[Frag]] = []  # each: a word (one or more styled pieces) or a space or "\n"
    joined = True
    for style, chunk in frags:
        for piece in _PIECES.findall(chunk):
            is_word = not piece.isspace()
            glued = joined and words and not words[-1][0][1].isspace()
            if is_word and glued and not _breaks(words[-1][-1][1], piece):
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
                col += text_width(first)
            else:
                pending = word
            continue
        size = sum(text_width(t) for _, t in word)
        gap = sum(text_width(t) for _, t in pending)
        if not at_start and col + gap + size > width:
            out.append(("", "\n" + indent))
            col = text_width(indent)
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


def wrap_lines(text: str, columns: int | None, indent: str = INDENT) -> str:
    """Lines for a writer of whole lines (``replay``, the printers, the host's log,
    ``stats``, ``analyze``): each wrapped at ``columns`` between words; unchanged when
    ``columns`` is None (a pipe or a file: whole lines for the program reading them). ANSI
    colour codes take no columns."""
    if columns is None or (text_width(text) <= columns and "\n" not in text):
        return text
    lines = text.split("\n")
    return "\n".join(wrap(line, columns, indent) if text_width(line) > columns else line for line in lines)
