"""The family's presets (issue 30): each shipped variant is a short file with ``base:``;
bad variants are refused at ``FILE:LINE``; the family's options go through the codec
(``--set``, transcript tags) and are written only when not default."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.cli import run_cli

from spades_cli.engine import Rules
from spades_cli.errors import MultiError
from spades_cli.presets import describe, load_rules
from spades_cli.presets.codec import flat_rules, parse_value
from spades_cli.presets.loader import rules_from_dict
from spades_cli.presets.shipped import find_shipped, shipped_text

FAMILY = ("cutthroat", "joker-joker-deuce-deuce", "jokers", "mirror", "solo", "suicide", "whiz")


@pytest.mark.parametrize("name", FAMILY)
def test_each_variant_is_a_short_preset_on_the_four_player_game(name: str) -> None:
    """R-H-32 .. R-H-36 and the family's keys: ``base: four-player`` and only the differences."""
    info = find_shipped(name)
    assert info is not None
    text = shipped_text(info)
    assert "base: four-player" in text and len(text.splitlines()) < 25
    rules = load_rules(name)
    assert rules.name == name and rules.description
    assert describe(rules).startswith(f"# {name}: ") and "# Changes from four-player: " in describe(rules)


def test_the_old_presets_write_no_family_key() -> None:
    """Records of the two old games are unchanged: no family key among their rule lines."""
    for name in ("four-player", "two-player"):
        keys = [k for k, _ in flat_rules(load_rules(name))]
        assert not [k for k in keys if k.startswith(("deck.", "boston.")) or k in ("solo", "hand_limit")]
        assert "bidding.mode" not in keys and "play.breaking" not in keys


def test_a_card_list_round_trips_through_the_codec() -> None:
    """R-H-32, R-H-34: a card list is one string value: --set, flat lines and back."""
    rules = load_rules("four-player", ['deck.removed="2C 2D"', "deck.jokers=true", 'deck.trumps="BJ LJ"'])
    lines = dict(flat_rules(rules))
    assert (lines["deck.removed"], lines["deck.trumps"], lines["deck.jokers"]) == ("2C 2D", "BJ LJ", "true")
    tree: dict[str, object] = {}
    for key, text in flat_rules(rules, quote_strings=True):
        parts = key.split(".")
        at = tree
        for p in parts[:-1]:
            at = at.setdefault(p, {})  # type: ignore[assignment]
        at[parts[-1]] = parse_value(key, text)
    assert rules_from_dict(tree) == rules == load_rules("jokers", ["name=four-player", _desc()])


def _desc() -> str:
    return f'description="{load_rules("four-player").description}"'


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("players: 3\n", ":2: players: 52 cards do not deal evenly to 3 players"),
        (
            'deck:\n  jokers: true\n  trumps: "BJ LJ"\n',
            ":3: deck.jokers: 54 cards do not deal evenly to 4 players",
        ),
        ('deck:\n  removed: "2X"\n', ":3: deck.removed: '2X' is not a card"),
        ('deck:\n  trumps: "BJ"\n', ":3: deck.trumps: BJ is ranked as a trump but is not in the deck"),
        ("bidding:\n  mode: mirror\nnil:\n  enabled: false\n", ":3: bidding.mode: a hand with no spade"),
        ("players: 3\nsolo: true\ndeck:\n  removed: 2C\n", ":3: solo: solo is the 4-player game"),
    ],
)
def test_variants_that_cannot_be_played_are_refused_at_their_line(
    tmp_path: Path, text: str, message: str
) -> None:
    """R-CT-1, R-J-2, R-H-33, R-M-3: a deck that does not deal, a joker not in the deck, a
    card word that is no card, a bid some hand could not make: FILE:LINE: the reason."""
    path = tmp_path / "bad.yaml"
    path.write_text("base: four-player\n" + text, encoding="utf-8")
    with pytest.raises(MultiError) as caught:
        load_rules(str(path))
    assert any(message in p for p in caught.value.problems), caught.value.problems
    assert all(p.startswith(f"{path}:") for p in caught.value.problems)


def test_rules_show_explains_a_variant() -> None:
    """R-CT-1: ``spades rules show cutthroat`` says what it is and what it changes."""
    result = run_cli(["rules", "show", "cutthroat"])
    assert result.exit_code == 0
    first, second = result.stdout.splitlines()[:2]
    assert first == "# cutthroat: " + load_rules("cutthroat").description
    assert second == "# Changes from four-player: players 3, deck.removed 2C"


def test_family_defaults_are_the_old_game() -> None:
    """R-H-23 .. R-H-36 default to the game as it was: Rules() plays four-player."""
    assert Rules().deck_cards == tuple(range(52)) and Rules().sides == 2 and Rules().hand_size == 13


def test_a_transcript_of_an_unknown_variant_says_so_in_one_line(tmp_path: Path) -> None:
    """R-CT-1: a transcript naming a preset we do not ship: one line, exit 2."""
    path = tmp_path / "game.txt"
    path.write_text('[Game "spades"]\n[Format "1"]\n[Rules "cuthroat"]\n', encoding="utf-8")
    result = run_cli(["replay", str(path)])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and '[Rules "cuthroat"] is not a shipped preset' in lines[0]
