"""Engine speed: random legal hands per second, compared with OpenSpiel's ``spades``.

Both engines are driven the same way: every decision is ``legal_actions()``, a random
pick ``lst[int(rng.random() * len(lst))]`` and an apply. A hand is complete when its 13
tricks are scored; one OpenSpiel ``spades`` game is one hand.

**Like for like** (the ratio to quote): the same pre-shuffled decks are handed to both
engines through their public APIs (ours ``State.deal(deck)``, OpenSpiel the deck's 52
cards as its 52 chance actions), a fresh game per deck, and the same seeded random picks
of legal moves, by the same loop: ask for the legal actions, stop when there are none,
else apply a pick (no end-of-hand test of either engine's own: OpenSpiel's
``is_terminal()`` through pybind cost about a sixth of its time per hand, far more than
reading our ``current``, so a test each would not be the same work). Ours checks every
rule on every ``apply``; OpenSpiel's ``apply_action`` checks nothing, so the ratio is
printed against it (the headline) and against its ``apply_action_with_legality_check``.
Rounds of the engines alternate so that other load on the machine hits both alike, each
side timed by the CPU time of this one process (``time.process_time``: other processes'
work is not counted against either side; ``--wall`` times by the wall clock instead); the
median of the per-round ratios is reported.

For reference, the older measure is printed too: each engine deals its own way (ours one
``deal`` call from a shuffled deck, OpenSpiel 52 chance nodes each resolved with a random
pick from ``legal_actions()``) and our games run on for ``--hands-per-game`` hands.

Also measured: the cost of ``clone()`` + ``apply()`` on positions in the play phase,
the inner step of a search bot.

Run: ``.venv/bin/python bench/engine.py`` (``--seconds 5`` for longer runs,
``--no-openspiel`` to skip the comparison). OpenSpiel is the optional extra
``pip install open_spiel``; without it that part is skipped with a note.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence

from common import build_line

from spades_cli.engine import DRAW, PLAY, Rules, State, deck_cards, rng_for
from spades_cli.presets import list_presets, load_rules

Clock = Callable[[], float]
Pick = Callable[[Sequence[int]], int]


def picker(rng: random.Random) -> Pick:
    r = rng.random

    def pick(lst: Sequence[int]) -> int:
        return lst[int(r() * len(lst))]

    return pick


def deck_source(rng: random.Random, cards: Sequence[int] = range(52)) -> Callable[[], list[int]]:
    """Random decks for the harness: numpy's permutation when numpy is there (it comes
    with open_spiel), else ``random.shuffle``. Shuffling is the harness's cost, not the
    engine's; OpenSpiel's deal is its 52 chance actions, which it pays for itself."""
    try:
        import numpy
    except ImportError:
        deck = list(cards)

        def shuffled() -> list[int]:
            rng.shuffle(deck)
            return deck

        return shuffled
    gen = numpy.random.default_rng(rng.getrandbits(64))
    if list(cards) != list(range(52)):
        pack = numpy.array(list(cards))

        def permuted() -> list[int]:
            deck: list[int] = gen.permutation(pack).tolist()
            return deck

        return permuted

    def permuted52() -> list[int]:
        deck: list[int] = gen.permutation(52).tolist()
        return deck

    return permuted52


def ours_hands_per_second(rules: Rules, seconds: float, hands_per_game: int) -> tuple[float, int]:
    rng = rng_for("bench", "engine", rules.name)
    r = rng.random
    next_deck = deck_source(rng, deck_cards(rules))
    hands = 0
    games_hands = 0
    state = State(rules, 0)
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state.deal(next_deck())
        while True:
            if state.current < 0 and state.phase is not DRAW:
                break  # the hand is over (a double-nil draw is the only other chance node)
            lst = state.legal_actions()
            state.apply(lst[int(r() * len(lst))])
        hands += 1
        games_hands += 1
        if state.is_terminal() or games_hands >= hands_per_game:
            state = State(rules, hands % rules.players)
            games_hands = 0
        if time.perf_counter() >= deadline:
            break
    return hands / (time.perf_counter() - start), hands


def openspiel_hands_per_second(seconds: float) -> tuple[float, int] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("spades")
    r = rng_for("bench", "openspiel").random
    hands = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            lst = state.legal_actions()
            state.apply_action(lst[int(r() * len(lst))])
        hands += 1
        if time.perf_counter() >= deadline:
            break
    return hands / (time.perf_counter() - start), hands


def fixed_decks(count: int) -> list[list[int]]:
    """``count`` shuffled decks, the same on every run (and for both engines)."""
    rng = rng_for("bench", "decks")
    deck = list(range(52))
    out = []
    for _ in range(count):
        rng.shuffle(deck)
        out.append(list(deck))
    return out


def ours_on_decks(rules: Rules, decks: list[list[int]], seconds: float, clock: Clock) -> float:
    """Hands per second of ``clock``: a fresh game per deck, dealt with ``State.deal``, played
    to the hand's end."""
    r = rng_for("bench", "picks").random
    hands = 0
    start = clock()
    deadline = start + seconds
    while True:
        for deck in decks:
            state = State(rules, 0)
            state.deal(deck)
            apply, legal_actions = state.apply, state.legal_actions
            while True:
                lst = legal_actions()
                if not lst:
                    break  # the hand is over (four-player: no chance node inside a hand)
                apply(lst[int(r() * len(lst))])
            hands += 1
            if hands % 64 == 0 and clock() >= deadline:
                return hands / (clock() - start)


