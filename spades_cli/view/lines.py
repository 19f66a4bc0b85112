"""The same views as plain strings, for printers that write lines (``replay``, ``run``,
``resume`` without a prompt): values in, strings out, red suits as ANSI red when ``color``.

They are built from the fragments of :mod:`spades_cli.view.look` and
:mod:`spades_cli.view.summary`, so the hand order, the bid words and the hand results
read the same in every front end.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from spades_cli.engine import HandResult, Rules, Trick
from spades_cli.engine.plan import plan_for
from spades_cli.engine.play import STANDARD, CardOrder
from spades_cli.i18n import _
from spades_cli.view.layout import Frag
from spades_cli.view.look import RED, Look, bid_word, card_frag, cards_frags, hand_frags
from spades_cli.view.summary import side_result
from spades_cli.view.table import bags_count

ANSI_RED = "\x1b[31m"
ANSI_RESET = "\x1b[0m"

__all__ = [
    "ansi",
    "render_bids",
    "render_card",
    "render_cards",
    "render_deal",
    "render_hand",
    "render_hand_result",
    "render_scores",
    "render_trick",
]


def ansi(frags: Iterable[Frag], color: bool = False) -> str:
    """Fragments as a string: red suits in ANSI red when ``color``, other styles dropped."""
    if not color:
        return "".join(t for _, t in frags)
    return "".join(f"{ANSI_RED}{t}{ANSI_RESET}" if style == RED else t for style, t in frags)


def render_card(card: int, *, symbols: bool = True, color: bool = False) -> str:
    """One card: ``Q♠`` / ``QS``, red suits in red when ``color``."""
    return ansi([card_frag(card, symbols)], color)


def render_cards(cards: Iterable[int], *, symbols: bool = True, color: bool = False) -> str:
    """Cards in the order given, one space apart."""
    return ansi(cards_frags(cards, symbols), color)


def render_hand(
    cards: Iterable[int], *, symbols: bool = True, color: bool = False, order: CardOrder = STANDARD
) -> str:
    """A hand sorted by suit (spades, hearts, clubs, diamonds), high to low, suits two spaces
    apart; ``order`` is the rules' (``plan_for(rules).order``: jokers lead the spades)."""
    return ansi(hand_frags(cards, symbols, order), color)


def render_deal(
    hands: Sequence[Iterable[int]], rules: Rules, *, symbols: bool = True, color: bool = False
) -> str:
    """Every seat's hand, one line each: ``N  A♠ K♠  Q♥ ...`` (``N  BJ LJ A♠ ...``)."""
    order = plan_for(rules).order
    return "\n".join(
        f"{rules.seat_names[seat]}  {render_hand(cards, symbols=symbols, color=color, order=order)}"
        for seat, cards in enumerate(hands)
    )


def render_bids(
    bids: Sequence[int | None],
    rules: Rules,
    *,
    blind: Sequence[bool] = (),
    order: Sequence[int] = (),
    zero: Sequence[bool] = (),
) -> str:
    """``E 3, S nil, W 4, N 2`` in ``order`` (default: seat order); None = not bid yet;
    ``zero``: the seats whose 0 is a zero, not nil (R-NV-4)."""
    seats = list(order) or list(range(rules.players))
    parts = []
    for seat in seats:
        bid = bids[seat]
        is_zero = bool(zero and zero[seat])
        word = "-" if bid is None else bid_word(bid, bool(blind and blind[seat]), rules, is_zero)
        parts.append(f"{rules.seat_names[seat]} {word}")
    return ", ".join(parts)


def render_trick(
    trick: Trick, rules: Rules, *, number: int | None = None, symbols: bool = True, color: bool = False
) -> str:
    """``Trick 3: E 4♥, S 9♥, W [A♥], N 2♦ -> W``: the cards from the leader on (the winning
    one in brackets), then the winner."""
    look = Look(rules, symbols)
    n = rules.players
    pairs = [(trick.seat_of(i, n), c) for i, c in enumerate(trick.cards)]
    cards = ansi(look.played(pairs, (trick.winner - trick.leader) % n), color)
    head = _("Trick {no}: ").format(no=number) if number is not None else ""
    return f"{head}{cards} -> {rules.seat_names[trick.winner]}"


def render_hand_result(result: HandResult, rules: Rules) -> str:
    """One line per side: bids, tricks (per seat), the points by kind, the total and score."""
    look = Look(rules, True)
    sides = range(rules.sides)
    return "\n".join(ansi(side_result(look, rules, result, side, result.sides[side])) for side in sides)


def render_scores(scores: Sequence[int], bags: Sequence[int], rules: Rules) -> str:
    """``Score: NS 50 (0 bags), EW 71 (1 bag)``."""
    parts = [f"{rules.side_name(s)} {scores[s]} ({bags_count(bags[s])})" for s in range(rules.sides)]
    return _("Score: {sides}").format(sides=", ".join(parts))
