"""What a networked table costs: the latency of a move to the other seats, and a host
holding many tables at once. Everything runs on 127.0.0.1 and stops by itself.

    python bench/net.py [--games 2] [--tables 50] [--level easy] [--target 100] [--deadline 240]

1. **Latency.** A table with North and South joined (clients on threads of this process,
   playing their first legal move at once) and bots at East and West. For every move a
   joined seat sends, the time until the other joined seat has received and shown it
   (the client's own display path, in batch form). Target: under 50 ms on localhost.
   The joined seats decide as bots of ``--level`` would (instantly, on the client).
2. **Many tables.** One host process side (one network thread) holding ``--tables``
   tables, each with three bots and one joined seat, all played at once; every action
   of every game must reach its joined seat (checked against the host's own history).
   Prints the wall time, the actions per second and the latency of the bots' moves to
   the joined seats.
3. **Soak** (``--soak-hands N``, 0 to skip). Games with all four seats joined, played by
   scripts, one after another on one host until N hands are played, while ``--churn``
   anonymous connections come and go (idle, garbage, wrong tokens) and a spectator
   joins every half second. Prints the hands per minute, the peak memory of this
   process (host and clients alike), how long the spectator's valid token took to be
   welcomed, and what the host dropped.
"""

from __future__ import annotations

import argparse
import collections
import random
import resource
import socket
import statistics
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from common import build_line

from spades_cli.app.setup import choose_rules
from spades_cli.bots import make_bot
from spades_cli.engine.notation import action_text
from spades_cli.game.match import BaseListener, Match
from spades_cli.net import hosting, wire
from spades_cli.net.client import Connection, RemoteSession
from spades_cli.net.server import Host
from spades_cli.session.output import MOVE, Output

LOOPBACK = "127.0.0.1"


class Stamps(BaseListener):
    """When the host applied each action (by its index in the history)."""

    def __init__(self) -> None:
        self.at: dict[int, float] = {}
        self.match: Match | None = None

    def on_action(self, match: Match, seat: int, action: int) -> None:
        self.at[len(match.state.history) - 1] = time.perf_counter()


class Seat(threading.Thread):
    """A joined seat that plays at once as a bot of ``level`` would, and notes when each
    other seat's move was shown."""

    def __init__(self, address: tuple[str, int], token: str, deadline: float, level: str) -> None:
        super().__init__(daemon=True)
        self.bot = make_bot(level)
        self.deadline = deadline
        self.conn = Connection(*address)
        self.session = RemoteSession(self.conn, token, symbols=False, live=self.shown)
        self.moves_shown: list[tuple[float, str]] = []  # (when, text) of the other seats' moves
        self.sent: list[float] = []
        self.error: BaseException | None = None

    def shown(self, outputs: list[Output]) -> None:
        now = time.perf_counter()
        self.moves_shown += [(now, o.text) for o in outputs if o.kind == MOVE]

    def run(self) -> None:
        s = self.session
        try:
            self.shown(s.start())
            while not s.done and time.monotonic() < self.deadline:
                assert s.obs is not None and s.rules is not None
                move = self.bot.act(s.obs, s.rules, random.Random(len(self.sent)))
                self.sent.append(time.perf_counter())
                self.shown(s.handle(action_text(move)))
        except BaseException as exc:
            self.error = exc
        finally:
            self.conn.close()


def make_table(
    tmp: Path, name: str, seed: int, labels: dict[int, str], target: int, host: Host
) -> tuple[hosting.HostedGame, Stamps]:
    choice = choose_rules("four-player", [f"target={target}"], default="four-player")
    game = hosting.new_game(
        choice,
        seed,
        labels,
        str(tmp / f"{name}.txt"),
        watch=False,
        on_leave=None,
        reconnect=30.0,
        hints=False,
        log=lambda _s: None,
    )
    stamps = Stamps()
    game.match.listeners.append(stamps)
    host.add(game.table)
    return game, stamps


def token(game: hosting.HostedGame, seat: int) -> str:
    return game.table.tokens.seats[seat]


def percentiles(values: Sequence[float], what: str = "moves") -> str:
    if not values:
        return "no samples"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (
        f"median {statistics.median(ordered) * 1000:.2f} ms, p95 {p95 * 1000:.2f} ms, "
        f"max {ordered[-1] * 1000:.2f} ms ({len(ordered)} {what})"
    )


