"""One command registry for every seat (spades_cli.session): each command answers the same
at a seat played here (repl.core.PlaySession) and at a seat joined over the network
(net.client.RemoteSession) in the same position.

The joined seat is fed exactly what the host sends a player who (re)joins at that
position: net/server.py's welcome, the view of a seat not on turn, then the view of its
decision. So the same checks show that a rejoined seat knows the hand's tricks.
"""

from __future__ import annotations

import pytest
from helpers.joined import Greeted, Line
from helpers.prompt import new_session, play_until

from spades_cli.net import wire
from spades_cli.net.client import RemoteSession
from spades_cli.net.server import Table
from spades_cli.repl.core import PlaySession
from spades_cli.session.commands import COMMANDS, find_command

# The commands whose answer says where the game is kept or played: a joined seat's host
# keeps the transcript and nobody takes a move back at a shared table.
LEAVE = "Type yes to leave, anything else to keep playing."
PER_TABLE = {
    "transcript": ("The game is saved in /saved/game.txt", "The host keeps the game's transcript."),
    "undo": (None, "Moves cannot be taken back at a shared table."),
    "claim": (None, "Claims are checked with every hand known: not at a shared table."),
    "quit": (
        f"Leave the game (it stays saved in /saved/game.txt)? {LEAVE}",
        f"Leave the table? {LEAVE}",
    ),
}
SAY = "  say TEXT    say something to the table (recorded in the transcript)"


def rejoined(local: PlaySession) -> RemoteSession:
    """The seat on turn in ``local``, as a player who joins the table there sees it."""
    match = local.match
    seat = local.on_turn
    assert seat is not None
    table = Table(match.rules, wire.Tokens({seat: "token"}), match=match)
    conn = Greeted(seat)
    table._greet(conn)  # type: ignore[arg-type]
    messages = [*conn.sent, wire.decode(table.view(seat, turn=True), limit=1 << 22)]
    remote = RemoteSession(Line(messages), "token", symbols=False)  # type: ignore[arg-type]
    remote.start()
    return remote


def answer(session: PlaySession | RemoteSession, line: str) -> str:
    return "\n".join(o.text for o in session.handle(line))


def position(where: str) -> PlaySession:
    """A fresh session at a decision of its human seat: the first bid, the middle of the
    second hand's play, a two-player draft, the two-player play."""
    preset = "two-player" if where in ("draft", "two-player play") else "four-player"
    session = new_session(preset)
    session.start()
    there = {
        "bid": lambda s: True,
        "play": lambda s: s.state.hand_no == 1 and len(s.state.tricks) == 5,
        "draft": lambda s: len(s.state.history) > 6,
        "two-player play": lambda s: len(s.state.tricks) == 4,
    }[where]
    play_until(session, lambda s: there(s) and s.on_turn is not None)
    return session


WHERE = ("bid", "play", "draft", "two-player play")


@pytest.mark.parametrize("command", [c.name for c in COMMANDS])
@pytest.mark.parametrize("where", WHERE)
def test_every_command_answers_alike_at_a_local_and_a_joined_seat(command: str, where: str) -> None:
    local = position(where)
    remote = rejoined(local)
    for arg in ("", " all") if command == "rules" else ("",):
        here, there = answer(local, command + arg), answer(remote, command + arg)
        if command in PER_TABLE:
            expected_here, expected_there = PER_TABLE[command]
            assert there == expected_there
            if expected_here is not None:
                assert here == expected_here
        elif command == "help":
            assert there.splitlines() == [*here.splitlines()[:-1], SAY, here.splitlines()[-1]]
        else:
            assert here == there, (where, command)
    local.handle("no")  # the question of quit
    remote.handle("no")


def test_the_registry_is_the_list_of_commands() -> None:
    for c in COMMANDS:
        for word in (c.name, *c.aliases):
            assert find_command(word.upper()) is c
    assert len({c.handler for c in COMMANDS}) == len(COMMANDS)


def test_discards_at_a_joined_two_player_seat() -> None:
    local = position("draft")
    remote = rejoined(local)
    said = answer(remote, "discards")
    assert "discard" in said and "out of play too, unseen" in said
    assert said == answer(local, "discards")


def test_last_and_tricks_right_after_a_rejoin() -> None:
    local = position("play")
    remote = rejoined(local)
    assert remote.hand_tricks() == list(local.state.tricks) and len(remote.hand_tricks()) == 5
    assert answer(remote, "last").startswith("Trick 5 (")
    assert answer(remote, "tricks").count("Trick ") == 5
    assert answer(remote, "tricks") == answer(local, "tricks")
    assert answer(remote, "last") == answer(local, "last")


def test_a_joined_seat_hints_with_the_same_bot_as_a_local_one() -> None:
    local = position("bid")
    remote = rejoined(local)
    assert remote.hint_level == local.hint_level
    assert answer(remote, "hint") == answer(local, "hint")
    assert answer(remote, "hint").startswith(f"Hint ({local.hint_level} bot): ")


def test_score_before_a_scored_hand_reads_the_same() -> None:
    local = position("bid")
    said = answer(rejoined(local), "score")
    assert said == answer(local, "score") == "No hand has been scored yet (game to 500)."


def test_a_rank_alone_names_the_one_legal_card_at_a_joined_seat_as_at_a_local_one() -> None:
    """R-C-3: ``8`` when exactly one legal card is an eight plays it, at a joined seat (the
    move sent to the host names the card) as at the local prompt (issue 34)."""
    from spades_cli.engine.cards import RANK_NAMES, card_str

    local = position("play")
    remote = rejoined(local)
    obs = local.deciding()
    assert obs is not None and remote.obs is not None and remote.obs.legal == obs.legal
    ranks = [r for r in range(13) if sum(1 for a in obs.legal if a % 13 == r) == 1]
    assert ranks, "the position has a rank held once among the legal cards"
    card = next(a for a in obs.legal if a % 13 == ranks[0])
    line = remote.conn
    assert isinstance(line, Line)
    line.inbox.put({"type": "illegal", "reason": "the host's answer, for the test"})
    answer(remote, RANK_NAMES[ranks[0]])
    assert line.sent[-1]["type"] == "move" and line.sent[-1]["action"] == card_str(card)
    before = len(local.state.history)
    answer(local, RANK_NAMES[ranks[0]])
    assert local.state.history[before] == card
