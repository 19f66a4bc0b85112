"""What a file records about a game, checked against the game as it is played.

``replay`` (a transcript, read in order) and ``run`` (a script, read before the game)
both hand what their lines record to one :class:`RecordedFacts`, a subscriber of the
run's events: the dealer of a hand, the winner of a trick, a hand's result and score, the
winner of the game. Each fact is compared when both the file and the game have told it,
whichever comes second, and a difference is a MismatchError (exit 1) at the line that
recorded it, with one message per problem. The names a line gives (a seat, a side) and
the two cards of the pile in the two-player draft are checked here too.
"""

from __future__ import annotations

import typing

from spades_cli.engine import HandResult, Rules, State, card_str, deck_cards
from spades_cli.errors import MismatchError
from spades_cli.game.events import Event, GameOver, HandScored, HandStarted, TrickWon
from spades_cli.transcript.syntax import ResultLine, ScoreLine

__all__ = ["RecordedFacts", "deck_problem", "pile_problem", "seat_problem", "side_problem"]


def seat_problem(rules: Rules, name: str) -> str | None:
    """Why ``name`` is not a seat of the game (None when it is one)."""
    try:
        rules.seat_index(name)
    except ValueError:
        return f"there is no seat {name} in the {rules.players}-player game"
    return None


def side_problem(rules: Rules, name: str) -> str | None:
    """Why ``name`` is not a side of the game (None when it is one)."""
    sides = [rules.side_name(s) for s in range(rules.sides)]
    if name in sides:
        return None
    return f"there is no side {name} in this game (sides: {' and '.join(sides)})"


def deck_problem(rules: Rules, cards: tuple[int, ...]) -> str | None:
    """Why a deck line's cards are not a deck of these rules (R-C-1), or None."""
    deck = deck_cards(rules)
    if sorted(cards) != sorted(deck):
        return f"a deck line must hold each of the {len(deck)} cards of the deck once"
    return None


def pile_problem(state: State, cards: tuple[int, int]) -> str | None:
    """Why the two cards a draft line names are not the top of the pile (None when they are)."""
    pair = state.draft_pair()
    assert pair is not None
    top, nxt = pair
    if (top, nxt) == cards:
        return None
    named = f"{card_str(cards[0])} then {card_str(cards[1])}"
    return f"the pile holds {card_str(top)} then {card_str(nxt)}, not {named}"


class RecordedFacts:
    """The facts a file records, checked against the run's events (subscribe it)."""

    def __init__(self, rules: Rules, origin: str | None) -> None:
        self.rules = rules
        self.origin = origin
        # What the file says, with its line, until the game has told the same fact.
        self._dealers: dict[int, tuple[int, int]] = {}  # hand -> (seat, line)
        self._winners: dict[tuple[int, int], tuple[int, int]] = {}  # (hand, trick) -> (seat, line)
        self._results: dict[int, ResultLine] = {}
        self._scores: dict[int, ScoreLine] = {}
        self._end: tuple[int, int] | None = None  # (side, line)
        # What the game says.
        self._dealt: dict[int, int] = {}  # hand -> dealer
        self._won: dict[tuple[int, int], int] = {}
        self._scored: dict[int, HandResult] = {}
        self._winner: int | None = None

    def fail(self, line: int, message: str) -> typing.NoReturn:
        raise MismatchError(message, file=self.origin, line=line)

    # -- what the file records ------------------------------------------------------

    def dealer(self, hand_no: int, seat: int, line: int) -> None:
        self._dealers[hand_no] = (seat, line)
        self._check_dealer(hand_no)

    def winner(self, hand_no: int, trick_no: int, seat: int, line: int) -> None:
        self._winners[(hand_no, trick_no)] = (seat, line)
        self._check_winner((hand_no, trick_no))

    def result(self, hand_no: int, e: ResultLine) -> None:
        self._results[hand_no] = e
        self._check_result(hand_no)

    def score(self, hand_no: int, e: ScoreLine) -> None:
        self._scores[hand_no] = e
        self._check_score(hand_no)

    def end(self, side: int, line: int) -> None:
        self._end = (side, line)
        self._check_end()

    # -- what the game says ---------------------------------------------------------

    def dealt(self, hand_no: int, dealer: int) -> None:
        """The dealer of ``hand_no`` (known before the deal: replay tells it from the state)."""
        self._dealt[hand_no] = dealer
        self._check_dealer(hand_no)

    def __call__(self, e: Event) -> None:
        if isinstance(e, HandStarted):
            self.dealt(e.hand_no, e.dealer)
        elif isinstance(e, TrickWon):
            self._won[(e.hand_no, e.trick_no)] = e.winner
            self._check_winner((e.hand_no, e.trick_no))
        elif isinstance(e, HandScored):
            self._scored[e.hand_no] = e.result
            self._check_result(e.hand_no)
            self._check_score(e.hand_no)
        elif isinstance(e, GameOver) and e.winner is not None:
            self._winner = e.winner
            self._check_end()

    # -- the comparisons ------------------------------------------------------------

    def _check_dealer(self, hand_no: int) -> None:
        if hand_no not in self._dealers or hand_no not in self._dealt:
            return
        (named, line), real = self._dealers.pop(hand_no), self._dealt[hand_no]
        if named != real:
            names = self.rules.seat_names
            word = "first player" if self.rules.players == 2 else "dealer"
            self.fail(line, f"the {word} of hand {hand_no + 1} is {names[real]}, not {names[named]}")

    def _check_winner(self, key: tuple[int, int]) -> None:
        if key not in self._winners or key not in self._won:
            return
        (named, line), real = self._winners.pop(key), self._won[key]
        if named != real:
            names = self.rules.seat_names
            self.fail(line, f"trick {key[1]} is won by {names[real]}, not {names[named]}")

    def _side(self, name: str) -> int:
        """The side a recorded side name is (-1: none of this game's, Rules.side_name)."""
        names = [self.rules.side_name(i) for i in range(self.rules.sides)]
        return names.index(name) if name in names else -1

    def _check_result(self, hand_no: int) -> None:
        if hand_no not in self._results or hand_no not in self._scored:
            return
        e, r = self._results.pop(hand_no), self._scored[hand_no]
        for side, tricks, points, bags in sorted(e.sides, key=lambda item: self._side(item[0])):
            if self._side(side) < 0:
                self.fail(e.line, f"{side} is not a side of this game")
                continue
            real = r.sides[self._side(side)]
            if (tricks, points, bags) != (real.tricks, real.points, real.bags):
                self.fail(
                    e.line,
                    f"hand {hand_no + 1}: {side} took {real.tricks} tricks for {real.points} points "
                    f"and {real.bags} bags, not {tricks}, {points} and {bags}",
                )

    def _check_score(self, hand_no: int) -> None:
        if hand_no not in self._scores or hand_no not in self._scored:
            return
        e, r = self._scores.pop(hand_no), self._scored[hand_no]
        scores = {self._side(side): value for side, value in e.scores}
        bags = {self._side(side): value for side, value in e.bags}
        for side in range(len(r.sides)):
            real, name = r.sides[side], self.rules.side_name(side)
            for what, recorded, value in (
                ("score", scores.get(side), real.score),
                ("bags", bags.get(side), real.bags_total),
            ):
                if recorded is not None and recorded != value:
                    where = f"after hand {hand_no + 1}: {name} {what}"
                    self.fail(e.line, f"{where} recorded {recorded}, the rules give {value}")

    def _check_end(self) -> None:
        if self._end is None or self._winner is None:
            return
        (named, line), self._end = self._end, None
        if named != self._winner:
            self.fail(line, f"{self.rules.side_name(named)} did not win")
