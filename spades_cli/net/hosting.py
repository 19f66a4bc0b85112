"""A hosted game from its start (or its resumption) to its end.

The host is the one authority: it deals from the seed, checks every move, and writes the
one transcript (appended and flushed per action). Joined seats are controllers like any
other (:class:`~spades_cli.net.server.RemoteSeat`); the loop is the same ``Match`` loop
every command runs. The seats' tokens are kept beside the transcript with mode 0600, so
that ``spades host --resume FILE`` opens the table again with the same tokens after a
crash; the file is removed once the game is over.
"""

from __future__ import annotations

import contextlib
import io
import os
import ssl
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from spades_cli.engine import Rules
from spades_cli.errors import UsageError
from spades_cli.match import Controller, Listener, Match
from spades_cli.net import wire
from spades_cli.net.server import RemoteSeat, SeatLost, Table, TableListener
from spades_cli.protocol import recording
from spades_cli.seats import HUMAN, make_controller
from spades_cli.transcript import TranscriptWriter, read_transcript, replay, transcript_rules


@dataclass
class HostedGame:
    """A game with its table: the match, its transcript and the joined seats' tokens."""

    match: Match
    writer: TranscriptWriter
    table: Table
    labels: dict[int, str]
    resumed: bool = False

    @property
    def tokens_file(self) -> Path:
        assert self.writer.path is not None
        return wire.tokens_path(self.writer.path)


def _table(rules: Rules, tokens: wire.Tokens, on_leave: str | None, *, reconnect: float, hints: bool,
           log: Callable[[str], None]) -> Table:
    fallback = make_controller(on_leave, rules) if on_leave else None
    return Table(rules, tokens, reconnect_timeout=reconnect, on_leave=fallback, hints=hints, log=log)


def _wire_up(game: HostedGame) -> None:
    rules, writer, table = game.match.rules, game.writer, game.table
    table.note = lambda seat, text: writer.note(seat, text, rules)
    table.seat_changed = lambda seat, label: writer.seat_changed(seat, label, rules)
    listener = TableListener(table)
    listener.sync(game.match)
    game.match.listeners.append(listener)


def new_game(
    rules: Rules,
    seed: int | str,
    labels: dict[int, str],
    open_writer: Callable[[Match], TranscriptWriter],
    *,
    watch: bool,
    on_leave: str | None,
    reconnect: float,
    hints: bool,
    log: Callable[[str], None],
) -> HostedGame:
    """A new table: ``human`` seats are joined from afar, each with a fresh token."""
    humans = [s for s, label in labels.items() if label == HUMAN]
    tokens = wire.Tokens.fresh(rules, humans, watch)
    table = _table(rules, tokens, on_leave, reconnect=reconnect, hints=hints, log=log)
    controllers = [
        RemoteSeat(table) if labels[s] == HUMAN else make_controller(labels[s], rules)
        for s in range(rules.players)
    ]
    match = Match(rules, seed, controllers)
    table.match = match
    writer = open_writer(match)
    game = HostedGame(match, writer, table, labels)
    wire.save_tokens(game.tokens_file, rules, tokens)
    _wire_up(game)
    return game


def resumed_game(file: str, *, on_leave: str | None, reconnect: float, hints: bool,
                 log: Callable[[str], None]) -> HostedGame:
    """Open the table of an unfinished hosted game again, with the tokens it had."""
    t = read_transcript(file)
    rules = transcript_rules(t)
    assert rules is not None
    if t.seed is None:
        raise UsageError(f"{file}:1: the transcript has no [Seed] tag, so the next deals are unknown")
    tokens = wire.load_tokens(wire.tokens_path(file), rules)
    buffer = io.StringIO()
    writer = TranscriptWriter(buffer)
    result = replay(t, rules, writer=writer, keep_end=False)
    match = result.match
    if match.finished:
        raise UsageError(f"{file}: the game is over: nothing to resume")
    table = _table(rules, tokens, on_leave, reconnect=reconnect, hints=hints, log=log)
    table.match = match
    labels = {s: (HUMAN if s in tokens.seats else result.labels[s]) for s in range(rules.players)}
    controllers: list[Controller] = []
    for seat in range(rules.players):
        if seat in tokens.seats:
            controllers.append(RemoteSeat(table))
            if result.labels[seat] != HUMAN:
                writer.seat_changed(seat, HUMAN, rules)
        else:
            controllers.append(make_controller(labels[seat], rules))
    match.controllers = controllers
    _rewrite(file, buffer.getvalue())
    try:
        stream = open(file, "a", encoding="utf-8", newline="\n")  # noqa: SIM115
    except OSError as exc:
        raise UsageError(f"{file}: cannot write the transcript: {exc.strerror or exc}") from None
    writer.retarget(stream, path=file)
    game = HostedGame(match, writer, table, labels, resumed=True)
    _wire_up(game)
    return game


def _rewrite(path: str, text: str) -> None:
    """Replace ``path`` with ``text`` in one step (a crash leaves the old or the new file)."""
    target = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=".spades-", suffix=".tmp", dir=target.parent)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
        os.replace(tmp, target)
    except OSError as exc:
        raise UsageError(f"{path}: cannot write the transcript: {exc.strerror or exc}") from None


def play(
    game: HostedGame,
    *,
    listeners: Sequence[Listener] = (),
    bot_timeout: float | None = None,
    on_bot_failure: str | None = None,
) -> None:
    """Wait for the joined players, then play the game to its end. A player who does not
    come back (without ``--on-leave``), Ctrl-C or an error stops it: the transcript ends
    with ``end *`` and the exception goes on."""
    match, writer, table = game.match, game.writer, game.table
    match.listeners.extend(listeners)
    try:
        with recording(match, writer, timeout=bot_timeout, on_failure=on_bot_failure):
            table.wait_for_players()
            while not match.finished:
                match.step()
    except BaseException as exc:
        if not match.finished:
            writer.unfinished()
            reason = str(exc) if isinstance(exc, SeatLost) else "the host stopped"
            table.broadcast({"type": "stopped", "reason": f"{reason}; the game is saved"})
        raise
    finally:
        writer.close()
    with contextlib.suppress(OSError):
        game.tokens_file.unlink()


def parse_listen(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6; ``:PORT`` or a bare port means 127.0.0.1)."""
    host, sep, port_text = text.rpartition(":")
    if not sep:
        host, port_text = "", text
    host = host.strip("[]") or "127.0.0.1"
    try:
        port = int(port_text)
    except ValueError:
        raise UsageError(f"--listen {text!r}: expected HOST:PORT, e.g. 127.0.0.1:7311") from None
    if not 0 <= port <= 65535:
        raise UsageError(f"--listen {text!r}: the port must be between 0 and 65535")
    return host, port


def tls_context(cert: str | None, key: str | None) -> ssl.SSLContext | None:
    """The host's TLS context for ``--tls-cert``/``--tls-key`` (None without them)."""
    if cert is None and key is None:
        return None
    if cert is None or key is None:
        raise UsageError("TLS needs both --tls-cert and --tls-key")
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        context.load_cert_chain(cert, key)
    except (OSError, ssl.SSLError) as exc:
        raise UsageError(f"cannot load the TLS certificate or key: {exc}") from None
    return context


def own_seat_context(cert: str) -> ssl.SSLContext:
    """For the host's own seat (``--play``): trust exactly the host's certificate, whatever
    name it was made for (the connection goes to this machine's loopback interface)."""
    context = ssl.create_default_context(cafile=cert)
    context.check_hostname = False
    return context
