"""Bids every level must get right: never below the tricks the hand cannot lose, and no
nil beside a partner's nil unless the score calls for it (the README's bot section)."""

from __future__ import annotations

import pytest
from helpers.engine import E, N, S, W
from helpers.positions import deal_4p, position_4p

from spades_cli.bots import LEVELS, Bot, make_bot
from spades_cli.bots.hard import HardBot
from spades_cli.bots.normal import reach_chance
from spades_cli.engine import BID_BASE, BLIND, DECLARE, NO_BLIND, PLAY, Rules, State, rng_for
from spades_cli.presets import load_rules, rules_from_dict, rules_to_dict

FOUR = load_rules("four-player")
_D = rules_to_dict(FOUR)
BLIND_FOUR = rules_from_dict({**_D, "blind_nil": {**_D["blind_nil"], "enabled": True}})


def _bot(level: str) -> Bot:
    return HardBot(play_budget=3000, bid_worlds=16) if level == "hard" else make_bot(level)


def bid(level: str, rules: Rules, state: State) -> int:
    seat = state.current_player()
    action = _bot(level).act(state.observation(seat), rules, rng_for("bids", seat, len(state.history)))
    return action - BID_BASE


# South holds every spade: thirteen tricks whatever the others hold (R-C-4).
ALL_SPADES = {
    S: "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
    N: "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
    E: "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
    W: "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
}

# South's four top spades and nothing else of note: four tricks however the spades lie.
FOUR_TOP = {
    S: "AS KS QS JS 2H 3H 4H 5H 2D 3D 4D 5D 2C",
    N: "TS 9S 6H 7H 8H 6D 7D 8D 3C 4C 5C 6C 7C",
    E: "8S 7S 6S 9H TH JH 9D TD JD 8C 9C TC JC",
    W: "5S 4S 3S 2S QH KH AH QD KD AD QC KC AC",
}


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("first", [True, False], ids=["opens", "after-bids"])
def test_thirteen_top_spades_bid_thirteen(level: str, first: bool) -> None:
    # R-C-4: every spade beats every other suit and South holds them all; every level
    # used to bid 12 here.
    state = position_4p(FOUR, ALL_SPADES, {} if first else {W: 2, N: 3, E: 3}, dealer=E if first else S)
    assert state.current_player() == S
    assert bid(level, FOUR, state) == 13


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_four_top_spades_bid_at_least_four(level: str) -> None:
    # R-C-4: the ace to the jack of spades win four tricks however the other nine spades
    # lie (each lower spade of the others only falls to them); the bid table said 3.
    state = position_4p(FOUR, FOUR_TOP, {}, dealer=E)
    assert state.current_player() == S
    assert bid(level, FOUR, state) >= 4


# North will declare blind nil; South's hand would be a fair nil on its own.
LOW_SOUTH = {
    S: "2C 3C 4C 5C 2D 3D 4D 2H 3H 4H 5H 6H 2S",
    N: "AS KS QS JS AH KH QH AD KD QD AC KC QC",
    E: "TS 9S 8S 7S JH TH 9H JD TD 9D JC TC 9C",
    W: "6S 5S 4S 3S 8H 7H 8D 7D 6D 5D 8C 7C 6C",
}


def _after_partner_blind_nil(scores: tuple[int, int], dealer: int) -> State:
    state = deal_4p(BLIND_FOUR, dealer, LOW_SOUTH, scores=scores)
    while state.phase == DECLARE:
        state.apply(BLIND if state.current_player() == N else NO_BLIND)
    assert state.observation(S).declared[N]
    while state.phase != PLAY and state.current_player() != S:
        state.apply(BID_BASE + (0 if state.current_player() == N else 3))
    return state


@pytest.mark.slow
@pytest.mark.parametrize("level", ["normal", "hard", "expert"])
@pytest.mark.parametrize("dealer", [E, W], ids=["south-first", "north-first"])
def test_no_nil_beside_a_partners_blind_nil(level: str, dealer: int) -> None:
    # R-4P-7: with North's blind nil the side has no contract and nobody to cover
    # either nil; South's safe hand bids its tricks, whether or not North has bid yet
    # (the blind nil is declared before the bidding).
    state = _after_partner_blind_nil((100, 200), dealer)
    assert bid(level, BLIND_FOUR, state) > 0


@pytest.mark.parametrize("dealer", [E, W], ids=["south-first", "north-first"])
def test_both_nils_when_only_they_catch_the_opponents(dealer: int) -> None:
    # R-4P-7: at 250 to 450 the opponents win with any made contract; the blind nil's
    # 200 and a nil's 100 reach 500, and nothing else South's hand can bid does.
    state = _after_partner_blind_nil((250, 450), dealer)
    assert bid("normal", BLIND_FOUR, state) == 0


# South's three side ace-kings, each in a suit of four, and one low spade: it opens.
THREE_ACE_KINGS = {
    S: "AH KH AD KD AC KC 2S 3H 4H 5D 6D 7C 8C",
    N: "QH JH TH QD JD TD QC JC TC 3S 4S 5S 6S",
    E: "9H 8H 7H 9D 8D 7D 9C 6C 5C 7S 8S 9S TS",
    W: "6H 5H 2H 4D 3D 2D 4C 3C 2C JS QS KS AS",
}

