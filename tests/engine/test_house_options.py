"""House-rule options that no other test exercises on its own: the target score (R-H-1),
the first dealer (R-H-4) and the size of the double-nil exchange (R-H-15)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from helpers.cli import run_cli
from helpers.engine import FOUR, N2, TWO, E, N, S, W, cards, deal_2p, run_hand

from spades_cli.engine import BID, CHANCE, DRAW, EXCHANGE, EXCHANGE_DONE, State
from spades_cli.engine.rules import BlindNilRules

HANDS_2P = {
    N2: cards("AH KH QH JH TH 9H 2C 3C 4C 5C 6C 7C 8C"),
    1: cards("AS KS QS 2D 3D 4D 5D 6D 7D 8D 9D TD JD"),
}
DISCARDS_2P = cards("2S 3S 4S 5S 6S 7S 8S 9S TS JS 2H 3H 4H 5H 6H 7H 8H 9C TC JC QC KC AC QD KD AD")


def test_r_h_1_target_ends_the_game_at_the_tables_score() -> None:
    # R-H-1: with target 150 one hand of 170 to 160 ends the game; at 500 it goes on.
    plan = ((0, 0, 7, 6), {N: 0, E: 0, S: 7, W: 6})
    short = State(dataclasses.replace(FOUR, target=150), N)
    assert run_hand(short, *plan).scores == (170, 160)
    assert short.is_terminal() and short.winner() == 0
    full = State(FOUR, N)
    run_hand(full, *plan)
    assert not full.is_terminal() and full.winner() is None


def test_r_h_15_exchange_size_limits_the_double_nil_swap() -> None:
    # R-H-15: with blind_nil.exchange 1 the declarer swaps one card, then bidding starts.
    rules = dataclasses.replace(TWO, blind_nil=BlindNilRules(enabled=True, value=200, exchange=1))
    state = deal_2p(rules, N2, HANDS_2P, blind={N2}, discards=DISCARDS_2P)
    assert state.phase == EXCHANGE and EXCHANGE_DONE in state.legal_actions()
    state.apply(cards("2C")[0])
    assert state.phase == DRAW and state.current_player() == CHANCE
    state.apply(cards("QD")[0])
    assert state.phase == BID
    assert state.observation(N2).exchanged == (1, 0)
    assert set(state.hand_of(N2)) == (set(HANDS_2P[N2]) - set(cards("2C"))) | set(cards("QD"))


def _first_dealer(tmp_path: Path, *extra: str) -> str:
    out = tmp_path / f"game{len(list(tmp_path.iterdir()))}.txt"
    script = tmp_path / "script.txt"
    script.write_text('[Rules "four-player"]\n')
    seats = [f"--seat={s}=random" for s in "NESW"]
    result = run_cli(["run", str(script), "--seed", "11", *seats, "--max-hands", "1", "-o", str(out), *extra])
    assert result.exit_code == 0, result.output
    found = re.search(r"^hand 1 dealer ([NESW])$", out.read_text(), re.M)
    assert found is not None
    return found.group(1)


def test_r_h_4_first_dealer_named_by_the_rules(tmp_path: Path) -> None:
    # R-H-4 / R-4P-2: the seed picks the first dealer unless the rules name one.
    from_seed = _first_dealer(tmp_path)
    for seat in "NESW":
        assert _first_dealer(tmp_path, "--set", f"first_dealer={seat}") == seat
    assert from_seed in "NESW"
