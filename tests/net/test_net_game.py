"""A whole game at a table on 127.0.0.1: ``spades host`` with joined seats and bots ends
exactly as ``spades run`` of the same moves; no seat ever receives another seat's cards;
spectators see no hand until it is over; chat is relayed and recorded."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from helpers.net import DEADLINE, Player, Spawned, host_table, recorded_seed, rules

from spades_cli.engine.notation import action_text
from spades_cli.game.match import Match
from spades_cli.game.seats import BotController
from spades_cli.transcript import read_transcript, replay, transcript_rules

SEED = 11
CARD = re.compile(r"\b[2-9TJQKA][CDHS]\b")


def reference_moves(seed: int | str) -> dict[int, list[str]]:
    """Every decision of each seat in a game of four easy bots (the joined seats replay
    North's and South's; the easy bots at East and West then decide the same)."""
    match = Match(rules(), seed, [BotController("easy") for _ in range(4)])
    moves: dict[int, list[str]] = {s: [] for s in range(4)}
    while not match.finished:
        seat = match.state.current_player()
        before = len(match.state.history)
        match.step()
        if seat >= 0 and len(match.state.history) > before:
            moves[seat].append(action_text(match.state.history[-1]))
    return moves


def body(text: str) -> list[str]:
    """The game lines of a transcript (no tags, comments or seat labels)."""
    return [line for line in text.splitlines() if line and not line.startswith(("[", "#"))]


@pytest.mark.slow
def test_a_hosted_game_ends_exactly_as_spades_run_of_the_same_moves(
    tmp_path: Path, cli: Callable[..., Result]
) -> None:
    hosted = tmp_path / "hosted.txt"
    host = Spawned(
        [
            "host",
            "--seed",
            str(SEED),
            "--seat",
            "N=human",
            "--seat",
            "S=human",
            "--seat",
            "E=easy",
            "--seat",
            "W=easy",
            "--set",
            "target=100",
            "--transcript",
            str(hosted),
        ]
    )
    try:
        seed = recorded_seed(hosted)  # the chosen seed stretched with the table's secret
        moves = reference_moves(seed)
        joins = []
        for name, seat in (("North", 0), ("South", 2)):
            address, token = host.join_line(name)
            assert address.startswith("127.0.0.1:")
            joins.append(Spawned(["join", address, "--token", token], stdin="\n".join(moves[seat]) + "\n"))
        for join in joins:
            assert join.finish() == 0, join.output
        assert host.finish() == 0, host.output
    finally:
        host.kill()
    script = tmp_path / "script.txt"
    script.write_text(
        f'[Rules "four-player"]\n[Set "target=100"]\n[Seed "{seed}"]\n[Seat "E" "easy"]\n[Seat "W" "easy"]\n'
        f"N: {' '.join(moves[0])}\nS: {' '.join(moves[2])}\n"
    )
    ran = cli(["run", str(script), "-o", str(tmp_path / "run.txt")])
    assert ran.exit_code == 0, ran.output
    assert body(hosted.read_text()) == body((tmp_path / "run.txt").read_text())
    assert "end winner" in hosted.read_text()
    assert "Game over" in joins[0].output and "North plays" in joins[1].output
    assert not (tmp_path / "hosted.txt.tokens").exists()  # no secrets left once the game is over
    t = read_transcript(hosted)
    rules_ = transcript_rules(t)
    assert rules_ is not None and replay(t, rules_).run.match.finished


def test_no_message_to_a_seat_holds_another_seats_cards(tmp_path: Path) -> None:
    table = host_table(tmp_path, seed=5)
    north = Player(table.address, table.token("N"))
    south = Player(table.address, table.token("S"))
    watcher = Player(table.address, table.token("watch"))
    # The spectator is seated before the game starts: one that joins in the middle of a
    # trick sees its cards first in the trick's message (they were played before it came).
    watcher.start()
    end = time.monotonic() + DEADLINE
    while not any("a spectator joined" in line for line in table.logs) and time.monotonic() < end:
        time.sleep(0.02)
    for p in (north, south):
        p.start()
    for p in (north, south, watcher):
        p.finish()
    table.finish()
    assert not table.errors
    dealt = table.dealt.hands
    assert len(dealt) >= 2
    for player, seat in ((north, 0), (south, 2), (watcher, None)):
        hand = -1
        public: set[str] = set()
        checked = 0
        for msg in player.messages():
            kind = msg["type"]
            if kind == "deal":
                hand, public = int(str(msg["hand"])) - 1, set()
                continue
            if kind == "hands":
                assert seat is None, "only spectators are shown the hands, once a hand is over"
                continue
            if kind == "move" and msg["phase"] == "play":
                public.add(str(msg["action"]))
                continue
            mine = {action_text(c) for c in dealt[hand][seat]} if seat is not None and hand >= 0 else set()
            for card in CARD.findall(str(msg)):
                checked += 1
                assert card in mine or card in public, f"{card} sent to seat {seat}: {msg}"
        if seat is not None:
            assert checked > 100  # the views were looked at, not skipped
    assert any(m["type"] == "hands" for m in watcher.messages())


def test_chat_is_relayed_and_recorded_as_notes(tmp_path: Path) -> None:
    table = host_table(tmp_path, seed=3)
    north = Player(table.address, table.token("N"), ["say good luck, partner"])
    south = Player(table.address, table.token("S"))
    for p in (north, south):
        p.start()
    for p in (north, south):
        p.finish(DEADLINE)
    table.finish()
    assert 'note N "good luck, partner"' in table.transcript
    assert any("North says: good luck, partner" in line for line in south.shown)


def test_a_table_over_tls(tmp_path: Path) -> None:
    """With --tls-cert/--tls-key the table speaks TLS; a client that trusts the certificate
    plays, a plain TCP client gets nowhere."""
    import ssl

    from helpers.net import certificate, raw_client, read_all

    from spades_cli.net.hosting import tls_context

    cert, key = certificate(tmp_path)
    context = tls_context(str(cert), str(key))
    assert isinstance(context, ssl.SSLContext)
    table = host_table(tmp_path, seed=8, ssl_context=context)
    plain = raw_client(table.address)
    plain.sendall(b'{"type": "hello"}\n')
    assert b"welcome" not in read_all(plain, 3.0)
    north = Player(table.address, table.token("N"), cafile=str(cert))
    south = Player(table.address, table.token("S"), cafile=str(cert))
    for p in (north, south):
        p.start()
    for p in (north, south):
        p.finish()
    table.finish()
    assert not table.errors and table.game.match.finished


@pytest.mark.slow
def test_the_host_plays_a_seat_itself(tmp_path: Path) -> None:
    """``--play N``: the host's own terminal (here batch mode on its stdin) plays North while
    South joins from afar; the game is the same as with two joined seats."""
    hosted = tmp_path / "here.txt"
    host = Spawned(
        [
            "host",
            "--seed",
            str(SEED),
            "--seat",
            "N=human",
            "--seat",
            "S=human",
            "--seat",
            "E=easy",
            "--seat",
            "W=easy",
            "--set",
            "target=100",
            "--transcript",
            str(hosted),
            "--play",
            "N",
        ],
        feed_later=True,
    )
    try:
        moves = reference_moves(recorded_seed(hosted))
        host.feed("\n".join(moves[0]) + "\n")
        address, token = host.join_line("South")
        where = address.rpartition(":")
        south = Player((where[0], int(where[2])), token, moves[2])
        south.start()
        south.finish()
        assert host.finish() == 0, host.output
    finally:
        host.kill()
    assert "Game over" in host.output and "end winner" in hosted.read_text()
    assert south.session.finished


def test_two_player_exchanges_stay_private(tmp_path: Path) -> None:
    """R-2P-3: in the double-nil exchange the card a player gives up and the card drawn are
    seen by that player only; the others learn that a card was swapped, not which."""
    table = host_table(
        tmp_path,
        seed=6,
        labels={"N": "human", "S": "human"},
        source="two-player",
        overrides=("target=100", "losing_score=-300"),
    )
    north = Player(table.address, table.token("N"))  # first legal move: declares double nil
    south = Player(table.address, table.token("S"), last=True)  # no double nil, bids high
    watcher = Player(table.address, table.token("watch"))
    # The spectator is seated before the game starts: one that joins in the middle of a
    # trick sees its cards first in the trick's message (they were played before it came).
    watcher.start()
    end = time.monotonic() + DEADLINE
    while not any("a spectator joined" in line for line in table.logs) and time.monotonic() < end:
        time.sleep(0.02)
    for p in (north, south):
        p.start()
    for p in (north, south, watcher):
        p.finish()
    table.finish()
    assert not table.errors and table.game.match.finished
    hidden = 0
    for player, me in ((north, "N"), (south, "S"), (watcher, None)):
        for msg in player.messages():
            if msg["type"] == "move" and msg["phase"] in ("exchange", "draw") and msg["action"] != "done":
                if msg["seat"] == me:
                    assert msg["action"] is not None
                else:
                    assert msg["action"] is None, msg
                    hidden += 1
    assert hidden > 0  # exchanges did happen
