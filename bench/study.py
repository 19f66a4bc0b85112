"""Where a duplicate match's points went: a study of its transcripts.

    python bench/study.py DIR [--player LABEL]

``DIR`` holds the transcripts of a duplicate tournament (``spades simulate --duplicate
--transcripts DIR``, or ``bench/bots.py --transcripts DIR``): each game ``NAME.txt``
beside its twin ``NAME-twin.txt``, the same decks with the sides' seats exchanged. Each
hand that both copies reached is compared side by side, the same cards held once by
``--player`` (default: the label of the first game's North seat) and once by the other
player:

* the bids: the side's contract against the other player's on the same cards (higher,
  equal, lower; hands without a nil at either table), with how often each was set and
  the points each scored;
* by nil: bags a hand and the point difference a hand for the player's sides, in hands
  without a nil, with its own nil, and with the opponents' nil;
* when both tables bid the same contracts (no nil): how far the side's tricks
  ended from its contract (play alone makes the difference there);
* the player's net points by how the two tables' bids on a deal differed (a nil at one
  table only, the same nils, no nil; the same bids or other bids). Read the higher and
  lower rows of the bids together: whichever table bids higher on the same cards is set
  more often, so a high set rate in one row alone says little; the net points of the
  deals whose bids differed say which table's bids did better.

It reads the files with the project's transcript reader and replays them, as ``spades
replay`` does; a file that does not replay is skipped with its one-line reason.
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
from dataclasses import dataclass

from common import build_line

from spades_cli.engine import HandResult, Rules
from spades_cli.errors import SpadesError
from spades_cli.transcript import read_transcript, replay, transcript_rules


@dataclass(frozen=True)
class Game:
    """One replayed game: the seats' labels, the decks and each hand's result."""

    labels: tuple[str, ...]
    decks: list[tuple[int, ...]]
    results: list[HandResult]
    rules: Rules


def load(path: str) -> Game | None:
    try:
        t = read_transcript(path)
        rules = transcript_rules(t)
        assert rules is not None
        match = replay(t, rules).match
    except SpadesError as exc:
        print(f"  ({os.path.basename(path)} skipped: {exc})")
        return None
    labels = tuple(tag.values[1] for tag in t.tags_named("Seat"))
    return Game(labels, [tuple(d) for d in match.decks], list(match.state.results), match.rules)


def pairs(folder: str) -> list[tuple[Game, Game]]:
    """Each game with its twin, both replayed."""
    out = []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".txt") or name.endswith("-twin.txt"):
            continue
        twin = os.path.join(folder, name[: -len(".txt")] + "-twin.txt")
        if not os.path.exists(twin):
            continue
        a, b = load(os.path.join(folder, name)), load(twin)
        if a is not None and b is not None:
            out.append((a, b))
    return out


@dataclass(frozen=True)
class SideHand:
    """One side's hand at one table: its contract, nils, tricks and points."""

    contract: int
    own_nil: bool
    their_nil: bool
    tricks: int
    points: int
    their_points: int
    bags: int
    made: bool


def side_hand(g: Game, k: int, side: int) -> SideHand:
    r = g.results[k]
    n = len(r.bids)
    nil = [g.rules.is_nil(r.bids[s], r.blind[s]) for s in range(n)]
    mine = r.sides[side]
    return SideHand(
        contract=mine.contract,
        own_nil=any(nil[s] for s in range(n) if s % 2 == side),
        their_nil=any(nil[s] for s in range(n) if s % 2 != side),
        tricks=mine.tricks,
        points=mine.points,
        their_points=r.sides[1 - side].points,
        bags=mine.bags,
        made=mine.made,
    )


def compared(games: list[tuple[Game, Game]], player: str) -> list[tuple[SideHand, SideHand, bool]]:
    """(the player's side, the other player's side with the same cards, same four
    contracts at both tables) for every side of every hand both copies reached."""
    out = []
    for a, b in games:
        for k in range(min(len(a.results), len(b.results))):
            if a.decks[k] != b.decks[k]:
                continue
            same = all(side_hand(a, k, s).contract == side_hand(b, k, s).contract for s in (0, 1))
            for side in (0, 1):
                ours, theirs = (a, b) if a.labels[side] == player else (b, a)
                if ours.labels[side] != player or theirs.labels[side] == player:
                    continue
                out.append((side_hand(ours, k, side), side_hand(theirs, k, side), same))
    return out


def _pct(x: int, n: int) -> str:
    return f"{100 * x / n:5.1f}%" if n else "    -"


