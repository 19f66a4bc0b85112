"""R-J-6 / R-J-7: the cards left over after the deal (``deck.discard``, R-H-45 .. R-H-47):
who takes them up, the DISCARD phase before or after the bidding, the cards laid aside out
of play and known to their owner only, the hand played and scored, and the presets refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.engine import E, N, S, W, cards, labels

from spades_cli.engine import (
    BID,
    BID_BASE,
    BLIND,
    DECLARE,
    DISCARD_PHASE,
    NO_BLIND,
    PLAY,
    IllegalAction,
    Rules,
    State,
    deck_cards,
)
from spades_cli.errors import MultiError
from spades_cli.presets import load_rules

JOKERS = load_rules("jokers-discard")
TO_CLUBS = load_rules("jokers-discard", ["deck.discard_to=two_of_clubs"])
AFTER = load_rules("jokers-discard", ["deck.discard_after_bids=true"])

# The worked example: S deals. W, N and E are dealt these thirteen; S gets the rest of the
# 52 dealt round the table, and the two cards left over, 2C and BJ, go to S (R-J-6).
HANDS = {
    W: cards("AS KS QS JS TS 9S AH KH QH JH TH 9H 8H"),
    N: cards("8S 7S 6S 5S AD KD QD JD TD 9D 8D 7D 6D"),
    E: cards("4S 3S 2S 7H 6H 5H 4H 3H 2H 5D 4D 3D 2D"),
}
LEFT = cards("2C BJ")


def deck_for_hands(rules: Rules, dealer: int, hands: dict[int, list[int]], left: list[int]) -> list[int]:
    """A deck whose deal gives ``hands`` (the dealer the rest) and leaves ``left`` over."""
    n = rules.players
    given = {s: list(hands.get(s, ())) for s in range(n)}
    taken = {c for h in given.values() for c in h} | set(left)
    rest = [c for c in deck_cards(rules) if c not in taken]
    for s in range(n):
        while len(given[s]) < rules.hand_size:
            given[s].append(rest.pop(0))
    deck = [0] * (n * rules.hand_size)
    for k in range(n):
        deck[k::n] = given[(dealer + 1 + k) % n]
    return deck + left


def dealt(rules: Rules, dealer: int = S, hands: dict[int, list[int]] | None = None) -> State:
    state = State(rules, dealer)
    state.deal(deck_for_hands(rules, dealer, HANDS if hands is None else hands, LEFT))
    return state


def test_r_j_6_the_dealer_takes_the_two_left_over_and_lays_two_aside() -> None:
    """R-J-6 worked example (R-H-45): 54 cards, thirteen each, 2C and BJ left over go to the dealer
    S, who holds fifteen and lays two aside (any two: here BJ and a club); then the bidding
    starts left of the dealer, everyone holding thirteen, and the two are out of play."""
    state = dealt(JOKERS)
    assert JOKERS.hand_size == 13 and len(JOKERS.deck_cards) == 54
    assert state.phase == DISCARD_PHASE and state.current_player() == S
    held = state.hand_of(S)
    assert len(held) == 15 and set(LEFT) <= set(held)
    assert [len(state.hand_of(s)) for s in (N, E, W)] == [13, 13, 13]
    assert list(state.legal_actions()) == held  # any card of the fifteen
    assert list(state.legal_actions(N)) == []
    laid = cards("BJ")[0], next(c for c in held if c not in LEFT and c < 13)
    state.apply(laid[0])
    assert state.phase == DISCARD_PHASE and list(state.legal_actions()) == sorted(set(held) - {laid[0]})
    state.apply(laid[1])
    assert state.phase == BID and state.current_player() == W
    assert [len(state.hand_of(s)) for s in range(4)] == [13, 13, 13, 13]
    assert not set(laid) & {c for s in range(4) for c in state.hand_of(s)}
    assert state.observation(S).own_discards == tuple(sorted(laid))  # S knows them
    assert all(state.observation(s).own_discards == () for s in (N, E, W))  # nobody else


def test_r_j_6_a_card_not_held_cannot_be_laid_aside() -> None:
    """R-J-6: the legal set is the seat's own cards; another card is refused with the rule."""
    state = dealt(JOKERS)
    with pytest.raises(IllegalAction) as caught:
        state.apply(HANDS[N][0])
    assert caught.value.rule_id == "R-J-6" and "you do not hold" in caught.value.reason


def test_r_j_6_the_hand_is_played_out_and_scored_without_the_cards_laid_aside() -> None:
    """R-J-6: thirteen tricks of four cards, none of them a card laid aside; all bid 3."""
    state = dealt(JOKERS)
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    gone = set(state.observation(S).own_discards)
    for _ in range(4):
        state.apply(BID_BASE + 3)
    assert state.phase == PLAY
    played: list[int] = []
    while state.hand_no == 0:
        card = state.legal_actions()[0]
        played.append(card)
        state.apply(card)
    result = state.results[0]
    assert sum(result.tricks) == 13 and len(played) == 52 and not gone & set(played)
    assert set(played) | gone == set(JOKERS.deck_cards)


