"""Rule presets: the shipped files, strict loading, validation, overrides and ``spades rules``."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import click
import pytest
import yaml
from click.testing import CliRunner
from helpers.paths import ROOT

from spades_cli.cli.main import main
from spades_cli.cli.options import rules_options
from spades_cli.engine.rules import Rules
from spades_cli.errors import FileFormatError, MultiError, UsageError
from spades_cli.presets import (
    apply_overrides,
    describe,
    list_presets,
    load_rules,
    rules_from_dict,
    rules_to_dict,
    rules_to_yaml,
)
from spades_cli.presets.yaml_source import StrictLoader

RULES_DIR = ROOT / "rules"


def problems_of(exc_info: pytest.ExceptionInfo[MultiError]) -> list[str]:
    return exc_info.value.problems


def write(tmp_path: Path, text: str, name: str = "preset.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def key_paths(d: dict[str, Any], prefix: str = "") -> list[str]:
    out = []
    for key, value in d.items():
        if isinstance(value, dict):
            out += key_paths(value, f"{prefix}{key}.")
        else:
            out.append(prefix + key)
    return out


# --------------------------------------------------------------------------- shipped presets


def test_two_player_preset() -> None:
    r = load_rules("two-player")
    assert r.name == "two-player"
    assert r.players == 2 and r.draft  # R-2P-1, R-2P-2
    assert r.target == 500  # R-2P-1
    assert r.bidding.min_bid == 1 and r.nil.enabled  # R-2P-4: bids 0 (nil) .. 13
    assert r.nil.value == 100  # R-2P-6
    assert r.nil.failed_tricks == "none"  # R-2P-6 decision
    # R-2P-3: double nil is the blind nil, worth 200, with an exchange of up to three cards.
    assert r.blind_nil.enabled and r.blind_nil.value == 200 and r.blind_nil.exchange == 3
    assert r.bidding.team_min == 0 and r.bidding.team_max is None
    assert not r.play.two_of_clubs_leads


def test_four_player_preset() -> None:
    r = load_rules("four-player")
    assert r.name == "four-player"
    assert r.players == 4  # R-4P-1
    assert r.target == 500  # R-4P-8
    assert r.nil.enabled and r.bidding.min_bid == 1  # R-4P-4 decision: nil on, other bids 1..13
    assert r.nil.value == 100 and r.nil.failed_tricks == "bags"  # R-4P-7
    assert not r.blind_nil.enabled and r.blind_nil.exchange == 0
    assert r.bidding.team_max is None and r.bidding.team_min == 0
    assert r.bags == Rules().bags  # R-C-9: 10 bags cost 100


@pytest.mark.parametrize(
    ("stem", "name"), [("two-player-draft", "two-player"), ("four-player-teams", "four-player")]
)
def test_shipped_files_are_full_presets(stem: str, name: str) -> None:
    path = RULES_DIR / f"{stem}.yaml"
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=StrictLoader)
    assert data["name"] == name
    assert key_paths(data) == key_paths(rules_to_dict(Rules()))  # every key, in field order
    assert load_rules(stem) == load_rules(name) == load_rules(str(path))


def test_list_presets() -> None:
    assert [(n, f) for n, f, _ in list_presets()] == [
        ("cutthroat", "cutthroat.yaml"),
        ("four-player", "four-player-teams.yaml"),
        ("joker-joker-deuce-deuce", "joker-joker-deuce-deuce.yaml"),
        ("jokers", "jokers.yaml"),
        ("jokers-discard", "jokers-discard.yaml"),
        ("mirror", "mirror.yaml"),
        ("solo", "solo.yaml"),
        ("suicide", "suicide.yaml"),
        ("two-player", "two-player-draft.yaml"),
        ("whiz", "whiz.yaml"),
    ]
    assert all(desc and "\n" not in desc for _, _, desc in list_presets())


def test_unknown_preset_name() -> None:
    with pytest.raises(UsageError, match="did you mean 'two-player'"):
        load_rules("two-playr")


def test_missing_file() -> None:
    with pytest.raises(FileFormatError, match="no such file"):
        load_rules("/nonexistent/rules.yaml")


# --------------------------------------------------------------------------- round trip


@pytest.mark.parametrize("name", ["two-player", "four-player"])
def test_round_trip_shipped(tmp_path: Path, name: str) -> None:
    rules = load_rules(name)
    text = rules_to_yaml(rules)
    assert text.startswith(f"name: {name}\n")
    assert load_rules(write(tmp_path, text)) == rules
    assert rules_from_dict(rules_to_dict(rules)) == rules


def test_round_trip_unusual_values(tmp_path: Path) -> None:
    rules = dataclasses.replace(
        Rules(),
        name="yes",
        description="no: really\nsecond line",
        losing_score=-200,
        mercy=300,
        first_dealer="W",
        ten_for_two_hundred=True,
        bags=dataclasses.replace(Rules().bags, value=-1, limit=None, penalty=0),
        nil=dataclasses.replace(Rules().nil, enabled=False, failed_tricks="partner"),
        bidding=dataclasses.replace(Rules().bidding, min_bid=0, team_min=4, team_max=13),
    )
    text = rules_to_yaml(rules)
    assert list(yaml.safe_load(text)) == [f.name for f in dataclasses.fields(Rules)]
    assert load_rules(write(tmp_path, text)) == rules
    assert rules_to_yaml(load_rules(write(tmp_path, text))) == text  # deterministic


# --------------------------------------------------------------------------- problems

BROKEN = """\
name: broken
players: 2
target: 0
nil:
  enabled: true
  valeu: 50
  failed_tricks: partner
