"""The bots: levels, legality under every preset option, determinism, and the hard bot's
use of its seat's observation only."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from spades_cli.bots import LEVELS, Bot, make_bot
from spades_cli.bots.easy import EasyBot
from spades_cli.bots.expert import ExpertBot
from spades_cli.bots.hard import HardBot
from spades_cli.bots.normal import NormalBot
from spades_cli.engine import (
    BID,
    BID_BASE,
    BLIND,
    CHANCE,
    DEAL,
    DECLARE,
    NO_BLIND,
    PLAY,
    Rules,
    State,
    deck_for,
    draw_for,
    rng_for,
)
from spades_cli.errors import SpadesError
from spades_cli.presets import load_rules, rules_from_dict, rules_to_dict

FOUR = load_rules("four-player")
TWO = load_rules("two-player")


def quick_hard() -> HardBot:
    """The hard bot with a small search budget, so tests stay fast."""
    return HardBot(play_budget=500, bid_worlds=4)


def bot_for(level: str) -> Bot:
    if level == "expert":
        # Few sampled deals and only the last tricks solved: the same code, quicker.
        return ExpertBot(
            worlds=3,
            solve_from={2: 4, 4: 3},
            hard=quick_hard(),
            tail={2: 2, 4: 2},
            tail_worlds=2,
            nil_worlds=2,
        )
    return quick_hard() if level == "hard" else make_bot(level)


def play(rules: Rules, levels: list[str], seed: int, *, hands: int = 1, max_actions: int = 10_000) -> State:
    """Play with these bots (one per seat) and check every action they choose is legal."""
    bots = [bot_for(level) for level in levels]
    state = State(rules, seed % rules.players)
    draws = 0
    done = 0
    while not state.is_terminal() and len(state.results) < hands and done < max_actions:
        seat = state.current_player()
        if seat == CHANCE:
            if state.phase == DEAL:
                state.deal(deck_for(seed, state.hand_no))
                draws = 0
            else:
                state.apply(draw_for(seed, state.hand_no, draws, state.legal_actions()))
                draws += 1
            continue
        obs = state.observation(seat)
        action = bots[seat].act(obs, rules, rng_for(seed, "bot", len(state.history), seat))
        assert action in state.legal_actions(), (levels[seat], state.phase, action)
        if state.phase == BID and action == BID_BASE and not rules.nil.enabled:
            pytest.fail("a bot bid nil with nil turned off")
        if action == BLIND:
            assert rules.blind_nil.enabled
        state.apply(action)
        done += 1
    return state


def test_levels_and_make_bot() -> None:
    assert LEVELS == ("easy", "normal", "hard", "expert")
    assert isinstance(make_bot("easy"), EasyBot)
    assert isinstance(make_bot(" Normal "), NormalBot)
    assert isinstance(make_bot("HARD"), HardBot)
    for level in LEVELS:
        assert make_bot(level).level == level


def test_unknown_level_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown bot level 'grandmaster'"):
        make_bot("grandmaster")


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("rules", [FOUR, TWO], ids=["four-player", "two-player"])
def test_each_level_plays_a_whole_hand_legally(level: str, rules: Rules) -> None:
    # R-C-3, R-C-6, R-C-7: every decision of a hand (2P: declare, draft, exchange too).
    state = play(rules, [level] * rules.players, seed=11)
    assert len(state.results) == 1
    assert sum(state.results[0].tricks) == 13


def test_bots_refuse_to_act_without_a_legal_action() -> None:
    state = State(FOUR, 0)
    state.deal(deck_for(3, 0))
    seat = state.current_player()
    not_on_turn = state.observation((seat + 1) % 4)
    for level in LEVELS:
        with pytest.raises(ValueError, match="no legal action"):
            make_bot(level).act(not_on_turn, FOUR, random.Random(0))


@pytest.mark.parametrize("level", LEVELS)
def test_explain_gives_the_same_action_as_act_and_a_reason(level: str) -> None:
    state = State(FOUR, 0)
    state.deal(deck_for(5, 0))
    bot = bot_for(level)
    while state.phase != PLAY:
        seat = state.current_player()
        state.apply(bot.act(state.observation(seat), FOUR, rng_for(5, len(state.history))))
    for _ in range(6):
        seat = state.current_player()
        obs = state.observation(seat)
        action, reason = bot.explain(obs, FOUR, rng_for(5, len(state.history)))
        assert action == bot.act(obs, FOUR, rng_for(5, len(state.history)))
        assert reason and "\n" not in reason and len(reason) < 120
        state.apply(action)


@pytest.mark.parametrize("level", LEVELS)
def test_stateless_and_deterministic(level: str) -> None:
    # A fresh or a shared instance gives the same answer for the same observation and
    # generator: what resume, undo and the bot protocol rely on.
    shared = bot_for(level)
    state = State(TWO, 1)
    state.deal(deck_for(8, 0))
    seen = 0
    while state.phase != PLAY or seen < 30:
        if state.is_terminal() or len(state.results):
            break
        seat = state.current_player()
        if seat == CHANCE:
            state.apply(draw_for(8, 0, seen, state.legal_actions()))
            continue
        obs = state.observation(seat)
        a = shared.act(obs, TWO, rng_for(8, "x", len(state.history)))
        b = bot_for(level).act(obs, TWO, rng_for(8, "x", len(state.history)))
        assert a == b
        state.apply(a)
        seen += 1


# -- every option combination --------------------------------------------------------


@st.composite
def rule_sets(draw: st.DrawFn) -> Rules:
    players = draw(st.sampled_from([2, 4]))
    d: dict[str, Any] = rules_to_dict(TWO if players == 2 else FOUR)
    d["name"] = "random-options"
    d["target"] = draw(st.sampled_from([150, 300, 500]))
    d["ten_for_two_hundred"] = draw(st.booleans())
    d["losing_score"] = draw(st.sampled_from([None, -200]))
    d["mercy"] = draw(st.sampled_from([None, 300]))
    d["nil"]["enabled"] = draw(st.booleans())
    d["nil"]["value"] = draw(st.sampled_from([50, 100]))
    d["nil"]["failed_tricks"] = draw(st.sampled_from(["bags", "partner", "none"]))
    d["blind_nil"]["enabled"] = draw(st.booleans())
    d["blind_nil"]["behind_by"] = draw(st.sampled_from([None, 0, 100]))
    d["blind_nil"]["exchange"] = draw(st.integers(0, 3)) if players == 2 else 0
    d["bags"]["enabled"] = draw(st.booleans())
    d["bags"]["value"] = draw(st.sampled_from([1, -1]))
    d["bags"]["limit"] = draw(st.sampled_from([None, 5, 10]))
    d["bags"]["penalty"] = draw(st.sampled_from([50, 100]))
    d["play"]["spades_break"] = draw(st.booleans())
    d["play"]["no_spades_first_trick"] = draw(st.booleans())
    if players == 4:
        d["play"]["two_of_clubs_leads"] = draw(st.booleans())
        d["bidding"]["min_bid"] = draw(st.sampled_from([1, 2, 3]))
        d["bidding"]["team_min"] = draw(st.sampled_from([0, 4]))
        d["bidding"]["team_max"] = draw(st.sampled_from([None, 13, 10]))
    try:
        return rules_from_dict(d, "<test>")
    except (SpadesError, ValueError):
        assume(False)
        raise


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rule_sets(), seed=st.integers(0, 10_000), data=st.data())
def test_property_no_illegal_action_under_random_options(
    rules: Rules, seed: int, data: st.DataObject
) -> None:
    levels = [data.draw(st.sampled_from(LEVELS)) for _ in range(rules.players)]
    state = play(rules, levels, seed, hands=2, max_actions=160)
    for r in state.results:
        for s in range(rules.players):
            if r.bids[s] == 0 and not r.blind[s]:
                assert rules.nil.enabled, "nil bid with nil off"
            if r.blind[s]:
                assert rules.blind_nil.enabled, "blind nil where it is not allowed"


def test_double_nil_only_where_the_rules_allow_it() -> None:
    # R-H-12 (blind nil in the four-player game): far behind near the end, the normal bot
    # gambles on a blind nil; R-2P-3: in the two-player game it no longer declares a
    # double nil (it rarely survives, and the opponent wins anyway); with blind nil
    # turned off there is nothing to declare.
    d = rules_to_dict(FOUR)
    four = rules_from_dict({**d, "blind_nil": {**d["blind_nil"], "enabled": True}})
    state = State(four, 0, scores=(100, 450))
    state.deal(deck_for(1, 0))
    while state.phase == DECLARE and state.current_player() % 2 == 1:
        state.apply(NO_BLIND)
    assert state.phase == DECLARE and state.current_player() % 2 == 0
    obs = state.observation(state.current_player())
    assert NormalBot().act(obs, four, random.Random(0)) == BLIND
    assert EasyBot().act(obs, four, random.Random(0)) != BLIND
    state = State(TWO, 0, scores=(100, 450))
    state.deal(deck_for(1, 0))
    assert state.phase == DECLARE and state.current_player() == 0
    obs = state.observation(0)
    assert NormalBot().act(obs, TWO, random.Random(0)) == NO_BLIND
    assert EasyBot().act(obs, TWO, random.Random(0)) != BLIND
    d = rules_to_dict(TWO)
    off = rules_from_dict({**d, "blind_nil": {**d["blind_nil"], "enabled": False}})
    state = State(off, 0, scores=(100, 450))
    state.deal(deck_for(1, 0))
    assert state.phase != DECLARE  # nothing to decide: no double nil in these rules


def test_easy_bot_in_a_partnership_does_not_bid_past_the_tricks_left() -> None:
    """R-4P-4: the easy bot's rough count is capped by the bids already made, so that four
    casual players do not overbid every hand and the game can reach its end (R-C-11), but
    never below the tricks the hand cannot lose (R-C-4: North's ace, king and queen of
    spades are three, one more than the 2 the bids leave)."""
    rules = load_rules("four-player")
    # Dealer N: the deal starts with East, so North gets every fourth card from index 3.
    high = [c for c in range(52) if c % 13 >= 10]  # the 12 aces, kings and queens
    rest = [c for c in range(52) if c % 13 < 10]
    north = [*high, rest[0]]
    others = rest[1:]
    deck = []
    for i in range(13):
        deck += [others[3 * i], others[3 * i + 1], others[3 * i + 2], north[i]]
    state = State(rules, 0)
    state.deal(deck)
    for bid in (4, 4, 3):  # East, South, West: 11 tricks already said
        state.apply(BID_BASE + bid)
    assert state.current_player() == 0
    action = EasyBot().act(state.observation(0), rules, random.Random(1))
    assert action == BID_BASE + 3
