"""Rule presets: find, load, validate, override and dump the YAML files that describe a table.

A preset is a YAML mapping whose keys are the attribute paths of the frozen ``Rules`` tree
(``spades_cli.engine.rules``): ``players``, ``nil.value``, ``bags.limit``... The shipped presets
live in the top-level ``rules/`` folder, installed as the package ``spades_cli.rules``.

Loading is strict and reports every problem at once, one line each, as
``FILE:LINE: key.path: what is wrong`` (``--set TEXT: key.path: ...`` for a command-line
override), raised together as one ``MultiError`` (exit code 2):

- only safe YAML; duplicate keys are errors; only ``true``/``false`` are booleans
  (``yes``, ``no``, ``on``, ``off``, ``y``, ``n`` are plain strings, so a bool field given
  ``no`` is a type error);
- unknown keys (with a "did you mean" hint), wrong types, numbers out of range, and options
  that contradict each other.

A custom file may say ``base: two-player`` (or ``four-player``) and give only the keys it
changes; without ``base``, missing keys take the dataclass defaults. The ``name`` is never
inherited from the base: a file that does not name itself is called ``custom``.

No engine logic lives here: this module only turns text into a validated ``Rules`` and back.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from spades_cli.engine.rules import SEAT_NAMES_2, SEAT_NAMES_4, Rules
from spades_cli.errors import MultiError, UsageError
from spades_cli.presets.codec import RuleValueError, parse_value

__all__ = [
    "DEFAULT_PRESET",
    "apply_overrides",
    "list_presets",
    "load_rules",
    "rules_from_dict",
    "rules_to_dict",
    "rules_to_yaml",
]

DEFAULT_PRESET = "four-player"
PRESETS_PACKAGE = "spades_cli.rules"

_BASE_KEY = "base"


# --------------------------------------------------------------------------- the schema


@dataclass(frozen=True)
class _Field:
    path: str
    kind: str  # "bool", "int", "str" or "choice"
    optional: bool
    choices: tuple[object, ...] = ()


@dataclass(frozen=True)
class _Section:
    prefix: str  # "" for the top level, else "nil." etc.
    cls: type
    fields: dict[str, _Field | _Section]


# Allowed ranges of the integer fields: (lowest, highest); None = unbounded on that side.
_RANGES: dict[str, tuple[int | None, int | None]] = {
    "target": (1, 100_000),
    "losing_score": (None, -1),
    "mercy": (1, None),
    "bidding.min_bid": (0, 13),
    "bidding.team_min": (0, 13),
    "bidding.team_max": (1, 26),
    "nil.value": (0, 1000),
    "blind_nil.value": (0, 1000),
    "blind_nil.behind_by": (0, None),
    "blind_nil.exchange": (0, 13),
    "bags.value": (-10, 10),
    "bags.limit": (1, 100),
    "bags.penalty": (0, 10_000),
}


def _field_spec(path: str, hint: Any) -> _Field:
    optional = False
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        optional = len(args) < len(typing.get_args(hint))
        if len(args) != 1:  # pragma: no cover - the Rules tree has no such field
            raise TypeError(f"unsupported rule field type at {path}: {hint!r}")
        hint = args[0]
    if typing.get_origin(hint) is typing.Literal:
        return _Field(path, "choice", optional, tuple(typing.get_args(hint)))
    if hint is bool:
        return _Field(path, "bool", optional)
    if hint is int:
        return _Field(path, "int", optional)
    if hint is str:
        return _Field(path, "str", optional)
    raise TypeError(f"unsupported rule field type at {path}: {hint!r}")  # pragma: no cover


def _section_spec(cls: type, prefix: str) -> _Section:
    hints = typing.get_type_hints(cls)
    out: dict[str, _Field | _Section] = {}
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            out[f.name] = _section_spec(hint, f"{prefix}{f.name}.")
        else:
            out[f.name] = _field_spec(prefix + f.name, hint)
    return _Section(prefix, cls, out)


_SCHEMA = _section_spec(Rules, "")


def _leaves(section: _Section) -> Iterator[_Field]:
    for sub in section.fields.values():
        if isinstance(sub, _Section):
            yield from _leaves(sub)
        else:
            yield sub


_LEAVES: tuple[_Field, ...] = tuple(_leaves(_SCHEMA))
_SECTION_PATHS = frozenset(name for name, sub in _SCHEMA.fields.items() if isinstance(sub, _Section))


def _default_of(path: str) -> object:
    value: object = Rules()
    for part in path.split("."):
        value = getattr(value, part)
    return value


# --------------------------------------------------------------------------- problems


@dataclass(frozen=True)
class _Loc:
    """Where a value was given: a file and line, an override's text, or nowhere (a default)."""

    origin: str
    line: int | None
    rank: int  # 0 default, 1 base preset, 2 the file itself, 3+ the overrides in order

    def __str__(self) -> str:
        return f"{self.origin}:{self.line}" if self.line is not None else self.origin


