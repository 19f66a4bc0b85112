"""What a preset says, before it becomes ``Rules``: its values with where each was given,
and the problems found, located, reported all at once.

A source (parsed YAML in :mod:`~spades_cli.presets.yaml_source`, or a plain mapping) is
read by a :class:`Side` into a :class:`Tree` of :class:`Val` checked against the schema;
every problem goes into :class:`Problems` as ``WHERE: key.path: what is wrong``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from spades_cli.engine.text import excerpt, shown
from spades_cli.errors import MultiError
from spades_cli.presets.schema import LEAVES, RANGES, Field, Section

__all__ = [
    "BASE_KEY",
    "MAX_SHOWN",
    "RANK_BASE",
    "RANK_DEFAULT",
    "RANK_FILE",
    "RANK_OVERRIDE",
    "Loc",
    "Problems",
    "PySide",
    "Shape",
    "Side",
    "Tree",
    "Unreadable",
    "Val",
    "convert_leaf",
    "convert_section",
    "hint",
    "overlay",
    "show",
    "suggestions",
]

BASE_KEY = "base"  # a file's key naming the shipped preset it changes

MAX_SHOWN = 20  # problems listed one by one; the rest are counted

# Which given value wins (the highest), and which problems are listed first (the lowest).
RANK_DEFAULT = 0
RANK_BASE = 1
RANK_FILE = 2
RANK_OVERRIDE = 3  # and on, one more for each override in order


@dataclass(frozen=True)
class Loc:
    """Where a value was given: a file and line, an override's text, or nowhere (a default)."""

    origin: str
    line: int | None
    rank: int

    def __str__(self) -> str:
        return f"{self.origin}:{self.line}" if self.line is not None else self.origin


class Problems:
    """Every problem found, each at its location."""

    def __init__(self) -> None:
        self._items: list[tuple[Loc, str, str]] = []

    def add(self, loc: Loc, path: str, message: str) -> None:
        self._items.append((loc, path, message))

    def __bool__(self) -> bool:
        return bool(self._items)

    @property
    def full(self) -> bool:
        """Enough problems to show: later ones are only counted (no costly hints)."""
        return len(self._items) >= MAX_SHOWN

    def lines(self) -> list[str]:
        order = sorted(
            range(len(self._items)),
            key=lambda i: (self._items[i][0].rank, self._items[i][0].line or 0, i),
        )
        out = []
        for i in order[:MAX_SHOWN]:
            loc, path, message = self._items[i]
            where = excerpt(str(loc), 80)
            out.append(f"{where}: {excerpt(path, 60)}: {message}" if path else f"{where}: {message}")
        if len(order) > MAX_SHOWN:
            more = len(order) - MAX_SHOWN
            out.append(f"... and {more} more problem{'s' if more > 1 else ''}")
        return out

    def raise_if_any(self) -> None:
        if self._items:
            raise MultiError(self.lines())


class Shape:
    """A YAML list or mapping found where a single value was expected."""

    def __init__(self, what: str) -> None:
        self.what = what


def show(value: object) -> str:
    """A value as a problem names it (``null``, ``true``, ``'text'``, ``a list``...)."""
    if isinstance(value, Shape):
        return value.what
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list | tuple | set):
        return "a list"
    return str(value)


# --------------------------------------------------------------------------- checking one value


def _range_text(lo: int | None, hi: int | None) -> str:
    if lo is not None and hi is not None:
        return f"between {lo} and {hi}"
    if lo is not None:
        return f"at least {lo}"
    if hi == -1:
        return "negative"
    return f"at most {hi}"


def _check_int(spec: Field, value: object, or_null: str) -> str | None:
    if not isinstance(value, int) or isinstance(value, bool):
        return f"expected an integer{or_null}, got {show(value)}"
    lo, hi = RANGES.get(spec.path, (None, None))
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        return f"must be {_range_text(lo, hi)}{or_null}, got {value}"
    return None


def _check_str(spec: Field, value: object, or_null: str) -> tuple[object, str | None]:
    if not isinstance(value, str):
        hint = " (put it in quotes)" if isinstance(value, int | float | bool) else ""
        return value, f"expected a string{or_null}, got {show(value)}{hint}"
    if spec.path == "first_dealer":
        value = value.strip().upper()
    named = spec.path in ("name", "first_dealer")
    if named and not value.strip():
        return value, "must not be empty"
    if any("\ud800" <= ch <= "\udfff" for ch in value):
        return value, f"{shown(value, 60)} holds a character that is not text (a lone surrogate)"
    if named and not value.isprintable():
        return value, f"{shown(value, 60)} holds a control character"
    return value, None


def _check_choice(spec: Field, value: object, or_null: str) -> str | None:
    # A Literal; the type must match too (True == 1 and 2.0 == 2 in Python).
    for choice in spec.choices:
        if type(value) is type(choice) and value == choice:
            return None
    if all(isinstance(c, int) for c in spec.choices):
        words = [str(c) for c in spec.choices]
        allowed = ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]
        return f"must be {allowed}{or_null}, got {show(value)}"
    allowed = ", ".join(str(c) for c in spec.choices)
    return f"must be one of {allowed}{or_null}; got {show(value)}"


def _check_leaf(spec: Field, value: object) -> tuple[object, str | None]:
    """The value to store (normalised) and an error message, or None if it is fine."""
    if value is None and spec.optional:
        return None, None
    or_null = " or null" if spec.optional else ""
    if spec.kind == "bool":
        ok = isinstance(value, bool)
        return value, None if ok else f"expected true or false{or_null}, got {show(value)}"
    if spec.kind == "int":
        return value, _check_int(spec, value, or_null)
    if spec.kind == "str":
        return _check_str(spec, value, or_null)
    return value, _check_choice(spec, value, or_null)


