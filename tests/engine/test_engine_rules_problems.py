"""Rules.problems: options that contradict each other are refused whatever builds the Rules,
and the presets schema is the one walk of the Rules tree."""

from __future__ import annotations

import dataclasses

import pytest
from helpers.paths import ROOT

from spades_cli.engine.rules import (
    BiddingRules,
    BlindNilRules,
    NilRules,
    PlayRules,
    RuleProblem,
    Rules,
    RulesProblems,
)
from spades_cli.errors import MultiError
from spades_cli.presets import load_rules, rules_from_dict
from spades_cli.presets.codec import flatten
from spades_cli.presets.schema import LEAVES, SCHEMA, Section


def test_rules_built_in_code_with_contradictions_list_every_problem() -> None:
    with pytest.raises(RulesProblems) as caught:
        Rules(
            players=2,
            first_dealer="E",
            bidding=BiddingRules(min_bid=0, team_min=3),
            play=PlayRules(two_of_clubs_leads=True),
            losing_score=600,
        )
    problems = caught.value.problems
    assert [p.keys for p in problems] == [
        ("first_dealer", "players"),
        ("bidding.team_min", "players"),
        ("bidding.min_bid", "nil.enabled"),
        ("play.two_of_clubs_leads", "players"),
        ("losing_score", "target"),
    ]
    assert str(problems[0]) == (
        "first_dealer: 'E' is not a seat of the 2-player game (seats: N, S) (conflicts with players)"
    )
    assert isinstance(caught.value, ValueError)
    assert str(caught.value) == "; ".join(str(p) for p in problems)


def test_replace_is_checked_too() -> None:
    with pytest.raises(RulesProblems, match=r"blind_nil\.exchange: the exchange swaps cards"):
        dataclasses.replace(Rules(), blind_nil=BlindNilRules(exchange=2))
    with pytest.raises(RulesProblems, match="'partner' needs partnerships"):
        dataclasses.replace(Rules(players=2), nil=NilRules(failed_tricks="partner"))


def test_a_check_names_every_key_it_reads() -> None:
    rules = Rules(nil=NilRules(enabled=False), bidding=BiddingRules(min_bid=1, team_max=13))
    assert rules.problems() == []
    with pytest.raises(RulesProblems) as caught:
        dataclasses.replace(rules, bidding=BiddingRules(min_bid=7, team_max=13))
    (problem,) = caught.value.problems
    assert problem == RuleProblem(
        ("bidding.min_bid", "bidding.team_max"),
        "with nil off, two partners' lowest bids add up to more than the team maximum",
        ("bidding.min_bid", "bidding.team_max", "nil.enabled"),
    )


def test_every_shipped_preset_has_no_problems() -> None:
    for name in ("four-player", "two-player"):
        assert load_rules(name).problems() == []


def test_the_loader_reports_the_same_problems_at_their_keys() -> None:
    with pytest.raises(MultiError) as caught:
        rules_from_dict({"players": 2, "bidding": {"team_min": 3}}, origin="<t>")
    assert caught.value.problems == [
        "<t>: bidding.team_min: a team minimum needs partnerships (the 4-player game) "
        "(conflicts with players: 2)"
    ]


def _fields_of(value: object, prefix: str = "") -> list[str]:
    out = []
    for f in dataclasses.fields(value):  # type: ignore[arg-type]
        sub = getattr(value, f.name)
        out += _fields_of(sub, f"{prefix}{f.name}.") if dataclasses.is_dataclass(sub) else [prefix + f.name]
    return out


def test_the_schema_lists_every_rules_field_once_in_field_order() -> None:
    paths = [f.path for f in LEAVES]
    assert len(paths) == len(set(paths))
    assert paths == _fields_of(Rules())
    # The family's options are written only when they differ from their default.
    assert [f.path for f in LEAVES if not f.quiet] == [path for path, _ in flatten(Rules())]
    sections = [name for name, sub in SCHEMA.fields.items() if isinstance(sub, Section)]
    assert sections == ["bidding", "nil", "blind_nil", "bags", "play", "deck", "boston", "blind_bid"]


def test_one_module_reads_the_rules_type_hints() -> None:
    package = ROOT / "spades_cli"
    modules = sorted(package.rglob("*.py"))
    readers = [p.relative_to(package).as_posix() for p in modules if "get_type_hints" in p.read_text()]
    assert readers == ["presets/schema.py"]