_RANK_DEFAULT = 0
_RANK_BASE = 1
_RANK_FILE = 2
_RANK_OVERRIDE = 3


MAX_SHOWN = 20  # problems listed one by one; the rest are counted


def _excerpt(text: str, limit: int = 60) -> str:
    """``text`` made printable (lone surrogates escaped) and cut to ``limit`` characters."""
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text if len(text) <= limit else text[:limit] + "..."


class _Problems:
    def __init__(self) -> None:
        self._items: list[tuple[_Loc, str, str]] = []

    def add(self, loc: _Loc, path: str, message: str) -> None:
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
            where = _excerpt(str(loc), 80)
            out.append(f"{where}: {_excerpt(path)}: {message}" if path else f"{where}: {message}")
        if len(order) > MAX_SHOWN:
            more = len(order) - MAX_SHOWN
            out.append(f"... and {more} more problem{'s' if more > 1 else ''}")
        return out

    def raise_if_any(self) -> None:
        if self._items:
            raise MultiError(self.lines())


class _Shape:
    """A YAML list or mapping found where a single value was expected."""

    def __init__(self, what: str) -> None:
        self.what = what


def _show(value: object) -> str:
    if isinstance(value, _Shape):
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


def _check_leaf(spec: _Field, value: object) -> tuple[object, str | None]:
    """The value to store (normalised) and an error message, or None if it is fine."""
    if value is None and spec.optional:
        return None, None
    or_null = " or null" if spec.optional else ""
    if spec.kind == "bool":
        if isinstance(value, bool):
            return value, None
        return value, f"expected true or false{or_null}, got {_show(value)}"
    if spec.kind == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            return value, f"expected an integer{or_null}, got {_show(value)}"
        lo, hi = _RANGES.get(spec.path, (None, None))
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            return value, f"must be {_range_text(lo, hi)}{or_null}, got {value}"
        return value, None
    if spec.kind == "str":
        if not isinstance(value, str):
            hint = " (put it in quotes)" if isinstance(value, int | float | bool) else ""
            return value, f"expected a string{or_null}, got {_show(value)}{hint}"
        if spec.path == "first_dealer":
            value = value.strip().upper()
        if spec.path in ("name", "first_dealer") and not value.strip():
            return value, "must not be empty"
        if any("\ud800" <= ch <= "\udfff" for ch in value):
            return value, f"{_excerpt(repr(value))} holds a character that is not text (a lone surrogate)"
        if spec.path in ("name", "first_dealer") and not value.isprintable():
            return value, f"{_excerpt(repr(value))} holds a control character"
        return value, None
    # "choice": a Literal; the type must match too (True == 1 and 2.0 == 2 in Python).
    for choice in spec.choices:
        if type(value) is type(choice) and value == choice:
            return value, None
    if all(isinstance(c, int) for c in spec.choices):
        allowed = " or ".join(str(c) for c in spec.choices)
        return value, f"must be {allowed}{or_null}, got {_show(value)}"
    allowed = ", ".join(str(c) for c in spec.choices)
    return value, f"must be one of {allowed}{or_null}; got {_show(value)}"


