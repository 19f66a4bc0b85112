"""Our double-dummy search against DDS (the bridge solver, through the ``endplay`` package),
like for like: the same positions, the same question, both through their public APIs, in
one process, alternating, CPU time.

The question: for every legal card of the seat on turn, the most tricks its side can take
from the tricks left. Positions come from the shipped four-player transcripts and from
hands dealt from fixed seeds and played by the ``normal`` bot, every position of the play
after spades are broken (from there Spades' play rules and bridge's with spades as trumps
are the same game, so every card's value must be equal; a difference stops the bench).
Ours is the C search core when it was built (else the Python solver, and it says so), a
fresh solver per position ("cold") and one solver per hand and side moved from
position to position with ``load`` ("warm", as ``spades analyze`` uses it); DDS keeps its own tables
between calls. Then whole deals: the leader's side's tricks from the deal, ours under
Spades' rules (spades not led before broken) and under bridge's (every lead free, the
values checked against DDS's).

Run: ``pip install '.[bench]'`` (endplay), then ``python bench/dds.py`` (``--games 20``,
``--deals 50``, ``--no-warm``). Figures: bench/README.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from analyze import played_hands as normal_hands
from common import build_line

from spades_cli.analysis.hand import plays
from spades_cli.engine import BID_BASE, PLAY, State, card_str, deck_for
from spades_cli.engine.rules import PlayRules
from spades_cli.presets import load_rules
from spades_cli.solver import backend
from spades_cli.solver.outcome import Outcome
from spades_cli.transcript import read_transcript, replay, transcript_rules

ROOT = Path(__file__).resolve().parent.parent
BUCKETS = ((12, 10), (9, 7), (6, 4), (3, 2))  # tricks left, high to low
SEATS = "NESW"


RANKS = "23456789TJQKA"
DENOMS = ("clubs", "diamonds", "hearts", "spades")  # endplay's names of our suits 0..3
Endplay = tuple[object, object, object, object, object]


def _endplay() -> Endplay:
    try:
        from endplay import dds
        from endplay.types import Card, Deal, Denom, Player, Rank
    except ImportError:
        sys.exit("bench/dds.py needs the endplay package: pip install '.[bench]'")
    return dds, Card, Deal, Denom, (Player, Rank)


def played_hands(games: int) -> Iterator[tuple[State, list[int]]]:
    """The shipped four-player transcripts' hands, then ``games`` hands dealt from seeds 1..
    and bid and played by ``normal``: each as the state where its play starts and its cards."""
    for path in sorted((ROOT / "transcripts").glob("four-player*.txt")):
        t = read_transcript(path)
        match = replay(t, transcript_rules(t)).match
        yield from ((start, cards) for start, cards in plays(match) if len(cards) == 52)
    yield from normal_hands(games)


def broken_positions(start: State, cards: list[int]) -> list[State]:
    """Every position of the hand's play after spades are broken, with at least two
    tricks left (the last trick has one card each: nothing to choose)."""
    out: list[State] = []
    st = start.clone()
    for card in cards:
        if st.spades_broken() and 13 - st.trick_no >= 2 and len(st.legal_actions()) > 1:
            out.append(st.clone())
        st.apply(card)
    return out


def _pbn(st: State) -> str:
    """The hands at the start of the trick in progress, as PBN (North first)."""
    hands = [st.hands[s] for s in range(4)]
    for seat, card in st.trick_cards():
        hands[seat] |= 1 << card
    parts = []
    for s in range(4):
        suits = []
        for suit in (3, 2, 1, 0):  # spades, hearts, diamonds, clubs
            ranks = [card_str(c)[0] for c in range(suit * 13 + 12, suit * 13 - 1, -1) if hands[s] >> c & 1]
            suits.append("".join(ranks))
        parts.append(".".join(suits))
    return "N:" + " ".join(parts)


def dds_values(st: State, ep: Endplay) -> dict[int, int]:
    """DDS's tricks for the side on turn, from the tricks left, for every legal card."""
    dds, card_type, deal_type, denom, (player, rank) = ep
    deal = deal_type.from_pbn(_pbn(st))  # type: ignore[attr-defined]
    deal.trump = denom.spades  # type: ignore[attr-defined]
    cards = st.trick_cards()
    leader = cards[0][0] if cards else st.current_player()
    deal.first = list(player)[leader]  # type: ignore[call-overload]  # north, east, south, west
    for _, card in cards:
        suit = getattr(denom, DENOMS[card // 13])
        deal.play(card_type(suit=suit, rank=getattr(rank, "R" + RANKS[card % 13])))  # type: ignore[operator]
    solved = dds.solve_board(deal)  # type: ignore[attr-defined]
    out: dict[int, int] = {}
    for card, tricks in solved:
        ours = DENOMS.index(card.suit.name) * 13 + RANKS.index(card.rank.name[1:])
        out[ours] = int(tricks)
    return out


def _question(st: State) -> tuple[int, Outcome]:
    side = st.current_player() % 2
    return side, Outcome(st, side, value="tricks")


def our_solver(st: State) -> backend.Search:
    side, oc = _question(st)
    return backend.new_solver(st, side, oc.groups, oc.table, oc.keen, oc.linear)


def our_values(search: backend.Search, st: State) -> dict[int, int]:
    """Our tricks for the side on turn, from the tricks left, for every legal card."""
    side = st.current_player() % 2
    taken = st.tricks_won[side] + st.tricks_won[side + 2]
    return {c: int(v) - taken for c, v in search.move_values().items()}


def timed(fn: Callable[[], object]) -> tuple[float, object]:
    t0 = time.process_time()
    out = fn()
    return time.process_time() - t0, out


def positions_table(hands: list[tuple[State, list[int]]], warm: bool, ep: Endplay) -> None:
    rows: dict[tuple[int, int], list[tuple[float, float, float | None, int]]] = {b: [] for b in BUCKETS}
    checked = 0
    for start, cards in hands:
        positions = broken_positions(start, cards)
        hand_solvers: dict[int, backend.Search] = {}  # one a side: a solver's side is fixed
        for st in positions:
            left = 13 - st.trick_no
            bucket = next((b for b in BUCKETS if b[1] <= left <= b[0]), None)
            if bucket is None:
                continue
            cold_s, (mine, searched) = timed(lambda st=st: _cold(st))  # type: ignore[misc]
            dds_s, theirs = timed(lambda st=st: dds_values(st, ep))
            warm_s: float | None = None
            if warm:
                side = st.current_player() % 2
                if side not in hand_solvers:
                    hand_solvers[side] = our_solver(st)
                else:
                    hand_solvers[side].load(st)
                warm_s, warm_values = timed(lambda hs=hand_solvers[side], st=st: our_values(hs, st))
                if warm_values != mine:
                    sys.exit(f"warm and cold values differ at hand {st.hand_no + 1}: {warm_values} {mine}")
            if mine != theirs:
                sys.exit(
                    f"values differ at hand {st.hand_no + 1}, {left} tricks left: ours {mine}, DDS {theirs}"
                )
            checked += len(mine)
            rows[bucket].append((cold_s, dds_s, warm_s, searched))
    print(f"every card's value equal: {checked} cards")
    head = "tricks left | positions | cold/DDS median | p90"
    print(head + (" | warm/DDS median | p90" if warm else "") + " | positions ours searched, median / max")
    for (hi, lo), got in rows.items():
        if not got:
            continue
        cold = sorted(c / max(d, 1e-6) for c, d, _, _ in got)
        line = f"{hi}-{lo} | {len(got)} | {statistics.median(cold):.2f}x | {_p90(cold):.2f}x"
        if warm:
            ws = sorted((w or 0.0) / max(d, 1e-6) for _, d, w, _ in got)
            line += f" | {statistics.median(ws):.2f}x | {_p90(ws):.2f}x"
        nodes = [n for *_, n in got]
        line += f" | {int(statistics.median(nodes)):,} / {max(nodes):,}"
        print(line)
    for name, idx in (("cold", 0), ("DDS", 1)):
        print(f"total CPU {name}: {sum(r[idx] for got in rows.values() for r in got):.2f} s")  # type: ignore[misc]


def _cold(st: State) -> tuple[dict[int, int], int]:
    search = our_solver(st)
    values = our_values(search, st)
    return values, search.searched + search.nodes


def _p90(sorted_values: list[float]) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(0.9 * len(sorted_values)))]


