"""Preset files: the strict YAML loader and the limits on what it reads.

A preset file is data someone may have sent: whatever it holds, reading it ends in a
validated ``Rules`` or in problems (``FILE:LINE: what``), never in a traceback, and it is
read within these limits (stated in README.md, "Rules and presets"):

- only regular files (a device, a FIFO or a socket is refused before reading), at most
  MAX_FILE_BYTES, UTF-8 text (a bad byte is reported with its line), lines of at most
  MAX_LINE_CHARS characters;
- mappings and lists nested at most MAX_DEPTH deep, integers of at most
  ``rulecodec.MAX_INT_DIGITS`` digits, in decimal only (``010`` is ten; YAML 1.1's
  sexagesimal ``8:20`` and ``1_000`` are strings, so a number field reports them);
- only ``true``/``false`` are booleans (``yes``, ``no``, ``on``, ``off`` stay strings).

The YAML library is imported only here, so commands that never read a preset file (the
``spades bot`` protocol speaker) do not load it.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from typing import Any

import yaml

from spades_cli.engine.text import shown
from spades_cli.errors import FileFormatError
from spades_cli.presets.codec import MAX_INT_DIGITS
from spades_cli.presets.schema import SCHEMA, Section
from spades_cli.presets.tree import (
    BASE_KEY,
    Loc,
    Problems,
    Shape,
    Side,
    Tree,
    Unreadable,
    convert_section,
    show,
)

__all__ = [
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_LINE_CHARS",
    "StrictLoader",
    "dump",
    "load_plain",
    "read_file",
    "section_from_text",
    "tree_from_text",
]

MAX_FILE_BYTES = 1024 * 1024  # a preset file may be this long (the shipped ones are about 1 KiB)
MAX_LINE_CHARS = 1000  # and its lines this long
MAX_DEPTH = 20  # mappings and lists nested this deep

_BOOL_TAG = "tag:yaml.org,2002:bool"
_INT_TAG = "tag:yaml.org,2002:int"
_FLOAT_TAG = "tag:yaml.org,2002:float"
_Base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when installed: faster


class StrictLoader(_Base):  # type: ignore[misc]
    """A safe loader where only ``true``/``false`` (any letter case) are booleans and
    numbers are plain decimals.

    YAML 1.1 also reads ``yes/no/on/off`` as booleans, which silently turns ``first_dealer: N``
    style mistakes into wrong values, and ``8:20`` as the number 500; here they stay strings,
    so a bool or number field given them reports a type error.
    """


_REPLACED = (_BOOL_TAG, _INT_TAG, _FLOAT_TAG)
StrictLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag not in _REPLACED]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
StrictLoader.add_implicit_resolver(_BOOL_TAG, re.compile(r"^(?:true|false)$", re.IGNORECASE), list("tTfF"))
StrictLoader.add_implicit_resolver(_INT_TAG, re.compile(r"^[-+]?[0-9]+$"), list("-+0123456789"))
StrictLoader.add_implicit_resolver(
    _FLOAT_TAG,
    re.compile(r"^(?:[-+]?[0-9]*\.[0-9]+(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"),
    list("-+0123456789."),
)


class YamlSide(Side):
    """Reads the nodes of one parsed YAML document."""

    def __init__(self, origin: str, rank: int, loader: StrictLoader, *, lines: bool = True) -> None:
        super().__init__(origin, rank, lines=lines)
        self.loader = loader

    def is_map(self, x: Any) -> bool:
        return isinstance(x, yaml.MappingNode)

    def entries(self, x: Any) -> Iterator[tuple[str | None, Loc, Any]]:
        for key_node, value_node in x.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
            yield key, self.loc(key_node.start_mark.line + 1), value_node

    def leaf(self, x: Any) -> object:
        if isinstance(x, yaml.SequenceNode):
            return Shape("a list")
        if isinstance(x, yaml.MappingNode):
            return Shape("a mapping")
        if x.tag == _INT_TAG:
            digits = x.value.lstrip("+-")
            if not (digits.isascii() and digits.isdigit()):
                raise Unreadable(f"{shown(x.value)} is not a decimal integer")
            if len(digits) > MAX_INT_DIGITS:
                raise Unreadable(f"an integer of more than {MAX_INT_DIGITS} digits")
            return int(x.value, 10)
        try:
            return self.loader.construct_object(x, deep=True)
        except (yaml.YAMLError, ValueError, OverflowError) as exc:
            raise Unreadable(_yaml_message(exc)) from None


def _yaml_message(exc: Exception) -> str:
    if isinstance(exc, yaml.MarkedYAMLError):
        parts = [p for p in (exc.context, exc.problem) if p]
        return ": ".join(parts) if parts else "invalid YAML"
    if isinstance(exc, yaml.reader.ReaderError):
        return f"invalid character {exc.character!r}" if isinstance(exc.character, str) else str(exc.reason)
    if isinstance(exc, RecursionError):
        return f"nested deeper than {MAX_DEPTH} levels"
    return " ".join(str(exc).split())[:120] or type(exc).__name__


def _yaml_error_line(exc: Exception, text: str, loader: Any = None) -> int:
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        if mark is not None:
            return int(mark.line) + 1
    if isinstance(exc, yaml.reader.ReaderError) and isinstance(exc.position, int):
        return text.count("\n", 0, exc.position) + 1
    line = getattr(loader, "line", None)  # the pure-Python reader knows where it stopped
    return line + 1 if isinstance(line, int) else 1


_BRACKETS = re.compile(r"[\[\]{}]")


def _too_deep(text: str) -> int | None:
    """The line where flow collections (``[`` ``{``) nest deeper than MAX_DEPTH, if any.

    Checked before parsing, so that no parser recurses without bound; brackets inside
    quoted strings count too (a preset has no reason to hold twenty of them in a row)."""
    depth = 0
    for m in _BRACKETS.finditer(text):
        depth = depth + 1 if m.group() in "[{" else max(depth - 1, 0)
        if depth > MAX_DEPTH:
            return text.count("\n", 0, m.start()) + 1
    return None


class _ParseProblem(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def _compose(text: str) -> tuple[Any, Any]:
    """Parse ``text``: (loader, root node); _ParseProblem if it cannot be parsed."""
    line = _too_deep(text)
    if line is not None:
        raise _ParseProblem(line, f"nested deeper than {MAX_DEPTH} levels")
    loader = None
    try:
        loader = StrictLoader(text)
        return loader, loader.get_single_node()
    except (yaml.YAMLError, ValueError, OverflowError, RecursionError) as exc:
        if loader is not None:
            loader.dispose()
        raise _ParseProblem(_yaml_error_line(exc, text, loader), _yaml_message(exc)) from None


def tree_from_text(text: str, origin: str, rank: int, problems: Problems) -> Tree:
    """Parse one preset file (keeping ``base`` as a raw value) into a tree, reporting problems."""
    try:
        loader, node = _compose(text)
    except _ParseProblem as exc:
        problems.add(Loc(origin, exc.line, rank), "", f"invalid YAML: {exc.message}")
        return Tree()
    try:
        if node is None:
            problems.add(Loc(origin, 1, rank), "", "the file is empty (expected a mapping of rule keys)")
            return Tree()
        if not isinstance(node, yaml.MappingNode):
            got = "a list" if isinstance(node, yaml.SequenceNode) else f"the value {shown(node.value)}"
            problems.add(
                Loc(origin, node.start_mark.line + 1, rank),
                "",
                f"expected a mapping of rule keys (such as 'players: 4') at the top level, got {got}",
            )
            return Tree()
        side = YamlSide(origin, rank, loader)
        return convert_section(side, node, SCHEMA, problems, extra=(BASE_KEY,))
    finally:
        loader.dispose()


def section_from_text(raw: str, spec: Section, key_text: str, loc: Loc, problems: Problems) -> Tree | None:
    """A whole section given to ``--set`` as a YAML flow mapping; None after a problem."""
    try:
        loader, node = _compose(raw)
    except _ParseProblem as exc:
        problems.add(loc, key_text, f"cannot parse the value: {exc.message}")
        return None
    try:
        side = YamlSide(loc.origin, loc.rank, loader, lines=False)
        if node is None or not side.is_map(node):
            keys = ", ".join(spec.fields)
            try:
                got = "null" if node is None else show(side.leaf(node))
            except Unreadable:
                got = "something else"
            problems.add(loc, key_text, f"expected a mapping with the keys {keys}; got {got}")
            return None
        return convert_section(side, node, spec, problems)
    finally:
        loader.dispose()


def read_file(path: str) -> str:
    """The text of a preset file, within the limits above (FileFormatError otherwise)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise FileFormatError("no such file", file=path) from None
    except IsADirectoryError:
        raise FileFormatError("is a folder, not a preset file", file=path) from None
    except OSError as exc:
        raise FileFormatError(f"cannot read: {exc.strerror or exc}", file=path) from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise FileFormatError("is a folder, not a preset file", file=path)
        if not stat.S_ISREG(mode):
            raise FileFormatError("is not a regular file (a device, pipe or socket): not read", file=path)
        data = os.read(fd, MAX_FILE_BYTES + 1)
        while len(data) <= MAX_FILE_BYTES and (more := os.read(fd, MAX_FILE_BYTES + 1 - len(data))):
            data += more
    except OSError as exc:
        raise FileFormatError(f"cannot read: {exc.strerror or exc}", file=path) from None
    finally:
        os.close(fd)
    if len(data) > MAX_FILE_BYTES:
        raise FileFormatError(f"is longer than {MAX_FILE_BYTES // 1024} KiB: not a preset file", file=path)
    return _decode(data, path)


def _decode(data: bytes, path: str) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise FileFormatError(
            f"not UTF-8 text: byte 0x{data[exc.start]:02x} in column {column}", file=path, line=line
        ) from None
    if len(text) > MAX_LINE_CHARS:
        for number, line_text in enumerate(text.split("\n"), 1):
            if len(line_text) > MAX_LINE_CHARS:
                message = f"a line longer than {MAX_LINE_CHARS} characters"
                raise FileFormatError(message, file=path, line=number)
    return text


def load_plain(text: str) -> object:
    """The plain data of a YAML text read by the strict loader (None if it is no YAML)."""
    try:
        return yaml.load(text, Loader=StrictLoader)
    except yaml.YAMLError:
        return None


def dump(tree: dict[str, Any]) -> str:
    """A rules tree as a complete preset file."""
    return yaml.safe_dump(tree, sort_keys=False, default_flow_style=False, allow_unicode=True, width=1000)