# --------------------------------------------------------------------------- value trees


@dataclass
class _Val:
    value: object
    loc: _Loc
    ok: bool  # False: given but invalid (already reported); it still hides the base's value


class _Tree(dict[str, "_Val | _Tree"]):
    """A (partial) preset: section name -> subtree, key -> given value."""


def _overlay(dst: _Tree, src: _Tree) -> _Tree:
    for key, val in src.items():
        old = dst.get(key)
        if isinstance(val, _Tree) and isinstance(old, _Tree):
            _overlay(old, val)
        else:
            dst[key] = val
    return dst


class _Unreadable(Exception):
    """A value the source cannot give (bad YAML inside it, a number too long): the message."""


class _Side(ABC):
    """How to read the mappings and values of one source (YAML nodes or Python objects)."""

    def __init__(self, origin: str, rank: int, *, lines: bool = True) -> None:
        self.origin = origin
        self.rank = rank
        self.lines = lines

    def loc(self, line: int | None = None) -> _Loc:
        return _Loc(self.origin, line if self.lines else None, self.rank)

    @abstractmethod
    def is_map(self, x: Any) -> bool:
        """Implemented by each source."""

    @abstractmethod
    def entries(self, x: Any) -> Iterator[tuple[str | None, _Loc, Any]]:
        """Implemented by each source."""

    @abstractmethod
    def leaf(self, x: Any) -> object:
        """Implemented by each source."""


class _PySide(_Side):
    def is_map(self, x: Any) -> bool:
        return isinstance(x, Mapping)

    def entries(self, x: Any) -> Iterator[tuple[str | None, _Loc, Any]]:
        for key, value in x.items():
            yield (key if isinstance(key, str) else None), self.loc(), value

    def leaf(self, x: Any) -> object:
        return x


def _suggestions(key: str, section: _Section) -> list[str]:
    """Full key paths the user may have meant by ``key`` inside ``section``."""
    import difflib  # only when a key is wrong

    close = difflib.get_close_matches(key, list(section.fields), n=1, cutoff=0.6)
    if close:
        return [section.prefix + close[0]]
    # The key of another section, e.g. ``min_bid`` given at the top level.
    same = [f.path for f in _LEAVES if f.path.rsplit(".", 1)[-1] == key and f.path != section.prefix + key]
    if same:
        return same
    names = {f.path.rsplit(".", 1)[-1]: f.path for f in _LEAVES}
    return [names[c] for c in difflib.get_close_matches(key, list(names), n=1, cutoff=0.75)]


def _hint(paths: Sequence[str]) -> str:
    return f" (did you mean {' or '.join(repr(p) for p in paths)}?)" if paths else ""


def _suggest(key: str, section: _Section) -> str:
    return _hint(_suggestions(key, section))


def _convert_leaf(side: _Side, x: Any, spec: _Field, loc: _Loc, problems: _Problems) -> _Val:
    try:
        raw = side.leaf(x)
    except _Unreadable as exc:
        problems.add(loc, spec.path, f"cannot read this value: {exc}")
        return _Val(None, loc, False)
    value, error = _check_leaf(spec, raw)
    if error is not None:
        problems.add(loc, spec.path, error)
        return _Val(raw, loc, False)
    return _Val(value, loc, True)


def _convert_section(
    side: _Side,
    x: Any,
    section: _Section,
    problems: _Problems,
    extra: Iterable[str] = (),
) -> _Tree:
    """Read one mapping; ``extra`` names keys kept as raw values (``base`` at the top level)."""
    tree = _Tree()
    seen: dict[str, _Loc] = {}
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
                tree[key] = _Val(side.leaf(child), loc, True)
            except _Unreadable as exc:
                problems.add(loc, path, f"cannot read this value: {exc}")
            continue
        sub = section.fields.get(key)
        if sub is None:
            problems.add(loc, path, "unknown key" + ("" if problems.full else _suggest(key, section)))
        elif isinstance(sub, _Section):
            if side.is_map(child):
                tree[key] = _convert_section(side, child, sub, problems)
            else:
                keys = ", ".join(sub.fields)
                try:
                    got = _show(side.leaf(child))
                except _Unreadable:
                    got = "something else"
                problems.add(loc, path, f"expected a mapping with the keys {keys}; got {got}")
        else:
            tree[key] = _convert_leaf(side, child, sub, loc, problems)
    return tree


