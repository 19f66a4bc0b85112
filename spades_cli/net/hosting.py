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
import hashlib
import hmac
import json
import secrets
import ssl
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from spades_cli.app.launch import BotFlags, go_on, replay_unfinished
from spades_cli.app.printer import Printer
from spades_cli.app.setup import RulesChoice, make_controller, make_seats, open_transcript, recorded_run
from spades_cli.engine import Rules
from spades_cli.engine.notation import is_number
from spades_cli.engine.rules import SEAT_WORDS
from spades_cli.errors import UsageError
from spades_cli.game.events import Emit
from spades_cli.game.match import Match
from spades_cli.game.run import GameRun, stop_signals
from spades_cli.game.seats import HUMAN
from spades_cli.net import tls, wire
from spades_cli.net.client import Connection
from spades_cli.net.server import Host, RemoteSeat, SeatLost, Table, TableEvents

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


def table_seed(chosen: int | str, secret: bytes | None = None) -> str:
    """The seed a hosted game deals from: the seed the host chose (or a fresh one), stretched
    with a random secret of this table (HMAC-SHA256, 256 bits). A seat that knows the chosen
    seed and its own cards cannot work out the other hands, and the hint keys sent to the
    seats (one-way hashes of this seed) cannot be inverted. The transcript records this
    seed, so ``replay`` and ``--resume`` deal the same cards."""
    key = secrets.token_bytes(32) if secret is None else secret
    return hmac.new(key, f"spades-table:{chosen}".encode(), hashlib.sha256).hexdigest()


def _table(
    rules: Rules,
    tokens: wire.Tokens,
    on_leave: str | None,
    *,
    reconnect: float,
    move_clock: float | None,
    hints: bool,
    log: Log,
) -> Table:
    fallback = make_controller(on_leave, rules) if on_leave else None
    return Table(
        rules,
        tokens,
        reconnect_timeout=reconnect,
        move_clock=move_clock,
        on_leave=fallback,
        hints=hints,
        log=log,
    )


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
    move_clock: float | None = None,
) -> HostedGame:
    """A new table: ``human`` seats are joined from afar, each with a fresh token; the
    transcript is started at ``transcript`` (never over an existing file) or in the
    per-user folder."""
    rules = choice.rules
    humans = [s for s, label in labels.items() if label == HUMAN]
    tokens = wire.Tokens.fresh(rules, humans, watch)
    table = _table(rules, tokens, on_leave, reconnect=reconnect, move_clock=move_clock, hints=hints, log=log)
    seats = make_seats(rules, labels, human=lambda _label: RemoteSeat(table))
    match = Match(rules, seed, seats)
    seat_labels = [labels[s] for s in range(rules.players)]
    try:
        run = recorded_run(
            match,
            lambda: open_transcript(transcript, match, choice, seats=seat_labels, exclusive=True),
            bot_timeout=bot_timeout,
            on_bot_failure=on_bot_failure,
        )
    except FileExistsError:
        raise UsageError(
            f"{transcript} already exists: choose another --transcript, or reopen that table "
            f"with 'spades host --resume {transcript}'"
        ) from None
    game = HostedGame(run, table, labels)
    wire.save_tokens(game.tokens_file, rules, tokens)
    _wire_up(game)
    return game


def resumed_game(
    file: str,
    *,
    on_leave: str | None,
    reconnect: float,
    hints: bool,
    log: Log,
    flags: BotFlags,
    move_clock: float | None = None,
) -> HostedGame:
    """Open the table of an unfinished hosted game again, with the tokens it had: the seats
    that had a token are joined again (a bot that took one over gives it back)."""
    letters = _token_seats(wire.tokens_path(file))
    unfinished = replay_unfinished(file, preset_files=(), transcript=None)
    rules = unfinished.rules
    try:
        tokens = wire.load_tokens(wire.tokens_path(file), rules)
        table = _table(
            rules, tokens, on_leave, reconnect=reconnect, move_clock=move_clock, hints=hints, log=log
        )
    except BaseException:
        unfinished.close()
        raise
    seat_specs = [f"{letter}=human" for letter in letters]
    resumed = go_on(unfinished, seat_specs=seat_specs, flags=flags, human=lambda _label: RemoteSeat(table))
    run = resumed.run
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
    # From here Ctrl-C, SIGTERM and SIGHUP are noted and stop the game between two actions
    # (the table's waits ask too): the run saves it (end *). Raised at once, in the middle
    # of a wait, they could leave a lock of the table's queue taken.
    table.check_stop = run.stop_if_asked
    with run, stop_signals(run):
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
    return tls.server_context(cert, key)


