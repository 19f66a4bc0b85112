"""A seat that (re)joins while another seat is on turn (issue 34, "left from the last
round"): ``host --resume`` showed "unreadable view: legal: no legal action listed" (the
view of a seat not on turn lists no legal action, and the client refused it), and so the
rejoined client did not know the trick in progress and said "South leads" for a trick
East led."""

from __future__ import annotations

from typing import Any

from helpers.joined import Greeted, Line
from helpers.prompt import new_session, play_until

from spades_cli.engine.notation import action_text
from spades_cli.net import wire
from spades_cli.net.client import RemoteSession
from spades_cli.net.server import Table
from spades_cli.repl.core import PlaySession


def joined_off_turn(
    local: PlaySession, seat: int, then: list[dict[str, Any]]
) -> tuple[RemoteSession, list[str]]:
    """``seat`` joins the table of ``local`` while another seat is on turn; ``then`` follows."""
    table = Table(local.match.rules, wire.Tokens({seat: "token"}), match=local.match)
    conn = Greeted(seat)
    table._greet(conn)  # type: ignore[arg-type]
    assert [m["type"] for m in conn.sent] == ["welcome", "view"]
    line = Line([*conn.sent, *then, {"type": "stopped", "reason": "the test is over"}])
    remote = RemoteSession(line, "token", symbols=False)  # type: ignore[arg-type]
    return remote, [o.text for o in remote.start()]


def test_a_seat_joining_off_turn_reads_its_view() -> None:
    """R-4P-3: West joins while South bids: its 13 cards are shown, no complaint."""
    local = new_session("four-player")
    local.start()
    assert local.on_turn is not None
    west = (local.on_turn + 1) % 4
    remote, shown = joined_off_turn(local, west, [])
    assert not any("cannot read" in line for line in shown), shown
    assert remote.obs is not None and len(remote.obs.hand) == 13
    assert set(remote.obs.hand) == set(local.state.hand_of(west))


def test_a_rejoined_seat_names_the_right_leader() -> None:
    """R-C-3: a card played after a rejoin in the middle of a trick is "plays", not "leads"."""
    local = new_session("four-player")
    local.start()
    play_until(local, lambda s: s.state.hand_no == 0 and len(s.state.trick) == 1 and s.on_turn is not None)
    seat = local.on_turn
    assert seat is not None
    rules = local.match.rules
    card = local.deciding().legal[0]  # type: ignore[union-attr]
    move = {"type": "move", "seat": rules.seat_names[seat], "phase": "play", "action": action_text(card)}
    _, shown = joined_off_turn(local, (seat + 1) % 4, [move])
    name = {"N": "North", "E": "East", "S": "South", "W": "West"}[rules.seat_names[seat]]
    assert any(line.startswith(f"{name} plays ") for line in shown), shown
    assert not any(line.startswith(f"{name} leads ") for line in shown), shown


def test_a_spectator_joining_mid_trick_sees_the_hand_so_far_at_once() -> None:
    """R-4P-4, R-C-3: a spectator who joins while a trick is in progress is shown the deal,
    the bids and the trick's cards at once (its screen stayed blank until the next move),
    and nothing of any hand."""
    local = new_session("four-player")
    local.start()
    play_until(local, lambda s: s.state.hand_no == 0 and len(s.state.trick) == 2 and s.on_turn is not None)
    table = Table(local.match.rules, wire.Tokens({}), match=local.match)
    conn = Greeted(wire.WATCH)
    table._greet(conn)  # type: ignore[arg-type]
    assert [m["type"] for m in conn.sent][:2] == ["welcome", "deal"]
    line = Line([*conn.sent, {"type": "stopped", "reason": "the test is over"}])
    shown = [o.text for o in RemoteSession(line, "token", symbols=False).start()]  # type: ignore[arg-type]
    state, words = local.state, {"N": "North", "E": "East", "S": "South", "W": "West"}
    names = local.match.rules.seat_names
    assert any(t.startswith(f"Hand 1: {words[names[state.dealer]]} deals") for t in shown), shown
    assert sum(" bids " in t for t in shown) == 4
    leader = words[names[state.leader]]
    assert any(t.startswith(f"{leader} leads ") for t in shown), shown
    hands = {c for s in range(4) for c in state.hand_of(s)}
    sent = str(conn.sent)
    assert not any(f"'{action_text(c)}'" in sent for c in hands)  # no card still held is named


def test_a_spectator_catching_up_is_told_of_a_double_nil() -> None:
    """R-2P-3: the hand so far that a spectator is sent names a double nil declared before
    the first card, as the live stream does (a ``declare`` move before the bids)."""
    local = new_session("two-player")
    local.start()
    play_until(local, lambda s: s.state.hand_no == 0 and len(s.state.trick) == 1 and s.on_turn is not None)
    declared = local.match.observation(0).declared
    assert any(declared)  # the human answered ``blind`` first (the first legal word)
    table = Table(local.match.rules, wire.Tokens({}), match=local.match)
    conn = Greeted(wire.WATCH)
    table._greet(conn)  # type: ignore[arg-type]
    names = local.match.rules.seat_names
    said = [(m["seat"], m["action"]) for m in conn.sent if m.get("phase") == "declare"]
    assert said == [(names[s], "blind") for s in range(2) if declared[s]]
