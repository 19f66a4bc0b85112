"""The expert bot: double-dummy search over sampled deals, from its seat's view only."""

from __future__ import annotations

import random
from typing import Any

import pytest
from helpers.engine import E, N, S, W
from helpers.midhand import mid_hand, reshuffle_hidden
from helpers.positions import position_4p

from spades_cli.analysis.hand import one_card
from spades_cli.bots import expert, make_bot
from spades_cli.bots.expert import ExpertBot, finish_deal
from spades_cli.bots.expert_nil import without_nil
from spades_cli.bots.hard import HardBot
from spades_cli.bots.rollout import game_utility, hand_utility, make_context
from spades_cli.engine import BID_BASE, Observation, Rules, rng_for
from spades_cli.engine.cards import parse_card
from spades_cli.presets import load_rules, rules_from_dict, rules_to_dict
from spades_cli.solver.outcome import Outcome

FOUR = load_rules("four-player")
TWO = load_rules("two-player")


def _spades_any_time() -> Rules:
    d: dict[str, Any] = rules_to_dict(FOUR)
    d["name"] = "spades-any-time"
    d["play"]["spades_break"] = False  # lets the made-up history lead spades early
    return rules_from_dict(d, "<test>")


ANY = _spades_any_time()
# Nine tricks played with everyone following suit; then East leads 5H and South, whose
# partner North bid nil, holds AH 3H. North's last heart is the king.
NIL_HANDS = {
    S: "AS KS QS QH TH 9C QC 7D TD AH 3H 2C 5D",
    N: "3S 6S 9S 4H 8H 7C JC 9D QD KH 5C 2D 4D",
    E: "4S 7S TS 6H 9H 8C KC AD KD 5H 6C 6D 2S",
    W: "5S 8S JS 7H JH AC TC 8D JD 2H 3C 4C 3D",
}
NIL_PLAYS = (
    "AS 5S 3S 4S KS 8S 6S 7S QS JS 9S TS QH 7H 4H 6H TH JH 8H 9H "
    "AC 7C 8C 9C TC JC KC QC AD 7D 8D 9D KD TD JD QD 5H"
)


def nil_position() -> Any:
    return position_4p(ANY, NIL_HANDS, {S: 4, W: 3, N: 0, E: 3}, NIL_PLAYS, dealer=E)


def test_expert_is_a_level() -> None:
    assert make_bot("expert").level == "expert"


def test_expert_protects_its_partners_nil() -> None:
    # R-4P-7: North's nil is scored on its own. South's contract is already made, so
    # the ace is a bag, but covering East's heart keeps North's king from winning.
    state = nil_position()
    assert state.current == S and state.tricks_won == [0, 3, 4, 2]
    obs = state.observation(S)
    action = ExpertBot(worlds=8).act(obs, ANY, rng_for(1, "nil"))
    assert action == parse_card("AH")


def test_analyze_knows_the_nil_line_by_hand() -> None:
    # Worked by hand: after 3H, West plays 2H and North must win with KH (nil set,
    # -100 and a bag); after AH, North drops the king and nobody can make North win
    # a club (East holds 6C) or a diamond (East 6D, South 5D over 2D and 4D).
    state = nil_position()
    points = Outcome(state, 0, value="points")
    tricks = Outcome(state, 0, value="tricks")
    verdict = one_card(state, parse_card("3H"), points, tricks, 0)
    assert verdict is not None
    assert verdict.best == parse_card("AH")
    assert verdict.cost_points >= 200  # the nil's +100 against its -100
    assert one_card(state, parse_card("AH"), points, tricks, 0).cost_points == 0  # type: ignore[union-attr]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rules", "seed", "plays"),
    # The solver's end of the hand, and earlier the rollouts that hand over to it.
    [(FOUR, 3, 41), (FOUR, 21, 37), (TWO, 5, 17), (TWO, 9, 20), (FOUR, 4, 13), (TWO, 6, 5)],
)
def test_expert_decision_ignores_how_the_hidden_cards_lie(rules: Rules, seed: int, plays: int) -> None:
    state = mid_hand(rules, seed, plays)
    me = state.current_player()
    bot = ExpertBot(worlds=4, tail_worlds=4)
    obs = state.observation(me)
    action = bot.act(obs, rules, rng_for(seed, "expert"))
    rng = random.Random(seed)
    for _ in range(2):
        other = reshuffle_hidden(state, me, rng)
        assert [other.hands[s] for s in range(state.n) if s != me] != [
            state.hands[s] for s in range(state.n) if s != me
        ]
        seen = other.observation(me)
        assert seen == obs  # the seat cannot tell the deals apart ...
        assert bot.act(seen, rules, rng_for(seed, "expert")) == action  # ... nor can its decision


