"""The table protocol's building blocks: messages, limits, tokens, addresses."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from helpers.net import rules

from spades_cli.cli.cmd_join import parse_address
from spades_cli.errors import UsageError
from spades_cli.net import wire
from spades_cli.net.hosting import parse_listen


def test_a_message_is_one_json_object_per_line_and_bad_lines_are_refused() -> None:
    msg = {"type": "say", "text": "hé"}
    line = wire.encode(msg)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert wire.decode(line) == msg
    for bad in (b"not json\n", b"[1, 2]\n", b'{"no": "type"}\n', b"\xff\xfe\n", b'{"type": 3}\n'):
        with pytest.raises(wire.WireError):
            wire.decode(bad)
    with pytest.raises(wire.WireError, match="longer"):
        wire.decode(b'{"type": "say", "text": "' + b"x" * wire.MAX_LINE + b'"}\n')


def test_text_fields_are_bounded() -> None:
    assert wire.text_field({"text": "hello"}, "text") == "hello"
    with pytest.raises(wire.WireError):
        wire.text_field({"text": "x" * (wire.MAX_SAY + 1)}, "text")
    with pytest.raises(wire.WireError):
        wire.text_field({"text": ["a"]}, "text")


def test_the_rate_limit_allows_a_burst_then_refuses() -> None:
    limit = wire.RateLimit(rate=1.0, burst=5)
    allowed = [limit.allow() for _ in range(20)]
    assert allowed[:5] == [True] * 5
    assert not all(allowed[5:])


def test_tokens_open_their_own_seat_only(tmp_path: Path) -> None:
    r = rules()
    tokens = wire.Tokens.fresh(r, [0, 2], watch=True)
    assert tokens.seats[0].startswith("N-") and tokens.seats[2].startswith("S-")
    assert len({*tokens.seats.values(), tokens.watch}) == 3
    assert tokens.find(tokens.seats[2]) == 2
    assert tokens.find(tokens.seats[0]) == 0
    assert tokens.find(tokens.watch or "") == wire.WATCH
    assert tokens.find(tokens.seats[2][:-1] + "0") in (None, 2) and tokens.find("") is None
    assert tokens.find("S-" + "0" * 32) is None


def test_the_tokens_file_is_private_and_reads_back(tmp_path: Path) -> None:
    r = rules()
    tokens = wire.Tokens.fresh(r, [1], watch=False)
    path = wire.tokens_path(str(tmp_path / "game.txt"))
    wire.save_tokens(path, r, tokens)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert wire.load_tokens(path, r) == tokens
    path.write_text('{"seats": {"X": "1"}}')
    with pytest.raises(UsageError, match="not a tokens file"):
        wire.load_tokens(path, r)


def test_listen_defaults_to_the_loopback_interface() -> None:
    assert parse_listen("127.0.0.1:0") == ("127.0.0.1", 0)
    assert parse_listen(":7311") == ("127.0.0.1", 7311)
    assert parse_listen("7311") == ("127.0.0.1", 7311)
    assert parse_listen("[::1]:7311") == ("::1", 7311)
    for bad in ("host:port", "1.2.3.4:70000"):
        with pytest.raises(UsageError):
            parse_listen(bad)


def test_join_needs_host_and_port() -> None:
    assert parse_address("127.0.0.1:7311") == ("127.0.0.1", 7311)
    assert parse_address("[::1]:7311") == ("::1", 7311)
    for bad in ("7311", "127.0.0.1:", ":7311", "127.0.0.1:0", "h:x"):
        with pytest.raises(UsageError):
            parse_address(bad)


def test_results_are_read_back_with_the_bot_protocols_reader() -> None:
    """R-4P-6: the scored hands a client shows are scored again from bids and tricks."""
    r = rules()
    from spades_cli.protocol import rules_lines

    got_rules, results = wire.public_view(
        rules_lines(r), r.seat_names, ["result 1 N bids 3 4 nil 2 tricks 4 5 0 4"]
    )
    assert got_rules == r
    assert results[0].scores == (131, 63)  # NS 3 made +30, 1 bag, nil +100; EW 6 made +60, 3 bags
