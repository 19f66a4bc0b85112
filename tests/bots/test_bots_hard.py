"""The hard bot decides from its seat's observation only: reshuffling the cards it cannot
see, consistently with what it has seen, changes neither its view nor its decision.
Also: the sampled deals really are consistent with what the seat has seen."""

from __future__ import annotations

import random

import pytest
from helpers.engine import N2, S2, E, N, S, W, drafted
from helpers.midhand import mid_hand, reshuffle_hidden, shown_voids
from helpers.positions import position_4p

from spades_cli.bots.determinize import build_state, cards_held, played_by, sample_worlds
from spades_cli.bots.hard import NIL_FAIL_SCALE, HardBot, _fill_bids, calibrated_nil, cover_leads
from spades_cli.bots.rollout import WIN_VALUE, game_utility, hand_utility, make_context, play_out
from spades_cli.bots.view import bid_of, read_table
from spades_cli.engine import BID, BID_BASE, PLAY, Rules, card_str, rng_for
from spades_cli.engine.cards import SPADES, SUIT_MASKS, mask_of
from spades_cli.presets import load_rules

FOUR = load_rules("four-player")
TWO = load_rules("two-player")


@pytest.mark.parametrize(
    ("rules", "seed", "plays"), [(FOUR, 3, 9), (FOUR, 21, 22), (TWO, 5, 7), (TWO, 9, 12)]
)
def test_hard_decision_ignores_how_the_hidden_cards_lie(rules: Rules, seed: int, plays: int) -> None:
    state = mid_hand(rules, seed, plays)
    me = state.current_player()
    bot = HardBot(play_budget=1500)
    obs = state.observation(me)
    action = bot.act(obs, rules, rng_for(seed, "hard"))
    rng = random.Random(seed)
    for _ in range(3):
        other = reshuffle_hidden(state, me, rng)
        assert [other.hands[s] for s in range(state.n) if s != me] != [
            state.hands[s] for s in range(state.n) if s != me
        ]
        assert other.hands[me] == state.hands[me]
        seen = other.observation(me)
        assert seen == obs  # the seat cannot tell the two deals apart ...
        assert bot.act(seen, rules, rng_for(seed, "hard")) == action  # ... nor can its decision


@pytest.mark.parametrize(
    ("rules", "seed", "plays"), [(FOUR, 4, 17), (FOUR, 8, 30), (TWO, 6, 10), (TWO, 2, 19)]
)
def test_sampled_deals_agree_with_what_the_seat_has_seen(rules: Rules, seed: int, plays: int) -> None:
    state = mid_hand(rules, seed, plays)
    me = state.current_player()
    obs = state.observation(me)
    view = read_table(obs, rules)
    held = cards_held(obs)
    voids = shown_voids(state)
    worlds = sample_worlds(view, random.Random(seed), 25)
    assert len(worlds) == 25
    own_discards = mask_of(obs.own_discards)
    for hands in worlds:
        assert hands[me] == state.hands[me]
        for s in range(rules.players):
            assert hands[s].bit_count() == held[s]
            assert not hands[s] & view.played
            for suit in range(4):
                if voids[s] >> suit & 1:
                    assert not hands[s] & SUIT_MASKS[suit], "a card of a suit the seat has shown it lacks"
            if s != me:
                assert not hands[s] & own_discards  # R-2P-2: our discards are out of play
        assert sum(h.bit_count() for h in hands) == sum(held)
        world = build_state(obs, rules, hands)
        assert world.observation(me).legal == obs.legal
        assert world.current_player() == me