def latency(tmp: Path, games: int, level: str, target: int, deadline: float) -> list[float]:
    samples: list[float] = []
    for g in range(games):
        host = Host()
        labels = {0: "human", 1: level, 2: "human", 3: level}
        game, _ = make_table(tmp, f"latency-{g}", 100 + g, labels, target, host)
        address = host.start(LOOPBACK, 0)
        north = Seat(address, token(game, 0), deadline, level)
        south = Seat(address, token(game, 2), deadline, level)
        runner = threading.Thread(target=hosting.play, args=(game,), daemon=True)
        for t in (north, south, runner):
            t.start()
        for t in (north, south, runner):
            t.join(max(0.0, deadline - time.monotonic()))
        host.stop()
        # The n-th move North sent is the n-th North move South showed (and the other way).
        for sender, other, letter in ((north, south, "North"), (south, north, "South")):
            shown = [when for when, line in other.moves_shown if line.startswith(f"{letter} ")]
            samples += [b - a for a, b in zip(sender.sent, shown, strict=False)]
    return samples


def many_tables(tmp: Path, tables: int, level: str, target: int, deadline: float) -> None:
    host = Host()
    played: list[tuple[hosting.HostedGame, Stamps, Seat]] = []
    address = ("", 0)
    setups = []
    for t in range(tables):
        labels = {0: level, 1: level, 2: "human", 3: level}
        setups.append(make_table(tmp, f"table-{t}", 1000 + t, labels, target, host))
    address = host.start(LOOPBACK, 0)
    runners = []
    start = time.perf_counter()
    for game, stamps in setups:
        seat = Seat(address, token(game, 2), deadline, level)
        played.append((game, stamps, seat))
        runner = threading.Thread(target=hosting.play, args=(game,), daemon=True)
        runners.append(runner)
        seat.start()
        runner.start()
    for (_, _, seat), runner in zip(played, runners, strict=True):
        runner.join(max(0.0, deadline - time.monotonic()))
        seat.join(max(0.0, deadline - time.monotonic()))
    wall = time.perf_counter() - start
    host.stop()
    finished = sum(1 for game, _, _ in played if game.match.finished)
    actions = sum(len(game.match.state.history) for game, _, _ in played)
    delivered = sum(len(seat.moves_shown) + len(seat.sent) for _, _, seat in played)
    complete = sum(
        1
        for game, _, seat in played
        if len(seat.moves_shown) + len(seat.sent) == len(game.match.state.history)
    )
    errors = [seat.error for _, _, seat in played if seat.error is not None]
    print(f"{tables} tables ({level} bots at three seats, one joined seat each), games to {target}:")
    rate = actions / wall
    print(f"  finished {finished}/{tables} in {wall:.1f} s; {actions} actions, {rate:.0f} actions/s")
    print(
        f"  delivered {delivered}/{actions} moves to the joined seats "
        f"(every move at {complete}/{tables} tables); client errors: {len(errors)}"
    )
    bot_lag: list[float] = []
    for game, stamps, seat in played:
        others = [when for when, _ in seat.moves_shown]
        bot_moves = [i for i, _ in enumerate(game.match.state.history) if i in stamps.at]
        mine = set(_own_indices(game))
        times = [stamps.at[i] for i in bot_moves if i not in mine]
        bot_lag += [b - a for a, b in zip(times, others, strict=False)]
    print(f"  a bot's move to its display at the joined seat: {percentiles(bot_lag)}")


def _own_indices(game: hosting.HostedGame) -> list[int]:
    """The indices in the history of the joined seat's (South's) own actions."""
    from spades_cli.game.run import actors

    match = game.match
    assert match.dealer is not None
    who = actors(match.rules, match.dealer, match.decks, match.state.history)
    return [i for i, seat in enumerate(who) if seat == 2]


def churn(address: tuple[str, int], count: int, stop: threading.Event) -> int:
    """Keep ``count`` anonymous connections open, replacing the oldest all the time: some
    idle, some garbage, some with a wrong token. Returns how many were opened."""
    open_socks: collections.deque[socket.socket] = collections.deque()
    bad = wire.encode(
        {"type": "hello", "protocol": wire.HELLO, "version": wire.VERSION, "token": "S-" + "0" * 32}
    )
    opened = 0
    while not stop.is_set():
        try:
            sock = socket.create_connection(address, timeout=1.0)
            kind = opened % 3
            if kind == 1:
                sock.sendall(b"GET / HTTP/1.0\r\n\r\n")
            elif kind == 2:
                sock.sendall(bad)
        except OSError:
            time.sleep(0.01)
            continue
        opened += 1
        open_socks.append(sock)
        while len(open_socks) > count:
            open_socks.popleft().close()
        time.sleep(0.002)
    for sock in open_socks:
        sock.close()
    return opened