def test_rollouts_that_hand_over_to_the_solver_also_protect_the_nil() -> None:
    # The same position searched the earlier way (solve_from 0): each sampled deal is
    # finished by the rollout policy to the trick's end, then solved (R-4P-7).
    state = nil_position()
    bot = ExpertBot(worlds=8, solve_from={2: 0, 4: 0}, tail={2: 6, 4: 4}, tail_worlds=8)
    assert bot.act(state.observation(S), ANY, rng_for(1, "nil")) == parse_card("AH")


def test_a_sampled_deal_is_finished_by_the_solver_or_by_the_rollout(monkeypatch: pytest.MonkeyPatch) -> None:
    # After 3H, West's 2H leaves North's KH winning the trick: the nil is set (R-4P-7),
    # whoever finishes the hand.
    state = nil_position()
    state.apply(parse_card("3H"))
    outcome = Outcome(state, 0, value=hand_utility)
    solved = outcome.solver(state.clone()).value()
    assert finish_deal(outcome, state.clone(), make_context(state), 5) == solved
    # Past its node budget the solver gives way to the rollout, which plays the hand out.
    monkeypatch.setattr(expert, "TAIL_BUDGET", 1)
    rolled = state.clone()
    assert finish_deal(outcome, rolled, make_context(state), 5) == hand_utility(ANY, 0, rolled.results[-1])
    assert rolled.results[-1].tricks[N] > 0


def test_four_player_expert_values_a_solved_deal_by_the_game() -> None:
    # Late in a game (N-S 250, E-W 340) the solver's table is the chance
    # of winning the game from the scores the hand leaves (as the hard bot plays it), not
    # the hand's points: best play to the end of the hand (R-C-4, R-4P-7) is worth exactly
    # game_utility of the finished hand.
    state = position_4p(ANY, NIL_HANDS, {S: 4, W: 3, N: 0, E: 3}, NIL_PLAYS, dealer=E, scores=(250, 340))
    assert expert.VALUE[4] is game_utility
    outcome = Outcome(state, 0, value=game_utility)
    start = outcome.solver(state.clone()).value()
    line = state.clone()
    while len(line.results) == 0:
        card, value = outcome.solver(line.clone()).best_move()
        assert value == start  # best play keeps the value
        line.apply(card)
    result = line.results[-1]
    assert start == game_utility(ANY, 0, result) != hand_utility(ANY, 0, result)
    assert result.tricks[N] == 0  # South covers North's nil


def test_a_decision_too_big_to_solve_is_left_to_the_hard_search(monkeypatch: pytest.MonkeyPatch) -> None:
    # With room for a single position the sampled deals cannot be solved: the hard bot's
    # rollouts decide, and they too cover North's nil with the ace (R-4P-7).
    state = nil_position()
    obs = state.observation(S)
    card, why = ExpertBot(worlds=8).explain(obs, ANY, rng_for(1, "nil"))
    assert card == parse_card("AH") and "solved deals" in why
    monkeypatch.setattr(expert, "SOLVE_BUDGET", 1)
    card, why = ExpertBot(worlds=8).explain(obs, ANY, rng_for(1, "nil"))
    assert card == parse_card("AH") and "sampled deals" in why and "solved" not in why


