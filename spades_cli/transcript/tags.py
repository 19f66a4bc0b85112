"""The rules a transcript's tags fix: ``[Rule "key.path" "value"]`` tags (self-contained)
or a ``[Rules "NAME"]`` preset with ``[Set "key=value"]`` overrides; and the first dealer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from spades_cli.engine import Rules
from spades_cli.engine.notation import excerpt
from spades_cli.errors import FileFormatError, MultiError, SpadesError
from spades_cli.presets import codec as rulecodec
from spades_cli.transcript.syntax import HandLine, Tag, Transcript, quote, raise_problems

UNDO_TAG = "Undo"  # how far undo went at the prompt: [Undo "before-new-info"] (session.undo)


def recorded_undo(tags: Sequence[Tag]) -> str | None:
    """The value of the ``Undo`` tag among ``tags`` (None: there is none)."""
    return next((tag.values[0] for tag in tags if tag.name == UNDO_TAG and tag.values), None)


def transcript_rules(
    t: Transcript, *, required: bool = True, preset_files: Sequence[str] = ()
) -> Rules | None:
    """The rules a transcript fixes: its ``[Rule]`` tags (self-contained), else its ``[Rules]``
    preset and ``[Set]`` overrides. None if it names none and ``required`` is False.

    A ``[Rules]`` tag may name a shipped preset, or a preset file only when that same file
    is in ``preset_files`` (given on the command line): a file someone sent never makes us
    open another file."""
    rule_tags = t.tags_named("Rule")
    if rule_tags:
        return _rules_from_tags(t, rule_tags)
    source = t.rules_source
    if source is None:
        if required:
            raise FileFormatError(
                'names no rules: a transcript has [Rule "key" "value"] tags or a [Rules "NAME"] tag',
                file=t.origin,
                line=1,
            )
        return None
    return _rules_from_preset(t, source, preset_files)


def _rules_from_tags(t: Transcript, rule_tags: Sequence[Tag]) -> Rules:
    from spades_cli.presets import rules_from_dict

    tree: dict[str, Any] = {}
    lines: dict[str, int] = {}
    problems: list[str] = []
    for tag in rule_tags:
        path, text = tag.values
        try:
            why = rulecodec.put(tree, path, rulecodec.parse_value(path, text))
        except rulecodec.RuleValueError as exc:
            problems.append(f"{t.origin}:{tag.line}: {excerpt(path)}: {exc}")
            continue
        if why is not None:
            clash = f"Rule {quote(excerpt(path))} is given twice or clashes with another key"
            problems.append(f"{t.origin}:{tag.line}: {clash}")
            continue
        lines[path] = tag.line
    if problems:
        raise_problems(problems)
    try:
        return rules_from_dict(tree, origin=t.origin)
    except MultiError as exc:
        raise_problems([_locate_rule_problem(p, t, lines, rule_tags[0].line) for p in exc.problems])


def shipped_preset(name: str) -> bool:
    """``name`` names a preset shipped with spades (not a file)."""
    from spades_cli.presets import list_presets

    names = {n for preset, file, _ in list_presets() for n in (preset, file.rsplit(".", 1)[0])}
    return name in names


def _rules_from_preset(t: Transcript, source: str, preset_files: Sequence[str]) -> Rules:
    from spades_cli.presets import load_rules

    rules_tag = t.tag("Rules")
    line = rules_tag.line if rules_tag else 1
    if not shipped_preset(source) and source not in preset_files:
        raise FileFormatError(
            f"[Rules {quote(excerpt(source))}] is not a shipped preset; a transcript names a preset "
            "file only when the same file is given on the command line (--rules FILE)",
            file=t.origin,
            line=line,
        )
    try:
        return load_rules(source, t.overrides)
    except MultiError as exc:
        if source in preset_files:  # the file given on the command line: its own lines
            raise
        raise_problems([f"{t.origin}:{line}: {p}" for p in exc.problems])
    except SpadesError as exc:
        raise FileFormatError(f"[Rules {quote(excerpt(source))}]: {exc}", file=t.origin, line=line) from None


def _locate_rule_problem(problem: str, t: Transcript, lines: Mapping[str, int], first: int) -> str:
    rest = problem.removeprefix(f"{t.origin}: ")
    path = rest.split(":", 1)[0].strip()
    line = lines.get(path)
    if line is None:
        line = next((ln for p, ln in lines.items() if path and p.startswith(path + ".")), first)
    return f"{t.origin}:{line}: {rest}"


# ============================================================================ following a match


def first_dealer(t: Transcript, rules: Rules) -> int | None:
    """The first dealer a transcript names (its FirstDealer tag, else hand 1's dealer)."""
    tag = t.tag("FirstDealer")
    name = tag.values[0] if tag else None
    if name is None:
        first = next((e for e in t.events if isinstance(e, HandLine)), None)
        name = first.dealer if first is not None and first.number == 1 else None
    if name is None:
        return None
    try:
        return rules.seat_index(name)
    except ValueError:
        line = tag.line if tag else 1
        raise FileFormatError(
            f"no seat {name} in the {rules.players}-player game", file=t.origin, line=line
        ) from None