def test_two_player_deals_give_a_high_bidder_the_long_spades() -> None:
    """R-2P-4, R-2P-2: the deals sampled after the opponent's bid read that bid with the
    model of a drafted hand. Seed 2024 of hard against normal: South (second player,
    bidding first) drafted K Q T 7 5 4 3 of spades and A A K K Q and bid 8; North, the
    hard bot, holds five spades and threw away the jack, so South has all seven others.
    The deals it sampled gave South four spades on average, whatever South had bid."""
    hands = {
        N2: "AS 9S 8S 6S 2S JH 9D 8D 7D 6D AC 3C 2C",
        S2: "KS QS TS 7S 5S 4S 3S AH AD KD KC QC 9C",
    }
    discards = {
        N2: "JS KH QH TH 9H 8H 3H TD 5D 4D 3D 6C 4C",
        S2: "7H 6H 5H 4H 2H QD JD 2D JC TC 8C 7C 5C",
    }
    spades = {}
    for bid in (8, 3):
        state = drafted(N2, hands, discards)
        state.apply(BID_BASE + bid)
        view = read_table(state.observation(N2), TWO)
        worlds = sample_worlds(view, random.Random(7), 64)
        spades[bid] = sum((w[S2] & SUIT_MASKS[SPADES]).bit_count() for w in worlds) / len(worlds)
    assert spades[8] >= spades[3] + 1.0  # the old reading: 4.0 against 3.9


def test_two_player_bid_search_gives_the_opponent_a_bid_that_reads_ours() -> None:
    """R-2P-4: bidding first, hard plays its sampled deals out with a bid filled in for
    the opponent, who bids after it. The same deal as above, the hands swapped: in the
    deal where North holds K Q T 7 5 4 3 of spades and A A K K Q, the filled bid answers
    South's (the old one was 10 whatever South bid; normal bid 8 on those cards)."""
    state = drafted(
        N2,
        {
            S2: "AS 9S 8S 6S 2S JH 9D 8D 7D 6D AC 3C 2C",
            N2: "KS QS TS 7S 5S 4S 3S AH AD KD KC QC 9C",
        },
        {
            S2: "JS KH QH TH 9H 8H 3H TD 5D 4D 3D 6C 4C",
            N2: "7H 6H 5H 4H 2H QD JD 2D JC TC 8C 7C 5C",
        },
    )
    obs = state.observation(S2)
    view = read_table(obs, TWO)
    hands = [state.hands[N2], state.hands[S2]]
    filled = {mine: _fill_bids(view, hands, played_by(obs), TWO, mine)[N2] for mine in (3, 5, 7)}
    assert filled[3] > filled[5] > filled[7]
    assert filled[5] in (7, 8, 9)


def test_the_game_utility_weighs_the_same_hand_by_the_race_to_the_target() -> None:
    # One hand, played out: North-South bid 4 and 3 and make them, East-West bid 3 and
    # 2 and are set. hand_utility counts the same points whatever the score; the game
    # utility (R-C-11: the first side to reach the target wins) values the same lead more
    # when fewer hands are left, and a finished game at exactly the win or the loss.
    hands = {
        N: "AC KC QC AD KD AH 2C 3C 2D 3D 2H 3H 4H",
        E: "4C 5C 6C 4D 5D 6D 5H 6H 7H 2S 3S 4S 5S",
        S: "AS KS QS JS TS 9S 7C 8C 7D 8D 8H 9H TH",
        W: "9C TC JC 9D TD JD QD JH QH KH 6S 7S 8S",
    }
    values = {}
    for scores in ((0, 0), (380, 380), (470, 300)):
        state = position_4p(FOUR, hands, {N: 4, E: 3, S: 3, W: 2}, dealer=W, scores=scores)
        result = play_out(state, make_context(state))
        assert result.sides[0].made and not result.sides[1].made
        assert hand_utility(FOUR, 0, result) == -hand_utility(FOUR, 1, result) > 0
        values[scores] = game_utility(FOUR, 0, result)
        assert game_utility(FOUR, 1, result) == -values[scores]
    assert 0 < values[(0, 0)] < values[(380, 380)] < WIN_VALUE
    assert values[(470, 300)] == WIN_VALUE  # North-South pass 500: the game is won