def test_a_card_decision_searches_within_its_budget() -> None:
    # R-4P-7: North's nil to cover. The decision's solving stops within its budget of
    # positions (one over at most) and the deals solved by then decide; with room for
    # fewer than MIN_SOLVED deals the hard bot's rollouts decide. A budget of work, not
    # of time: the same observation and generator give the same card and the same count.
    obs = nil_position().observation(S)
    roomy = ExpertBot()
    card, why = roomy.explain(obs, ANY, rng_for(1, "nil"))
    assert card == parse_card("AH") and f"in {expert.WORLDS[4]} solved deals" in why
    assert 3000 < roomy.searched <= expert.DECISION_BUDGET
    for _ in range(2):
        bot = ExpertBot(budget=3000)
        card, why = bot.explain(obs, ANY, rng_for(1, "nil"))
        assert card == parse_card("AH") and bot.searched <= 3001
        solved = int(why.split(" in ")[1].split()[0])
        assert expert.MIN_SOLVED <= solved < expert.WORLDS[4]
        assert why == f"plays high to cover its partner's nil; no better card in {solved} solved deals"
    tight = ExpertBot(budget=800)
    card, why = tight.explain(obs, ANY, rng_for(1, "nil"))
    assert card == parse_card("AH") and "sampled deals" in why and "solved" not in why
    assert tight.searched <= 801


def test_the_played_out_deals_share_the_budget() -> None:
    # Two-player, the solver finishing deals played on by the rollout policy (R-2P-1):
    # every deal's tails together stay within the budget, and only whole deals count.
    state = mid_hand(TWO, 5, 5)
    obs = state.observation(state.current_player())
    free = ExpertBot(worlds=4, solve_from={2: 0}, tail_worlds=6)
    card, why = free.explain(obs, TWO, rng_for(5, "expert"))
    assert why.endswith("in 6 sampled deals played out") and free.searched > 500
    half = free.searched // 2
    bot = ExpertBot(worlds=4, solve_from={2: 0}, tail_worlds=6, budget=half)
    assert bot.explain(obs, TWO, rng_for(5, "expert")) == (card, why.replace("in 6", "in 2"))
    assert half < bot.searched <= half + 1


class _NilHard(HardBot):
    """The hard bot, but bidding nil whenever nil is legal: the expert's second look
    decides every nil."""

    def explain(self, obs: Observation, rules: Rules, rng: random.Random) -> tuple[int, str]:
        if BID_BASE in obs.legal:
            return BID_BASE, "a nil"
        return super().explain(obs, rules, rng)


def _club_honours_nil() -> Observation:
    """R-4P-7: North-South at 72 against 248, East has bid nil; South, on turn to bid,
    holds AC KC and KD."""
    hands = {
        N: "AS KS QS 9S 5S 3S 9H 5H QD JD 9D 5C 3C",
        E: "JS 6S AH QH TH 6H 3H 2H 3D QC JC 8C 7C",
        S: "4S 2S JH 4H KD 6D 5D 4D 2D AC KC TC 6C",
        W: "TS 8S 7S KH 8H 7H AD TD 8D 7D 9C 4C 2C",
    }
    return position_4p(FOUR, hands, {E: 0}, dealer=N, scores=(72, 248), bags=(2, 8)).observation(S)


def test_expert_turns_down_a_nil_that_holds_two_club_honours() -> None:
    # R-4P-7: North-South at 72 against 248; East has bid nil. South holds AC KC and
    # KD: played out over sampled deals to the solver's last tricks, the bid the hard
    # bot makes without nil clearly beats nil, so South bids that bid instead.
    obs = _club_honours_nil()
    action, why = ExpertBot(nil_worlds=16, hard=HardBot(), nil_judge=_NilHard()).explain(
        obs, FOUR, rng_for(3, "nil")
    )
    assert BID_BASE + 1 <= action <= BID_BASE + 3 and "not nil" in why
    assert ExpertBot(nil_worlds=16).second_look(obs, FOUR, rng_for(3, "nil"), action - BID_BASE)[0] is False