def test_r_j_6_the_discard_comes_after_a_declaration_made_before_looking() -> None:
    """R-J-6 / R-BB-1: blind nil is declared before anyone looks, so before the discard."""
    rules = load_rules("jokers-discard", ["blind_nil.enabled=true", "blind_nil.behind_by=null"])
    state = dealt(rules)
    assert state.phase == DECLARE
    while state.phase == DECLARE:
        state.apply(BLIND if state.current_player() == S else NO_BLIND)
    assert state.phase == DISCARD_PHASE and state.current_player() == S
    state.apply(state.legal_actions()[-1])
    state.apply(state.legal_actions()[-1])
    assert state.phase == BID and state.bids[S] == 0 and state.blind[S]


def test_r_j_7_a_the_holder_of_the_two_of_clubs_takes_them() -> None:
    """R-J-7 (a), R-H-46: with ``discard_to: two_of_clubs`` the holder of 2C takes the cards left
    over; when 2C is itself left over, the dealer takes them."""
    hands = {N: cards("2C") + HANDS[N][1:], E: HANDS[E], W: HANDS[W]}
    left = cards("3C BJ")
    state = State(TO_CLUBS, S)
    state.deal(deck_for_hands(TO_CLUBS, S, hands, left))
    assert state.phase == DISCARD_PHASE and state.current_player() == N
    assert len(state.hand_of(N)) == 15 and set(left) <= set(state.hand_of(N))
    assert len(state.hand_of(S)) == 13
    state.apply(cards("2C")[0])  # the two of clubs may be laid aside too
    state.apply(cards("BJ")[0])
    assert state.phase == BID and len(state.hand_of(N)) == 13
    # 2C left over: nobody holds it after the deal, so the dealer takes them (our choice).
    assert dealt(TO_CLUBS).current_player() == S


def test_r_j_7_b_the_discard_after_the_bidding() -> None:
    """R-J-7 (b), R-H-47: with ``discard_after_bids`` everyone bids first, the dealer on fifteen
    cards; then the dealer lays two aside and the player left of the dealer leads."""
    state = dealt(AFTER)
    assert state.phase == BID and state.current_player() == W
    assert len(state.hand_of(S)) == 15
    for _ in range(4):
        state.apply(BID_BASE + 3)
    assert state.phase == DISCARD_PHASE and state.current_player() == S
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    assert state.phase == PLAY and state.current_player() == W
    assert len(state.hand_of(S)) == 13


def test_r_j_6_a_clone_and_a_sampled_world_know_the_discards() -> None:
    """R-J-6: a clone keeps the discard in progress; a state built from another seat's
    observation (the search bots' worlds) has two cards out of play it does not know."""
    state = dealt(JOKERS)
    state.apply(state.legal_actions()[0])
    copy = state.clone()
    assert copy.phase == DISCARD_PHASE and copy.legal_actions() == state.legal_actions()
    copy.apply(copy.legal_actions()[0])
    assert state.phase == DISCARD_PHASE and copy.phase == BID
    obs = copy.observation(W)
    hands = [0, 0, 0, 0]
    for s in range(4):
        for c in copy.hand_of(s):
            hands[s] |= 1 << c
    world = State.from_observation(obs, hands, JOKERS)
    assert world.phase == BID and [len(world.hand_of(s)) for s in range(4)] == [13] * 4
    short = list(hands)
    short[N] = hands[N] & (hands[N] - 1)  # a card too few: refused
    with pytest.raises(ValueError, match="do not fit"):
        State.from_observation(obs, short, JOKERS)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "base: jokers\ndeck:\n  discard: 2\n",
            ":3: deck.discard: 52 cards with 2 left over (deck.discard) do not deal evenly to 4 players",
        ),
        ("base: jokers-discard\ndeck:\n  discard: 1\n", ":3: deck.discard: 54 cards with 1 left over"),
        ("base: two-player\ndeck:\n  discard: 2\n", ":3: deck.discard: the two-player game is drafted"),
        (
            "base: jokers-discard\ndeck:\n  removed: 2C 2D\n  discard_to: two_of_clubs\n",
            "deck.discard_to: the two of clubs is not in the deck",
        ),
        ("base: four-player\ndeck:\n  discard_after_bids: true\n", ":3: deck.discard_after_bids: no cards"),
    ],
)
def test_r_j_6_a_discard_that_does_not_fit_the_deal_is_refused(
    tmp_path: Path, text: str, message: str
) -> None:
    """R-J-6 / R-J-7: a preset whose deal does not leave exactly the cards to discard over,
    a discard in the draft game, the two of clubs' holder with no two of clubs, or a discard
    option with nothing left over: FILE:LINE: the key and the reason."""
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MultiError) as caught:
        load_rules(str(path))
    assert any(message in p for p in caught.value.problems), caught.value.problems
    assert all(p.startswith(f"{path}:") for p in caught.value.problems)


def test_r_j_6_labels_of_the_worked_example() -> None:
    """R-J-6: the dealer's fifteen are the thirteen dealt plus 2C and BJ."""
    state = dealt(JOKERS)
    assert "2C" in labels(state.hand_of(S)) and "BJ" in labels(state.hand_of(S))