def _is_path(source: str) -> bool:
    return "/" in source or "\\" in source or source.endswith((".yaml", ".yml"))


# --------------------------------------------------------------------------- base, overrides, result


def _apply_base(tree: _Tree, problems: _Problems) -> _Tree:
    """Resolve a ``base:`` key: the named shipped preset, overlaid with this tree."""
    base = tree.pop(_BASE_KEY, None)
    if base is None:
        return tree
    assert isinstance(base, _Val)
    if base.value is None:
        return tree
    if not isinstance(base.value, str):
        problems.add(base.loc, _BASE_KEY, f"expected the name of a shipped preset, got {_show(base.value)}")
        return tree
    from spades_cli.presets.yaml_source import (
        find_shipped,
        shipped_text,
        tree_from_text,
        unknown_preset_message,
    )

    info = find_shipped(base.value)
    if info is None:
        problems.add(base.loc, _BASE_KEY, unknown_preset_message(base.value))
        return tree
    base_tree = tree_from_text(shipped_text(info), info.file, _RANK_BASE, problems)
    base_tree.pop(_BASE_KEY, None)
    if "name" not in tree:
        base_tree.pop("name", None)  # the name is never inherited
    return _overlay(base_tree, tree)


def _apply_override(tree: _Tree, text: str, rank: int, problems: _Problems) -> None:
    loc = _Loc(f"--set {text}", None, rank)
    key_text, sep, raw = text.partition("=")
    key_text = key_text.strip()
    if not sep or not key_text:
        problems.add(loc, "", "expected KEY.PATH=VALUE, such as nil.value=50")
        return
    parts = key_text.split(".")
    spec: _Field | _Section = _SCHEMA
    for i, part in enumerate(parts):
        sub = spec.fields.get(part) if isinstance(spec, _Section) else None
        if sub is None:
            if isinstance(spec, _Section):
                rest = parts[i + 1 :]
                paths = [
                    ".".join([p, *rest]) if rest and p in _SECTION_PATHS else p
                    for p in _suggestions(part, spec)
                ]
                hint = _hint(paths)
            else:
                hint = f" ({spec.path} has no sub-keys)"
            problems.add(loc, key_text, "unknown key" + hint)
            return
        spec = sub
    new = _override_value(spec, raw, key_text, loc, problems)
    if new is None:
        return
    patch = _Tree()
    cursor = patch
    for part in parts[:-1]:
        nxt = _Tree()
        cursor[part] = nxt
        cursor = nxt
    cursor[parts[-1]] = new
    _overlay(tree, patch)


def _override_value(
    spec: _Field | _Section, raw: str, key_text: str, loc: _Loc, problems: _Problems
) -> _Val | _Tree | None:
    """The value of one ``--set``: a single option's value text as the rules codec reads it
    (``50``, ``null``, ``true``, ``house`` or ``"a quoted string"``; nothing is null), or
    a YAML flow mapping for a whole section. None when a problem was reported."""
    if isinstance(spec, _Field):
        text = raw.strip()
        try:
            value = None if not text else parse_value(spec.path, text)
        except RuleValueError as exc:
            problems.add(loc, key_text, f"cannot read the value: {exc}")
            return None
        return _convert_leaf(_PySide(loc.origin, loc.rank, lines=False), value, spec, loc, problems)
    from spades_cli.presets.yaml_source import section_from_text

    return section_from_text(raw, spec, key_text, loc, problems)