def test_the_second_look_at_a_nil_stops_within_the_budget() -> None:
    # R-4P-7: the same nil, looked at with room for a few deals' endings only: the
    # deals finished within the budget decide, and they still turn the nil down.
    obs = _club_honours_nil()
    roomy = ExpertBot(nil_worlds=16)
    keep, how = roomy.second_look(obs, FOUR, rng_for(3, "nil"), 2)
    assert keep is False and how.endswith("over 16 deals played out")
    budget = roomy.searched // 2
    bot = ExpertBot(nil_worlds=16, budget=budget)
    keep, how = bot.second_look(obs, FOUR, rng_for(3, "nil"), 2)
    done = int(how.split(" over ")[1].split()[0])
    assert keep is False and 1 <= done < 16
    assert budget < bot.searched <= budget + 1


def test_expert_keeps_a_nil_with_nothing_high() -> None:
    # R-4P-7: East's hand has no card above the jack but one low spade; its partner West
    # bid 3. Bidding 1 does not beat nil in the deals played out, so the nil stays.
    hands = {
        N: "AS 6S 2S QH 9H 9D 3D 2D KC QC TC 3C 2C",
        E: "3S JH TH 8H 3H 2H QD JD TD 7D 4D 8C 6C",
        S: "KS JS TS 9S 5S 4S 5H AD KD 6D JC 9C 5C",
        W: "QS 8S 7S AH KH 7H 6H 4H 8D 5D AC 7C 4C",
    }
    state = position_4p(FOUR, hands, {S: 6, W: 3, N: 1}, dealer=E)
    obs = state.observation(E)
    action, why = ExpertBot(nil_worlds=16, hard=HardBot(), nil_judge=_NilHard()).explain(
        obs, FOUR, rng_for(3, "nil")
    )
    assert action == BID_BASE and "against bidding" in why


class _NoNilHard(HardBot):
    """The hard bot, but never bidding nil."""

    def explain(self, obs: Observation, rules: Rules, rng: random.Random) -> tuple[int, str]:
        return super().explain(without_nil(obs), rules, rng)


def _west_nil_with_the_diamond_honours() -> Observation:
    """R-4P-7: West, last to bid after 5, 4 and 1, holds AD KD and JH JS beside low cards:
    a borderline nil (from an expert-against-hard game, seed 2024, it failed there)."""
    hands = {
        N: "2C 7C QC 8D QD 3H 7H QH 4S 5S QS KS AS",
        E: "3C KC 7D 9D JD 4H AH 2S 3S 6S 7S 8S 9S",
        S: "4C 9C JC AC 2D 4D TD 5H 6H 8H TH KH TS",
        W: "5C 6C 8C TC 3D 5D 6D KD AD 2H 9H JH JS",
    }
    state = position_4p(FOUR, hands, {N: 5, E: 4, S: 1}, dealer=W, scores=(60, 152), bags=(0, 2))
    return state.observation(W)


def test_expert_bids_nil_only_where_the_hard_search_would() -> None:
    # R-4P-7: whether to bid nil is the hard bot's verdict from its own deals; when it
    # says no, the expert bids its own count, whatever its deeper search thinks of nil.
    obs = _west_nil_with_the_diamond_honours()
    action, why = ExpertBot(nil_worlds=16, hard=_NilHard(), nil_judge=_NoNilHard()).explain(
        obs, FOUR, rng_for(2, "nil")
    )
    assert action == BID_BASE + 1 and "against bidding" not in why