def whole_deals(count: int, ep: Endplay) -> None:
    rules = load_rules("four-player")
    bridge = dataclasses.replace(rules, play=PlayRules(spades_break=False))
    spades_ratio: list[float] = []
    bridge_ratio: list[float] = []
    searched = {"spades": 0, "bridge": 0}
    differ = 0
    for seed in range(1, count + 1):
        deals = {}
        for name, r in (("spades", rules), ("bridge", bridge)):
            st = State(r, seed % 4)
            st.deal(deck_for(seed, 0))
            while st.phase != PLAY:
                # bids of 1 each (no nil, so each side is one group: the trick count reads no bid)
                st.apply(min(a for a in st.legal_actions() if a > BID_BASE))
            deals[name] = st
        free = deals["bridge"]
        dds_s, theirs = timed(lambda free=free: max(dds_values(free, ep).values()))
        ours = {}
        for name, st in deals.items():
            secs, (value, positions) = timed(lambda st=st: _deal_value(st))  # type: ignore[misc]
            ours[name] = value
            searched[name] += positions
            (spades_ratio if name == "spades" else bridge_ratio).append(secs / max(dds_s, 1e-6))
        if ours["bridge"] != theirs:
            sys.exit(f"deal {seed}: bridge question ours {ours['bridge']}, DDS {theirs}")
        differ += ours["spades"] != ours["bridge"]
    print(
        f"whole deals ({count}): ours/DDS median, Spades rules {statistics.median(spades_ratio):.2f}x, "
        f"bridge question {statistics.median(bridge_ratio):.2f}x; bridge values all equal to DDS's; "
        f"{differ} deals where Spades' rules change the value; positions ours searched "
        f"{searched['spades']:,} (Spades rules), {searched['bridge']:,} (bridge question)"
    )


def _deal_value(st: State) -> tuple[int, int]:
    """The value of a deal by our search, and the positions it searched."""
    search = our_solver(st)
    value = int(search.value())
    return value, search.searched + search.nodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, default=20, help="hands played by normal, beside the transcripts"
    )
    parser.add_argument("--deals", type=int, default=50, help="whole deals")
    parser.add_argument("--no-warm", action="store_true", help="no warm solver (one per hand)")
    args = parser.parse_args()
    ep = _endplay()
    import endplay

    core = "C core" if backend.c_core() else "Python solver (the C core was not built)"
    print(f"{build_line()}; ours: {core}; DDS: endplay {endplay.__version__}")
    hands = list(played_hands(args.games))
    positions_table(hands, not args.no_warm, ep)
    whole_deals(args.deals, ep)


if __name__ == "__main__":
    main()
