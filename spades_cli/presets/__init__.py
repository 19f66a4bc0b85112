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

No engine logic lives here: the package only turns text into a validated ``Rules`` and back.
Its modules, each importing only those above it:

- ``schema``: the one walker of the ``Rules`` type hints (every key path, kind and range);
- ``codec``: ``Rules`` as flat ``(key.path, value)`` pairs and the one text of a value;
- ``tree``: the values a source gives, where each was given, and the located problems;
- ``yaml_source``: preset files (the strict YAML loader, the limits; the only module
  importing yaml);
- ``shipped``: the shipped presets, by name;
- ``loader``: ``base:``, overrides, defaults and the cross-field checks (``Rules.problems``,
  in the engine), into one ``Rules``.
"""

from __future__ import annotations

from spades_cli.presets.loader import (
    DEFAULT_PRESET,
    apply_overrides,
    describe,
    list_presets,
    load_rules,
    rules_from_dict,
    rules_to_dict,
    rules_to_yaml,
)
from spades_cli.presets.tree import MAX_SHOWN

__all__ = [
    "DEFAULT_PRESET",
    "MAX_SHOWN",
    "apply_overrides",
    "describe",
    "list_presets",
    "load_rules",
    "rules_from_dict",
    "rules_to_dict",
    "rules_to_yaml",
]