def test_expert_does_not_bid_the_nil_its_wider_search_overrates() -> None:
    # R-4P-7: over eight times hard's deals, the rollouts (which play a nil with every
    # card known) find nil better by a margin their smaller noise lets through; the hard
    # bot's own search does not, and the expert follows it and bids 1.
    obs = _west_nil_with_the_diamond_honours()
    rng = rng_for(2, "nil")
    wide = HardBot(expert.HARD_PLAY_BUDGET, expert.HARD_BID_WORLDS, expert.HARD_MAX_WORLDS)
    assert wide.act(obs, FOUR, rng_for(2, "nil")) == BID_BASE
    action, why = ExpertBot().explain(obs, FOUR, rng)
    assert action == BID_BASE + 1, why


def _nil_defence_trick_three() -> Observation:
    """R-4P-7: from an expert-against-hard game (seed 2025, the deal the expert's sides
    lost most on): North-South at 437 against 326, East has bid nil beside West's 3,
    North and South 4 each. West leads the ace of clubs at the third trick, North throws
    TH, East follows with 5C, and South, void in clubs, is to play."""
    hands = {
        N: "QD 8D 5D TH 3H 2H KS TS 9S 7S 5S KC 9C",
        E: "5C AD TD 7D 4D KH QH 7H 5H 4H 6S TC 6C",
        S: "KD JD 9D AH JH 8H 6H AS 8S 3S 2S 2C 2D",
        W: "8C 7C 4C 3C 6D 3D 9H QS JS 4S JC QC AC",
    }
    plays = "TC 2C JC KC 9C 6C 2D QC AC TH 5C"
    bids = {E: 0, S: 4, W: 3, N: 4}
    state = position_4p(FOUR, hands, bids, plays, dealer=N, scores=(437, 326), bags=(7, 6))
    return state.observation(S)


def test_four_player_card_play_before_the_solver_searches_wider() -> None:
    # R-4P-5, R-4P-7: before the solver takes over, the four-player card play is the hard
    # search with eight times hard's simulated card plays over up to four times its
    # sampled deals (bench/README.md, expert): here 351 deals, where the bids' search
    # (four times the card plays, twice the deals) would sample 175.
    obs = _nil_defence_trick_three()
    card, why = ExpertBot().explain(obs, FOUR, rng_for(7, "expert"))
    assert card in obs.legal and why.endswith("over 351 sampled deals")
    _, narrow = ExpertBot().hard.explain(obs, FOUR, rng_for(7, "expert"))
    assert narrow.endswith("over 175 sampled deals")


def test_two_player_card_play_keeps_the_narrower_hard_search() -> None:
    # R-2P-1: the wider four-player search leaves the two-player game as it was: where
    # its own search gives up, the expert plays as the hard search over four times
    # hard's card plays decides, with the same generator.
    state = mid_hand(TWO, 5, 3)
    obs = state.observation(state.current_player())
    bot = ExpertBot(solve_from={2: 0}, tail={2: 0, 3: 0, 4: 0})
    assert bot.explain(obs, TWO, rng_for(5, "two")) == bot.hard.explain(obs, TWO, rng_for(5, "two"))


def test_the_experts_nil_judge_sees_the_rollouts_nils_as_they_fall() -> None:
    # R-4P-7: hard weighs its rollouts' failed nils down to the rate it fails at the table
    # against normal bots (hard.NIL_FAIL_SCALE), and so bids nil with West's diamond
    # honours; the expert's judge does not (expert.RAW_NILS) and the expert bids 1.
    obs = _west_nil_with_the_diamond_honours()
    assert HardBot().act(obs, FOUR, rng_for(2, "nil")) == BID_BASE
    assert HardBot(nil_fail_scale=expert.RAW_NILS).act(obs, FOUR, rng_for(2, "nil")) == BID_BASE + 1
    assert ExpertBot().act(obs, FOUR, rng_for(2, "nil")) == BID_BASE + 1
