"""The rules schema: every key path of the ``Rules`` tree, its value kind and its range.

This is the one walker of the ``Rules`` dataclass type hints (``spades_cli.engine.rules``,
which stays interpreted so that the hints can be read): the loader checks values against
:data:`SCHEMA` and the codec types value texts by it. Only the standard library and the
engine's ``Rules`` are used, so every layer may call it.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from spades_cli.engine.rules import QUIET, Rules

__all__ = ["LEAVES", "RANGES", "SCHEMA", "SECTION_PATHS", "Field", "Section", "default_of", "walk"]


@dataclass(frozen=True)
class Field:
    """One option: its key path, kind ("bool", "int", "str" or "choice"), whether it may
    be null, and the choices of a "choice" (a ``Literal``)."""

    path: str
    kind: str
    optional: bool
    choices: tuple[object, ...] = ()
    # A family option (engine/rules.py, QUIET): written in records only when not default.
    quiet: bool = False

    @property
    def value_type(self) -> type:
        """The Python type of the option's values: bool, int or str (a choice's type)."""
        if self.kind == "choice":
            first = type(self.choices[0])
            return first if first in (bool, int) else str
        return {"bool": bool, "int": int}.get(self.kind, str)


@dataclass(frozen=True)
class Section:
    """One dataclass of the tree: its key prefix ("" for the top level, else "nil." etc.),
    its class and its fields by name, in field order."""

    prefix: str
    cls: type
    fields: dict[str, Field | Section]


# Allowed ranges of the integer fields: (lowest, highest); None = unbounded on that side.
RANGES: dict[str, tuple[int | None, int | None]] = {
    "target": (1, 100_000),
    "losing_score": (None, -1),
    "mercy": (1, None),
    "bidding.min_bid": (0, 13),
    "bidding.team_min": (0, 13),
    "bidding.team_max": (1, 26),
    "bidding.suicide_min": (1, 13),
    "ten_for_two_hundred_set": (0, 1000),
    "hand_limit": (1, 1000),
    "boston.value": (0, 10_000),
    "blind_bid.min": (1, 18),
    "blind_bid.behind_by": (0, None),
    "nil.value": (0, 1000),
    "blind_nil.value": (0, 1000),
    "blind_nil.behind_by": (0, None),
    "blind_nil.exchange": (0, 13),
    "deck.discard": (0, 17),
    "bags.value": (-10, 10),
    "bags.limit": (1, 100),
    "bags.penalty": (0, 10_000),
}


def _field(path: str, hint: Any, quiet: bool = False) -> Field:
    optional = False
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        optional = len(args) < len(typing.get_args(hint))
        if len(args) != 1:  # pragma: no cover - the Rules tree has no such field
            raise TypeError(f"unsupported rule field type at {path}: {hint!r}")
        hint = args[0]
    if typing.get_origin(hint) is typing.Literal:
        return Field(path, "choice", optional, tuple(typing.get_args(hint)), quiet)
    kind = {bool: "bool", int: "int", str: "str"}.get(hint)
    if kind is None:  # pragma: no cover - the Rules tree has no such field
        raise TypeError(f"unsupported rule field type at {path}: {hint!r}")
    return Field(path, kind, optional, (), quiet)


def walk(cls: type, prefix: str = "", quiet: bool = False) -> Section:
    """The section of the dataclass ``cls`` (its nested dataclasses as sub-sections); the
    fields of a ``QUIET`` section are quiet too."""
    hints = typing.get_type_hints(cls)
    out: dict[str, Field | Section] = {}
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        q = quiet or bool(f.metadata.get(QUIET))
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            out[f.name] = walk(hint, f"{prefix}{f.name}.", q)
        else:
            out[f.name] = _field(prefix + f.name, hint, q)
    return Section(prefix, cls, out)


def _leaves(section: Section) -> Iterator[Field]:
    for sub in section.fields.values():
        if isinstance(sub, Section):
            yield from _leaves(sub)
        else:
            yield sub


SCHEMA = walk(Rules)
LEAVES: tuple[Field, ...] = tuple(_leaves(SCHEMA))
SECTION_PATHS = frozenset(name for name, sub in SCHEMA.fields.items() if isinstance(sub, Section))


_DEFAULT = Rules()


def default_of(path: str) -> object:
    """The value of the option at ``path`` in a default ``Rules()``."""
    value: object = _DEFAULT
    for part in path.split("."):
        value = getattr(value, part)
    return value
