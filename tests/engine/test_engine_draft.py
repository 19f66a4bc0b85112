"""The two-player draft (R-2P-2), double nil and its exchange (R-2P-3), the rotation of
the dealer / first player (R-2P-7, R-4P-2) and what each seat may see."""

from __future__ import annotations

import dataclasses

import pytest
from helpers.engine import FOUR, N2, S2, TWO, bid_all, cards, deal_2p, labels, run_hand

from spades_cli.engine import (
    BID,
    BID_BASE,
    BLIND,
    CHANCE,
    DECLARE,
    DISCARD,
    DRAFT,
    DRAW,
    EXCHANGE,
    EXCHANGE_DONE,
    KEEP,
    NO_BLIND,
    PLAY,
    IllegalAction,
    Rules,
    State,
    deck_for,
)
from spades_cli.engine.rules import BlindNilRules

PLAIN_2P = Rules(players=2)

HANDS = {
    N2: cards("AH KH QH JH TH 9H 2C 3C 4C 5C 6C 7C 8C"),
    S2: cards("AS KS QS 2D 3D 4D 5D 6D 7D 8D 9D TD JD"),
}
# The discard pile in draft order: turn 0 (N2) throws 2S, turn 1 (S2) 3S, turn 2 (N2) 4S, ...
DISCARDS = cards("2S 3S 4S 5S 6S 7S 8S 9S TS JS 2H 3H 4H 5H 6H 7H 8H 9C TC JC QC KC AC QD KD AD")


def test_r_2p_2_draft_keep_or_discard_alternately() -> None:
    deck = deck_for("draft", 0)
    state = State(PLAIN_2P, S2)  # S2 is this hand's first player
    state.deal(deck)
    kept: dict[int, list[int]] = {N2: [], S2: []}
    thrown: dict[int, list[int]] = {N2: [], S2: []}
    for turn in range(26):
        seat = S2 if turn % 2 == 0 else N2
        assert state.phase == DRAFT and state.current_player() == seat
        assert set(state.legal_actions()) == {KEEP, DISCARD}
        top, nxt = deck[2 * turn], deck[2 * turn + 1]
        assert state.draft_card() == top
        assert state.observation(seat).draft_card == top
        assert state.observation(1 - seat).draft_card is None  # the opponent does not see it
        keep = turn % 3 != 1
        state.apply(KEEP if keep else DISCARD)
        kept[seat].append(top if keep else nxt)  # R-2P-2: discard the top card, keep the next
        thrown[seat].append(nxt if keep else top)
        for s in (N2, S2):
            obs = state.observation(s)
            assert sorted(obs.hand) == sorted(kept[s])
            assert sorted(obs.own_discards) == sorted(thrown[s])
    assert len(kept[N2]) == len(kept[S2]) == 13
    assert sorted(kept[N2] + kept[S2] + thrown[N2] + thrown[S2]) == list(range(52))
    assert state.phase == BID and state.current_player() == N2  # R-2P-4: the second player bids first
    assert state.observation(N2).own_discards == tuple(sorted(thrown[N2]))
    assert not set(state.observation(N2).own_discards) & set(thrown[S2])


def test_r_2p_3_double_nil_is_declared_before_the_first_draw() -> None:
    state = State(TWO, N2)
    state.deal(deck_for(3, 0))
    assert state.phase == DECLARE and state.current_player() == N2
    assert set(state.legal_actions()) == {BLIND, NO_BLIND}
    obs = state.observation(N2)
    assert not obs.looked and obs.draft_card is None
    state.apply(BLIND)
    assert state.phase == DRAFT and state.current_player() == N2
    assert state.observation(N2).declared == (True, False)
    state.apply(KEEP)
    # S2 decides just before her own first draw.
    assert state.phase == DECLARE and state.current_player() == S2
    state.apply(NO_BLIND)
    assert state.phase == DRAFT
    for _ in range(25):
        assert state.phase == DRAFT  # nobody declares again in this hand
        state.apply(KEEP)
    assert state.phase == EXCHANGE and state.current_player() == N2