def admission(address: tuple[str, int], token: str) -> float | None:
    """Seconds from connecting with a valid token to its welcome (None: refused)."""
    start = time.perf_counter()
    try:
        with socket.create_connection(address, timeout=10.0) as sock:
            sock.sendall(
                wire.encode(
                    {"type": "hello", "protocol": wire.HELLO, "version": wire.VERSION, "token": token}
                )
            )
            first = sock.makefile("rb").readline()
    except OSError:
        return None
    return time.perf_counter() - start if b'"welcome"' in first else None


def soak(tmp: Path, hands: int, count: int, level: str, deadline: float) -> None:
    host = Host()
    address = host.start(LOOPBACK, 0)
    stop = threading.Event()
    opened: list[int] = []
    churner = threading.Thread(target=lambda: opened.append(churn(address, count, stop)), daemon=True)
    churner.start()
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    played, games, waits, refused = 0, 0, [], 0
    start = time.perf_counter()
    while played < hands and time.monotonic() < deadline:
        choice = choose_rules("four-player", ["target=500"], default="four-player")
        labels = dict.fromkeys(range(4), "human")
        game = hosting.new_game(
            choice,
            5000 + games,
            labels,
            str(tmp / f"soak-{games}.txt"),
            watch=True,
            on_leave=None,
            reconnect=30.0,
            hints=False,
            log=lambda _s: None,
        )
        host.add(game.table)
        seats = [Seat(address, token(game, s), deadline, level) for s in range(4)]
        runner = threading.Thread(target=hosting.play, args=(game,), daemon=True)
        for t in (*seats, runner):
            t.start()
        assert game.table.tokens.watch is not None
        while runner.is_alive() and time.monotonic() < deadline:
            wait = admission(address, game.table.tokens.watch)
            if wait is None:
                refused += 1
            else:
                waits.append(wait)
            runner.join(0.5)
        for t in seats:
            t.join(max(0.0, deadline - time.monotonic()))
        host.tables.remove(game.table)
        played += len(game.match.state.results)
        games += 1
    minutes = (time.perf_counter() - start) / 60
    stop.set()
    churner.join(10)
    host.stop()
    rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        f"Soak: {played} hands in {games} games, four seats joined, {count} anonymous connections churning:"
    )
    print(
        f"  {played / minutes:.0f} hands a minute; {opened[0] if opened else 0} anonymous connections opened"
    )
    print(
        f"  peak memory of this process (host and clients): {rss_before / 1024:.0f} MiB before, "
        f"{rss_after / 1024:.0f} MiB after"
    )
    print(f"  a spectator's valid token welcomed: {percentiles(waits, 'joins')}; refused {refused} times")
    print(f"  connections in handshake dropped to make room: {host.dropped}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games for the latency measure")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--level", default="easy", help="the bots' level")
    parser.add_argument("--target", type=int, default=100, help="points to win a game")
    parser.add_argument("--deadline", type=float, default=240.0, help="seconds before everything stops")
    parser.add_argument("--soak-hands", type=int, default=0, help="hands of the soak (0: no soak)")
    parser.add_argument("--churn", type=int, default=300, help="anonymous connections during the soak")
    args = parser.parse_args(argv)
    print(build_line())
    deadline = time.monotonic() + args.deadline
    with tempfile.TemporaryDirectory(prefix="spades-bench-net-") as tmp:
        samples = latency(Path(tmp), args.games, args.level, args.target, deadline)
        print(
            f"Latency from a joined seat's move to its display at the other joined seat "
            f"({args.games} games, {args.level} bots): {percentiles(samples)}; target < 50 ms"
        )
        if args.tables:
            many_tables(Path(tmp), args.tables, args.level, args.target, deadline)
        if args.soak_hands:
            soak(Path(tmp), args.soak_hands, args.churn, args.level, deadline)
    print(f"(limits: {wire.RATE:g} messages/s per client, {wire.MAX_PENDING // 1024} KiB pending)")


if __name__ == "__main__":
    main()
