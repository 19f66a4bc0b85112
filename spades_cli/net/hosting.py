"""A hosted game from its start (or its resumption) to its end.

The host is the one authority: it deals from the seed, checks every move, and writes the
one transcript (appended and flushed per action). The game is a
:class:`~spades_cli.game.run.GameRun` like every other; joined seats are controllers
like any other (:class:`~spades_cli.net.server.RemoteSeat`). The seats' tokens are kept
beside the transcript with mode 0600, so that ``spades host --resume FILE`` opens the
table again with the same tokens after a crash; the file is removed once the game is over.
"""

from __future__ import annotations

import contextlib
import json
import ssl
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from spades_cli.app.launch import BotFlags, resume_game
from spades_cli.app.setup import RulesChoice, make_seats, open_transcript
from spades_cli.engine import Rules
from spades_cli.engine.notation import is_number
from spades_cli.engine.rules import SEAT_WORDS
from spades_cli.errors import UsageError
from spades_cli.game.events import Emit
from spades_cli.game.match import Match
from spades_cli.game.run import GameRun, stop_signals
from spades_cli.game.seats import HUMAN, make_controller
from spades_cli.net import wire
from spades_cli.net.server import RemoteSeat, Table, TableEvents

Log = Callable[[str], None]


@dataclass
class HostedGame:
    """A game with its table: the run (match and transcript) and the joined seats' tokens."""

    run: GameRun
    table: Table
    labels: dict[int, str]
    resumed: bool = False

    @property
    def match(self) -> Match:
        return self.run.match

    @property
    def path(self) -> str:
        assert self.run.writer is not None and self.run.writer.path is not None
        return self.run.writer.path

    @property
    def tokens_file(self) -> Path:
        return wire.tokens_path(self.path)


def _table(
    rules: Rules, tokens: wire.Tokens, on_leave: str | None, *, reconnect: float, hints: bool, log: Log
) -> Table:
    fallback = make_controller(on_leave, rules) if on_leave else None
    return Table(rules, tokens, reconnect_timeout=reconnect, on_leave=fallback, hints=hints, log=log)


def _wire_up(game: HostedGame) -> None:
    run, table = game.run, game.table
    table.match = run.match
    table.note = run.note
    table.seat_changed = run.seat_changed
    run.subscribe(TableEvents(table, run.match))


def new_game(
    choice: RulesChoice,
    seed: int | str,
    labels: dict[int, str],
    transcript: str | None,
    *,
    watch: bool,
    on_leave: str | None,
    reconnect: float,
    hints: bool,
    log: Log,
    bot_timeout: float | None = None,
    on_bot_failure: str | None = None,
) -> HostedGame:
    """A new table: ``human`` seats are joined from afar, each with a fresh token; the
    transcript is started at ``transcript`` (never over an existing file) or in the
    per-user folder."""
    rules = choice.rules
    humans = [s for s, label in labels.items() if label == HUMAN]
    tokens = wire.Tokens.fresh(rules, humans, watch)
    table = _table(rules, tokens, on_leave, reconnect=reconnect, hints=hints, log=log)
    seats = make_seats(rules, labels, human=lambda _label: RemoteSeat(table))
    run = GameRun.new(rules, seed, seats, bot_timeout=bot_timeout, on_bot_failure=on_bot_failure)
    try:
        seat_labels = [labels[s] for s in range(rules.players)]
        run.writer = open_transcript(transcript, run.match, choice, seats=seat_labels, exclusive=True)
    except FileExistsError:
        run.close()
        raise UsageError(
            f"{transcript} already exists: choose another --transcript, or reopen that table "
            f"with 'spades host --resume {transcript}'"
        ) from None
    game = HostedGame(run, table, labels)
    wire.save_tokens(game.tokens_file, rules, tokens)
    _wire_up(game)
    return game


def resumed_game(
    file: str, *, on_leave: str | None, reconnect: float, hints: bool, log: Log, flags: BotFlags
) -> HostedGame:
    """Open the table of an unfinished hosted game again, with the tokens it had: the seats
    that had a token are joined again (a bot that took one over gives it back)."""
    letters = _token_seats(wire.tokens_path(file))
    resumed = resume_game(
        file,
        seat_specs=[f"{letter}=human" for letter in letters],
        preset_files=(),
        transcript=None,
        flags=flags,
        human=lambda _label: RemoteSeat(),
    )
    run = resumed.run
    rules = run.rules
    tokens = wire.load_tokens(wire.tokens_path(file), rules)
    table = _table(rules, tokens, on_leave, reconnect=reconnect, hints=hints, log=log)
    for controller in run.match.controllers:
        if isinstance(controller, RemoteSeat):
            controller.table = table
    labels = {s: c.label for s, c in enumerate(run.match.controllers)}
    game = HostedGame(run, table, labels, resumed=True)
    _wire_up(game)
    return game


def _token_seats(path: Path) -> list[str]:
    """The seat letters a tokens file names (checked against the rules once they are known)."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.loads(f.read(64 * 1024))
        seats = data["seats"]
        letters = [str(k) for k in seats]
    except FileNotFoundError:
        raise UsageError(f"{path}: not found: the table's tokens are kept beside its transcript") from None
    except (OSError, ValueError, KeyError, TypeError, RecursionError) as exc:
        raise UsageError(f"{path}: cannot read the table's tokens: {exc}") from None
    if not all(len(x) == 1 and x in "NESW" for x in letters):
        raise UsageError(f"{path}: not a tokens file of 'spades host'")
    return letters


def play(game: HostedGame, *, listeners: Sequence[Emit] = ()) -> None:
    """Wait for the joined players, then play the game to its end. A player who does not
    come back (without ``--on-leave``), Ctrl-C or an error stops it: the run is finished
    with ``end *`` and the exception goes on."""
    run, table = game.run, game.table
    for fn in listeners:
        run.subscribe(fn)
    with run, stop_signals():  # from here SIGTERM and SIGHUP save the game (end *) like Ctrl-C
        run.start(resumed=game.resumed)
        missing = [SEAT_WORDS.get(n, n) for n in (run.rules.seat_names[s] for s in table.missing())]
        if missing:
            table.log(f"Waiting for {', '.join(missing)} to join.")
        table.wait_for_players()
        run.play()
    if run.match.finished:
        with contextlib.suppress(OSError):
            game.tokens_file.unlink()


def parse_listen(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6; ``:PORT`` or a bare port means 127.0.0.1)."""
    host, sep, port_text = text.rpartition(":")
    if not sep:
        host, port_text = "", text
    host = host.strip("[]") or "127.0.0.1"
    if not (is_number(port_text) and len(port_text) <= 5):
        raise UsageError(f"--listen {text!r}: expected HOST:PORT, e.g. 127.0.0.1:7311")
    port = int(port_text)
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