def test_r_2p_3_exchange_up_to_three_from_the_discard_pile() -> None:
    state = deal_2p(TWO, N2, HANDS, blind={N2}, discards=DISCARDS)
    assert state.phase == EXCHANGE and state.current_player() == N2
    assert set(state.legal_actions()) == set(HANDS[N2]) | {EXCHANGE_DONE}
    pile = set(DISCARDS)
    given = []
    for give, draw in (("2C", "QD"), ("3C", "2S"), ("4C", "9C")):
        g = cards(give)[0]
        state.apply(g)
        given.append(g)
        assert state.phase == DRAW and state.current_player() == CHANCE
        # Drawn from the pile as it stands: the cards given up are not in it yet.
        assert set(state.legal_actions()) == pile
        assert not set(given) & set(state.legal_actions())
        d = cards(draw)[0]
        state.apply(d)
        pile.discard(d)
    obs = state.observation(N2)
    expected = (set(HANDS[N2]) - set(cards("2C 3C 4C"))) | set(cards("QD 2S 9C"))
    assert set(obs.hand) == expected
    assert set(obs.own_discards) >= set(cards("2C 3C 4C"))  # given up: now in the discard pile
    assert obs.exchanged == (3, 0)
    assert state.observation(S2).exchanged == (3, 0)  # how many were swapped is public
    # A double-nil declaration is the bid (R-2P-3): only S2 bids.
    assert state.phase == BID and state.current_player() == S2
    state.apply(BID_BASE + 5)
    assert state.phase == PLAY and state.bids == [0, 5] and state.blind == [True, False]


def test_r_2p_3_exchange_may_stop_early() -> None:
    state = deal_2p(TWO, N2, HANDS, blind={N2}, discards=DISCARDS)
    state.apply(cards("2C")[0])
    state.apply(cards("AD")[0])
    assert state.phase == EXCHANGE
    state.apply(EXCHANGE_DONE)
    assert state.phase == BID
    assert state.observation(N2).exchanged == (1, 0)
    none = deal_2p(TWO, N2, HANDS, blind={N2}, discards=DISCARDS)
    none.apply(EXCHANGE_DONE)
    assert none.phase == BID and set(none.hand_of(N2)) == set(HANDS[N2])


def test_r_2p_3_second_player_exchanges_first_when_both_declared() -> None:
    state = deal_2p(TWO, N2, HANDS, blind={N2, S2}, discards=DISCARDS)
    order: list[int] = []
    while state.phase in (EXCHANGE, DRAW):
        if state.phase == EXCHANGE:
            if not order or order[-1] != state.current_player():
                order.append(state.current_player())
            state.apply(EXCHANGE_DONE)
    assert order == [S2, N2]
    # Both bids are double nils: no bidding, S2 (second player) leads (R-2P-5).
    assert state.phase == PLAY and state.current_player() == S2 and state.bids == [0, 0]


def test_r_2p_3_declaring_is_refused_when_not_behind_enough() -> None:
    late = BlindNilRules(enabled=True, value=200, behind_by=100, exchange=3)
    rules = dataclasses.replace(TWO, blind_nil=late)
    state = State(rules, N2)
    state.deal(deck_for(1, 0))
    assert state.phase == DRAFT  # 0-0: nobody is behind by 100
    with pytest.raises(IllegalAction):
        state.apply(BLIND)


def test_r_2p_7_first_player_alternates_every_hand() -> None:
    state = State(TWO, S2)
    firsts = []
    for _ in range(4):
        firsts.append(state.dealer)
        run_hand(state, (6, 7), {N2: 6, S2: 7})
    assert firsts == [S2, N2, S2, N2]
    assert [r.dealer for r in state.results] == firsts


def test_r_4p_2_deal_passes_clockwise() -> None:
    state = State(FOUR, 2)
    for _ in range(5):
        run_hand(state, (3, 3, 4, 3), {0: 3, 1: 3, 2: 4, 3: 3})
    assert [r.dealer for r in state.results] == [2, 3, 0, 1, 2]
    assert state.dealer == 3 and state.hand_no == 5


def test_observation_shows_only_own_cards_in_four_player() -> None:
    state = State(FOUR, 0)
    state.deal(deck_for(5, 0))
    for seat in range(4):
        obs = state.observation(seat)
        assert list(obs.hand) == state.hand_of(seat)
        others = {c for s in range(4) if s != seat for c in state.hand_of(s)}
        assert not set(obs.hand) & others
        assert obs.own_discards == () and obs.draft_card is None
        assert obs.legal == (tuple(state.legal_actions()) if seat == state.current_player() else ())


def test_observation_in_two_player_hides_the_opponents_discards() -> None:
    state = deal_2p(TWO, N2, HANDS, discards=DISCARDS)
    bid_all(state, {N2: 4, S2: 4})
    n_obs, s_obs = state.observation(N2), state.observation(S2)
    n_thrown = set(DISCARDS[0::2])
    s_thrown = set(DISCARDS[1::2])
    assert set(n_obs.own_discards) == n_thrown and set(s_obs.own_discards) == s_thrown
    assert set(n_obs.hand) == set(HANDS[N2]) and set(s_obs.hand) == set(HANDS[S2])
    assert labels(sorted(n_obs.hand)) == labels(state.hand_of(N2))
