"""Normal's two-player bids from the fitted model of a drafted hand (``hand.two_tricks``).

Each position is a hand of a duplicate game against an outside player (the Trickster Cards
bot), seed 3101, where normal's old bid, from the hand estimate alone with a wide spread,
fell three tricks short of what the hand took: the bags of those hands were most of the
points it lost (bench/README.md).
"""

from __future__ import annotations

from helpers.engine import cards, drafted

from spades_cli.bots.hand import TWO_FEATURES, TWO_WEIGHTS_FIRST, TWO_WEIGHTS_SECOND, two_features, two_tricks
from spades_cli.bots.normal import NormalBot, reach_chance
from spades_cli.engine import BID_BASE, State, rng_for
from spades_cli.engine.cards import mask_of
from spades_cli.presets import load_rules

TWO = load_rules("two-player")
N2, S2 = 0, 1


def normal_bid(state: State) -> int:
    seat = state.current_player()
    return NormalBot().act(state.observation(seat), TWO, rng_for(0, "test")) - BID_BASE


def test_the_model_reads_each_feature_once() -> None:
    # A weight for each feature after the intercept; the second bid weighs the opponent's too.
    assert len(TWO_WEIGHTS_FIRST) == len(TWO_FEATURES) + 1
    assert len(TWO_WEIGHTS_SECOND) == len(TWO_FEATURES) + 2
    hand = mask_of(cards("AS KS QS TS 7S 3S 2S 4H KD TD 8D 7D JC"))
    assert len(two_features(hand, 0)) == len(TWO_FEATURES)


def test_first_bid_counts_seven_spades_over_the_discarded_jack() -> None:
    # R-2P-4, R-2P-2: North bids first holding A K Q T of spades and three low ones, having
    # thrown away the jack and eight itself: four spades are out, at most half of them in
    # the opponent's hand. It took 9 tricks; the old bid was 6 (three bags).
    state = drafted(
        S2,
        {
            N2: "AS KS QS TS 7S 3S 2S 4H KD TD 8D 7D JC",
            S2: "9S 6S 5S 4S AD QD 9D 3D AC KC QC TC 2C",
        },
        {
            N2: "JS 8S QH 6H 5H 3H 2H 4D 2D 9C 6C 4C 3C",
            S2: "AH KH JH TH 9H 8H 7H JD 6D 5D 8C 7C 5C",
        },
    )
    assert state.current_player() == N2
    obs = state.observation(N2)
    hand = mask_of(obs.hand)
    # The discarded spades promote the ten: the model counts more than without them.
    assert two_tricks(hand, mask_of(obs.own_discards), None) > two_tricks(hand, 0, None)
    assert normal_bid(state) in (7, 8)


def test_second_bid_after_a_six_counts_the_long_spades() -> None:
    # R-2P-4: South opened 6; North holds K Q J T of spades and three more (the nine and
    # eight thrown away in its draft) and a weak side. It took 8 tricks; the old bid was 5.
    state = drafted(
        N2,
        {
            N2: "KS QS JS TS 6S 4S 3S JH QD JD 9D 5D 3D",
            S2: "AS 7S 5S 2S AH KH QH 7H AD KD QC 9C 5C",
        },
        {
            N2: "9S 8S 5H 4H 3H 2H TD 8D 4D KC JC 7C 4C",
            S2: "TH 9H 8H 6H 7D 6D 2D AC TC 8C 6C 3C 2C",
        },
    )
    assert state.current_player() == S2
    state.apply(BID_BASE + 6)
    assert normal_bid(state) in (6, 7)


def test_a_game_winning_bid_counts_the_bag_penalty() -> None:
    # R-C-11, R-C-9, R-2P-4: North, at 468 with 8 bags, bids first on a hand the model
    # reckons near 7.7 tricks. A bid of 4 "wins the game when made" (508), so the old bid
    # was 4: North took 6, the two bags made 10 (-100) and the game went on at 410. The
    # bid that reaches 500 most often is near what the hand takes.
    state = drafted(
        S2,
        {
            N2: "KS QS 8S 7S 6S 3S KH AD 6D 4D KC QC JC",
            S2: "TS 9S 5S 4S 2S AH QH JH TH KD 7D AC 5C",
        },
        {
            N2: "JS 7H 6H 4H 3H 2H QD 9D 3D 2D 9C 8C 7C",
            S2: "AS 9H 8H 5H JD TD 8D 5D TC 6C 4C 3C 2C",
        },
        scores=(468, 354),
        bags=(8, 4),
    )
    assert state.current_player() == N2
    obs = state.observation(N2)
    bid = normal_bid(state)
    assert bid in (6, 7, 8)
    pmf = [0.0] * 27
    pmf[6] = 1.0  # six tricks taken, as in the game
    assert reach_chance(obs, TWO, 4, pmf) == 0.0  # 468 + 42 - 100
    assert reach_chance(obs, TWO, 6, pmf) == 1.0  # 468 + 60