# --------------------------------------------------------------------------- value trees


@dataclass
class Val:
    """A value given for one option, where, and whether it passed its checks."""

    value: object
    loc: Loc
    ok: bool  # False: given but invalid (already reported); it still hides the base's value


class Tree(dict[str, "Val | Tree"]):
    """A (partial) preset: section name -> subtree, key -> given value."""


def overlay(dst: Tree, src: Tree) -> Tree:
    """``dst`` with every value of ``src`` put over it (sections merged key by key)."""
    for key, val in src.items():
        old = dst.get(key)
        if isinstance(val, Tree) and isinstance(old, Tree):
            overlay(old, val)
        else:
            dst[key] = val
    return dst


class Unreadable(Exception):
    """A value the source cannot give (bad YAML inside it, a number too long): the message."""


class Side(ABC):
    """How to read the mappings and values of one source (YAML nodes or Python objects)."""

    def __init__(self, origin: str, rank: int, *, lines: bool = True) -> None:
        self.origin = origin
        self.rank = rank
        self.lines = lines

    def loc(self, line: int | None = None) -> Loc:
        return Loc(self.origin, line if self.lines else None, self.rank)

    @abstractmethod
    def is_map(self, x: Any) -> bool:
        """Implemented by each source."""

    @abstractmethod
    def entries(self, x: Any) -> Iterator[tuple[str | None, Loc, Any]]:
        """Implemented by each source."""

    @abstractmethod
    def leaf(self, x: Any) -> object:
        """Implemented by each source."""


class PySide(Side):
    """Reads plain Python mappings and values (a transcript's rules, ``Rules`` as a dict)."""

    def is_map(self, x: Any) -> bool:
        return isinstance(x, Mapping)

    def entries(self, x: Any) -> Iterator[tuple[str | None, Loc, Any]]:
        for key, value in x.items():
            yield (key if isinstance(key, str) else None), self.loc(), value

    def leaf(self, x: Any) -> object:
        return x


def suggestions(key: str, section: Section) -> list[str]:
    """Full key paths the user may have meant by ``key`` inside ``section``."""
    import difflib  # only when a key is wrong

    # The exact key of another section first, e.g. ``min_bid`` given at the top level.
    same = [f.path for f in LEAVES if f.path.rsplit(".", 1)[-1] == key and f.path != section.prefix + key]
    if same:
        return same
    close = difflib.get_close_matches(key, list(section.fields), n=1, cutoff=0.6)
    if close:
        return [section.prefix + close[0]]
    names = {f.path.rsplit(".", 1)[-1]: f.path for f in LEAVES}
    return [names[c] for c in difflib.get_close_matches(key, list(names), n=1, cutoff=0.75)]


def hint(paths: Sequence[str]) -> str:
    """`` (did you mean 'a' or 'b'?)`` for these paths, or nothing."""
    return f" (did you mean {' or '.join(repr(p) for p in paths)}?)" if paths else ""


def convert_leaf(side: Side, x: Any, spec: Field, loc: Loc, problems: Problems) -> Val:
    """One value read and checked; a problem is reported (and the Val marked) if it is wrong."""
    try:
        raw = side.leaf(x)
    except Unreadable as exc:
        problems.add(loc, spec.path, f"cannot read this value: {exc}")
        return Val(None, loc, False)
    value, error = _check_leaf(spec, raw)
    if error is not None:
        problems.add(loc, spec.path, error)
        return Val(raw, loc, False)
    return Val(value, loc, True)


def _not_a_section(side: Side, child: Any, sub: Section, loc: Loc, path: str, problems: Problems) -> None:
    keys = ", ".join(sub.fields)
    try:
        got = show(side.leaf(child))
    except Unreadable:
        got = "something else"
    problems.add(loc, path, f"expected a mapping with the keys {keys}; got {got}")


def convert_section(
    side: Side,
    x: Any,
    section: Section,
    problems: Problems,
    extra: Iterable[str] = (),
) -> Tree:
    """Read one mapping; ``extra`` names keys kept as raw values (``base`` at the top level)."""
    tree = Tree()
    seen: dict[str, Loc] = {}
    extra = set(extra)
    for key, loc, child in side.entries(x):
        if key is None:
            where = section.prefix.rstrip(".") or "(top level)"
            problems.add(loc, where, "expected a key name (a plain word) as a key")
            continue
        path = section.prefix + key
        if key in seen:
            first = seen[key]
            at = f"on line {first.line}" if first.line is not None else "before"
            problems.add(loc, path, f"duplicate key (first given {at})")
            continue
        seen[key] = loc
        if key in extra:
            try:
                tree[key] = Val(side.leaf(child), loc, True)
            except Unreadable as exc:
                problems.add(loc, path, f"cannot read this value: {exc}")
            continue
        sub = section.fields.get(key)
        if sub is None:
            meant = "" if problems.full else hint(suggestions(key, section))
            problems.add(loc, path, "unknown key" + meant)
        elif not isinstance(sub, Section):
            tree[key] = convert_leaf(side, child, sub, loc, problems)
        elif side.is_map(child):
            tree[key] = convert_section(side, child, sub, problems)
        else:
            _not_a_section(side, child, sub, loc, path, problems)
    return tree
