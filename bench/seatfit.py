"""Fit the two-player seat model (``bots.hand.two_tricks``) on recorded games, or with
``--four`` the four-player side's second bid (``bots.hand.side_extra``).

    python bench/seatfit.py DIR [DIR ...] [--player normal]
    python bench/seatfit.py --four DIR [DIR ...]

Each ``DIR`` holds transcripts of two-player games (``spades simulate --transcripts DIR``,
duplicate or not). Every game is replayed as ``spades replay`` does; at each bid of the
seat labelled ``--player`` the script notes the hand it drafted, its own discards, whether
it bid first and the opponent's bid, and at the end of the hand the tricks it took. Hands
where either player bid nil or double nil are left out (the number bid is the model's
question). For the first bid and for the second (the opponent's bid a last feature) it
prints the least-squares weights of ``hand.TWO_FEATURES`` (after an intercept), the
spread of the tricks about the fit, and the error on a held-out quarter of the games
against the error of the weights in the code, which is how the weights in ``bots/hand.py``
were made (bench/README.md says on which games).

With ``--four`` the games are four-player: at each bid of the labelled player after its
partner's bid of a number (the side's second bid) it notes the seat's estimate
(``hand.seat_tricks``), the partner's bid and the opponents' bids made so far, and at
the end of the hand the side's tricks; hands with a nil are left out. It prints the
least-squares weights of the side's tricks beyond the estimate and the partner's bid
(an intercept, the opponents' bids summed, how many of them were made, the estimate, the
partner's bid), the spread about the fit and the held-out error against the code's.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Mapping

from common import build_line

from spades_cli.bots.hand import SIDE_FIT_4P, TWO_WEIGHTS_FIRST, TWO_WEIGHTS_SECOND, seat_tricks, two_features
from spades_cli.engine import BID, HandResult
from spades_cli.engine.cards import mask_of
from spades_cli.errors import SpadesError
from spades_cli.game.events import Emit
from spades_cli.game.match import BaseListener, Match
from spades_cli.game.run import GameRun
from spades_cli.transcript import read_transcript, replay, transcript_rules

Row = tuple[bool, list[float], float, int]  # first to bid, features, tricks, game number


class Bids(BaseListener):
    """Notes each bid of the seats in ``seats`` with the hand's result."""

    def __init__(self, seats: set[int], game: int, out: list[Row]) -> None:
        self.seats, self.game, self.out = seats, game, out
        self.pending: dict[int, tuple[bool, list[float]]] = {}

    def on_action(self, match: Match, seat: int, action: int) -> None:
        state = match.state
        if state.phase != BID or state.current_player() not in self.seats:
            return
        s = state.current_player()
        if s not in self.pending:
            o = state.observation(s)
            other = o.bids[1 - s]
            f = list(two_features(mask_of(o.hand), mask_of(o.own_discards)))
            self.pending[s] = (other is None, f if other is None else [*f, float(other)])

    def on_hand_end(self, match: Match, result: HandResult) -> None:
        nil = any(b == 0 or result.blind[i] for i, b in enumerate(result.bids))
        for s, (first, f) in self.pending.items():
            if not nil:
                self.out.append((first, f, float(result.sides[s].tricks), self.game))
        self.pending = {}


class SecondBids(BaseListener):
    """Four players: notes each side's second bid by the seats in ``seats`` (the partner
    bid a number) with the side's tricks at the end of the hand."""

    def __init__(self, seats: set[int], game: int, out: list[Row]) -> None:
        self.seats, self.game, self.out = seats, game, out
        self.pending: dict[int, list[float]] = {}

    def on_action(self, match: Match, seat: int, action: int) -> None:
        state = match.state
        if state.phase != BID or state.current_player() not in self.seats:
            return
        s = state.current_player()
        o = state.observation(s)
        mate = o.bids[(s + 2) % 4]
        if s in self.pending or not mate:
            return
        opp = [b for b in (o.bids[(s + 1) % 4], o.bids[(s + 3) % 4]) if b is not None]
        self.pending[s] = [float(sum(opp)), float(len(opp)), seat_tricks(mask_of(o.hand)), float(mate)]

    def on_hand_end(self, match: Match, result: HandResult) -> None:
        nil = any(b == 0 or result.blind[i] for i, b in enumerate(result.bids))
        for s, f in self.pending.items():
            if not nil:
                side = result.tricks[s] + result.tricks[(s + 2) % 4]
                self.out.append((False, f, side - f[2] - f[3], self.game))
        self.pending = {}


