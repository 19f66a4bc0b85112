"""Plain-text rendering of a game: hands, bids, tricks, hand results and scores.

Pure functions (values in, strings out) shared by ``replay``, ``run``, ``resume`` and
any batch output. ``symbols`` chooses suit symbols (``Q♠``) or letters (``QS``);
``color`` wraps red suits (hearts, diamonds) in ANSI red.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from spades_cli.engine import HandResult, Rules, Trick, card_label
from spades_cli.engine.cards import CLUBS, DIAMONDS, HEARTS, SPADES

RED = "\x1b[31m"
RESET = "\x1b[0m"
# The order a player sorts a hand: spades, hearts, clubs, diamonds (colours alternate).
HAND_ORDER = (SPADES, HEARTS, CLUBS, DIAMONDS)

__all__ = [
    "render_bids",
    "render_card",
    "render_cards",
    "render_deal",
    "render_hand",
    "render_hand_result",
    "render_scores",
    "render_trick",
]


def render_card(card: int, *, symbols: bool = True, color: bool = False) -> str:
    """One card: ``Q♠`` / ``QS``, red suits in red when ``color``."""
    text = card_label(card, symbols=symbols)
    if color and card // 13 in (HEARTS, DIAMONDS):
        return f"{RED}{text}{RESET}"
    return text


def render_cards(cards: Iterable[int], *, symbols: bool = True, color: bool = False) -> str:
    """Cards in the order given, one space apart."""
    return " ".join(render_card(c, symbols=symbols, color=color) for c in cards)


def render_hand(cards: Iterable[int], *, symbols: bool = True, color: bool = False) -> str:
    """A hand sorted by suit (spades, hearts, clubs, diamonds), high to low, suits two spaces apart."""
    held = sorted(set(cards), reverse=True)
    groups = [[c for c in held if c // 13 == suit] for suit in HAND_ORDER]
    shown = [render_cards(g, symbols=symbols, color=color) for g in groups if g]
    return "  ".join(shown) if shown else "(no cards)"


def render_deal(
    hands: Sequence[Iterable[int]], rules: Rules, *, symbols: bool = True, color: bool = False
) -> str:
    """Every seat's hand, one line each: ``N  A♠ K♠  Q♥ ...``."""
    return "\n".join(
        f"{rules.seat_names[seat]}  {render_hand(cards, symbols=symbols, color=color)}"
        for seat, cards in enumerate(hands)
    )


def _bid_word(bid: int, blind: bool, rules: Rules) -> str:
    if blind:
        return "double nil" if rules.players == 2 else "blind nil"
    return "nil" if bid == 0 else str(bid)


def render_bids(
    bids: Sequence[int | None], rules: Rules, *, blind: Sequence[bool] = (), order: Sequence[int] = ()
) -> str:
    """``E 3, S nil, W 4, N 2`` in ``order`` (default: seat order); None = not bid yet."""
    seats = list(order) or list(range(rules.players))
    parts = []
    for seat in seats:
        bid = bids[seat]
        word = "-" if bid is None else _bid_word(bid, bool(blind and blind[seat]), rules)
        parts.append(f"{rules.seat_names[seat]} {word}")
    return ", ".join(parts)


def render_trick(
    trick: Trick, rules: Rules, *, number: int | None = None, symbols: bool = True, color: bool = False
) -> str:
    """``Trick 3: E 4♥, S 9♥, W A♥, N 2♠ -> N``: the cards from the leader on, then the winner."""
    n = rules.players
    cards = ", ".join(
        f"{rules.seat_names[trick.seat_of(i, n)]} {render_card(c, symbols=symbols, color=color)}"
        for i, c in enumerate(trick.cards)
    )
    head = f"Trick {number}: " if number is not None else ""
    return f"{head}{cards} -> {rules.seat_names[trick.winner]}"


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def render_hand_result(result: HandResult, rules: Rules) -> str:
    """One line per side: contract, tricks, the points by kind and the hand's total."""
    lines = []
    for side in range(2):
        r = result.sides[side]
        seats = [s for s in range(rules.players) if rules.side_of(s) == side]
        took = " ".join(f"{rules.seat_names[s]}:{result.tricks[s]}" for s in seats) if len(seats) > 1 else ""
        nils = [s for s in seats if result.bids[s] == 0 and (result.blind[s] or rules.nil.enabled)]
        parts = []
        if r.contract:
            verdict = "made" if r.made else "set"
            parts.append(f"contract {r.contract} {verdict} {_signed(r.contract_points)}")
        for s in nils:
            word = _bid_word(0, result.blind[s], rules)
            ok = "made" if result.tricks[s] == 0 else "failed"
            parts.append(f"{rules.seat_names[s]} {word} {ok}")
        if r.nil_points:
            parts.append(f"nil {_signed(r.nil_points)}")
        if r.bags:
            parts.append(f"{_plural(r.bags, 'bag')} {_signed(r.bag_points)}")
        if r.bag_penalty:
            parts.append(f"bag penalty {r.bag_penalty}")
        detail = ", ".join(parts) if parts else "nothing"
        tricks = f"{_plural(r.tricks, 'trick')}" + (f" ({took})" if took else "")
        lines.append(f"{rules.side_name(side)}: {tricks}; {detail}: {_signed(r.points)}")
    return "\n".join(lines)


def render_scores(scores: Sequence[int], bags: Sequence[int], rules: Rules) -> str:
    """``Score: NS 50 (0 bags), EW 71 (1 bag)``."""
    parts = [f"{rules.side_name(s)} {scores[s]} ({_plural(bags[s], 'bag')})" for s in range(2)]
    return "Score: " + ", ".join(parts)