play:
  spades_break: no
bags:
  limit: 10
  limit: 7
bidding:
  team_max: 13
min_bid: 2
"""


def test_broken_file_reports_every_problem(tmp_path: Path) -> None:
    path = write(tmp_path, BROKEN, "broken.yaml")
    with pytest.raises(MultiError) as exc_info:
        load_rules(path)
    assert problems_of(exc_info) == [
        f"{path}:3: target: must be between 1 and 100000, got 0",
        f"{path}:6: nil.valeu: unknown key (did you mean 'nil.value'?)",
        f"{path}:7: nil.failed_tricks: 'partner' needs partnerships (the 4-player game) "
        "(conflicts with players: 2)",
        f"{path}:9: play.spades_break: expected true or false, got 'no'",
        f"{path}:12: bags.limit: duplicate key (first given on line 11)",
        f"{path}:14: bidding.team_max: a team maximum needs partnerships (the 4-player game) "
        "(conflicts with players: 2)",
        f"{path}:15: min_bid: unknown key (did you mean 'bidding.min_bid'?)",
    ]
    assert exc_info.value.exit_code == 2
    assert str(exc_info.value) == "\n".join(problems_of(exc_info))


@pytest.mark.parametrize("word", ["yes", "no", "on", "off", "y", "n", "Yes", "NO", "On"])
def test_yaml_11_booleans_are_strings(tmp_path: Path, word: str) -> None:
    path = write(tmp_path, f"ten_for_two_hundred: {word}\n")
    with pytest.raises(MultiError) as exc_info:
        load_rules(path)
    assert problems_of(exc_info) == [f"{path}:1: ten_for_two_hundred: expected true or false, got '{word}'"]


@pytest.mark.parametrize("word", ["true", "True", "TRUE", "false", "False"])
def test_true_false_any_case(tmp_path: Path, word: str) -> None:
    rules = load_rules(write(tmp_path, f"ten_for_two_hundred: {word}\n"))
    assert rules.ten_for_two_hundred is (word.lower() == "true")


def test_strings_that_look_like_yaml_11_bools_stay_strings(tmp_path: Path) -> None:
    rules = load_rules(write(tmp_path, "name: no\ndescription: off\nfirst_dealer: n\n"))
    assert (rules.name, rules.description, rules.first_dealer) == ("no", "off", "N")


def test_bad_yaml_syntax(tmp_path: Path) -> None:
    path = write(tmp_path, "players: 4\nnil:\n  value: [1, 2\n")
    with pytest.raises(MultiError) as exc_info:
        load_rules(path)
    (problem,) = problems_of(exc_info)
    assert problem.startswith(f"{path}:4: invalid YAML: ")


def test_bad_indentation(tmp_path: Path) -> None:
    path = write(tmp_path, "players: 4\n  target: 300\n")
    with pytest.raises(MultiError) as exc_info:
        load_rules(path)
    (problem,) = problems_of(exc_info)
    assert problem.startswith(f"{path}:2: invalid YAML: ")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "- players: 4\n",
            "expected a mapping of rule keys (such as 'players: 4') at the top level, got a list",
        ),
        (
            "four-player\n",
            "expected a mapping of rule keys (such as 'players: 4') at the top level, "
            "got the value 'four-player'",
        ),
        ("", "the file is empty (expected a mapping of rule keys)"),
    ],
)
def test_top_level_must_be_a_mapping(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(MultiError) as exc_info:
        load_rules(path)
    assert problems_of(exc_info) == [f"{path}:1: {message}"]


def test_unsafe_tags_are_rejected(tmp_path: Path) -> None:
    path = write(tmp_path, "players: !!python/object/apply:os.system ['true']\n")
    with pytest.raises(MultiError) as exc_info:
        load_rules(path)
    (problem,) = problems_of(exc_info)
    assert problem.startswith(f"{path}:1: players: ")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("players: 5\n", "2: players: must be 2, 3 or 4, got 5"),
        (
            "nil:\n  failed_tricks: never\n",
            "3: nil.failed_tricks: must be one of bags, partner, none; got 'never'",
        ),
        ("bags:\n  limit: 0\n", "3: bags.limit: must be between 1 and 100 or null, got 0"),
        ("bags:\n  value: 1.5\n", "3: bags.value: expected an integer, got 1.5"),
        ("losing_score: 100\n", "2: losing_score: must be negative or null, got 100"),
        ("mercy: 0\n", "2: mercy: must be at least 1 or null, got 0"),
        ("description: 12\n", "2: description: expected a string, got 12 (put it in quotes)"),
        (
            "nil: false\n",
            "2: nil: expected a mapping with the keys enabled, value, failed_tricks, zero; got false",
        ),
        (
            "first_dealer: X\n",
            "2: first_dealer: 'X' is not a seat of the 4-player game (seats: N, E, S, W) "
            "(conflicts with players: 4)",
        ),
        (
            "bidding:\n  min_bid: 0\n",
            "3: bidding.min_bid: min_bid 0 makes 0 an ordinary bid, but with nil "
            "enabled a bid of 0 is nil (use min_bid 1, or disable nil) (conflicts with nil.enabled: true)",
        ),
        (
            "bidding:\n  team_min: 9\n  team_max: 8\n",
            "3: bidding.team_min: the team minimum is above the "
            "team maximum (conflicts with bidding.team_max: 8)",
        ),
        (
            "bidding:\n  min_bid: 5\n  team_max: 4\n",
            "3: bidding.min_bid: the lowest bid is above the "
            "team maximum (conflicts with bidding.team_max: 4)",
        ),
        (
            "blind_nil:\n  exchange: 3\n",
            "3: blind_nil.exchange: the exchange swaps cards with the draft's "
            "discard pile, which only the 2-player game has (conflicts with players: 4)",
        ),
        (
            "players: 2\nplay:\n  two_of_clubs_leads: true\n",
            "4: play.two_of_clubs_leads: in the 2-player "
            "draft game the two of clubs may be in the discard pile (conflicts with players: 2)",
        ),
        (
            "players: 2\nbidding:\n  team_min: 2\n",
            "4: bidding.team_min: a team minimum needs partnerships "
            "(the 4-player game) (conflicts with players: 2)",
        ),
    ],
)
def test_single_problems(tmp_path: Path, text: str, expected: str) -> None:
    path = write(tmp_path, "name: x\n" + text)
    with pytest.raises(MultiError) as exc_info:
        load_rules(path)
    assert problems_of(exc_info) == [f"{path}:{expected}"]


def test_min_bid_zero_without_nil_is_fine(tmp_path: Path) -> None:
    rules = load_rules(write(tmp_path, "nil:\n  enabled: false\nbidding:\n  min_bid: 0\n"))
    assert rules.bidding.min_bid == 0 and not rules.nil.enabled


def test_missing_keys_take_dataclass_defaults(tmp_path: Path) -> None:
    rules = load_rules(write(tmp_path, "target: 300\n"))
    assert rules == dataclasses.replace(Rules(), target=300)
    assert rules.name == "custom"


# --------------------------------------------------------------------------- base:


def test_base_inheritance(tmp_path: Path) -> None:
    path = write(tmp_path, "base: two-player\nname: short\ntarget: 250\nnil:\n  value: 50\n")
    rules = load_rules(path)
    two = load_rules("two-player")
    assert rules == dataclasses.replace(
        two, name="short", target=250, nil=dataclasses.replace(two.nil, value=50)
    )


def test_base_name_is_not_inherited(tmp_path: Path) -> None:
    rules = load_rules(write(tmp_path, "base: four-player-teams\nmercy: 250\n"))
    assert rules.name == "custom" and rules.mercy == 250 and rules.players == 4


def test_base_contradiction_is_reported_at_the_file_key(tmp_path: Path) -> None:
    path = write(tmp_path, "base: two-player\nname: x\nplayers: 4\n")
    with pytest.raises(MultiError) as exc_info:
        load_rules(path)
    assert problems_of(exc_info) == [
        f"{path}:3: players: the exchange swaps cards with the draft's discard pile, which only the "
        "2-player game has (conflicts with blind_nil.exchange: 3)"
    ]


def _more_shipped(monkeypatch: pytest.MonkeyPatch, texts: dict[str, str]) -> None:
    """Shipped presets as if ``rules/`` held these files too (name -> YAML text)."""
    from spades_cli.presets import loader, shipped

    def find(name: str) -> shipped.PresetInfo | None:
        if name in texts:
            return shipped.PresetInfo(name, f"{name}.yaml", "")
        return shipped.find_shipped(name)

    def text(info: shipped.PresetInfo) -> str:
        stem = info.file.removesuffix(".yaml")
        return texts[stem] if stem in texts else shipped.shipped_text(info)

    monkeypatch.setattr(loader, "find_shipped", find)
    monkeypatch.setattr(loader, "shipped_text", text)


def test_base_follows_the_whole_chain(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file based on a shipped preset that is itself based on the two-player preset gets
    all three layers: the two-player game, the middle preset's change, its own."""
    _more_shipped(monkeypatch, {"short-draft": "base: two-player\nname: short-draft\ntarget: 300\n"})
    rules = load_rules(write(tmp_path, "base: short-draft\nmercy: 250\n"))
    two = load_rules("two-player")
    assert rules == dataclasses.replace(two, name="custom", target=300, mercy=250)


