"""The ``expert`` bot: determinized search with a double-dummy solver.

For a card play it samples deals of the unseen cards consistent with everything this
seat has seen (``bots.determinize``: the cards played, the voids shown, the bids made,
in the draft game its own discards), solves every sampled deal with every hand known
(``solver/``) and plays the card with the best average outcome, as GIB does in
bridge. The outcome is not a trick count but what the hand's Spades points do for its
side: in the four-player game the chance of winning the game from the scores the hand
leaves (``bots.rollout.game_utility``, as the hard bot plays), in the two-player game
the hand's points against the other side (``bots.rollout.hand_utility``); both count
contracts made or set, bags priced as future penalties, each nil bidder's own tricks
and the end of the game near the target.

A perfect-information search of a whole hand is costly, so the solver takes over once
the hand is short enough to solve every sampled deal quickly (``solve_from`` tricks
left). Before that, in the two-player game, the search is the hard bot's, but each
sampled deal is played on by the rollout policy only until ``tail`` tricks are left and
the solver plays the rest, so the end of every simulated hand is played well; in the
four-player game (where that measured no better, and its slowest decisions took
seconds) the hard bot's search decides, with eight times its sampled card plays. Bids
use the hard bot's simulation over eight times its sampled deals
(in the two-player game the tricks of solved whole deals foretold the tricks taken in
play less well than its rollouts do), but in the four-player game nil is bid only where
the hard bot, searching as it does, would bid it, and then gets a second look
(``bots.expert_nil``): over more sampled deals, each finished by the solver, the bid
made without nil must not beat it clearly; the
draft, the double-nil declaration and the exchange use the normal bot's rules. The work
per decision is bounded in work, never in time: a fixed number of sampled deals and
rollouts, and for a card play at most ``DECISION_BUDGET`` positions searched by the
solver over all its sampled deals (when they run out, the deals solved so far decide,
or with too few of them the search before the solver's); so the choice depends only on
the observation and the generator, and the slowest decision stays within a known time
(bench/README.md, bots).
"""

from __future__ import annotations

import random
import statistics

from spades_cli.bots import normal
from spades_cli.bots.determinize import build_state, sample_worlds
from spades_cli.bots.expert_nil import NIL_WORLDS, nil_holds, without_nil
from spades_cli.bots.expert_nil import TAIL as NIL_TAIL
from spades_cli.bots.hard import (
    BID_WORLDS,
    MAX_WORLDS,
    PLAY_BUDGET,
    HardBot,
    cover_leads,
    distinct_cards,
    leads_to_partner_nil,
    pick,
)
from spades_cli.bots.rollout import Context, fast_card, game_utility, hand_utility, make_context, play_out
from spades_cli.bots.view import TableView, bid_of, read_table
from spades_cli.engine import BID, PLAY, Observation, Rules, State, beats, card_str
from spades_cli.engine.plan import plan_for
from spades_cli.solver.outcome import Outcome, Utility
from spades_cli.solver.search import SearchLimit, Solver