def test_hard_leads_high_to_cover_its_partners_nil() -> None:
    # A game against the normal bot, at 276 to 315: South (hard) bid 2, West 5, North
    # nil, East 1, and South leads the first trick. It led 6D; North, holding only 7D and
    # QD in diamonds, had to take the trick over East's 4D (R-C-10: -100 for the side).
    # The partner of a nil now leads the top card of a suit (R-C-4: the nil can play any
    # lower card of the suit under it): AC, KD or JH (spades are not broken, R-C-6).
    state = position_4p(
        FOUR,
        {
            N: "7D 2C 3C QD 9C 5H 4C QH 2H TS 7S KH 5C",
            E: "3D 7C TC 8D 4H AH 9D 9H TH JD 4S JS 3S",
            S: "6D AC JC TD 6C 7H KD JH 2D 2S 8S 6S 5S",
            W: "4D 8C QC AD KC 3H 5D 6H 8H QS 9S KS AS",
        },
        {S: 2, W: 5, N: 0, E: 1},
        dealer=E,
        scores=(276, 315),
        bags=(6, 5),
    )
    assert state.phase == PLAY and state.current_player() == S
    bot = HardBot(play_budget=3000)
    for key in ("first", "second", "third"):
        card = bot.act(state.observation(S), FOUR, rng_for("cover", key))
        assert card_str(card) in {"AC", "KD", "JH"}, card_str(card)


def test_the_cover_leads_keep_every_card_of_a_suit_the_nil_partner_lacks() -> None:
    # North bid nil and discarded on a heart lead (R-C-3: it has no hearts), so any heart
    # South leads is safe for the nil, and North throws a dangerous card on it. Those are
    # the cover leads; South's top clubs (TC and the clubs touching it) would give North
    # a club to play under, a risk the heart leads do not take.
    state = position_4p(
        FOUR,
        {
            N: "2C 3C 4C 5C 2D 3D 4D 5D 6D 2S 3S 4S 5S",
            E: "AC KC QC JC 6H 5H 4H 3H 2H 6S 7S 8S 9S",
            S: "TC 9C 8C 7C 6C AH KH QH JH TH 9H 8H 7H",
            W: "AD KD QD JD TD 9D 8D 7D AS KS QS JS TS",
        },
        {N: 0, E: 4, S: 1, W: 5},
        "2C AC 6C 7D 2H AH 8D 6D",
        dealer=W,
    )
    assert state.phase == PLAY and state.current_player() == S and not state.trick
    obs = state.observation(S)
    leads = cover_leads(read_table(obs, FOUR), list(obs.legal))
    expected = ["KH", "QH", "JH", "TH", "9H", "8H", "7H"]
    assert sorted(card_str(c) for c in leads) == sorted(expected)


def test_hard_covers_its_partners_nil_from_the_suit_the_nil_can_play_under() -> None:
    # A game against the Trickster bot at 296 to 234: North (hard) bid nil (R-C-10), South
    # (hard) 3, and South leads the fourth trick. Its cover leads are the tops of its
    # suits: 9C (only AC and JC of the eight clubs unseen beat it), 9H (five of seven
    # beat it) and 6D (four of six). It led 6D and North, holding 8D alone in diamonds,
    # had to win it (R-C-4: it must follow): -100 for the side. 9C is the cover lead.
    state = position_4p(
        FOUR,
        {
            N: "8D 7C TD TC TH 3C JH 4H 3S 7H JS 3H QH",
            E: "AC 8C 2C AD 6S JC 7S 7D 5H 4D 8S AH AS",
            S: "2H 9H 9S QS KD 8H 3D KC 6D 5S 2D 9C 4S",
            W: "6H KS 5C 4C TS 5D 6C 9D QC JD QD KH 2S",
        },
        {N: 0, E: 4, S: 3, W: 3},
        "3H 5H 8H 6H KD QD TD AD 2C KC QC TC",
        dealer=W,
        scores=(296, 234),
        bags=(6, 4),
    )
    assert state.phase == PLAY and state.current_player() == S and not state.trick
    obs = state.observation(S)
    leads = cover_leads(read_table(obs, FOUR), list(obs.legal))
    assert [card_str(c) for c in leads] == ["9C"]
    bot = HardBot(play_budget=3000)
    for key in ("first", "second", "third"):
        assert card_str(bot.act(obs, FOUR, rng_for("cover", key))) == "9C"