def test_bases_in_a_circle_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _more_shipped(monkeypatch, {"ping": "base: pong\nname: ping\n", "pong": "base: ping\nname: pong\n"})
    path = write(tmp_path, "base: ping\n")
    with pytest.raises(MultiError) as exc_info:
        load_rules(path)
    assert problems_of(exc_info) == [
        "pong.yaml:1: base: the presets' bases go round in a circle: ping.yaml -> pong.yaml -> ping.yaml"
    ]


def test_unknown_base(tmp_path: Path) -> None:
    path = write(tmp_path, "name: x\nbase: two-players\n")
    with pytest.raises(MultiError) as exc_info:
        load_rules(path)
    (problem,) = problems_of(exc_info)
    assert problem.startswith(f"{path}:2: base: unknown rules preset 'two-players'")


# --------------------------------------------------------------------------- overrides


def test_overrides_good() -> None:
    rules = load_rules("four-player", ["nil.value=50", "bags.limit=null", "target=300", "name=house"])
    assert (rules.nil.value, rules.bags.limit, rules.target, rules.name) == (50, None, 300, "house")
    # A section can be given as a YAML flow mapping; later overrides win.
    rules = load_rules("two-player", ["blind_nil={enabled: false, exchange: 0}", "target=100", "target=200"])
    assert not rules.blind_nil.enabled and rules.blind_nil.exchange == 0 and rules.target == 200
    assert apply_overrides("four-player", ["first_dealer=e"]).first_dealer == "E"