WORLDS = {2: 24, 3: 24, 4: 24}  # sampled deals per solved card decision, by players
SOLVE_FROM = {2: 8, 3: 6, 4: 6}  # tricks left from which the solver takes over, by players
# Positions the solver may search for one decision (a card, or a nil's second look),
# over all its sampled deals and questions: about 3 microseconds of CPU each, compiled,
# so a fifth of a second (bench/README.md, bots). A budget of work, not a clock: the
# same observation and generator give the same decision on any machine, at any load.
DECISION_BUDGET = 60_000
# A question (one card of one deal) may take this share of it: a deal that needs more
# stops the solving there.
SOLVE_BUDGET = DECISION_BUDGET // 5
# When the solving stops, the deals solved so far decide if there are this many; with
# fewer, the search before the solver's does.
MIN_SOLVED = 8
# Before that, each sampled deal is played on by the rollout policy until this many
# tricks are left, and the solver finishes it (by players; 0: hard's plain rollouts).
TAIL = {2: 6, 3: 0, 4: 0}
TAIL_WORLDS = 16
# What a solved deal is worth (see Outcome), by players: four-player games are won on
# the race to the target (as the hard bot plays), which the hand's points alone miss.
VALUE: dict[int, Utility] = {2: hand_utility, 3: game_utility, 4: game_utility}
TAIL_BUDGET = 20000  # positions a question of a solved tail; past it the rollout finishes the hand
# Where the hard bot's search decides for the expert (every bid; a card play the
# expert's own search leaves to it), it searches more than hard does: four times its
# simulated card plays with up to twice its sampled deals, and eight times its bidding
# deals (the expert may take a second a decision; hard keeps to a few milliseconds).
# Each step up won more games against hard (bench/README.md, bots).
HARD_PLAY_BUDGET = 4 * PLAY_BUDGET
HARD_MAX_WORLDS = 2 * MAX_WORLDS
HARD_BID_WORLDS = 8 * BID_WORLDS
# Four players, the card play before the solver takes over: twice that again, eight
# times hard's card plays over up to four times its sampled deals (a few tens of
# milliseconds a card, compiled; bench/README.md, expert).
FOUR_PLAY_BUDGET = 8 * PLAY_BUDGET
FOUR_MAX_WORLDS = 4 * MAX_WORLDS
# But whether to bid nil at all (four players) is the hard bot's own verdict, from its
# own 32 deals. Its rollouts play a nil with every card known and overrate it, and the
# noise of 32 deals is what keeps its nil choice honest: over eight times the deals a
# smaller edge cleared the noise test and the expert bid nil on hands hard would not, and
# lost those hands (51 duplicate pairs against hard, seed 2024: of the positions where
# only the expert's table bid nil, half of the nils failed; bench/README.md, bots).
# Hard's calibration of its nils to the table (``NIL_FAIL_SCALE``, measured with normal
# bots as the opponents) is not the expert's: its hard searches see the nils as they fall.
RAW_NILS = 1.0


