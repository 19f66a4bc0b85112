"""Loading rules: a preset file, a shipped preset or a plain mapping, its ``base:``, the
``--set`` overrides, the defaults and the cross-field checks, into one validated ``Rules``
or one ``MultiError`` listing every problem (see the package doc)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from spades_cli.engine.rules import Rules, RulesProblems
from spades_cli.errors import UsageError
from spades_cli.presets.codec import RuleValueError, parse_value
from spades_cli.presets.schema import LEAVES, SCHEMA, SECTION_PATHS, Field, Section, default_of
from spades_cli.presets.shipped import find_shipped, shipped, shipped_text, unknown_preset_message
from spades_cli.presets.tree import (
    BASE_KEY,
    RANK_BASE,
    RANK_DEFAULT,
    RANK_FILE,
    RANK_OVERRIDE,
    Loc,
    Problems,
    PySide,
    Tree,
    Val,
    convert_leaf,
    convert_section,
    hint,
    overlay,
    show,
    suggestions,
)

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


def _is_path(source: str) -> bool:
    return "/" in source or "\\" in source or source.endswith((".yaml", ".yml"))


# --------------------------------------------------------------------------- base, overrides, result


def _apply_base(tree: Tree, problems: Problems, seen: tuple[str, ...] = ()) -> Tree:
    """Resolve a ``base:`` key: the named shipped preset (with its own ``base:``, and so on
    down the chain), overlaid with this tree."""
    base = tree.pop(BASE_KEY, None)
    if base is None:
        return tree
    assert isinstance(base, Val)
    if base.value is None:
        return tree
    if not isinstance(base.value, str):
        problems.add(base.loc, BASE_KEY, f"expected the name of a shipped preset, got {show(base.value)}")
        return tree
    info = find_shipped(base.value)
    if info is None:
        problems.add(base.loc, BASE_KEY, unknown_preset_message(base.value))
        return tree
    if info.file in seen:
        chain = " -> ".join((*seen, info.file))
        problems.add(base.loc, BASE_KEY, f"the presets' bases go round in a circle: {chain}")
        return tree
    from spades_cli.presets.yaml_source import tree_from_text

    base_tree = _apply_base(
        tree_from_text(shipped_text(info), info.file, RANK_BASE, problems), problems, (*seen, info.file)
    )
    if "name" not in tree:
        base_tree.pop("name", None)  # the name is never inherited
    return overlay(base_tree, tree)


def _spec_at(parts: list[str]) -> Field | Section | str:
    """The schema entry at the key path ``parts``, or why there is none (a hint)."""
    spec: Field | Section = SCHEMA
    for i, part in enumerate(parts):
        sub = spec.fields.get(part) if isinstance(spec, Section) else None
        if sub is None:
            if not isinstance(spec, Section):
                return f" ({spec.path} has no sub-keys)"
            rest = parts[i + 1 :]
            meant = suggestions(part, spec)
            return hint([".".join([p, *rest]) if rest and p in SECTION_PATHS else p for p in meant])
        spec = sub
    return spec


def _apply_override(tree: Tree, text: str, rank: int, problems: Problems) -> None:
    loc = Loc(f"--set {text}", None, rank)
    key_text, sep, raw = text.partition("=")
    key_text = key_text.strip()
    if not sep or not key_text:
        problems.add(loc, "", "expected KEY.PATH=VALUE, such as nil.value=50")
        return
    parts = key_text.split(".")
    spec = _spec_at(parts)
    if isinstance(spec, str):
        problems.add(loc, key_text, "unknown key" + spec)
        return
    new = _override_value(spec, raw, key_text, loc, problems)
    if new is None:
        return
    patch = Tree()
    cursor = patch
    for part in parts[:-1]:
        nxt = Tree()
        cursor[part] = nxt
        cursor = nxt
    cursor[parts[-1]] = new
    overlay(tree, patch)


def _override_value(
    spec: Field | Section, raw: str, key_text: str, loc: Loc, problems: Problems
) -> Val | Tree | None:
    """The value of one ``--set``: a single option's value text as the rules codec reads it
    (``50``, ``null``, ``true``, ``house`` or ``"a quoted string"``; nothing is null), or
    a YAML flow mapping for a whole section. None when a problem was reported."""
    if isinstance(spec, Field):
        text = raw.strip()
        try:
            value = None if not text else parse_value(spec.path, text)
        except RuleValueError as exc:
            problems.add(loc, key_text, f"cannot read the value: {exc}")
            return None
        return convert_leaf(PySide(loc.origin, loc.rank, lines=False), value, spec, loc, problems)
    from spades_cli.presets.yaml_source import section_from_text

    return section_from_text(raw, spec, key_text, loc, problems)


def _lookup(tree: Tree, path: str) -> Val | None:
    node: Val | Tree | None = tree
    for part in path.split("."):
        if not isinstance(node, Tree):
            return None
        node = node.get(part)
    return node if isinstance(node, Val) else None


def _build(section: Section, values: Mapping[str, Val]) -> Any:
    """The dataclass of ``section`` from the values (a default where a value was wrong)."""
    kwargs: dict[str, Any] = {}
    for name, sub in section.fields.items():
        if isinstance(sub, Section):
            kwargs[name] = _build(sub, values)
        else:
            given = values[sub.path]
            kwargs[name] = given.value if given.ok else default_of(sub.path)
    return section.cls(**kwargs)


def _report(exc: RulesProblems, values: Mapping[str, Val], problems: Problems) -> None:
    """The rules' contradictions, each once, at the most recently given key involved
    (checks that read a wrong value, already reported, say nothing)."""
    for p in exc.problems:
        if not all(values[key].ok for key in p.reads):
            continue
        keys = p.keys
        chosen = max(range(len(keys)), key=lambda i: (values[keys[i]].loc.rank, -i))
        others = ", ".join(f"{k}: {show(values[k].value)}" for i, k in enumerate(keys) if i != chosen)
        why = f"{p.reason} (conflicts with {others})" if others else p.reason
        problems.add(values[keys[chosen]].loc, keys[chosen], why)


def _finish(tree: Tree, origin: str, problems: Problems) -> Rules:
    """Fill in defaults, build the Rules and report every problem, contradictions included."""
    default_loc = Loc(origin, None, RANK_DEFAULT)
    values: dict[str, Val] = {}
    for spec in LEAVES:
        given = _lookup(tree, spec.path)
        values[spec.path] = given if given is not None else Val(default_of(spec.path), default_loc, True)
    rules: Rules | None = None
    try:
        rules = _build(SCHEMA, values)
    except RulesProblems as exc:
        _report(exc, values, problems)  # at least one problem: a contradiction or a wrong value
    problems.raise_if_any()
    assert isinstance(rules, Rules)
    return rules


def _resolve(tree: Tree, origin: str, overrides: Sequence[str], problems: Problems) -> Rules:
    tree = _apply_base(tree, problems)
    if isinstance(overrides, str):  # a lone string would be split into characters
        overrides = [overrides]
    for i, text in enumerate(overrides):
        _apply_override(tree, text, RANK_OVERRIDE + i, problems)
    return _finish(tree, origin, problems)


# --------------------------------------------------------------------------- public API


def load_rules(source: str, overrides: Sequence[str] = ()) -> Rules:
    """The validated rules of a shipped preset (by name or file stem) or a YAML file (by path).

    ``overrides`` are ``key.path=value`` texts (``--set``), applied before validation.
    Raises MultiError with every problem, FileFormatError for an unreadable file, and
    UsageError for an unknown preset name.
    """
    from spades_cli.presets.yaml_source import read_file, tree_from_text

    source = str(source)
    problems = Problems()
    if _is_path(source):
        origin = source
        text = read_file(source)
    else:
        info = find_shipped(source)
        if info is None:
            raise UsageError(unknown_preset_message(source))
        origin = info.file
        text = shipped_text(info)
    tree = tree_from_text(text, origin, RANK_FILE, problems)
    return _resolve(tree, origin, overrides, problems)


def apply_overrides(rules_source: str | Rules, overrides: Sequence[str]) -> Rules:
    """``rules_source`` (a preset name, a path, or Rules already loaded) with ``--set`` overrides."""
    if isinstance(rules_source, Rules):
        problems = Problems()
        side = PySide("<rules>", RANK_BASE, lines=False)
        tree = convert_section(side, rules_to_dict(rules_source), SCHEMA, problems)
        return _resolve(tree, "<rules>", overrides, problems)
    return load_rules(rules_source, overrides)


def rules_from_dict(d: Mapping[str, Any], origin: str = "<dict>") -> Rules:
    """Rules from a plain mapping (for instance embedded in a transcript), validated like a file.

    Problems read ``ORIGIN: key.path: what is wrong``. A ``base`` key is honoured as in files.
    """
    problems = Problems()
    side = PySide(origin, RANK_FILE, lines=False)
    if not isinstance(d, Mapping):
        problems.add(side.loc(), "", f"expected a mapping of rule keys, got {show(d)}")
        problems.raise_if_any()
    tree = convert_section(side, d, SCHEMA, problems, extra=(BASE_KEY,))
    return _resolve(tree, origin, (), problems)


def rules_to_dict(rules: Rules) -> dict[str, Any]:
    """The rules as a plain nested dict, in the dataclass field order (``name`` first)."""
    return dataclasses.asdict(rules)


def list_presets() -> list[tuple[str, str, str]]:
    """The shipped presets: (name, file name, one-line description), sorted by name."""
    return [(p.name, p.file, p.description) for p in shipped()]


def describe(rules: Rules, base: str = "four-player", most: int = 8) -> str:
    """A few comment lines that explain a preset: its description, and the options it
    changes from the ``base`` preset when they are at most ``most`` (the variants of the
    family are short differences from the four-player game)."""
    from spades_cli.presets.codec import flat_rules

    out = [f"# {rules.name}: {rules.description}".rstrip(": ")]
    if rules.name != base:
        theirs = dict(flat_rules(load_rules(base)))
        changed = [
            (k, v) for k, v in flat_rules(rules) if k not in ("name", "description") and theirs.get(k) != v
        ]
        if changed and len(changed) <= most:
            out.append(f"# Changes from {base}: " + ", ".join(f"{k} {v}" for k, v in changed))
    return "".join(line + "\n" for line in out)


def rules_to_yaml(rules: Rules) -> str:
    """The fully resolved rules as a complete preset file; ``load_rules`` of it gives equal Rules."""
    from spades_cli.presets.yaml_source import dump

    return dump(rules_to_dict(rules))