def table_tls(
    host: str, cert: str | None, key: str | None, *, force: bool, insecure: bool
) -> tuple[ssl.SSLContext | None, str | None]:
    """The host's TLS context and its certificate's fingerprint: ``--tls-cert``/``--tls-key``
    when given, else the table's own certificate (made on first use) beyond loopback or
    with ``force`` (``--tls``); plain TCP (None, None) on loopback or with ``insecure``."""
    if insecure and (force or cert is not None or key is not None):
        raise UsageError("--insecure asks for plain TCP: leave out --tls, --tls-cert and --tls-key")
    context = tls_context(cert, key)
    if context is not None and cert is not None:
        return context, tls.pem_fingerprint(cert)
    if insecure or not (force or not tls.is_loopback(host)):
        return None, None
    own = tls.host_certificate()
    return tls.server_context(own), tls.pem_fingerprint(own)


def pinned(host: str, port: int, pin: str) -> Connection:
    """A TLS connection to the table whose certificate has exactly this fingerprint."""

    def check(der: bytes) -> None:
        tls.check_exact(f"{host}:{port}", tls.fingerprint(der), pin)

    return Connection(host, port, context=tls.pinned_context(), check=check)


# ------------------------------------------------------------------------------ spades host


def open_table(
    game: HostedGame,
    address: tuple[str, int],
    context: ssl.SSLContext | None,
    *,
    log: Log,
    pin: str | None = None,
) -> tuple[Host, tuple[str, int]]:
    """Start accepting the joined players of ``game`` at ``address`` (UsageError when no
    seat is joined from afar or the address cannot be used; the run is closed then), and
    print each player's join line (with ``pin``, the fingerprint of the table's certificate);
    the server and the address it is bound to."""
    if not any(label == HUMAN for label in game.labels.values()):
        game.run.close()
        raise UsageError("no seat is joined from afar: give one to a person, e.g. --seat S=human")
    log(f"Saving the game in {game.path}")
    server = Host(ssl_context=context, log=log)
    server.add(game.table)
    try:
        bound = server.start(*address)
    except OSError as exc:
        game.run.close()
        raise UsageError(str(exc)) from None
    for line in join_lines(game, bound, pin if pin is not None else ("" if context is not None else None)):
        log(line)
    return server, bound


def join_lines(game: HostedGame, address: tuple[str, int], pin: str | None) -> list[str]:
    """The line each joined player (and the spectators) types to take a seat: with the
    fingerprint ``pin`` of the table's certificate (``""``: TLS with a certificate the
    players check otherwise, ``--tls-ca``)."""
    host, port = address
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    extra = f" --fingerprint {pin}" if pin else (" --tls" if pin is not None else "")
    rules, tokens = game.run.rules, game.table.tokens
    lines = [f"Table open on {where}. Give each player their line (the tokens are secret):"]
    for seat, token in sorted(tokens.seats.items()):
        lines.append(f"  {SEAT_WORDS[rules.seat_names[seat]]}: spades join {where} --token {token}{extra}")
    if tokens.watch is not None:
        lines.append(f"  Spectators: spades join {where} --token {tokens.watch}{extra}")
    if host in ("0.0.0.0", "::"):
        lines.append(f"  (the table listens on every interface: give them this machine's address for {host})")
    return lines


def resume_hint(game: HostedGame) -> str:
    path = game.path
    return f"the game is saved in {path}; 'spades host --resume {path}' continues it with the same tokens"


def host(game: HostedGame, server: Host, *, log: Log) -> None:
    """Play the game with every seat joined from afar, its moves printed with ``log``."""
    try:
        play(game, listeners=[Printer(game.run, log, detail=False)])
    except SeatLost as exc:
        raise SeatLost(f"{exc}: {resume_hint(game)}") from None
    finally:
        server.stop()
    log(f"Transcript: {game.path}")


def play_here(
    game: HostedGame,
    server: Host,
    bound: tuple[str, int],
    letter: str,
    pin: str | None,
    take_seat: Callable[[Connection, str], int],
) -> int:
    """``--play SEAT``: the game runs on a thread; this terminal plays SEAT like a joined
    seat, with ``take_seat(connection, token)`` (the prompt of ``spades join``); its exit code."""
    rules = game.run.rules
    try:
        seat = rules.seat_index(letter)
    except ValueError as exc:
        raise UsageError(f"--play {letter}: {exc}") from None
    if seat not in game.table.tokens.seats:
        raise UsageError(f"--play {letter}: that seat is not played by a person (--seat {letter}=human)")
    failed: list[BaseException] = []

    def run() -> None:
        try:
            play(game)
        except BaseException as exc:  # reported below, on the main thread
            failed.append(exc)

    thread = threading.Thread(target=run, name="spades-table", daemon=True)
    thread.start()
    where = "127.0.0.1" if bound[0] in ("0.0.0.0", "::") else bound[0]
    try:
        conn = pinned(where, bound[1], pin) if pin is not None else Connection(where, bound[1])
        code = take_seat(conn, game.table.tokens.seats[seat])
    finally:
        game.table.stopping = "the host left the table"
        thread.join(30)
        server.stop()
    if failed and not isinstance(failed[0], SeatLost):
        raise failed[0]
    return code