# North opened 4; South holds two side aces and the queen of spades fourth.
PARTNER_OPENED_FOUR = {
    N: "AS QH 8H 5H 4H 2H JD 8D 2D KC QC 8C 5C",
    E: "JS TS 7S 6S 9H 7H KD TD 7D 6D 7C 4C 3C",
    S: "QS 5S 4S 2S JH 3H AD 9D 5D 3D AC JC 9C",
    W: "KS 9S 8S 3S AH KH TH 6H QD 4D TC 6C 2C",
}


@pytest.mark.parametrize(
    ("hands", "bids", "dealer", "expected"),
    [(THREE_ACE_KINGS, {}, E, 4), (PARTNER_OPENED_FOUR, {W: 3, N: 4, E: 3}, S, 3)],
    ids=["opens-three-ace-kings", "second-bid-after-partners-4"],
)
def test_normal_bids_from_its_seat_model(
    hands: dict[int, str], bids: dict[int, int], dealer: int, expected: int
) -> None:
    # R-C-3 / R-C-4: a side king falls to a spade once its suit runs out at another
    # seat, so three ace-kings open 4 (the estimate alone opened 5). R-4P-6: the side's
    # contract is the sum of its bids; North's 4 is its estimate shaded to make the
    # contract safe, so North takes a little more on average, and South's two aces and
    # four spades make the side's contract 7 (about 8.3 tricks expected), where counting
    # North at its bid left it at 6.
    state = position_4p(FOUR, hands, bids, dealer=dealer)
    assert state.current_player() == S
    assert bid("normal", FOUR, state) == expected


def test_a_game_winning_four_player_bid_counts_the_bag_penalty() -> None:
    """R-C-11, R-C-9, R-4P-6: a position from a game of normal against itself (game 13,
    hand 12 of a seeded run). North-South have 478 and 8 bags; East 2, South 5 and West
    2 are bid, North last. A bid of 1 "wins the game when made" (a contract of 6), so the
    old bid was 1: the side took 9, three bags made 11 (-100) and the game went on at
    441. North now bids the number that reaches 500 most often over the side's tricks."""
    hands = {
        N: "QS 9S 6S 5S QH TH 3H KD 2D 9C 7C 4C 2C",
        E: "AS 7S 4S KH JH 9H 6H 4H 2H 9D 5D QC 5C",
        S: "JS TS 8S 3S 2S 8H AD TD 6D 4D 3D AC KC",
        W: "KS AH 7H 5H QD JD 8D 7D JC TC 8C 6C 3C",
    }
    state = position_4p(FOUR, hands, {E: 2, S: 5, W: 2}, dealer=N, scores=(478, 126), bags=(8, 6))
    assert state.current_player() == N
    assert bid("normal", FOUR, state) == 3
    obs = state.observation(N)
    pmf = [0.0] * 27
    pmf[8] = 1.0  # the side takes eight tricks
    assert reach_chance(obs, FOUR, 1, pmf) == 0.0  # 478 + 62 - 100
    assert reach_chance(obs, FOUR, 3, pmf) == 1.0  # 478 + 80


@pytest.mark.parametrize(("west", "east", "expected"), [(1, 1, 4), (2, 2, 3), (3, 3, 3)])
def test_the_sides_second_bid_reads_the_opponents_bids(west: int, east: int, expected: int) -> None:
    """R-4P-6, R-C-4: the same cards as above, North's 4 made, South the side's second
    bidder. Opponents who bid 1 and 1 hold few winners, so the side takes more of the
    thirteen tricks: South bids 4 (a contract of 8). At 2 and 2 it bids 3 (the constant
    0.35 tricks beyond the partner's bid, the model before, bid 3 whatever they bid)."""
    state = position_4p(FOUR, PARTNER_OPENED_FOUR, {W: west, N: 4, E: east}, dealer=S)
    assert state.current_player() == S
    assert bid("normal", FOUR, state) == expected


# South's hand has little that wins (nil danger 1.46: the nine of spades, a king of
# diamonds fourth, a jack of clubs third); West bid 3 and East 5.
LOW_PARTNER_NIL = {
    S: "9S 3S 9H 6H 4H 2H KD 8D 5D 3D JC 4C 2C",
    N: "QS 8S 4S 2S QH 8H 5H 3H 6D 2D 9C 6C 3C",
    E: "AS KS JS 7S 5S AH KH AD QD JD KC QC 5C",
    W: "TS 6S JH TH 7H AC 7C TC 8C TD 9D 7D 4D",
}


@pytest.mark.parametrize("partner", [1, 2, 4])
def test_nil_beside_a_partners_low_bid(partner: int) -> None:
    """R-4P-7, R-C-10: a hand of about one trick with little that must win bids nil
    whether its partner bid 1, 2 or 4. A 1 from it is set about one time in three, and
    it sets the side's whole contract; normal's own nils beside a partner's 1 or 2 were
    made at least as often as beside a higher bid on hands this safe (bench/README.md)."""
    state = position_4p(FOUR, LOW_PARTNER_NIL, {W: 3, N: partner, E: 5}, dealer=S)
    assert state.current_player() == S
    assert bid("normal", FOUR, state) == 0