def _lookup(tree: _Tree, path: str) -> _Val | None:
    node: _Val | _Tree | None = tree
    for part in path.split("."):
        if not isinstance(node, _Tree):
            return None
        node = node.get(part)
    return node if isinstance(node, _Val) else None


def _check_together(values: dict[str, _Val], problems: _Problems) -> None:
    """The contradictions between options; each is reported once, at the most recent key involved."""

    def ok(*paths: str) -> bool:
        return all(values[p].ok for p in paths)

    def v(path: str) -> Any:
        return values[path].value

    def conflict(paths: Sequence[str], reason: str) -> None:
        chosen = max(range(len(paths)), key=lambda i: (values[paths[i]].loc.rank, -i))
        others = ", ".join(f"{p}: {_show(v(p))}" for i, p in enumerate(paths) if i != chosen)
        problems.add(values[paths[chosen]].loc, paths[chosen], f"{reason} (conflicts with {others})")

    if ok("players", "first_dealer") and v("first_dealer") is not None:
        seats = SEAT_NAMES_2 if v("players") == 2 else SEAT_NAMES_4
        if v("first_dealer") not in seats:
            conflict(
                ["first_dealer", "players"],
                f"{v('first_dealer')!r} is not a seat of the {v('players')}-player game "
                f"(seats: {', '.join(seats)})",
            )
    if ok("players", "bidding.team_min") and v("players") == 2 and v("bidding.team_min") != 0:
        conflict(["bidding.team_min", "players"], "a team minimum needs partnerships (the 4-player game)")
    if ok("players", "bidding.team_max") and v("players") == 2 and v("bidding.team_max") is not None:
        conflict(["bidding.team_max", "players"], "a team maximum needs partnerships (the 4-player game)")
    if (
        ok("bidding.team_min", "bidding.team_max")
        and v("bidding.team_max") is not None
        and v("bidding.team_min") > v("bidding.team_max")
    ):
        conflict(["bidding.team_min", "bidding.team_max"], "the team minimum is above the team maximum")
    if (
        ok("bidding.min_bid", "bidding.team_max")
        and v("bidding.team_max") is not None
        and v("bidding.min_bid") > v("bidding.team_max")
    ):
        conflict(["bidding.min_bid", "bidding.team_max"], "the lowest bid is above the team maximum")
    elif (
        ok("bidding.min_bid", "bidding.team_max", "nil.enabled")
        and v("bidding.team_max") is not None
        and not v("nil.enabled")
        and 2 * v("bidding.min_bid") > v("bidding.team_max")
    ):
        conflict(
            ["bidding.min_bid", "bidding.team_max"],
            "with nil off, two partners' lowest bids add up to more than the team maximum",
        )
    if ok("nil.enabled", "bidding.min_bid") and v("nil.enabled") and v("bidding.min_bid") == 0:
        conflict(
            ["bidding.min_bid", "nil.enabled"],
            "min_bid 0 makes 0 an ordinary bid, but with nil enabled a bid of 0 is nil "
            "(use min_bid 1, or disable nil)",
        )
    if ok("players", "blind_nil.exchange") and v("players") == 4 and v("blind_nil.exchange") > 0:
        conflict(
            ["blind_nil.exchange", "players"],
            "the exchange swaps cards with the draft's discard pile, which only the 2-player game has",
        )
    if ok("players", "nil.failed_tricks") and v("players") == 2 and v("nil.failed_tricks") == "partner":
        conflict(["nil.failed_tricks", "players"], "'partner' needs partnerships (the 4-player game)")
    if ok("players", "play.two_of_clubs_leads") and v("players") == 2 and v("play.two_of_clubs_leads"):
        conflict(
            ["play.two_of_clubs_leads", "players"],
            "in the 2-player draft game the two of clubs may be in the discard pile",
        )
    if ok("losing_score", "target") and v("losing_score") is not None and v("losing_score") >= v("target"):
        conflict(["losing_score", "target"], "the losing score must be below the target")


