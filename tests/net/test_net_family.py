"""`spades host` / `spades join` with the Spades family (issue 30): a three-seat table
(cutthroat) and a deck with jokers are played to the end by joined seats, and every seat
is shown the variant's hand size, sides and cards."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers.net import Player, host_table

from spades_cli.engine import card_label, parse_card


def play_hosted(
    tmp_path: Path, source: str, labels: dict[str, str], overrides: tuple[str, ...]
) -> tuple[Any, list[Player]]:
    """Host a table, N (first legal move) and S (last) joined, played to its end."""
    hosted = host_table(tmp_path, seed=3, labels=labels, source=source, overrides=overrides)
    players = [Player(hosted.address, hosted.token(s), last=s == "S") for s in ("N", "S")]
    for p in players:
        p.start()
    for p in players:
        p.finish()
    hosted.finish()
    assert not hosted.errors
    return hosted, players


@pytest.mark.parametrize(
    ("source", "labels"),
    [
        ("cutthroat", {"N": "human", "E": "easy", "S": "human"}),
        ("jokers", {"N": "human", "E": "easy", "S": "human", "W": "easy"}),
        ("solo", {"N": "human", "E": "easy", "S": "human", "W": "easy"}),
    ],
)
def test_r_ct_1_a_variant_is_hosted_and_joined_to_its_end(
    tmp_path: Path, source: str, labels: dict[str, str]
) -> None:
    """R-CT-1, R-CT-7, R-J-1, R-I-1: one hand (R-E-2) of each, two joined seats."""
    hosted, players = play_hosted(tmp_path, source, labels, ("hand_limit=1",))
    assert "\nend " in hosted.transcript
    shown = "\n".join(players[0].shown)
    size = {"cutthroat": 17}.get(source, 13)
    assert f"of {size} bid)" in shown
    assert f"Trick {size}: " in shown
    if source != "cutthroat":
        assert "W " in shown
    else:
        assert "\nW " not in shown and "S: bid" in shown


def test_r_bn_4_the_partners_exchange_is_played_by_joined_seats(tmp_path: Path) -> None:
    """R-BN-4: N (playing its first legal move) bids blind nil and passes two cards to S,
    who passes two back; each of the two sees the cards it got, and the host's transcript
    has the four pass lines."""
    overrides = (
        "hand_limit=1",
        "blind_nil.enabled=true",
        "blind_nil.behind_by=null",
        "blind_nil.pass_cards=2",
    )
    labels = {"N": "human", "E": "easy", "S": "human", "W": "easy"}
    hosted, players = play_hosted(tmp_path, "four-player", labels, overrides)
    passes = [line.split() for line in hosted.transcript.splitlines() if line.startswith("pass ")]
    assert [w[1] for w in passes] == ["N", "N", "S", "S"]
    north, south = ("\n".join(p.shown) for p in players)
    for _, seat, card in passes:
        shown = card_label(parse_card(card), symbols=False)
        said = f"{'North' if seat == 'N' else 'South'} passes {shown} to their partner."
        assert said in north and said in south


def test_r_j_6_a_joined_dealer_lays_cards_aside_unseen_by_the_others(tmp_path: Path) -> None:
    """R-J-6: N (joined, the dealer) takes up the two cards left over and lays two aside;
    N is told which, S (joined) only that a card was laid aside; the host's transcript has
    the two discard lines."""
    overrides = ("hand_limit=1", "first_dealer=N")
    labels = {"N": "human", "E": "easy", "S": "human", "W": "easy"}
    hosted, players = play_hosted(tmp_path, "jokers-discard", labels, overrides)
    laid = [line.split() for line in hosted.transcript.splitlines() if line.startswith("discard ")]
    assert [w[1] for w in laid] == ["N", "N"]
    north, south = ("\n".join(p.shown) for p in players)
    for _, _seat, card in laid:
        said = f"North lays {card_label(parse_card(card), symbols=False)} aside."
        assert said in north and said not in south
    assert south.count("North lays a card aside face down.") == 2
