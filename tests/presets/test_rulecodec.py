"""The one rules codec: flat pairs, value text, and the three places that use it agree."""

from __future__ import annotations

import dataclasses

import pytest

from spades_cli.engine.rules import Rules
from spades_cli.presets import list_presets, load_rules, rules_from_dict
from spades_cli.presets.codec import (
    MAX_INT_DIGITS,
    RuleValueError,
    flat_rules,
    flatten,
    parse_value,
    unflatten,
    value_text,
)
from spades_cli.protocol import rules_lines


@pytest.mark.parametrize("name", [name for name, _, _ in list_presets()])
def test_every_shipped_preset_round_trips_through_the_flat_pairs(name: str) -> None:
    rules = load_rules(name)
    for quote in (False, True):
        pairs = [(path, parse_value(path, text)) for path, text in flat_rules(rules, quote_strings=quote)]
        assert rules_from_dict(unflatten(pairs)) == rules


def test_value_text_is_one_encoding() -> None:
    assert [value_text(v) for v in (None, True, False, 42, -3, "bags")] == [
        "null",
        "true",
        "false",
        "42",
        "-3",
        "bags",
    ]
    assert value_text("bags", quote_strings=True) == '"bags"'
    assert value_text('"quoted" name') == '"\\"quoted\\" name"'  # a leading quote is kept by quoting


def test_parse_value_is_typed_by_the_schema() -> None:
    assert parse_value("target", "42") == 42
    assert parse_value("name", "42") == "42"
    assert parse_value("bags.limit", "null") is None
    assert parse_value("play.spades_break", "True") is True
    assert parse_value("play.spades_break", "off") == "off"  # left for the validator to report
    assert parse_value("target", "8:20") == "8:20"  # never YAML 1.1 base 60
    assert parse_value("name", '"\\u00e9t\\u00e9"') == "été"


@pytest.mark.parametrize("text", ['"\\U00110000"', '"\\ud800"', '"open', "9" * (MAX_INT_DIGITS + 1)])
def test_unreadable_values_are_one_error(text: str) -> None:
    with pytest.raises(RuleValueError):
        parse_value("target" if text.isdigit() else "name", text)


def test_the_protocol_rules_lines_are_the_flat_pairs_in_json() -> None:
    rules = dataclasses.replace(load_rules("four-player"), name="house")
    lines = rules_lines(rules)
    assert lines[0] == 'rule name "house"'
    assert len(lines) == len(flatten(rules)) == len(flat_rules(Rules()))
    assert "rule bags.limit 10" in lines and "rule losing_score null" in lines


def test_unflatten_names_a_clash() -> None:
    with pytest.raises(ValueError, match=r"nil\.value: nil is a value"):
        unflatten([("nil", 1), ("nil.value", 2)])
