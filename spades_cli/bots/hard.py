"""The ``hard`` bot: search over the hidden cards (determinized sampling).

For a card play it samples deals of the unseen cards consistent with everything this
seat has seen (``bots.determinize``), plays every candidate card in each of them,
finishes the hand with a fast contract-minded policy (``bots.rollout``) and picks the
card with the best total outcome for its side (``rollout.game_utility``): the chance
of winning the game that the hand's score leaves, from the lead (bags carried priced
as future penalties) against the hands still to play, with the hand's points as a
tie-break, and a finished game as won or lost. The same sampled deals serve every
candidate (common random numbers), so the comparison is fair.

For the bid it samples complete deals (the bids still to come filled in with a quick
estimate; a two-player opponent's from the model of its drafted hand, hearing hard's
bid) and plays each out twice: once with the rule-based bid, once with nil where nil
is allowed and the hand is safe enough to try (the rollouts overrate nils). The
simulated trick count, blended with the rule-based estimate, feeds the normal bot's
expected-value bidding (which also watches bags and the target), and nil is bid when
it scored clearly better in the same deals (four players: with the rollouts' failed
nils scaled to how often hard's fail at the table, ``calibrated_nil``). When a side is
near the target, the bids
around that choice are each played out in the same deals and the one that leaves the
side the best chance of winning the game is bid (``near_the_end``).

The draft, the double-nil declaration and the exchange use the rule-based choices of
the normal bot. Work per decision is a fixed budget of simulated card plays (never a
clock), so the choice depends only on the observation and the generator.
"""

from __future__ import annotations

import math
import random
import statistics

from spades_cli.bots import normal
from spades_cli.bots.determinize import TWO_BID_SHORT, build_state, opponent_tricks, played_by, sample_worlds
from spades_cli.bots.discard import as_kept
from spades_cli.bots.hand import estimate_tricks, nil_danger
from spades_cli.bots.rollout import game_utility, make_context, play_out
from spades_cli.bots.view import TableView, bid_of, ranks_of, read_table
from spades_cli.engine import BID, BID_BASE, PLAY, Observation, Rules, beats, card_str
from spades_cli.engine.cards import is_card
from spades_cli.engine.plan import plan_for

# Simulated card plays per card decision, and the bounds on the sampled worlds: twice
# what they were, which won more games against the normal bot (bench/README.md, bots).
PLAY_BUDGET = 18000
MIN_WORLDS, MAX_WORLDS = 10, 96
BID_WORLDS = 32
# A card or a nil must beat the rule-based choice by MIN_GAIN (in game_utility's units)
# and by SWITCH_Z standard errors of the paired differences. Screened four-player against
# the normal bot (seed 4242, 60 games, same deals): 2.0 lost 9 ± 7 points a deal, 0.5
# and 0 did no better than 1.0.
MIN_GAIN = 0.5
SWITCH_Z = 1.0


# Four players: the rollouts' nils fail more often than hard's at the table. Hard's own
# nils against the normal bot (859, three seeds) were set 15% of the time where the
# rollouts of the same bid positions (48 sampled deals each) set them 21%: the failures
# scaled by about 0.7 (bench/README.md, hard). The nil's simulated value is corrected so.
NIL_FAIL_SCALE = 0.7


