"""A joined seat without a network: the host's side of one connection (what the table
sends it) and the joined seat's line (the messages received, what it sends)."""

from __future__ import annotations

import queue
from collections.abc import Sequence
from typing import Any

from spades_cli.net import wire


class Greeted:
    """The host's side of one connection: what the table sends it."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.greeted = False
        self.sent: list[dict[str, Any]] = []

    def send(self, data: bytes) -> None:
        self.sent.append(wire.decode(data, limit=1 << 22))


class Line:
    """The joined seat's side: the messages already received, and what it sends."""

    def __init__(self, messages: Sequence[dict[str, Any]]) -> None:
        self.inbox: queue.Queue[dict[str, Any] | None] = queue.Queue()
        for msg in messages:
            self.inbox.put(msg)
        self.sent: list[dict[str, Any]] = []
        self.closed = False

    def send(self, msg: dict[str, Any]) -> None:
        self.sent.append(msg)

    def close(self) -> None:
        self.closed = True  # what a joined seat that leaves does to its line