def openspiel_on_decks(decks: list[list[int]], seconds: float, checked: bool, clock: Clock) -> float | None:
    """The same for OpenSpiel: each deck's cards as the 52 chance actions, then the same picks."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("spades")
    r = rng_for("bench", "picks").random
    hands = 0
    start = clock()
    deadline = start + seconds
    while True:
        for deck in decks:
            state = game.new_initial_state()
            apply = state.apply_action_with_legality_check if checked else state.apply_action
            legal_actions = state.legal_actions
            for card in deck:
                apply(card)
            while True:
                lst = legal_actions()
                if not lst:
                    break  # the game (one hand) is over
                apply(lst[int(r() * len(lst))])
            hands += 1
            if hands % 64 == 0 and clock() >= deadline:
                return hands / (clock() - start)


def like_for_like(rounds: int, seconds: float, wall: bool = False) -> None:
    clock: Clock = time.perf_counter if wall else time.process_time
    four = load_rules("four-player")
    decks = fixed_decks(512)
    rates: dict[str, list[float]] = {"ours": [], "os": [], "os_checked": []}
    load_before = os.getloadavg()[0]
    for _ in range(rounds):
        rates["ours"].append(ours_on_decks(four, decks, seconds / 3, clock))
        for key, checked in (("os", False), ("os_checked", True)):
            rate = openspiel_on_decks(decks, seconds / 3, checked, clock)
            assert rate is not None
            rates[key].append(rate)
    ours = rates["ours"]
    med = statistics.median
    print(
        f"like for like, four-player, the same {len(decks)} decks and picks; {'wall' if wall else 'CPU'} "
        f"time; median of {rounds} rounds "
        f"(load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after):"
    )
    print(f"  {'ours (every rule checked)':46} {med(ours):10.0f} hands/s")
    for key, what in (("os", "apply_action, no checks"), ("os_checked", "apply_action_with_legality_check")):
        ratios = [a / b for a, b in zip(ours, rates[key], strict=True)]
        print(
            f"  {'openspiel (' + what + ')':46} {med(rates[key]):10.0f} hands/s  ratio ours/openspiel "
            f"{med(ratios):.2f} (min {min(ratios):.2f}, max {max(ratios):.2f})"
        )
    print("  target: ratio against apply_action >= 2.0")


def play_positions(rules: Rules, count: int) -> list[tuple[State, int]]:
    """Positions in the play phase of random four-player hands, each with a random legal card."""
    rng = rng_for("bench", "positions")
    pick = picker(rng)
    deck = list(range(52))
    out: list[tuple[State, int]] = []
    while len(out) < count:
        state = State(rules, 0)
        rng.shuffle(deck)
        state.deal(deck)
        while state.hand_no == 0 and not state.is_terminal():
            legal = state.legal_actions()
            if state.phase == PLAY:
                out.append((state.clone(), pick(legal)))
            state.apply(pick(legal))
    return out[:count]


def clone_apply_us(positions: list[tuple[State, int]], seconds: float) -> tuple[float, float]:
    """Microseconds per clone() + apply(), and per clone() alone."""

    def run(fn: Callable[[State, int], object]) -> float:
        done = 0
        start = time.perf_counter()
        deadline = start + seconds / 2
        while time.perf_counter() < deadline:
            for state, action in positions:
                fn(state, action)
            done += len(positions)
        return (time.perf_counter() - start) / done * 1e6

    def both(state: State, action: int) -> None:
        state.clone().apply(action)

    def alone(state: State, action: int) -> None:
        state.clone()

    return run(both), run(alone)


def openspiel_clone_apply_us(seconds: float) -> float | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("spades")
    pick = picker(rng_for("bench", "openspiel-positions"))
    positions: list[tuple[pyspiel.State, int]] = []
    while len(positions) < 2000:
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            # Play phase: 52 chance cards and 4 bids are done.
            if not state.is_chance_node() and len(state.history()) >= 56:
                positions.append((state.clone(), pick(legal)))
            state.apply_action(pick(legal))
    done = 0
    start = time.perf_counter()
    deadline = start + seconds / 2
    while time.perf_counter() < deadline:
        for s, a in positions:
            s.clone().apply_action(a)
        done += len(positions)
    return (time.perf_counter() - start) / done * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement (default 3)")
    parser.add_argument(
        "--hands-per-game", type=int, default=50, help="start a new game after this many hands (default 50)"
    )
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds against OpenSpiel")
    parser.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel comparison")
    parser.add_argument(
        "--wall", action="store_true", help="time like-for-like rounds by the wall clock, not CPU time"
    )
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.hands_per_game < 1:
        parser.error("--seconds must be positive and --hands-per-game at least 1")

    print(build_line())
    rates: dict[str, float] = {}
    family = [name for name, _file, _desc in list_presets() if name not in ("two-player", "four-player")]
    for preset in ("two-player", "four-player", *family):
        rules = load_rules(preset)
        rate, n = ours_hands_per_second(rules, args.seconds, args.hands_per_game)
        rates[preset] = rate
        print(f"ours {preset:24} {rate:10.0f} hands/s  ({n} hands)")

    if args.no_openspiel or openspiel_hands_per_second(0.01) is None:
        note = "skipped (--no-openspiel)" if args.no_openspiel else "not installed (pip install open_spiel)"
        print(f"openspiel spades: {note}")
        theirs = None
    else:
        like_for_like(args.rounds, args.seconds, args.wall)
        # The older measure, each engine dealing its own way (not like for like).
        four = load_rules("four-player")
        ratios = []
        os_rates = []
        for _ in range(args.rounds):
            ours, _n = ours_hands_per_second(four, args.seconds / 2, args.hands_per_game)
            result = openspiel_hands_per_second(args.seconds / 2)
            assert result is not None
            os_rates.append(result[0])
            ratios.append(ours / result[0])
        theirs = statistics.median(os_rates)
        print(
            f"each dealing its own way (not like for like): openspiel {theirs:.0f} hands/s, ratio "
            f"{statistics.median(ratios):.2f} (median of {args.rounds} rounds; min {min(ratios):.2f}, "
            f"max {max(ratios):.2f})"
        )

    positions = play_positions(load_rules("four-player"), 2000)
    both, alone = clone_apply_us(positions, args.seconds)
    print(f"four-player play phase: clone+apply {both:.2f} us, clone alone {alone:.2f} us")
    if theirs is not None:
        os_both = openspiel_clone_apply_us(args.seconds)
        if os_both is not None:
            print(f"openspiel spades play phase: clone+apply_action {os_both:.2f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