class ExpertBot:
    level = "expert"

    def __init__(
        self,
        worlds: int = 0,
        solve_from: dict[int, int] | None = None,
        hard: HardBot | None = None,
        tail: dict[int, int] | None = None,
        tail_worlds: int = TAIL_WORLDS,
        value: dict[int, Utility] | None = None,
        nil_worlds: int = NIL_WORLDS,
        budget: int = DECISION_BUDGET,
        nil_judge: HardBot | None = None,
    ) -> None:
        self.worlds = {2: worlds, 3: worlds, 4: worlds} if worlds else WORLDS
        self.solve_from = solve_from if solve_from is not None else SOLVE_FROM
        self.tail = tail if tail is not None else TAIL
        self.tail_worlds = tail_worlds
        self.value = value if value is not None else VALUE
        searched = HardBot(HARD_PLAY_BUDGET, HARD_BID_WORLDS, HARD_MAX_WORLDS, RAW_NILS)
        self.hard = hard if hard is not None else searched
        self.nil_judge = nil_judge if nil_judge is not None else HardBot(nil_fail_scale=RAW_NILS)
        # (a hard bot given, as tests do, searches every card play)
        wide = HardBot(FOUR_PLAY_BUDGET, HARD_BID_WORLDS, FOUR_MAX_WORLDS, RAW_NILS)
        self.four_play = wide if hard is None else self.hard
        self.nil_worlds = nil_worlds
        self.budget = budget
        self.searched = 0  # positions the solver searched for the last card decision

    def act(self, obs: Observation, rules: Rules, rng: random.Random) -> int:
        return self.explain(obs, rules, rng)[0]

    def explain(self, obs: Observation, rules: Rules, rng: random.Random) -> tuple[int, str]:
        legal = obs.legal
        if not legal:
            raise ValueError("the bot was asked to act when its seat has no legal action")
        if len(legal) == 1:
            return legal[0], "the only legal move"
        if obs.phase == PLAY:
            # Every variant's deck and seats (solver/deck.py): the tricks left are the rules'.
            solve = plan_for(rules).hand_size - len(obs.tricks) <= self.solve_from[obs.players]
            work = Work(self.budget)
            found = self._search_play(obs, rules, rng, work, solve=True) if solve else None
            if found is None and self.tail[obs.players]:
                found = self._search_play(obs, rules, rng, work, solve=False)
            self.searched = self.budget - work.left
            if found is not None:
                return found
            if obs.players == 4:
                return self.four_play.explain(obs, rules, rng)
        if obs.phase == BID and obs.players == 4 and self.nil_worlds and len(obs.hand) <= rules.hand_size:
            return self._bid(obs, rules, rng)
        return self.hard.explain(obs, rules, rng)

    def _bid(self, obs: Observation, rules: Rules, rng: random.Random) -> tuple[int, str]:
        """Nil when the hard bot, searching as hard does, would bid it and a second look
        (``expert_nil``) does not find the bid without nil clearly better; otherwise the
        bid of the hard bot's search over more deals with nil left out (why: the comment
        at ``HARD_BID_WORLDS``)."""
        if all(bid_of(a) != 0 for a in obs.legal):
            return self.hard.explain(obs, rules, rng)
        judged, judged_why = self.nil_judge.explain(obs, rules, _copy(rng))
        other, other_why = self.hard.explain(without_nil(obs), rules, random.Random(rng.random()))
        if bid_of(judged) != 0:
            return other, other_why
        action, why = judged, judged_why
        keep, how = self.second_look(obs, rules, rng, bid_of(other))
        if keep:
            return action, f"{why}; {how}"
        return other, f"{other_why}; not nil: {how}"

    def second_look(self, obs: Observation, rules: Rules, rng: random.Random, other: int) -> tuple[bool, str]:
        """Whether nil holds against bidding ``other`` over ``nil_worlds`` sampled deals,
        each played by the rollout policy and finished by the solver (``expert_nil``),
        as many as the budget of positions finishes."""
        outcomes: dict[tuple[int, ...], Outcome] = {}
        work = Work(self.budget)

        def finish(st: State, side: int) -> float | None:
            key = tuple(st.bids)
            if key not in outcomes:
                outcomes[key] = Outcome(st, side, value=game_utility)
            value = finish_deal(outcomes[key], st, make_context(st), NIL_TAIL, work)
            return value if work.left > 0 else None

        found = nil_holds(obs, rules, rng, other, finish, self.nil_worlds)
        self.searched = self.budget - work.left
        return found

    def _search_play(
        self, obs: Observation, rules: Rules, rng: random.Random, work: Work, *, solve: bool
    ) -> tuple[int, str] | None:
        """Every candidate card over sampled deals: each deal solved from here (``solve``),
        or played on by the rollout policy until the solver can finish it; the deals
        searched before ``work`` ran out decide (None: too few of them)."""
        view = read_table(obs, rules)
        fallback, why = normal.play_choice(view)
        cands = normal.no_equal_overtake(view, distinct_cards(obs, rules))
        if not solve and _partner_wins_anyway(view):
            cands = [c for c in cands if not beats(c, view.win_card)] or cands
        elif leads_to_partner_nil(view):
            cands = cover_leads(view, cands)
        if fallback not in cands:
            cands.append(fallback)
        if len(cands) == 1:
            return fallback, why
        worlds = sample_worlds(view, rng, self.worlds[obs.players] if solve else self.tail_worlds)
        if not worlds:
            return fallback, "no deal fits what it has seen: plays by rule"
        outcome = Outcome(build_state(obs, rules, worlds[0]), view.side, value=self.value[obs.players])
        values: dict[int, list[float]] = {c: [] for c in cands}
        tail = self.tail[obs.players]
        for hands in worlds:
            base = build_state(obs, rules, hands)
            if solve:
                row = _solved(outcome, base, cands, work)
            else:
                row = _finished(outcome, base, cands, tail, work)
            if row is None:
                break  # the work ran out in this deal: the deals before it decide
            for c in cands:
                values[c].append(row[c])
        done = len(values[fallback])
        if done < (MIN_SOLVED if solve else 1):
            return None
        choice = pick(values, fallback)
        how = "solved deals" if solve else "sampled deals played out"
        if choice == fallback:
            return choice, f"{why}; no better card in {done} {how}"
        if outcome.utility is game_utility:
            # Game utilities (the chance of winning the game), not points.
            return choice, f"wins the game more often than {card_str(fallback)} in {done} {how}"
        gain = statistics.fmean(values[choice]) - statistics.fmean(values[fallback])
        return choice, f"gains {gain:.0f} points over {card_str(fallback)} in {done} {how}"


