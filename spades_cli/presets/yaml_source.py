"""Preset files: the strict YAML loader, the limits on what it reads, and the shipped presets.

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

import difflib
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

import yaml

from spades_cli.errors import FileFormatError
from spades_cli.presets import (
    _BASE_KEY,
    _SCHEMA,
    PRESETS_PACKAGE,
    _convert_section,
    _Loc,
    _Problems,
    _Section,
    _Shape,
    _show,
    _Side,
    _Tree,
    _Unreadable,
)
from spades_cli.presets.codec import MAX_INT_DIGITS

__all__ = [
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_LINE_CHARS",
    "StrictLoader",
    "dump",
    "find_shipped",
    "read_file",
    "section_from_text",
    "shipped",
    "shipped_text",
    "tree_from_text",
    "unknown_preset_message",
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


class YamlSide(_Side):
    """Reads the nodes of one parsed YAML document."""

    def __init__(self, origin: str, rank: int, loader: StrictLoader, *, lines: bool = True) -> None:
        super().__init__(origin, rank, lines=lines)
        self.loader = loader

    def is_map(self, x: Any) -> bool:
        return isinstance(x, yaml.MappingNode)

    def entries(self, x: Any) -> Iterator[tuple[str | None, _Loc, Any]]:
        for key_node, value_node in x.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
            yield key, self.loc(key_node.start_mark.line + 1), value_node

    def leaf(self, x: Any) -> object:
        if isinstance(x, yaml.SequenceNode):
            return _Shape("a list")
        if isinstance(x, yaml.MappingNode):
            return _Shape("a mapping")
        if x.tag == _INT_TAG:
            digits = x.value.lstrip("+-")
            if not (digits.isascii() and digits.isdigit()):
                raise _Unreadable(f"{x.value[:40]!r} is not a decimal integer")
            if len(digits) > MAX_INT_DIGITS:
                raise _Unreadable(f"an integer of more than {MAX_INT_DIGITS} digits")
            return int(x.value, 10)
        try:
            return self.loader.construct_object(x, deep=True)
        except (yaml.YAMLError, ValueError, OverflowError) as exc:
            raise _Unreadable(_yaml_message(exc)) from None


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


def tree_from_text(text: str, origin: str, rank: int, problems: _Problems) -> _Tree:
    """Parse one preset file (keeping ``base`` as a raw value) into a tree, reporting problems."""
    try:
        loader, node = _compose(text)
    except _ParseProblem as exc:
        problems.add(_Loc(origin, exc.line, rank), "", f"invalid YAML: {exc.message}")
        return _Tree()
    try:
        if node is None:
            problems.add(_Loc(origin, 1, rank), "", "the file is empty (expected a mapping of rule keys)")
            return _Tree()
        if not isinstance(node, yaml.MappingNode):
            got = "a list" if isinstance(node, yaml.SequenceNode) else f"the value {node.value[:40]!r}"
            problems.add(
                _Loc(origin, node.start_mark.line + 1, rank),
                "",
                f"expected a mapping of rule keys (such as 'players: 4') at the top level, got {got}",
            )
            return _Tree()
        side = YamlSide(origin, rank, loader)
        return _convert_section(side, node, _SCHEMA, problems, extra=(_BASE_KEY,))
    finally:
        loader.dispose()


def section_from_text(
    raw: str, spec: _Section, key_text: str, loc: _Loc, problems: _Problems
) -> _Tree | None:
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
                got = "null" if node is None else _show(side.leaf(node))
            except _Unreadable:
                got = "something else"
            problems.add(loc, key_text, f"expected a mapping with the keys {keys}; got {got}")
            return None
        return _convert_section(side, node, spec, problems)
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


# --------------------------------------------------------------------------- shipped presets


@dataclass(frozen=True)
class PresetInfo:
    name: str
    file: str
    description: str


def _presets_dir() -> Traversable:
    """The shipped presets: the installed package ``spades_cli.rules``; when the code
    runs straight from a source checkout (no install maps ``rules/`` into the package),
    the checkout's top-level ``rules/`` folder."""
    try:
        return resources.files(PRESETS_PACKAGE)
    except ModuleNotFoundError:
        return resources.files("spades_cli").joinpath("..", "rules")


@lru_cache(maxsize=1)
def shipped() -> tuple[PresetInfo, ...]:
    """The shipped presets, sorted by name."""
    found = []
    for entry in _presets_dir().iterdir():
        if not entry.name.endswith((".yaml", ".yml")) or not entry.is_file():
            continue
        stem = entry.name.rsplit(".", 1)[0]
        name, description = stem, ""
        try:
            data = yaml.load(entry.read_text(encoding="utf-8"), Loader=StrictLoader)
        except yaml.YAMLError:
            data = None
        if isinstance(data, dict):
            if isinstance(data.get("name"), str):
                name = data["name"]
            if isinstance(data.get("description"), str):
                description = data["description"].strip().splitlines()[0] if data["description"] else ""
        found.append(PresetInfo(name, entry.name, description))
    return tuple(sorted(found, key=lambda p: p.name))


def find_shipped(name: str) -> PresetInfo | None:
    for info in shipped():
        if name in (info.name, info.file, info.file.rsplit(".", 1)[0]):
            return info
    return None


def unknown_preset_message(name: str) -> str:
    names = [p.name for p in shipped()]
    candidates = names + [p.file.rsplit(".", 1)[0] for p in shipped()]
    close = difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    shown = name if len(name) <= 60 else name[:60] + "..."
    return f"unknown rules preset {shown!r} (presets: {', '.join(names)}; or give a .yaml file){hint}"


def shipped_text(info: PresetInfo) -> str:
    return _presets_dir().joinpath(info.file).read_text(encoding="utf-8")


def dump(tree: dict[str, Any]) -> str:
    """A rules tree as a complete preset file."""
    return yaml.safe_dump(tree, sort_keys=False, default_flow_style=False, allow_unicode=True, width=1000)
