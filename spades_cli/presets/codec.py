"""The rules tree as flat ``(key.path, value)`` pairs, and the one text form of a rule value.

Three places write rules one option at a time: a transcript's ``[Rule "KEY.PATH" "VALUE"]``
tags, the ``rule KEY.PATH VALUE`` lines of a bot-protocol request and the
``--set KEY.PATH=VALUE`` overrides. They all use this module:

- :func:`flatten` / :func:`flat_rules` walk a ``Rules`` in its field order;
- :func:`value_text` writes a value: ``null``, ``true``/``false``, a decimal integer, a
  string as it is (or as a JSON string: always in the protocol, where the line gives
  no other delimiter, and elsewhere when the string itself starts with a double quote);
- :func:`parse_value` reads such a text back, typed by the rules schema (so ``42`` is a
  number for ``target`` and the text ``"42"`` for ``name``); text that fits no type is
  returned unchanged, for the validator (``spades_cli.presets``) to report;
- :func:`put` / :func:`unflatten` rebuild the nested mapping that
  ``presets.rules_from_dict`` validates.

Values are typed by :mod:`spades_cli.presets.schema`. Only the standard library, the
engine and the schema are used, so every layer may call it.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping
from typing import Any

from spades_cli.engine.rules import Rules
from spades_cli.engine.text import shown
from spades_cli.presets.schema import LEAVES, default_of

__all__ = [
    "MAX_INT_DIGITS",
    "RuleValueError",
    "flat_rules",
    "flatten",
    "parse_value",
    "put",
    "unflatten",
    "value_text",
]

MAX_INT_DIGITS = 18  # longest integer (in decimal digits) a rule value may be written with

_INT = re.compile(r"[+-]?[0-9]+\Z")


class RuleValueError(ValueError):
    """A value text that cannot be read at all (a broken quoted string, a huge number)."""


_FIELDS = {f.path: f for f in LEAVES}


def flatten(rules: Rules) -> list[tuple[str, object]]:
    """The rules as (key.path, value) pairs in the Rules tree's field order; a family option
    (``Field.quiet``) only when it differs from its default, so that the records of the
    games that existed before it stay as they were."""
    out: list[tuple[str, object]] = []

    def walk(d: Mapping[str, Any], prefix: str) -> None:
        for key, value in d.items():
            if isinstance(value, Mapping):
                walk(value, f"{prefix}{key}.")
                continue
            path = prefix + key
            leaf = _FIELDS.get(path)
            if leaf is not None and leaf.quiet and value == default_of(path):
                continue
            out.append((path, value))

    walk(dataclasses.asdict(rules), "")
    return out


def _json_string(text: str) -> str:
    if '"' not in text and "\\" not in text and text.isascii() and text.isprintable():
        return f'"{text}"'  # what json.dumps gives, without loading json
    import json

    return json.dumps(text)


def value_text(value: object, *, quote_strings: bool = False) -> str:
    """The text of one rule value (see the module docstring)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    text = str(value)
    if quote_strings or text.startswith('"'):
        return _json_string(text)
    return text


def flat_rules(rules: Rules, *, quote_strings: bool = False) -> list[tuple[str, str]]:
    """The rules as (key.path, value text) pairs in the Rules tree's field order."""
    return [(path, value_text(value, quote_strings=quote_strings)) for path, value in flatten(rules)]


def _quoted(text: str) -> str:
    inner = text[1:-1]
    plain = '"' not in inner and "\\" not in inner and inner.isprintable()
    if len(text) >= 2 and text.endswith('"') and plain:
        return inner  # no escapes: what json.loads gives, without loading json
    import json

    try:
        value = json.loads(text)
    except ValueError:
        raise RuleValueError(f"{shown(text)} is not a well-formed quoted string") from None
    if not isinstance(value, str):
        raise RuleValueError(f"{shown(text)} is not a well-formed quoted string")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise RuleValueError(f"{shown(text)} holds an escape that is not a character") from None
    return value


def parse_value(path: str, text: str) -> object:
    """The value ``text`` stands for at ``path``: None, a bool, an int or a string.

    A text that is no value of the path's type comes back as the text itself (the
    validator reports it with the expected type); RuleValueError for a text that cannot
    be read at all: a broken quoted string or an integer of more than MAX_INT_DIGITS digits.
    """
    if text.startswith('"'):
        return _quoted(text)
    spec = _FIELDS.get(path)
    kind = str if spec is None else spec.value_type
    if spec is not None and spec.optional and text == "null":
        return None
    if kind is bool:
        word = text.lower()
        return True if word == "true" else False if word == "false" else text
    if kind is int and _INT.match(text):
        if len(text.lstrip("+-")) > MAX_INT_DIGITS:
            raise RuleValueError(f"an integer of more than {MAX_INT_DIGITS} digits")
        return int(text)
    return text


def put(tree: dict[str, Any], path: str, value: object, *, replace: bool = False) -> str | None:
    """Store ``value`` at ``path`` ("nil.value") in the nested ``tree``; None, or why not
    (an empty part, a key given twice unless ``replace``, a value where a section is)."""
    parts = path.split(".")
    if not all(parts):
        return "is not a key path"
    node = tree
    for part in parts[:-1]:
        child = node.setdefault(part, {})
        if not isinstance(child, dict):
            return f"{part} is a value, not a section"
        node = child
    old = node.get(parts[-1])
    if isinstance(old, dict):
        return f"{parts[-1]} is a section, not a value"
    if parts[-1] in node and not replace:
        return "is given twice"
    node[parts[-1]] = value
    return None


def unflatten(pairs: Iterable[tuple[str, object]]) -> dict[str, Any]:
    """The nested mapping of (key.path, value) pairs; ValueError naming the first clash."""
    tree: dict[str, Any] = {}
    for path, value in pairs:
        why = put(tree, path, value)
        if why is not None:
            raise ValueError(f"{path}: {why}")
    return tree