def test_overrides_bad(tmp_path: Path) -> None:
    path = write(tmp_path, "name: x\nplayers: 5\n")
    overrides = [
        "nil.value=abc",
        "nil.valeu=4",
        "nill.value=4",
        "play.spades_break=off",
        "bags.limit",
        "bags.limit.max=3",
        "nil.value=2000",
    ]
    with pytest.raises(MultiError) as exc_info:
        load_rules(path, overrides)
    assert problems_of(exc_info) == [
        f"{path}:2: players: must be 2, 3 or 4, got 5",
        "--set nil.value=abc: nil.value: expected an integer, got 'abc'",
        "--set nil.valeu=4: nil.valeu: unknown key (did you mean 'nil.value'?)",
        "--set nill.value=4: nill.value: unknown key (did you mean 'nil.value'?)",
        "--set play.spades_break=off: play.spades_break: expected true or false, got 'off'",
        "--set bags.limit: expected KEY.PATH=VALUE, such as nil.value=50",
        "--set bags.limit.max=3: bags.limit.max: unknown key (bags.limit has no sub-keys)",
        "--set nil.value=2000: nil.value: must be between 0 and 1000, got 2000",
    ]


def test_override_contradiction_points_at_the_override() -> None:
    with pytest.raises(MultiError) as exc_info:
        load_rules("four-player", ["players=2", "bidding.team_max=13"])
    assert problems_of(exc_info) == [
        "--set bidding.team_max=13: bidding.team_max: a team maximum needs partnerships (the 4-player game) "
        "(conflicts with players: 2)"
    ]