def _copy(rng: random.Random) -> random.Random:
    """A generator that draws what ``rng`` would, leaving ``rng`` where it is."""
    out = random.Random()
    out.setstate(rng.getstate())
    return out


class Work:
    """The positions the solver may still search for one decision (a budget of work,
    so a decision takes the same search on every machine and at every load)."""

    def __init__(self, left: int) -> None:
        self.left = left

    def solver(self, outcome: Outcome, st: State, per_question: int) -> Solver:
        """A search of ``st`` that stops within what is left (one position over at most)."""
        return outcome.solver(st, per_question, max(1, self.left))

    def charge(self, solver: Solver) -> None:
        self.left -= solver.searched + solver.nodes


def _solved(outcome: Outcome, base: State, cands: list[int], work: Work) -> dict[int, float] | None:
    """The solver's value of every candidate in one deal (None: the work ran out, or the
    deal needs more than ``SOLVE_BUDGET`` positions a question)."""
    solver = work.solver(outcome, base, SOLVE_BUDGET)
    try:
        solved = solver.move_values()
    except SearchLimit:
        return None
    finally:
        work.charge(solver)
    return {c: solved[c] for c in cands}


def _finished(
    outcome: Outcome, base: State, cands: list[int], tail: int, work: Work
) -> dict[int, float] | None:
    """Each candidate played in one deal, the hand finished by ``finish_deal`` (None: the
    work ran out in this deal)."""
    ctx = make_context(base)
    row: dict[int, float] = {}
    for c in cands:
        if work.left <= 0:
            return None
        st = base.clone()
        st.apply(c)
        row[c] = finish_deal(outcome, st, ctx, tail, work)
    return row if work.left > 0 else None


def finish_deal(outcome: Outcome, st: State, ctx: Context, tail: int, work: Work | None = None) -> float:
    """The value of a sampled deal: the rollout policy plays until ``tail`` tricks are
    left, the solver the rest (the rollout alone when that search grows past
    ``TAIL_BUDGET`` positions a question, or past what is left of ``work``)."""
    done = len(st.results)
    size = plan_for(st.rules).hand_size
    while len(st.results) == done and (st.in_trick or size - st.trick_no > tail):
        st.apply(fast_card(st, ctx))
    if len(st.results) == done and (work is None or work.left > 0):
        solver = outcome.solver(st, TAIL_BUDGET) if work is None else work.solver(outcome, st, TAIL_BUDGET)
        try:
            return solver.value()
        except SearchLimit:
            play_out(st, ctx)
        finally:
            if work is not None:
                work.charge(solver)
    if len(st.results) == done:
        play_out(st, ctx)
    return outcome.value_of(st.results[-1])


def _partner_wins_anyway(view: TableView) -> bool:
    """Four players, last to play, the partner's card winning (not a nil's): overtaking
    it cannot win the side another trick."""
    if view.partner < 0 or view.position != 3 or view.win_seat != view.partner:
        return False
    return not (view.is_nil(view.partner) and view.obs.tricks_won[view.partner] == 0)


__all__ = ["ExpertBot", "finish_deal"]
