"""What one seat has seen, both ways: a state's :class:`Observation` for a seat, and a
:class:`State` rebuilt from an observation with the hidden cards filled in (the search
bots' sampled deals).

Neither is on the hot path of play; :class:`State` keeps its methods
(``State.observation`` and ``State.from_observation``) and calls these.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from spades_cli.engine.bidding import check_hands
from spades_cli.engine.cards import cards_in, trick_winner
from spades_cli.engine.observation import Observation
from spades_cli.engine.phases import BID, DRAW, EXCHANGE, PHASES, PLAY

if TYPE_CHECKING:
    from spades_cli.engine.rules import Rules
    from spades_cli.engine.state import State


def observe(st: State, seat: int) -> Observation:
    """What ``seat`` may know now: its own cards, public play, its own discards."""
    phase = PHASES[st._phase]
    looked = st.decided[seat] or phase in (BID, PLAY, EXCHANGE, DRAW)
    hand = tuple(st.hand_of(seat)) if looked else ()
    return Observation(
        seat=seat,
        players=st.n,
        phase=phase,
        hand_no=st.hand_no,
        dealer=st.dealer,
        current=st.current,
        looked=looked,
        hand=hand,
        draft_card=st.draft_card() if st.current == seat else None,
        own_discards=tuple(cards_in(st.own_discards[seat])),
        exchanged=tuple(st.exchanged),
        declared=tuple(st.declared),
        bids=tuple(None if b < 0 else b for b in st.bids),
        tricks=tuple(st.tricks),
        current_trick=tuple(st.trick),
        leader=st.leader,
        tricks_won=tuple(st.tricks_won),
        spades_broken=st.broken,
        scores=(st.scores[0], st.scores[1]),
        bags=(st.bags[0], st.bags[1]),
        results=tuple(st.results),
        legal=tuple(st.legal_actions()) if st.current == seat else (),
    )


def rebuild(
    cls: type[State],
    rules: Rules,
    obs: Observation,
    hidden_hands: Sequence[int],
    bids: Sequence[int] | None,
) -> State:
    """A new ``cls`` under ``rules`` built from ``obs`` and ``hidden_hands`` (see
    :meth:`State.from_observation` for what they must be)."""
    n = obs.players
    if obs.phase != BID and obs.phase != PLAY:
        raise ValueError(f"a state is built from an observation of bidding or play, not {obs.phase}")
    hands = list(hidden_hands)
    st = cls(rules, obs.dealer)
    st.hand_no = obs.hand_no
    st.scores = [obs.scores[0], obs.scores[1]]
    st.bags = [obs.bags[0], obs.bags[1]]
    st.results = list(obs.results)
    st.declared = list(obs.declared)
    st.blind = list(obs.declared)
    st.decided = [True] * n
    st.exchanged = list(obs.exchanged)
    own = 0
    for c in obs.own_discards:
        own |= 1 << c
    st.own_discards[obs.seat] = own
    plays: list[int] = []
    for t in obs.tricks:
        plays.extend(t.cards)
    plays.extend(obs.current_trick)
    check_hands(obs, hands, plays)
    st.hands = hands
    if obs.phase == BID:
        st.bids = [-1 if b is None else b for b in obs.bids]
        if bids is None:
            st._phase = int(BID)
            order = st._bid_order()
            at = order.index(obs.current)
            st.queue = order[at + 1 :]
            st.current = obs.current
            return st
        st.bids = list(bids)
        st._begin_play()
        return st
    st.bids = [-1 if b is None else b for b in obs.bids]
    st._phase = int(PLAY)
    st.plays = plays
    st.trick = list(obs.current_trick)
    st.trick_winners = [t.winner for t in obs.tricks]
    st.first_leader = obs.tricks[0].leader if obs.tricks else obs.leader
    st.trick_no = len(obs.tricks)
    st.tricks_won = list(obs.tricks_won)
    st.leader = obs.leader
    st.current = obs.current
    st.broken = obs.spades_broken
    st.first_trick = not obs.tricks
    if obs.current_trick:
        at = trick_winner(obs.current_trick)
        st.win_card = obs.current_trick[at]
        st.win_seat = (obs.leader + at) % n
    return st
