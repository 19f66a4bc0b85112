"""Fit the two-player seat model (``bots.hand.two_tricks``) on recorded games.

    python bench/seatfit.py DIR [DIR ...] [--player normal]

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
"""

from __future__ import annotations

import argparse
import math
import os
import sys

from common import build_line

from spades_cli.bots.hand import TWO_WEIGHTS_FIRST, TWO_WEIGHTS_SECOND, two_features
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


def collect(folders: list[str], player: str) -> list[Row]:
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
                    run.match.listeners.append(Bids(seats, game, rows))
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


def report(rows: list[Row]) -> None:
    models = ((True, "first bid", TWO_WEIGHTS_FIRST), (False, "second bid", TWO_WEIGHTS_SECOND))
    for first, name, now in models:
        mine = [r for r in rows if r[0] == first]
        if len(mine) < 50:
            print(f"  {name}: {len(mine)} bids, too few to fit")
            continue
        train = [r for r in mine if r[3] % 4]
        test = [r for r in mine if not r[3] % 4]
        w = least_squares([r[1] for r in train], [r[2] for r in train])
        xs, ys = [r[1] for r in test], [r[2] for r in test]
        print(
            f"  {name}: {len(mine)} bids; held-out quarter rmse {rmse(w, xs, ys):.3f} "
            f"(the weights in the code: {rmse(now, xs, ys):.3f})"
        )
        w = least_squares([r[1] for r in mine], [r[2] for r in mine])
        print(f"    weights on all: ({', '.join(f'{v:.3g}' for v in w)})")
        print(f"    spread about the fit: {rmse(w, [r[1] for r in mine], [r[2] for r in mine]):.3f}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("folders", nargs="+", metavar="DIR", help="transcripts of two-player games")
    p.add_argument("--player", default="normal", help="the seat label whose bids are fit")
    args = p.parse_args()
    print(build_line())
    rows = collect(args.folders, args.player)
    print(f"{len(rows)} bids of {args.player} without a nil at the table")
    report(rows)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
