"""One narrator of moves and tricks (spades_cli.view.narrate): a seat joined over the
network tells the game in the same words as the same seat played here.

One game is played at a local session; the host's per-seat messages for that seat
(net/server.py's TableEvents and views, the same run's events) are handed to a joined
session, which must show the same lines: the moves, the tricks, the deals, the hands'
results and the view the seat decides from.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from helpers.joined import Greeted, Line
from helpers.paths import ROOT
from helpers.prompt import first_legal, new_session

from spades_cli.net import wire
from spades_cli.net.client import RemoteSession
from spades_cli.net.server import Table, TableEvents
from spades_cli.session.output import HAND, INFO, MOVE, OWN, STATUS, TRICK, VIEW, Output

TOLD = (INFO, MOVE, OWN, TRICK, HAND, STATUS, VIEW)


def told(outputs: list[Output]) -> list[str]:
    return [o.text for o in outputs if o.kind in TOLD]


@pytest.mark.parametrize("preset", ["four-player", "two-player"])
def test_a_joined_seat_tells_the_game_as_a_local_one(preset: str) -> None:
    local = new_session(preset)
    match = local.match
    (seat,) = local.humans
    table = Table(match.rules, wire.Tokens({seat: "token"}), match=match)
    conn = Greeted(seat)
    table.seats[seat] = conn  # type: ignore[assignment]
    table._greet(conn)  # type: ignore[arg-type]
    local.run.subscribe(TableEvents(table, match))
    line = Line([])
    remote = RemoteSession(line, "token", symbols=False)  # type: ignore[arg-type]

    def send_up_to_the_turn() -> None:
        if local.on_turn is not None:
            conn.send(table.view(seat, turn=True))
        for msg in conn.sent:
            line.inbox.put(msg)
        conn.sent.clear()

    here = local.start()
    send_up_to_the_turn()
    there = remote.start()
    assert told(there)[1:] == told(here)  # the joined seat first says it joined
    steps = 0
    while local.state.hand_no < 2 and not local.done:
        move = first_legal(local)
        here = local.handle(move)
        send_up_to_the_turn()
        there = remote.handle(move)
        assert told(there) == told(here), (steps, move)
        steps += 1
    assert steps > 20


def test_the_cards_of_a_draft_decision_go_to_its_owner_only() -> None:
    local = new_session("two-player")
    match = local.match
    (seat,) = local.humans
    table = Table(match.rules, wire.Tokens({seat: "token"}), match=match)
    owner, watcher = Greeted(seat), Greeted(wire.WATCH)
    owner.greeted = watcher.greeted = True
    table.seats[seat] = owner  # type: ignore[assignment]
    table.watchers.add(watcher)  # type: ignore[arg-type]
    local.run.subscribe(TableEvents(table, match))
    local.start()
    for _ in range(6):
        local.handle(first_legal(local))
    drafts = [m for m in owner.sent if m["type"] == "move" and m["phase"] == "draft"]
    assert drafts and all(len(m["cards"]) == 2 for m in drafts if m["seat"] == match.rules.seat_names[seat])
    assert all("cards" not in m for m in watcher.sent)
    assert all("cards" not in m for m in drafts if m["seat"] != match.rules.seat_names[seat])


def test_the_printer_tells_an_exchange_in_the_prompt_s_words() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "spades_cli", "replay", "--ascii", "transcripts/two-player.txt"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    lines = done.stdout.splitlines()
    assert "South declares double nil." in lines
    given = lines.index("South gives up 10S.")
    assert lines[given + 1] == "South draws JH from the discard pile."
