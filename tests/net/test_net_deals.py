"""Deals a seat cannot predict (issue 34, item 7): the seed a host chooses is stretched
with a secret of the table, so a seat that knows the chosen seed and its own cards
cannot work out the other hands; the host's transcript records the seed the deals come
from, and replays."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from helpers.net import Spawned, recorded_seed

from spades_cli.engine import deck_for
from spades_cli.game.match import Match
from spades_cli.game.seats import BotController
from spades_cli.net import hosting
from spades_cli.net.client import Connection, RemoteSession
from spades_cli.presets import load_rules


def first_hands(seed: int | str) -> list[set[int]]:
    """R-4P-3: every seat's cards in the first hand of a four-player game with this seed."""
    match = Match(load_rules("four-player"), seed, [BotController("easy") for _ in range(4)])
    while not match.state.hand_of(0):
        match.step()
    return [set(match.state.hand_of(s)) for s in range(4)]


def hint_key(seed: int | str, turn: int | None) -> str:
    """The key of the first hand's hint at decision ``turn`` (as ``Match.rng_key`` makes it)."""
    return hashlib.sha256(f"spades:{seed}:0:{turn}:hint".encode()).hexdigest()


def test_the_table_seed_is_the_chosen_seed_stretched_with_a_fresh_secret() -> None:
    key = bytes(32)
    assert hosting.table_seed(1234, key) == hosting.table_seed(1234, key)  # a function of both
    assert hosting.table_seed(1234, key) != hosting.table_seed(1235, key)
    assert hosting.table_seed(1234) != hosting.table_seed(1234)  # a new secret for every table
    assert len(hosting.table_seed(1234)) == 64 and "1234" not in hosting.table_seed(1234, key)


@pytest.mark.slow
def test_a_seat_that_knows_the_chosen_seed_cannot_predict_the_deal(
    tmp_path: Path, cli: Callable[..., Result]
) -> None:
    """R-4P-3: South knows the seed 1234 the host chose and its own 13 cards: the deal is not
    the one of seed 1234, so East's, North's and West's hands stay unknown. The host's
    transcript records the seed the cards came from, and replays."""
    path = tmp_path / "hosted.txt"
    host = Spawned(["host", "--seed", "1234", "--seat", "S=human", "--transcript", str(path)])
    try:
        address, token = host.join_line("South")
        where, _, port = address.rpartition(":")
        session = RemoteSession(Connection(where, int(port)), token, symbols=False)
        session.start()
        assert session.obs is not None
        seen = set(session.obs.hand)
        key, turn = session.key, session.turn
        session.conn.close()
        host.wait_for("Waiting for South")
        host.proc.terminate()
        assert host.finish() == 143, host.output
    finally:
        host.kill()
    seed = recorded_seed(path)
    assert seed != "1234"
    guessed = first_hands(1234)
    assert len(seen) == 13 and seen != guessed[2]
    assert first_hands(seed)[2] == seen  # the transcript's seed deals what South holds
    assert deck_for(seed, 0) != deck_for(1234, 0)
    # The hint's key: a one-way hash of the stretched seed, not of the chosen one.
    assert key == hint_key(seed, turn) != hint_key(1234, turn)
    replayed = cli(["replay", str(path)])
    assert replayed.exit_code == 0, replayed.output
    assert "1234" not in path.read_text().split("[FirstDealer")[0]
