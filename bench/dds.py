"""Our double-dummy search against DDS (the bridge solver, through the ``endplay`` package),
like for like: the same positions, the same question, both through their public APIs, in
one process, alternating, CPU time.

The question: for every legal card of the seat on turn, the most tricks its side can take
from the tricks left. Positions come from the shipped four-player transcripts and from
hands dealt from fixed seeds and played by the ``normal`` bot, every position of the play
after spades are broken (from there Spades' play rules and bridge's with spades as trumps
are the same game, so every card's value must be equal; a difference stops the bench).
Ours is the C search core when it was built (else the Python solver, and it says so), a
fresh solver per position for the side on turn ("cold") and one solver per hand moved
from position to position with ``load`` ("warm", as ``spades analyze`` uses it: it counts
N-S's tricks, so an E-W card's value is the tricks N-S leave; one table for the whole
hand, as DDS keeps its own tables between calls). Positions searched are printed too,
and the tricks the searches finished, ours and DDS's (its ``nodes`` figure counts a trick
each time its search plays a trick's last card: ours counted the same way, the like for
like measure of the two trees; our positions count every card). Then whole deals: the
leader's side's tricks from the deal, ours under Spades' rules (spades not led before
broken) and under bridge's (every lead free, the values checked against DDS's).

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
from typing import TYPE_CHECKING, ParamSpec, TypeVar

from analyze import played_hands as normal_hands
from common import build_line

from spades_cli.analysis.hand import plays
from spades_cli.engine import BID_BASE, PLAY, State, card_str, deck_for
from spades_cli.engine.rules import PlayRules
from spades_cli.presets import load_rules
from spades_cli.solver import backend
from spades_cli.solver.outcome import Outcome
from spades_cli.transcript import read_transcript, replay, transcript_rules

if TYPE_CHECKING:
    from types import ModuleType

    from endplay.types import Card, Deal, Denom, Player, Rank

    # endplay's dds module and the types dds_solve reads, imported once (endplay is optional).
    Endplay = tuple[ModuleType, type[Card], type[Deal], type[Denom], tuple[type[Player], type[Rank]]]

ROOT = Path(__file__).resolve().parent.parent
BUCKETS = ((12, 10), (9, 7), (6, 4), (3, 2))  # tricks left, high to low
SEATS = "NESW"


RANKS = "23456789TJQKA"
DENOMS = ("clubs", "diamonds", "hearts", "spades")  # endplay's names of our suits 0..3
P = ParamSpec("P")
T = TypeVar("T")


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
    return dds_solve(st, ep)[0]


def dds_solve(st: State, ep: Endplay) -> tuple[dict[int, int], int]:
    """:func:`dds_values` and the tricks DDS's search started (its ``nodes`` figure)."""
    _, card_type, deal_type, denom, (player, rank) = ep
    deal = deal_type.from_pbn(_pbn(st))
    deal.trump = denom.spades
    cards = st.trick_cards()
    leader = cards[0][0] if cards else st.current_player()
    deal.first = player(leader)  # north, east, south, west: 0..3, as our seats
    for _, card in cards:
        deal.play(card_type(suit=denom[DENOMS[card // 13]], rank=rank["R" + RANKS[card % 13]]))
    from endplay import _dds  # solve_board's own call, for the futureTricks' node count
    from endplay.dds.solve import SolvedBoard

    fut = _dds.futureTricks()
    _dds.SolveBoard(deal._data, -1, 3, 1, fut, 0)  # every card, exact
    out: dict[int, int] = {}
    for solved, tricks in SolvedBoard(fut):
        ours = DENOMS.index(solved.suit.name) * 13 + RANKS.index(solved.rank.name[1:])
        out[ours] = int(tricks)
    return out, int(fut.nodes)


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


def hand_solver(st: State) -> backend.Search:
    """The warm solver of a hand: N-S's tricks, whoever is on turn."""
    oc = Outcome(st, 0, value="tricks")
    return backend.new_solver(st, 0, oc.groups, oc.table, oc.keen, oc.linear)


def warm_values(search: backend.Search, st: State) -> dict[int, int]:
    """:func:`our_values` from the hand's N-S solver: an E-W card is worth the tricks to
    come that N-S do not take after it."""
    taken = st.tricks_won[0] + st.tricks_won[2]
    ns = {c: int(v) - taken for c, v in search.move_values().items()}
    if st.current_player() % 2 == 0:
        return ns
    left = 13 - st.trick_no
    return {c: left - v for c, v in ns.items()}


def timed(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> tuple[float, T]:
    t0 = time.process_time()
    out = fn(*args, **kwargs)
    return time.process_time() - t0, out


@dataclasses.dataclass
class Row:
    """One position's figures: CPU seconds, our positions searched (every position, a
    trick's cards included) and the tricks the searches finished (DDS's ``nodes``)."""

    cold_s: float
    dds_s: float
    warm_s: float
    cold_n: int
    warm_n: int
    dds_n: int
    cold_t: int = 0
    warm_t: int = 0


def tricks_finished(search: backend.Search) -> int:
    """The tricks ``search`` finished so far (the C core counts them; else 0)."""
    count = getattr(search, "tricks_searched", None)
    return int(count()) if count is not None else 0


def positions_table(hands: list[tuple[State, list[int]]], warm: bool, ep: Endplay) -> None:
    rows: dict[tuple[int, int], list[Row]] = {b: [] for b in BUCKETS}
    checked = 0
    for start, cards in hands:
        warm_solver: backend.Search | None = None
        for st in broken_positions(start, cards):
            left = 13 - st.trick_no
            bucket = next((b for b in BUCKETS if b[1] <= left <= b[0]), None)
            if bucket is None:
                continue
            cold_s, (mine, cold_n, cold_t) = timed(_cold, st)
            dds_s, (theirs, dds_n) = timed(dds_solve, st, ep)
            warm_s, warm_n, warm_t = 0.0, 0, 0
            if warm:
                if warm_solver is None:
                    warm_solver = hand_solver(st)
                else:
                    warm_solver.load(st)
                before = warm_solver.searched + warm_solver.nodes
                done = tricks_finished(warm_solver)
                warm_s, got = timed(warm_values, warm_solver, st)
                warm_n = warm_solver.searched + warm_solver.nodes - before
                warm_t = tricks_finished(warm_solver) - done
                if got != mine:
                    sys.exit(f"warm and cold values differ at hand {st.hand_no + 1}: {got} {mine}")
            if mine != theirs:
                sys.exit(
                    f"values differ at hand {st.hand_no + 1}, {left} tricks left: ours {mine}, DDS {theirs}"
                )
            checked += len(mine)
            rows[bucket].append(Row(cold_s, dds_s, warm_s, cold_n, warm_n, dds_n, cold_t, warm_t))
    print(f"every card's value equal: {checked} cards")
    _print_rows(rows, warm)


def _print_rows(rows: dict[tuple[int, int], list[Row]], warm: bool) -> None:
    head = "tricks left | positions | cold/DDS median | p90"
    if warm:
        head += " | warm/DDS median | p90"
    ours = "ours cold" + (", warm" if warm else "")
    head += f" | positions searched, median / max: {ours}, DDS's"
    print(head + f" | tricks finished, median: {ours}, DDS's")
    for (hi, lo), got in rows.items():
        if not got:
            continue
        cold = sorted(r.cold_s / max(r.dds_s, 1e-6) for r in got)
        line = f"{hi}-{lo} | {len(got)} | {statistics.median(cold):.2f}x | {_p90(cold):.2f}x"
        if warm:
            ws = sorted(r.warm_s / max(r.dds_s, 1e-6) for r in got)
            line += f" | {statistics.median(ws):.2f}x | {_p90(ws):.2f}x"
        figures = [[r.cold_n for r in got], [r.warm_n for r in got], [r.dds_n for r in got]]
        line += " | " + ", ".join(
            f"{int(statistics.median(n)):,} / {max(n):,}" for i, n in enumerate(figures) if warm or i != 1
        )
        finished = [[r.cold_t for r in got], [r.warm_t for r in got], [r.dds_n for r in got]]
        line += " | " + ", ".join(
            f"{int(statistics.median(n)):,}" for i, n in enumerate(finished) if warm or i != 1
        )
        print(line)
    every = [r for got in rows.values() for r in got]
    total = f"in all: positions ours searched cold {sum(r.cold_n for r in every):,}"
    tricks = f"tricks finished cold {sum(r.cold_t for r in every):,}"
    if warm:
        total += f", warm {sum(r.warm_n for r in every):,}"
        tricks += f", warm {sum(r.warm_t for r in every):,}"
    print(f"{total}; {tricks}, DDS's {sum(r.dds_n for r in every):,}")
    for name, cpu in (
        ("cold", [r.cold_s for got in rows.values() for r in got]),
        ("warm", [r.warm_s for got in rows.values() for r in got]),
        ("DDS", [r.dds_s for got in rows.values() for r in got]),
    ):
        if warm or name != "warm":
            print(f"total CPU {name}: {sum(cpu):.2f} s")


def _cold(st: State) -> tuple[dict[int, int], int, int]:
    search = our_solver(st)
    values = our_values(search, st)
    return values, search.searched + search.nodes, tricks_finished(search)


def _p90(sorted_values: list[float]) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(0.9 * len(sorted_values)))]


def whole_deals(count: int, ep: Endplay) -> None:
    rules = load_rules("four-player")
    bridge = dataclasses.replace(rules, play=PlayRules(spades_break=False))
    spades_ratio: list[float] = []
    bridge_ratio: list[float] = []
    searched = {"spades": 0, "bridge": 0, "DDS": 0}
    finished = {"spades": 0, "bridge": 0}
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
        dds_s, (values, dds_n) = timed(dds_solve, free, ep)
        theirs = max(values.values())
        searched["DDS"] += dds_n
        ours = {}
        for name, st in deals.items():
            secs, (value, positions, tricks) = timed(_deal_value, st)
            ours[name] = value
            searched[name] += positions
            finished[name] += tricks
            (spades_ratio if name == "spades" else bridge_ratio).append(secs / max(dds_s, 1e-6))
        if ours["bridge"] != theirs:
            sys.exit(f"deal {seed}: bridge question ours {ours['bridge']}, DDS {theirs}")
        differ += ours["spades"] != ours["bridge"]
    print(
        f"whole deals ({count}): ours/DDS median, Spades rules {statistics.median(spades_ratio):.2f}x, "
        f"bridge question {statistics.median(bridge_ratio):.2f}x; bridge values all equal to DDS's; "
        f"{differ} deals where Spades' rules change the value; positions ours searched "
        f"{searched['spades']:,} (Spades rules), {searched['bridge']:,} (bridge question); "
        f"tricks finished: ours {finished['spades']:,} (Spades rules), {finished['bridge']:,} "
        f"(bridge question), DDS's {searched['DDS']:,} (every card's value)"
    )


def _deal_value(st: State) -> tuple[int, int, int]:
    """The value of a deal by our search, the positions it searched and the tricks it
    finished."""
    search = our_solver(st)
    value = int(search.value())
    return value, search.searched + search.nodes, tricks_finished(search)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, default=20, help="hands played by normal, beside the transcripts"
    )
    parser.add_argument("--deals", type=int, default=50, help="whole deals")
    parser.add_argument("--no-warm", action="store_true", help="no warm solver (one per hand)")
    args = parser.parse_args()
    ep = _endplay()
    from endplay.config import __version__ as endplay_version

    core = "C core" if backend.c_core() else "Python solver (the C core was not built)"
    print(f"{build_line()}; ours: {core}; DDS: endplay {endplay_version}")
    hands = list(played_hands(args.games))
    positions_table(hands, not args.no_warm, ep)
    whole_deals(args.deals, ep)


if __name__ == "__main__":
    main()