class HardBot:
    level = "hard"

    def __init__(
        self,
        play_budget: int = PLAY_BUDGET,
        bid_worlds: int = BID_WORLDS,
        max_worlds: int = MAX_WORLDS,
        nil_fail_scale: float = NIL_FAIL_SCALE,
    ) -> None:
        self.play_budget = play_budget
        self.bid_worlds = bid_worlds
        self.max_worlds = max_worlds
        self.nil_fail_scale = nil_fail_scale  # 1.0: the rollouts' nils as they fall

    def act(self, obs: Observation, rules: Rules, rng: random.Random) -> int:
        return self.explain(obs, rules, rng)[0]

    def explain(self, obs: Observation, rules: Rules, rng: random.Random) -> tuple[int, str]:
        legal = obs.legal
        if not legal:
            raise ValueError("the bot was asked to act when its seat has no legal action")
        if len(legal) == 1:
            return legal[0], "the only legal move"
        if obs.phase == PLAY:
            return self._search_play(obs, rules, rng)
        if obs.phase == BID:
            found = self._search_bid(as_kept(obs, rules), rules, rng)  # R-J-7 (b): the cards it keeps
            return found if found[0] in legal else normal.NormalBot().explain(obs, rules, rng)
        return normal.NormalBot().explain(obs, rules, rng)

    # -- card play ----------------------------------------------------------------

    def _search_play(self, obs: Observation, rules: Rules, rng: random.Random) -> tuple[int, str]:
        view = read_table(obs, rules)
        fallback, why = normal.play_choice(view)
        cands = normal.no_equal_overtake(view, distinct_cards(obs, rules))
        if _partner_holds_the_trick(view):
            # Last to play behind the partner's winning card: overtaking cannot win the
            # side another trick, it only spends a card (a trump, often) and takes the lead.
            cands = [c for c in cands if not beats(c, view.win_card)] or cands
        elif leads_to_partner_nil(view):
            cands = cover_leads(view, cands)
        if fallback not in cands:
            cands.append(fallback)
        if len(cands) == 1:
            return fallback, why
        remaining = (
            rules.hand_size * obs.players - sum(len(t.cards) for t in obs.tricks) - len(obs.current_trick)
        )
        count = max(MIN_WORLDS, min(self.max_worlds, self.play_budget // max(1, len(cands) * remaining)))
        worlds = sample_worlds(view, rng, count)
        if not worlds:
            return fallback, "no deal fits what it has seen: plays by rule"
        side = view.side
        values: dict[int, list[float]] = {c: [] for c in cands}
        for hands in worlds:
            base = build_state(obs, rules, hands)
            ctx = make_context(base)
            done = len(base.results)
            for c in cands:
                st = base.clone()
                st.apply(c)
                result = st.results[-1] if len(st.results) > done else play_out(st, ctx)
                values[c].append(game_utility(rules, side, result))
        choice = pick(values, fallback)
        if choice == fallback:
            return choice, f"{why}; no better card over {len(worlds)} sampled deals"
        # The values are game utilities (the chance of winning the game), not points.
        return choice, f"wins the game more often than {card_str(fallback)} over {len(worlds)} sampled deals"

    # -- bidding ------------------------------------------------------------------

    def _search_bid(self, obs: Observation, rules: Rules, rng: random.Random) -> tuple[int, str]:
        view = read_table(obs, rules)
        legal_bids = [bid_of(a) for a in obs.legal]
        mu_rule, _ = normal.expected_tricks(obs, rules)
        rule_action, _ = normal.bid_choice(obs, rules)
        probe = bid_of(rule_action) or max(1, min(13, round(mu_rule)))
        nil_allowed = 0 in legal_bids and rules.nil.enabled and _nil_thinkable(view, mu_rule)
        worlds = sample_worlds(view, rng, self.bid_worlds)
        if not worlds:
            return rule_action, "no deal fits what it has seen: bids by rule"
        seat, side, n = view.seat, view.side, view.n
        partner_bid = obs.bids[view.partner] if view.partner >= 0 else None
        team = partner_bid is not None and partner_bid > 0
        played = played_by(obs)
        tricks: list[float] = []
        as_bid: list[float] = []
        as_nil: list[float] = []
        nil_made: list[bool] = []
        filled: list[list[int]] = []
        for hands in worlds:
            bids = _fill_bids(view, hands, played, rules, probe)
            filled.append(bids[:])
            bids[seat] = probe
            st = build_state(obs, rules, hands, bids)
            result = play_out(st, make_context(st))
            tricks.append(result.tricks[seat] + (result.tricks[view.partner] if team else 0))
            as_bid.append(game_utility(rules, side, result))
            if nil_allowed:
                bids[seat] = 0
                if view.partner >= 0 and bids[view.partner] == 0 and obs.bids[view.partner] is None:
                    bids[view.partner] = max(1, _quick_bid(hands[view.partner], n, rules, nil=False))
                st = build_state(obs, rules, hands, bids)
                nil_result = play_out(st, make_context(st))
                as_nil.append(game_utility(rules, side, nil_result))
                nil_made.append(nil_result.tricks[seat] == 0)
        # Blend the simulated trick count with the rule-based estimate (least squares
        # against the tricks actually taken in self-play).
        a, b, c, sd = _BID_BLEND[(n if n != 3 else 4, team)]  # (three seats: the four-seat fit)
        base = (partner_bid or 0) + 0.2 if team else 0.0
        mu = a + b * statistics.fmean(tricks) + c * (mu_rule + base) - base
        verdict = None
        if nil_allowed:
            if view.partner >= 0:
                as_nil = calibrated_nil(as_nil, nil_made, self.nil_fail_scale)
            verdict = pick({0: as_nil, probe: as_bid}, probe) == 0
        action, why = normal.bid_choice(obs, rules, estimate=(max(0.0, mu), sd), nil_verdict=verdict)
        if bid_of(action) > 0 and near_the_end(obs, rules):
            k = RACE_WORLDS
            race = _race_bid(obs, rules, worlds[:k], filled[:k], bid_of(action))
            if race != bid_of(action):
                action, why = BID_BASE + race, f"a contract of {race} does best in the race to {rules.target}"
        return action, f"{why} (simulated over {len(worlds)} deals)"


# Near the end of the game the bid is weighed by what it does to the race (R-C-11: the
# higher score wins when both sides reach the target on the same hand), not by its
# points: when a side is within RACE_MARGIN points of the target, the bids within
# RACE_SPAN of the rule-based one are each played out in the same sampled deals and
# compared by ``game_utility`` (about seven times the rollouts of the bid itself).
RACE_MARGIN = 150
RACE_SPAN = 3
RACE_WORLDS = BID_WORLDS  # at most this many of the sampled deals (the expert samples more)


def near_the_end(obs: Observation, rules: Rules) -> bool:
    """A side is close enough to the target that this hand may end the game."""
    return max(obs.scores) >= rules.target - RACE_MARGIN


def _race_bid(
    obs: Observation, rules: Rules, worlds: list[list[int]], filled: list[list[int]], chosen: int
) -> int:
    """The bid near ``chosen`` whose hands, played out in ``worlds`` (with the other
    seats' bids ``filled``), leave the side the best chance of winning the game; ``chosen``
    unless another is clearly better (``pick``)."""
    view = read_table(obs, rules)
    legal = [bid_of(a) for a in obs.legal if BID_BASE < a <= BID_BASE + rules.hand_size]
    cands = [b for b in legal if abs(b - chosen) <= RACE_SPAN]
    if chosen not in cands or len(cands) < 2:
        return chosen
    values: dict[int, list[float]] = {b: [] for b in cands}
    for hands, bids in zip(worlds, filled, strict=True):
        for b in cands:
            bids[view.seat] = b
            st = build_state(obs, rules, hands, bids)
            values[b].append(game_utility(rules, view.side, play_out(st, make_context(st))))
    return pick(values, chosen)


# Bid estimate = a + b * simulated tricks + c * rule-based estimate, spread sd; keyed by
# (players, partner's bid known). Fitted on self-play of the normal bot.
_BID_BLEND = {
    (2, False): (-0.6, 0.72, 0.28, 1.05),
    (4, False): (-0.22, 0.75, 0.3, 0.95),
    (4, True): (0.35, 0.63, 0.34, 1.06),
}


def _partner_holds_the_trick(view: TableView) -> bool:
    """Four players, this seat last to play, and the partner's card winning the trick
    (a partner's nil excepted: then the trick must be taken off the partner)."""
    if view.partner < 0 or view.position != 3 or view.win_seat != view.partner:
        return False
    return not (view.is_nil(view.partner) and view.obs.tricks_won[view.partner] == 0)


def leads_to_partner_nil(view: TableView) -> bool:
    """Four players, this seat to lead, and the partner's nil not yet broken."""
    if view.partner < 0 or view.trick:
        return False
    return view.is_nil(view.partner) and view.obs.tricks_won[view.partner] == 0


def cover_leads(view: TableView, cands: list[int]) -> list[int]:
    """The leads that protect the partner's nil: any card of a suit the partner has shown
    it lacks (the nil throws its most dangerous card on it), else the highest card of
    each suit (the nil can play under it with any card of the suit) in the suits where
    the fewest unseen cards beat it (``_over_share``). The rollouts play
    the nil with every card known, so they see little risk in a low lead; at the table a
    third of hard's failed nils (11 of 31, in 100 games against the normal bot) began
    with the partner leading low into the nil's suit."""
    void = [c for c in cands if view.voids[view.partner] >> view.order.suit[c] & 1]
    if void:
        return void
    hand = view.hand
    out = []
    for c in cands:
        above = hand & view.order.suit_mask[c] & view.order.beaten_by[c]
        if not above or _touching(c, above, view):
            out.append(c)
    if not out:
        return cands
    # The top of a short, low holding covers little: a nil whose cards of the suit are
    # all above it must win the trick. Keep the suits where the nil is likeliest to hold
    # a lower card (the smallest share of the unseen cards of the suit above the lead).
    risk = {c: _over_share(view, c) for c in out}
    least = min(risk.values())
    return [c for c in out if risk[c] <= least + COVER_SLACK]


# cover_leads: a lead whose share of unseen higher cards is within this of the safest
# lead's is as good a cover (the search chooses among them).
COVER_SLACK = 0.2


def _over_share(view: TableView, card: int) -> float:
    """The share of the unseen cards of ``card``'s suit that beat it (0: none unseen)."""
    order = view.order
    unseen = view.unknown & order.suit_mask[card]
    if not unseen:
        return 0.0
    return (unseen & order.beaten_by[card]).bit_count() / unseen.bit_count()


def _touching(card: int, above: int, view: TableView) -> bool:
    """Every card of this suit above ``card`` that is out of this hand has been played."""
    order = view.order
    suit = order.suit_mask[card]
    top = next(x for x in range(len(order.suit)) if above >> x & 1 and not above & suit & order.beaten_by[x])
    between = suit & order.beaten_by[card] & ~order.beaten_by[top] & ~(1 << top)
    return not between & ~(view.hand | view.played)


# Nil is simulated only for hands this safe (the rollouts play a nil with every card
# known, so they overrate nils on hands with high cards). Two players: self-play made
# none of the nils it bid with a danger above 1.5. Four players: against the normal bot,
# hard made 33 of its 38 nils with a danger below 2.5 and 4 of the 9 above it.
NIL_DANGER_2P = 1.5
NIL_TRICKS_2P = 3.5
NIL_DANGER_4P = 2.5


def calibrated_nil(values: list[float], made: list[bool], scale: float = NIL_FAIL_SCALE) -> list[float]:
    """The nil's values in the sampled deals reweighted so that the share of deals in
    which the nil is made is the one hard makes at the table: a simulated failure rate
    ``f`` becomes ``scale * f`` (the mean of the result is the calibrated value
    of the nil; a deal-by-deal list, so ``pick`` still pairs it with the bid's)."""
    p = sum(made) / len(made) if made else 0.0
    if p <= 0.0 or p >= 1.0:
        return values
    q = 1.0 - scale * (1.0 - p)
    up, down = q / p, (1.0 - q) / (1.0 - p)
    return [v * (up if m else down) for v, m in zip(values, made, strict=True)]


def _nil_thinkable(view: TableView, mu_rule: float) -> bool:
    if view.n != 2:
        return nil_danger(view.hand) <= NIL_DANGER_4P
    return nil_danger(view.hand) <= NIL_DANGER_2P and mu_rule <= NIL_TRICKS_2P


def distinct_cards(obs: Observation, rules: Rules) -> list[int]:
    """The legal cards, one per group of cards that are worth the same: cards of one
    suit with nothing between them but cards of this hand or of finished tricks (the
    trick in progress counts as a difference: one may beat it where the other does not)."""
    gone = 0
    for t in obs.tricks:
        for c in t.cards:
            gone |= 1 << c
    hand = 0
    for c in obs.hand:
        hand |= 1 << c
    order = plan_for(rules).order
    seen = hand | gone
    out: list[int] = []
    last = -1
    for c in sorted((a for a in obs.legal if is_card(a)), key=lambda a: (order.suit[a], ranks_of(order)[a])):
        # Nothing of the suit between ``last`` and ``c`` (above the one, below the other) unseen.
        if last >= 0 and order.suit[c] == order.suit[last]:
            between = order.suit_mask[c] & order.beaten_by[last] & ~order.beaten_by[c] & ~(1 << c)
            if not between & ~seen:
                last = c
                continue
        out.append(c)
        last = c
    return out


def pick(values: dict[int, list[float]], default: int) -> int:
    """The best action by mean value, but only when it beats ``default`` (the rule-based
    choice) by more than the noise of the sample: otherwise ``default``."""
    best = max(values, key=lambda a: statistics.fmean(values[a]))
    if best == default:
        return default
    diffs = [x - y for x, y in zip(values[best], values[default], strict=True)]
    mean = statistics.fmean(diffs)
    se = statistics.pstdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    return best if mean > max(MIN_GAIN, SWITCH_Z * se) else default


def _quick_bid(
    hand: int, players: int, rules: Rules, *, nil: bool = True, mu: float | None = None, short: float = 0.3
) -> int:
    """A quick bid for ``hand``: ``short`` under its tricks (``mu``, when the caller
    knows better than the estimate)."""
    if mu is None:
        a, b, _ = normal.FIT_FIRST[2 if players == 2 else 4]
        mu = a + b * estimate_tricks(hand, players)
    fixed = normal.fixed_bid(hand, rules, mu)
    if fixed is not None:
        return fixed
    if nil and rules.nil.enabled and mu <= 2.5 and nil_danger(hand) <= 1.6:
        return 0
    return max(max(1, rules.bidding.min_bid), min(13, round(mu - short)))


def _fill_bids(view: TableView, hands: list[int], played: list[int], rules: Rules, mine: int) -> list[int]:
    """Every seat's bid in this world: the real ones, and quick estimates for the rest
    (``mine``: this seat's bid, which a two-player opponent bidding after it knows)."""
    obs = view.obs
    bids = []
    for s in range(view.n):
        b = obs.bids[s]
        if b is None and s == view.seat:
            b = 0
        elif b is None and view.n == 2:
            # R-2P-4: it bids after this seat, as the sampled deals read a bid (the model of
            # its drafted hand; its discards are the unseen cards it does not hold).
            full = hands[s] | played[s]
            mu = opponent_tricks(view, hands[s], full, mine)
            b = _quick_bid(full, 2, rules, mu=mu, short=TWO_BID_SHORT)
        elif b is None:
            b = _quick_bid(hands[s] | played[s], view.n, rules)
        bids.append(b)
    partner = plan_for(rules).partner
    for s in range(view.n):
        p = partner[s]
        if p >= 0:
            if obs.bids[s] is not None or s == view.seat:
                continue
            if bids[s] == 0 and bids[p] == 0:
                bids[s] = max(1, _quick_bid(hands[s], 4, rules, nil=False))
            elif rules.bidding.suicide and bids[p] != 0:
                bids[s] = 0  # R-S-1: one partner of each side bids nil
    return bids


__all__ = ["HardBot"]