def report_bids(rows: list[tuple[SideHand, SideHand, bool]]) -> None:
    print("  the side's contract against the other player's on the same cards (no nil at either table):")
    groups: dict[str, list[tuple[SideHand, SideHand, bool]]] = collections.defaultdict(list)
    for o, t, same in rows:
        if o.own_nil or o.their_nil or t.own_nil or t.their_nil:
            continue
        key = "higher" if o.contract > t.contract else "lower" if o.contract < t.contract else "equal"
        groups[key].append((o, t, same))
    for key in ("higher", "equal", "lower"):
        g = groups[key]
        n = len(g)
        if not n:
            continue
        print(
            f"    {key:<6} {n:5} side-hands: set {_pct(sum(not o.made for o, _, _ in g), n)} against "
            f"{_pct(sum(not t.made for _, t, _ in g), n)}; points {sum(o.points for o, _, _ in g) / n:5.1f} "
            f"against {sum(t.points for _, t, _ in g) / n:5.1f}"
        )


def report_nils(rows: list[tuple[SideHand, SideHand, bool]]) -> None:
    print("  the player's sides by nil (bags and point difference a hand; the other player's in brackets):")
    groups: dict[str, list[SideHand]] = collections.defaultdict(list)
    other: dict[str, list[SideHand]] = collections.defaultdict(list)
    for o, t, _ in rows:
        for hand, into in ((o, groups), (t, other)):
            key = "own nil" if hand.own_nil else "their nil" if hand.their_nil else "no nil"
            into[key].append(hand)
    for key in ("no nil", "own nil", "their nil"):
        g, h = groups[key], other[key]
        if not g:
            continue
        print(
            f"    {key:<9} {len(g):5} hands: bags {sum(x.bags for x in g) / len(g):.2f} "
            f"({sum(x.bags for x in h) / max(1, len(h)):.2f}), difference "
            f"{sum(x.points - x.their_points for x in g) / len(g):+6.1f} "
            f"({sum(x.points - x.their_points for x in h) / max(1, len(h)):+6.1f}, {len(h)} hands)"
        )


def report_play(rows: list[tuple[SideHand, SideHand, bool]]) -> None:
    same = [(o, t) for o, t, s in rows if s and not (o.own_nil or o.their_nil or t.own_nil or t.their_nil)]
    if not same:
        return
    print(f"  the same contracts at both tables, no nil ({len(same)} side-hands): tricks - contract")
    ours = collections.Counter(o.tricks - o.contract for o, _ in same)
    theirs = collections.Counter(t.tricks - t.contract for _, t in same)
    for d in sorted(set(ours) | set(theirs)):
        print(f"    {d:+3}: {ours[d]:5} against {theirs[d]:5}")


def deal_kind(a: HandResult, b: HandResult, rules: Rules) -> str:
    """How the two tables' bids on the same cards differed: a nil at one table only,
    the same nils with the same or other numbers, or no nil with the same or other bids."""
    nils = [tuple(rules.is_nil(r.bids[s], r.blind[s]) for s in range(len(r.bids))) for r in (a, b)]
    same = list(a.bids) == list(b.bids)
    if nils[0] != nils[1]:
        return "nil at one table only"
    what = "same nils" if any(nils[0]) else "no nil"
    return f"{what}, {'same bids' if same else 'other bids'}"


def report_deals(games: list[tuple[Game, Game]], player: str) -> None:
    """The player's net points (its sides' points less the other sides', both tables of
    a deal added) by how the two tables' bids differed: where the points were won or lost."""
    net: dict[str, list[int]] = collections.defaultdict(list)
    for a, b in games:
        for k in range(min(len(a.results), len(b.results))):
            if a.decks[k] != b.decks[k] or player not in a.labels[:2]:
                continue
            total = 0
            for g in (a, b):
                mine = g.labels.index(player) % 2
                sides = g.results[k].sides
                total += sides[mine].points - sides[1 - mine].points
            net[deal_kind(a.results[k], b.results[k], a.rules)].append(total)
    print("  net points by how the tables' bids differed (both tables of a deal added):")
    for key in sorted(net):
        deals = net[key]
        total = sum(deals)
        print(f"    {key:<24} {len(deals):5} deals: {total:+7} points, {total / len(deals):+6.1f} a deal")


def study(folder: str, player: str | None = None) -> None:
    games = pairs(folder)
    if not games:
        print(f"  no game and twin replayed in {folder}")
        return
    who = player or games[0][0].labels[0]
    rows = compared(games, who)
    print(f"study of {len(games)} duplicate pairs in {folder}: {who} against the other player")
    report_bids(rows)
    report_nils(rows)
    report_play(rows)
    report_deals(games, who)
    sys.stdout.flush()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("folder", help="transcripts of a duplicate tournament")
    p.add_argument("--player", help="the seat label studied (default: the first game's North)")
    args = p.parse_args()
    print(build_line())
    study(args.folder, args.player)


if __name__ == "__main__":
    main()
