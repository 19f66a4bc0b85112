"""The bots in the Spades family (issue 30): every level bids under the variant's
constraints and reads the variant's trumps, suits and seats from the rules."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping

import pytest
from helpers.engine import E, N, S, W, cards, deal_hands

from spades_cli.bots import Bot
from spades_cli.bots.determinize import sample_worlds
from spades_cli.bots.hand import estimate_tricks
from spades_cli.bots.hard import HardBot
from spades_cli.bots.normal import NormalBot, no_equal_overtake
from spades_cli.bots.rollout import make_context, play_out
from spades_cli.bots.view import read_table
from spades_cli.engine import BID, BID_BASE, BIG_JOKER, LITTLE_JOKER, PLAY, Rules, State, card_str, rng_for
from spades_cli.engine.cards import mask_of
from spades_cli.engine.chance import deck_for
from spades_cli.engine.play import deck_cards
from spades_cli.presets import load_rules

LEVELS: dict[str, Bot] = {"normal": NormalBot(), "hard": HardBot(play_budget=2000, bid_worlds=8)}


def dealt(rules: Rules, dealer: int, hands: Mapping[int, str]) -> State:
    """A state just dealt: the seats named hold those cards, the others the rest in
    deck order."""
    return deal_hands(rules, dealer, {s: cards(text) for s, text in hands.items()})


def act(bot: Bot, rules: Rules, state: State) -> int:
    seat = state.current_player()
    return bot.act(state.observation(seat), rules, rng_for("variants", seat, len(state.history)))


def bid_round(rules: Rules, state: State, bots: Mapping[int, Bot]) -> list[int]:
    while state.phase == BID:
        state.apply(act(bots[state.current_player()], rules, state))
    return list(state.bids)


@pytest.mark.parametrize("level", LEVELS)
def test_r_w_1_whiz_bots_bid_their_spades_or_nil(level: str) -> None:
    """R-W-1: every bid is nil or the seat's spade-suit count, on random deals."""
    rules = load_rules("whiz")
    bot = LEVELS[level]
    for seed in range(3):
        state = State(rules, seed % 4)
        state.deal(deck_for(f"whiz{seed}", 0, deck_cards(rules)))
        while state.phase == BID:
            seat = state.current_player()
            count = state.spade_count(seat)
            action = act(bot, rules, state)
            assert action - BID_BASE in (0, count)
            state.apply(action)


def test_r_w_1_whiz_normal_bids_nil_on_a_weak_hand_and_its_spades_on_a_strong_one() -> None:
    """R-W-1: a hand of low cards with one low spade bids nil, not one; a hand of
    five top spades bids five."""
    rules = load_rules("whiz")
    state = dealt(
        rules,
        W,
        {N: "2C 3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 5H 2S", E: "AS KS QS JS TS AH KH QH AC KC QC AD KD"},
    )
    assert act(LEVELS["normal"], rules, state) == BID_BASE + 0
    state.apply(BID_BASE + 0)
    assert act(LEVELS["normal"], rules, state) == BID_BASE + 5


@pytest.mark.parametrize("level", LEVELS)
def test_r_s_1_suicide_each_side_has_exactly_one_nil(level: str) -> None:
    """R-S-1: whoever bids first, each partnership ends with one nil and one number."""
    rules = load_rules("suicide")
    for seed in range(3):
        state = State(rules, seed % 4)
        state.deal(deck_for(f"suicide{seed}", 0, deck_cards(rules)))
        bids = bid_round(rules, state, dict.fromkeys(range(4), LEVELS[level]))
        for side in range(2):
            a, b = rules.side_seats(side)
            assert (bids[a] == 0) != (bids[b] == 0), bids


@pytest.mark.parametrize(
    ("strong", "weak_hand"),
    [
        (N, "2C 3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 5H 2S"),
        (S, "2C 3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 5H 2S"),
        (S, "2C 5C 9C KC 3D 7D JD 2H 6H TH 4S 8S TS"),
    ],
)
def test_r_s_1_suicide_the_weaker_hand_nils_and_the_partner_covers(strong: int, weak_hand: str) -> None:
    """R-S-1: of North (first to bid) and South, the hand with the top cards bids a
    number and the weaker hand bids nil, whichever of them holds which; North nils a
    hand of middling danger rather than leave the nil to a partner who may be stronger."""
    rules = load_rules("suicide")
    weak = S if strong == N else N
    hands = {strong: "AS KS QS JS AH KH QH AC QC TC AD KD QD", weak: weak_hand}
    state = dealt(rules, W, hands)
    bids = bid_round(rules, state, dict.fromkeys(range(4), LEVELS["normal"]))
    assert bids[weak] == 0 and bids[strong] >= 4
    assert estimate_tricks(mask_of(cards(weak_hand)), 4) < estimate_tricks(mask_of(cards(hands[strong])), 4)