def test_apply_overrides_to_loaded_rules() -> None:
    two = load_rules("two-player")
    rules = apply_overrides(two, ["blind_nil.exchange=1"])
    assert rules == dataclasses.replace(two, blind_nil=dataclasses.replace(two.blind_nil, exchange=1))


# --------------------------------------------------------------------------- rules_from_dict


def test_rules_from_dict_problems() -> None:
    with pytest.raises(MultiError) as exc_info:
        rules_from_dict({"players": 4, "nil": {"value": "50"}, "extra": 1}, origin="game.json")
    assert problems_of(exc_info) == [
        "game.json: nil.value: expected an integer, got '50'",
        "game.json: extra: unknown key",
    ]


def test_rules_to_dict_is_plain_and_ordered() -> None:
    d = rules_to_dict(load_rules("two-player"))
    assert next(iter(d)) == "name" and d["nil"] == {
        "enabled": True,
        "value": 100,
        "failed_tricks": "none",
        "zero": False,
    }


# --------------------------------------------------------------------------- CLI


def run(*args: str) -> Any:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result


def test_cli_list() -> None:
    result = run("rules", "list")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[1].split()[:2] == ["four-player", "four-player-teams.yaml"]
    assert lines[8].split()[:2] == ["two-player", "two-player-draft.yaml"]


def test_cli_show() -> None:
    result = run("rules", "show", "two-player", "--set", "nil.value=50")
    assert result.exit_code == 0
    assert "  value: 50\n" in result.stdout
    expected = dataclasses.replace(
        load_rules("two-player"), nil=dataclasses.replace(load_rules("two-player").nil, value=50)
    )
    assert result.stdout == describe(expected) + rules_to_yaml(expected)


def test_cli_show_bad_override() -> None:
    result = run("rules", "show", "four-player", "--set", "nil.value=abc")
    assert result.exit_code == 2
    assert "--set nil.value=abc: nil.value: expected an integer, got 'abc'" in result.stderr


def test_cli_validate_ok(tmp_path: Path) -> None:
    path = write(tmp_path, "base: four-player\nname: house\nbags:\n  limit: 7\n")
    result = run("rules", "validate", path)
    assert result.exit_code == 0
    assert result.stdout == f"{path}: ok\n"


def test_cli_validate_broken(tmp_path: Path) -> None:
    path = write(tmp_path, BROKEN, "broken.yaml")
    result = run("rules", "validate", path, "--set", "target=abc")
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines[0] == f"{path}:3: target: must be between 1 and 100000, got 0"
    assert lines[-1] == "--set target=abc: target: expected an integer, got 'abc'"
    assert len(lines) == 8


def test_cli_validate_syntax_error_and_missing_file(tmp_path: Path) -> None:
    path = write(tmp_path, "a: [\n")
    result = run("rules", "validate", path)
    assert result.exit_code == 2 and f"{path}:2: invalid YAML" in result.stderr
    result = run("rules", "validate", str(tmp_path / "missing.yaml"))
    assert result.exit_code == 2 and "no such file" in result.stderr


def test_rules_options_decorator() -> None:
    seen: list[Rules] = []

    @click.command()
    @rules_options
    def cmd(preset: str, overrides: tuple[str, ...]) -> None:
        seen.append(load_rules(preset, overrides))

    result = CliRunner().invoke(cmd, [])
    assert result.exit_code == 0 and seen[-1] == load_rules("four-player")
    result = CliRunner().invoke(cmd, ["--rules", "two-player", "--set", "target=250", "--set", "mercy=200"])
    assert result.exit_code == 0 and (seen[-1].players, seen[-1].target, seen[-1].mercy) == (2, 250, 200)
