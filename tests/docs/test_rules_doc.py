"""docs/rules.md is the project's rules reference: every rule ID a test cites is defined
there, every rule defined there is cited by a test, and every preset key has its option ID."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path

from helpers.paths import ROOT

from spades_cli.engine import Rules

RULES_DOC = ROOT / "docs" / "rules.md"
RULE_ID = re.compile(r"\bR-[A-Z0-9]+-\d+[a-z]?\b")
DEFINED = re.compile(r"^\*\*(R-[A-Z0-9]+-\d+[a-z]?) ", re.M)
OPTION_ROW = re.compile(r"^\| (R-H-\d+) \| `([a-z_.]+)` \|", re.M)
NOT_OPTIONS = {"name", "description", "players"}


def _doc() -> str:
    return RULES_DOC.read_text(encoding="utf-8")


def _defined() -> list[str]:
    doc = _doc()
    return DEFINED.findall(doc) + [rid for rid, _key in OPTION_ROW.findall(doc)]


def _cited_by_tests() -> set[str]:
    cited: set[str] = set()
    for path in (ROOT / "tests").rglob("*.py"):
        if path.name != Path(__file__).name:
            cited |= set(RULE_ID.findall(path.read_text(encoding="utf-8")))
    return cited


def _preset_keys(cls: type, prefix: str = "") -> Iterator[str]:
    for f in dataclasses.fields(cls):
        default = f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default
        if dataclasses.is_dataclass(default):
            yield from _preset_keys(type(default), f"{prefix}{f.name}.")
        else:
            yield f"{prefix}{f.name}"


def test_every_rule_is_defined_once() -> None:
    ids = _defined()
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    assert {"R-C-1", "R-C-11", "R-2P-1", "R-2P-8", "R-4P-1", "R-4P-8", "R-H-1"} <= set(ids)


def test_every_rule_id_cited_by_a_test_is_in_the_rules_doc() -> None:
    assert sorted(_cited_by_tests() - set(_defined())) == []


def test_every_rule_in_the_rules_doc_is_cited_by_a_test() -> None:
    assert sorted(set(_defined()) - _cited_by_tests()) == []


def test_every_preset_key_has_one_option_id() -> None:
    keys = [key for _rid, key in OPTION_ROW.findall(_doc())]
    expected = [k for k in _preset_keys(Rules) if k not in NOT_OPTIONS]
    assert sorted(keys) == sorted(expected)
    assert len(keys) == len(set(keys))