def _finish(tree: _Tree, origin: str, problems: _Problems) -> Rules:
    """Fill in defaults, check the options against each other, and build the Rules."""
    default_loc = _Loc(origin, None, _RANK_DEFAULT)
    values: dict[str, _Val] = {}
    for spec in _LEAVES:
        given = _lookup(tree, spec.path)
        values[spec.path] = given if given is not None else _Val(_default_of(spec.path), default_loc, True)
    _check_together(values, problems)
    problems.raise_if_any()

    def build(section: _Section) -> Any:
        kwargs: dict[str, Any] = {}
        for name, sub in section.fields.items():
            kwargs[name] = build(sub) if isinstance(sub, _Section) else values[sub.path].value
        return section.cls(**kwargs)

    rules = build(_SCHEMA)
    assert isinstance(rules, Rules)
    return rules


def _resolve(tree: _Tree, origin: str, overrides: Sequence[str], problems: _Problems) -> Rules:
    tree = _apply_base(tree, problems)
    if isinstance(overrides, str):  # a lone string would be split into characters
        overrides = [overrides]
    for i, text in enumerate(overrides):
        _apply_override(tree, text, _RANK_OVERRIDE + i, problems)
    return _finish(tree, origin, problems)


# --------------------------------------------------------------------------- public API


def load_rules(source: str, overrides: Sequence[str] = ()) -> Rules:
    """The validated rules of a shipped preset (by name or file stem) or a YAML file (by path).

    ``overrides`` are ``key.path=value`` texts (``--set``), applied before validation.
    Raises MultiError with every problem, FileFormatError for an unreadable file, and
    UsageError for an unknown preset name.
    """
    from spades_cli.presets.yaml_source import (
        find_shipped,
        read_file,
        shipped_text,
        tree_from_text,
        unknown_preset_message,
    )

    source = str(source)
    problems = _Problems()
    if _is_path(source):
        origin = source
        text = read_file(source)
    else:
        info = find_shipped(source)
        if info is None:
            raise UsageError(unknown_preset_message(source))
        origin = info.file
        text = shipped_text(info)
    tree = tree_from_text(text, origin, _RANK_FILE, problems)
    return _resolve(tree, origin, overrides, problems)


def apply_overrides(rules_source: str | Rules, overrides: Sequence[str]) -> Rules:
    """``rules_source`` (a preset name, a path, or Rules already loaded) with ``--set`` overrides."""
    if isinstance(rules_source, Rules):
        problems = _Problems()
        side = _PySide("<rules>", _RANK_BASE, lines=False)
        tree = _convert_section(side, rules_to_dict(rules_source), _SCHEMA, problems)
        return _resolve(tree, "<rules>", overrides, problems)
    return load_rules(rules_source, overrides)


def rules_from_dict(d: Mapping[str, Any], origin: str = "<dict>") -> Rules:
    """Rules from a plain mapping (for instance embedded in a transcript), validated like a file.

    Problems read ``ORIGIN: key.path: what is wrong``. A ``base`` key is honoured as in files.
    """
    problems = _Problems()
    side = _PySide(origin, _RANK_FILE, lines=False)
    if not isinstance(d, Mapping):
        problems.add(side.loc(), "", f"expected a mapping of rule keys, got {_show(d)}")
        problems.raise_if_any()
    tree = _convert_section(side, d, _SCHEMA, problems, extra=(_BASE_KEY,))
    return _resolve(tree, origin, (), problems)


def rules_to_dict(rules: Rules) -> dict[str, Any]:
    """The rules as a plain nested dict, in the dataclass field order (``name`` first)."""
    return dataclasses.asdict(rules)


def list_presets() -> list[tuple[str, str, str]]:
    """The shipped presets: (name, file name, one-line description), sorted by name."""
    from spades_cli.presets.yaml_source import shipped

    return [(p.name, p.file, p.description) for p in shipped()]


def rules_to_yaml(rules: Rules) -> str:
    """The fully resolved rules as a complete preset file; ``load_rules`` of it gives equal Rules."""
    from spades_cli.presets.yaml_source import dump

    return dump(rules_to_dict(rules))