def _trick_to(
    rules: Rules, dealer: int, hands: Mapping[int, str], bids: Mapping[int, int], lead: str
) -> State:
    state = dealt(rules, dealer, hands)
    while state.phase == BID:
        state.apply(BID_BASE + bids[state.current_player()])
    for c in cards(lead):
        state.apply(c)
    return state


@pytest.mark.parametrize(
    ("preset", "trump", "hand"),
    [
        ("jokers", "LJ", "LJ 3C 4C 3D 4D 5D 6D 7D 8D 9D TD JD QD"),
        ("joker-joker-deuce-deuce", "2D", "2D 3C 4C 3D 4D 5D 6D 7D 8D 9D TD JD QD"),
    ],
)
def test_r_j_10_normal_trumps_with_a_joker_or_the_deuce_when_void(preset: str, trump: str, hand: str) -> None:
    """R-J-1, R-J-8, R-J-10: void in hearts, needing tricks, North wins West's heart lead
    with its only trump (a joker, or JJDD's two of diamonds) rather than throw a card."""
    rules = load_rules(preset)
    hands = {N: hand, W: "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 9C"}
    state = _trick_to(rules, S, hands, {W: 3, N: 6, E: 3, S: 1}, "AH")
    assert state.phase == PLAY and state.current_player() == N
    assert card_str(act(LEVELS["normal"], rules, state)) == trump


@pytest.mark.parametrize("preset", ["jokers", "joker-joker-deuce-deuce", "cutthroat"])
def test_r_j_1_r_ct_1_hard_samples_worlds_from_the_variants_deck(preset: str) -> None:
    """R-J-1, R-J-9, R-CT-1: every sampled world deals exactly the unseen cards of the
    variant's deck (the jokers in, the removed cards never), the rules' hand size each."""
    rules = load_rules(preset)
    state = State(rules, 0)
    state.deal(deck_for(preset, 0, deck_cards(rules)))
    seat = state.current_player()
    view = read_table(state.observation(seat), rules)
    worlds = sample_worlds(view, random.Random(5), 12)
    assert len(worlds) == 12
    deck = sum(1 << c for c in deck_cards(rules))
    for world in worlds:
        assert [h.bit_count() for h in world] == [rules.hand_size] * rules.players
        union = 0
        for h in world:
            assert not union & h
            union |= h
        assert union == deck
        if rules.deck.jokers:
            assert union >> BIG_JOKER & 1 and union >> LITTLE_JOKER & 1


def test_r_j_10_a_seat_void_in_spades_is_never_dealt_a_joker() -> None:
    """R-J-10: a seat that showed out of spades holds no joker in any sampled world."""
    rules = load_rules("jokers")
    hands = {
        N: "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
        E: "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C AD",
    }
    state = _trick_to(rules, W, hands, {N: 6, E: 2, S: 2, W: 2}, "AS AD")
    view = read_table(state.observation(S), rules)
    assert state.current_player() == S
    for world in sample_worlds(view, random.Random(7), 16):
        assert not world[E] >> BIG_JOKER & 1 and not world[E] >> LITTLE_JOKER & 1


@pytest.mark.parametrize("preset", ["cutthroat", "solo"])
def test_r_ct_1_r_i_1_rollouts_play_every_seat_for_itself(preset: str) -> None:
    """R-CT-1, R-I-1: the hard bot's rollouts keep one contract per seat and give no
    seat a partner (not the opposite seat of the partnership game)."""
    rules = load_rules(preset)
    state = State(rules, 0)
    state.deal(deck_for(preset, 1, deck_cards(rules)))
    bids = []
    while state.phase == BID:
        bids.append(state.current_player())
        state.apply(BID_BASE + 1 + len(bids))
    ctx = make_context(state)
    assert ctx.partner == (-1,) * rules.players and ctx.tricks == rules.hand_size
    assert ctx.contract == [state.bids[s] for s in range(rules.players)]
    result = play_out(state, ctx)
    assert sum(result.tricks) == rules.hand_size


def test_r_j_8_no_equal_overtake_reads_the_deuce_of_spades_above_the_ace() -> None:
    """R-J-8: in JJDD the 2 of spades ranks above the ace; North's 3-6 of spades do not
    overtake South's winning 2S, so none of them is set aside as an equal overtake (a
    card-number reading of "above" once left normal no card to play)."""
    base = load_rules("joker-joker-deuce-deuce")
    rules = dataclasses.replace(base, play=dataclasses.replace(base.play, spades_break=False))
    hands = {N: "3S 4S 5S 6S 3H 4H 5H 6H 7H 8H 9H TH JH", S: "2S 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"}
    state = _trick_to(rules, E, hands, {S: 3, W: 3, N: 3, E: 3}, "2S")
    state.apply(next(a for a in state.legal_actions()))
    assert state.current_player() == N
    view = read_table(state.observation(N), rules)
    legal = list(view.obs.legal)
    assert sorted(no_equal_overtake(view, legal)) == sorted(legal) == cards("3S 4S 5S 6S")
    assert act(LEVELS["normal"], rules, state) in legal