def test_hard_bids_for_the_race_when_both_sides_reach_the_target() -> None:
    # A game against the normal bot at 493 to 474 (R-C-11: 500 wins; when both sides get
    # there on one hand the higher score wins). East (hard) bid 3 and South 2: North-South
    # need only a made 3 to finish near 523. West (hard) bid 1, "a made contract of 4
    # wins the game", East-West took 8 tricks and lost 518 to 525. Making 4 reaches 500
    # but stays below North-South; the bid must be weighed by the race, not the target.
    state = position_4p(
        FOUR,
        {
            N: "9S 7S 6S AH KH 7H 5H JD TD 7D 9C 8C 3C",
            E: "AS 5S 2S 9H 8H 3H AD QD 5D 4D KC TC 4C",
            S: "QS TS 8S JH 4H 9D 6D 2D QC JC 7C 5C 2C",
            W: "KS JS 4S 3S QH TH 6H 2H KD 8D 3D AC 6C",
        },
        {E: 3, S: 2},
        dealer=N,
        scores=(493, 474),
        bags=(3, 4),
    )
    assert state.phase == BID and state.current_player() == W
    obs = state.observation(W)
    bot = HardBot()
    for key in ("first", "second", "third"):
        assert bid_of(bot.act(obs, FOUR, rng_for("race", key))) >= 2


def test_a_simulated_nil_is_weighed_by_the_nils_made_at_the_table() -> None:
    """R-C-10, R-4P-7: the nil's value over the sampled deals is reweighted so that its
    failures count NIL_FAIL_SCALE times as often as the rollouts set it; a nil the
    rollouts always make, or never make, is left as it is."""
    made = [True, True, True, False]  # the rollouts make it 3 times in 4
    values = [100.0, 100.0, 100.0, -100.0]
    q = 1.0 - NIL_FAIL_SCALE * 0.25  # the made share at the table
    out = calibrated_nil(values, made)
    assert len(out) == len(values)
    assert sum(out) / len(out) == pytest.approx(100.0 * q - 100.0 * (1.0 - q))
    assert sum(out) / len(out) > sum(values) / len(values)
    assert calibrated_nil(values[:3], made[:3]) == values[:3]
    assert calibrated_nil([-100.0], [False]) == [-100.0]


def test_hard_bids_the_nil_its_rollouts_underrate() -> None:
    """R-C-10, R-4P-7: East, first to bid, holds no spade but the 2 and its high hearts
    in a suit of eight. In a game against the normal bot hard bid nil here and made it;
    its rollouts, which set its nils more often than the table does, made it a coin toss
    (nil on one of the three generators below). Calibrated, the nil is clearly better."""
    state = position_4p(
        FOUR,
        {
            N: "3C 6C 2D 4D 6D 7D AD 5H AH 6S 7S 8S KS",
            E: "2C 9C TC QC 3D 2H 3H 6H 8H JH QH KH 2S",
            S: "4C 7C JC AC 9D KD 7H TH 3S 5S 9S TS QS",
            W: "5C 8C KC 5D 8D TD JD QD 4H 9H 4S JS AS",
        },
        {},
        dealer=N,
        scores=(-54, 32),
        bags=(6, 2),
    )
    assert state.phase == BID and state.current_player() == E
    obs = state.observation(E)
    for key in ("first", "second", "third"):
        assert bid_of(HardBot().act(obs, FOUR, rng_for("nil", key))) == 0