def collect(folders: list[str], player: str, four: bool = False) -> list[Row]:
    rows: list[Row] = []
    game = 0
    for folder in folders:
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".txt"):
                continue
            try:
                t = read_transcript(os.path.join(folder, name))
                labels = [tag.values[1] for tag in t.tags_named("Seat")]
                seats = {i for i, label in enumerate(labels) if label == player}
                game += 1

                def watch(run: GameRun, seats: set[int] = seats, game: int = game) -> Emit:
                    kind = SecondBids if four else Bids
                    run.match.listeners.append(kind(seats, game, rows))
                    return lambda event: None

                replay(t, transcript_rules(t), watchers=[watch])
            except SpadesError as exc:
                print(f"  ({name} skipped: {exc})")
    return rows


def least_squares(xs: list[list[float]], ys: list[float]) -> list[float]:
    """Weights (intercept first) minimising the squared error: the normal equations,
    solved by Gaussian elimination with partial pivoting."""
    k = len(xs[0]) + 1
    a = [[0.0] * (k + 1) for _ in range(k)]
    for x, y in zip(xs, ys, strict=True):
        v = [1.0, *x]
        for i in range(k):
            for j in range(k):
                a[i][j] += v[i] * v[j]
            a[i][k] += v[i] * y
    for c in range(k):
        p = max(range(c, k), key=lambda r: abs(a[r][c]))
        a[c], a[p] = a[p], a[c]
        for r in range(k):
            if r != c and a[c][c]:
                f = a[r][c] / a[c][c]
                a[r] = [u - f * w for u, w in zip(a[r], a[c], strict=True)]
    return [a[i][k] / a[i][i] if a[i][i] else 0.0 for i in range(k)]


def rmse(w: tuple[float, ...] | list[float], xs: list[list[float]], ys: list[float]) -> float:
    def one(x: list[float], y: float) -> float:
        return (w[0] + sum(a * b for a, b in zip(w[1:], x, strict=True)) - y) ** 2

    err = [one(x, y) for x, y in zip(xs, ys, strict=True)]
    return math.sqrt(sum(err) / len(err))


def fit_report(name: str, rows: list[Row], now: Mapping[str, tuple[float, ...]]) -> None:
    """The least-squares weights of ``rows`` (a held-out quarter of the games first, its
    error against each set of weights in ``now``), then on all of them with the spread."""
    if len(rows) < 50:
        print(f"  {name}: {len(rows)} bids, too few to fit")
        return
    train = [r for r in rows if r[3] % 4]
    test = [r for r in rows if not r[3] % 4]
    w = least_squares([r[1] for r in train], [r[2] for r in train])
    xs, ys = [r[1] for r in test], [r[2] for r in test]
    others = "; ".join(f"{label}: {rmse(v, xs, ys):.3f}" for label, v in now.items())
    print(f"  {name}: {len(rows)} bids; held-out quarter rmse {rmse(w, xs, ys):.3f} ({others})")
    w = least_squares([r[1] for r in rows], [r[2] for r in rows])
    print(f"    weights on all: ({', '.join(f'{v:.3g}' for v in w)})")
    print(f"    spread about the fit: {rmse(w, [r[1] for r in rows], [r[2] for r in rows]):.3f}")


def report(rows: list[Row]) -> None:
    models = ((True, "first bid", TWO_WEIGHTS_FIRST), (False, "second bid", TWO_WEIGHTS_SECOND))
    for first, name, now in models:
        fit_report(name, [r for r in rows if r[0] == first], {"the weights in the code": now})


def report_four(rows: list[Row]) -> None:
    now = {"the weights in the code": SIDE_FIT_4P, "a constant 0.35": (0.35, 0.0, 0.0, 0.0, 0.0)}
    fit_report("the side's second bid", rows, now)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("folders", nargs="+", metavar="DIR", help="transcripts (two-player; --four: four)")
    p.add_argument("--player", default="normal", help="the seat label whose bids are fit")
    p.add_argument("--four", action="store_true", help="four-player games: the side's second bid")
    args = p.parse_args()
    print(build_line())
    rows = collect(args.folders, args.player, args.four)
    print(f"{len(rows)} bids of {args.player} without a nil at the table")
    if args.four:
        report_four(rows)
    else:
        report(rows)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
