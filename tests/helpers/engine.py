"""Builders shared by the engine tests (this module holds no tests of its own).

* ``cards("AS KS 2C")`` reads cards; ``labels(...)`` writes them back.
* ``deal_4p`` / ``deal_2p`` start a hand in which every seat holds exactly the cards a
  test asks for (the 4P deck is laid out for the deal of R-4P-3; the 2P pile is laid
  out so that keeping every first card drafts the wanted hands, R-2P-2).
* ``script_4p`` / ``script_2p`` write a whole hand trick by trick so that each seat
  takes a chosen number of tricks; ``run_hand`` deals such a hand into a live game,
  bids and plays it through ``State.apply``. The scripts are built so that every card
  they play is legal under the default play rules; the engine rejects them otherwise.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from spades_cli.engine import (
    BID,
    BID_BASE,
    BLIND,
    DECLARE,
    DRAFT,
    EXCHANGE,
    EXCHANGE_DONE,
    KEEP,
    NO_BLIND,
    PLAY,
    HandResult,
    Rules,
    State,
    card_str,
    parse_card,
)
from spades_cli.engine.play import deck_cards
from spades_cli.engine.rules import BlindNilRules, NilRules
from spades_cli.presets import load_rules

FOUR = Rules(players=4)
TWO = Rules(
    name="two-player",
    players=2,
    nil=NilRules(failed_tricks="none"),
    blind_nil=BlindNilRules(enabled=True, value=200, exchange=3),
)

N, E, S, W = 0, 1, 2, 3  # 4P seats
N2, S2 = 0, 1  # 2P seats


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def labels(cs: Iterable[int]) -> list[str]:
    return [card_str(c) for c in cs]


def bids(*values: int) -> set[int]:
    """Bid actions for bid values (0 = nil)."""
    return {BID_BASE + v for v in values}


def _fill(hands: Mapping[int, Sequence[int]], players: int) -> dict[int, list[int]]:
    given = {s: list(hands.get(s, ())) for s in range(players)}
    used = [c for h in given.values() for c in h]
    assert len(used) == len(set(used)), "a card is given to two seats"
    rest = [c for c in range(52) if c not in set(used)]
    for s in range(players):
        assert len(given[s]) <= 13
        while len(given[s]) < 13:
            given[s].append(rest.pop(0))
    return given


def deck_4p(dealer: int, hands: Mapping[int, Sequence[int]]) -> list[int]:
    """A deck whose deal (one card at a time from the dealer's left) gives these hands;
    seats not named get the lowest cards left over."""
    full = _fill(hands, 4)
    deck = [0] * 52
    for k in range(4):
        deck[k::4] = full[(dealer + 1 + k) % 4]
    return deck


def pile_2p(dealer: int, hands: Mapping[int, Sequence[int]], discards: Sequence[int] = ()) -> list[int]:
    """A draft pile from which keeping every first card gives these hands (R-2P-2).

    The first player (the dealer) handles cards 0-1, the second player 2-3, and so on.
    ``discards`` fixes the order of the discarded cards (the rest follow, low first).
    """
    full = {s: list(hands.get(s, ())) for s in range(2)}
    used = [c for h in full.values() for c in h]
    assert len(used) == 26 and len(set(used)) == 26, "2P tests give both hands in full"
    gone = list(discards) + [c for c in range(52) if c not in set(used) and c not in set(discards)]
    assert len(gone) == 26
    pile: list[int] = []
    taken = [0, 0]
    for turn in range(26):
        seat = (dealer + turn) % 2
        pile += [full[seat][taken[seat]], gone[turn]]
        taken[seat] += 1
    return pile


def deal_4p(
    rules: Rules,
    dealer: int,
    hands: Mapping[int, Sequence[int]],
    blind: Collection[int] = (),
    scores: tuple[int, int] = (0, 0),
) -> State:
    state = State(rules, dealer, scores=scores)
    state.deal(deck_4p(dealer, hands))
    declare(state, blind)
    return state


def deal_2p(
    rules: Rules,
    dealer: int,
    hands: Mapping[int, Sequence[int]],
    blind: Collection[int] = (),
    discards: Sequence[int] = (),
) -> State:
    """Deal a 2P hand and draft it (every seat keeps the first card); stops when the
    draft is over (at the exchange or the bidding)."""
    state = State(rules, dealer)
    state.deal(pile_2p(dealer, hands, discards))
    draft(state, blind)
    return state


def declare(state: State, blind: Collection[int] = ()) -> None:
    while state.phase == DECLARE:
        state.apply(BLIND if state.current_player() in blind else NO_BLIND)


def draft(state: State, blind: Collection[int] = ()) -> None:
    while state.phase in (DECLARE, DRAFT):
        if state.phase == DECLARE:
            state.apply(BLIND if state.current_player() in blind else NO_BLIND)
        else:
            state.apply(KEEP)


def bid_all(state: State, by_seat: Mapping[int, int]) -> None:
    while state.phase == BID:
        state.apply(BID_BASE + by_seat[state.current_player()])


def play(state: State, seq: str | Sequence[int]) -> None:
    for c in cards(seq) if isinstance(seq, str) else seq:
        state.apply(c)


def trick_winner(played: Sequence[tuple[int, int]]) -> int:
    """R-C-2 / R-C-4, written from the rules text: the highest spade if any, else the
    highest card of the suit led. ``played`` is (seat, card) in play order."""
    led = played[0][1] // 13
    spades = [(c, s) for s, c in played if c // 13 == 3]
    if spades:
        return max(spades)[1]
    return max((c, s) for s, c in played if c // 13 == led)[1]


def _sequence(first_leader: int, players: int, by_trick: list[dict[int, int]]) -> list[int]:
    out: list[int] = []
    leader = first_leader
    for trick in by_trick:
        order = [(leader + i) % players for i in range(players)]
        out += [trick[s] for s in order]
        leader = trick_winner([(s, trick[s]) for s in order])
    return out


def script_4p(dealer: int, counts: Sequence[int]) -> tuple[dict[int, list[int]], list[int]]:
    """Hands and a legal play order (52 cards) in which seat ``s`` takes ``counts[s]`` tricks.

    Tricks 1-9 are three club, three diamond and three heart tricks that everyone follows;
    the seat ``L`` with most tricks wins trick 9 holding only spades, leads spades for
    tricks 10-12 (everyone follows) and wins trick 13 with the two of spades while the
    others throw their last card (the twos of clubs, diamonds and hearts).
    """
    assert sum(counts) == 13 and len(counts) == 4
    lead_seat = max(range(4), key=lambda s: counts[s])
    rest = list(counts)
    rest[lead_seat] -= 2
    others = [s for s in range(4) for _ in range(rest[s])]
    winners = [*others[:8], lead_seat, *others[8:], lead_seat]
    assert len(winners) == 13
    by_trick: list[dict[int, int]] = []
    for i, w in enumerate(winners[:12]):
        suit = i // 3  # clubs, diamonds, hearts, then spades
        k = i % 3
        ranks = [4 + 4 * k, 3 + 4 * k, 2 + 4 * k, 1 + 4 * k]  # the winner gets the highest
        seats = [w] + [s for s in range(4) if s != w]
        by_trick.append({s: 13 * suit + r for s, r in zip(seats, ranks, strict=True)})
    twos = iter((0, 13, 26))  # 2C, 2D, 2H
    by_trick.append({s: 39 if s == lead_seat else next(twos) for s in range(4)})
    hands = {s: [t[s] for t in by_trick] for s in range(4)}
    return hands, _sequence((dealer + 1) % 4, 4, by_trick)


def script_2p(dealer: int, counts: Sequence[int]) -> tuple[dict[int, list[int]], list[int]]:
    """Hands and a legal play order in which seat ``s`` takes ``counts[s]`` tricks: six club
    tricks, six diamond tricks and one heart trick, all followed (no spade is dealt)."""
    assert sum(counts) == 13 and len(counts) == 2
    winners = [0] * counts[0] + [1] * counts[1]
    by_trick: list[dict[int, int]] = []
    for i, w in enumerate(winners):
        suit, k = (0, i) if i < 6 else (1, i - 6) if i < 12 else (2, 0)
        by_trick.append({w: 13 * suit + 2 + 2 * k, 1 - w: 13 * suit + 1 + 2 * k})
    hands = {s: [t[s] for t in by_trick] for s in range(2)}
    return hands, _sequence((dealer + 1) % 2, 2, by_trick)


def run_hand(
    state: State,
    counts: Sequence[int],
    by_seat: Mapping[int, int],
    blind: Collection[int] = (),
) -> HandResult:
    """Deal a scripted hand into ``state`` (at the start of a hand), declare blind nil for
    the seats in ``blind``, bid ``by_seat`` (declared seats need no bid) and play it out."""
    dealer = state.dealer
    if state.n == 4:
        hands, seq = script_4p(dealer, counts)
        state.deal(deck_4p(dealer, hands))
        declare(state, blind)
    else:
        hands, seq = script_2p(dealer, counts)
        state.deal(pile_2p(dealer, hands))
        draft(state, blind)
        while state.phase == EXCHANGE:
            state.apply(EXCHANGE_DONE)
    bid_all(state, by_seat)
    assert state.phase == PLAY
    before = len(state.results)
    play(state, seq)
    assert len(state.results) == before + 1
    result = state.results[-1]
    assert result.tricks == tuple(counts)
    return result


def deal_hands(rules: Rules, dealer: int, hands: Mapping[int, Sequence[int]]) -> State:
    """A state of any preset dealt these hands (the seats not named get the lowest cards
    of the rules' deck left), ready for the first bid."""
    n, size = rules.players, rules.hand_size
    given = {s: list(hands.get(s, ())) for s in range(n)}
    rest = [c for c in deck_cards(rules) if all(c not in h for h in given.values())]
    for s in range(n):
        while len(given[s]) < size:
            given[s].append(rest.pop(0))
    deck = [0] * (n * size)
    for k in range(n):
        deck[k::n] = given[(dealer + 1 + k) % n]
    state = State(rules, dealer)
    state.deal(deck)
    return state


def drafted(
    dealer: int,
    hands: dict[int, str],
    discards: dict[int, str],
    scores: tuple[int, int] = (0, 0),
    bags: tuple[int, int] = (0, 0),
) -> State:
    """R-2P-2: a draft in which each seat keeps the cards given and throws away its own
    discards given (the first player, the dealer, handles the first two cards), at the
    bidding, with the running scores and bags given."""
    gone = {s: cards(t) for s, t in discards.items()}
    order = [gone[(dealer + turn) % 2][turn // 2] for turn in range(26)]
    state = State(load_rules("two-player"), dealer, scores=scores, bags=bags)
    state.deal(pile_2p(dealer, {s: cards(t) for s, t in hands.items()}, order))
    draft(state)
    assert state.phase == BID
    return state
