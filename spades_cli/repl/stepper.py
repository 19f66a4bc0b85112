"""``replay --step``: study a recorded game move by move, forward and back.

Every position of the game is rebuilt from the recorded decks and actions (the engine
replays them; nothing is re-derived here) and shown with every hand, so the hands shrink
as the cards are played and, in the two-player game, grow pick by pick in the draft.
One key moves (the keys are listed once, at the start; at a terminal each acts at once,
in a pipe each is a line):

    Enter or n   next move            p   previous move
    t            end of the next trick T  end of the previous trick
    h            start of the next hand H start of the previous hand
    g N (or N)   start of hand N      e   the end of the game     q   quit

The end of input quits, so ``spades replay --step FILE < keys.txt`` works in a pipe.
With ``--analyze`` the hindsight analysis of ``spades analyze`` is shown beside the
positions: each hand's double-dummy figures where it is dealt, and each trick's costly
cards where it ends.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TextIO

from spades_cli import view
from spades_cli.engine import (
    BID,
    DEAL,
    DECLARE,
    DRAFT,
    DRAW,
    EXCHANGE,
    PLAY,
    Rules,
    State,
)
from spades_cli.engine.notation import is_number
from spades_cli.engine.walk import walk
from spades_cli.game.events import Decided
from spades_cli.i18n import N_, _
from spades_cli.view import Fragments, Look, narrate, plain
from spades_cli.view.analysis import HINDSIGHT, HandNotes, deal_figures, note_of, trick_notes

KEYS = N_(
    "Keys: Enter/n next move, p back, t/T next/previous trick, h/H next/previous hand, "
    "g N hand N, e end, q quit."
)


@dataclass(frozen=True)
class Position:
    """The game after ``moves`` recorded actions, and what the last one was."""

    state: State
    moves: int
    said: str
    trick_end: bool = False  # the last move finished a trick
    hand_start: bool = False  # the hand was just dealt


def _said(look: Look, before: State, after: State, seat: int, action: int) -> str:
    """The move just made, in words (a replay sees every card)."""
    e = Decided(seat, action, before.phase, before.hand_no)
    draft = after.drafted() or ()
    lead = before.phase == PLAY and not before.trick
    said = narrate.move(
        look, e, lead=lead, private=True, declined=True, draft=draft, owner=before.exchange_seat
    )
    return "-" if said is None else plain(said)


def positions(
    rules: Rules, dealer: int, decks: Sequence[Sequence[int]], actions: Sequence[int], look: Look
) -> list[Position]:
    """Every position of a recorded game, from the first deal to the last action."""
    out: list[Position] = []
    before = State(rules, dealer)
    moves = 0
    for step in walk(rules, dealer, decks, actions):
        state = step.state.clone()
        if step.phase == DEAL:
            said = _("Hand {no} is dealt.").format(no=state.hand_no + 1)
            out.append(Position(state, moves, said, hand_start=True))
        else:
            moves += 1
            ended = step.phase == PLAY and not state.trick  # the card finished a trick
            out.append(Position(state, moves, _said(look, before, state, step.seat, step.action), ended))
        before = state
    return out


def render(look: Look, pos: Position, total: int, width: int) -> Fragments:
    """One position: where it is, every hand, the table, and the last move."""
    state = pos.state
    rules = look.rules
    over = pos.trick_end and state.phase != PLAY  # the hand's last trick: the hand is scored
    hand_no = state.results[-1].hand_no if over else state.hand_no
    where = _("Hand {no}, move {move} of {total}: ").format(no=hand_no + 1, move=pos.moves, total=total)
    out: Fragments = [(view.TITLE, where), ("", pos.said)]
    if over:
        return [*out, ("", "\n"), *view.hand_result(look, rules, state.results[-1])]
    for seat in range(rules.players):
        out += [("", f"\n{look.letter(seat)}  "), *look.hand(state.hand_of(seat))]
        if rules.players == 2 and state.phase in (DRAFT, DECLARE, EXCHANGE, DRAW):
            discards = state.observation(seat).own_discards
            if discards:
                out += [("", "  " + _("discarded:") + " "), *look.card_list(discards)]
    if state.phase == PLAY:
        obs = state.observation(0)
        if pos.trick_end and state.tricks:
            out += [("", "\n"), *look.finished_trick(len(state.tricks), state.tricks[-1])]
        else:
            out += [("", "\n"), *view.table_view(look, obs, width)]
    elif state.phase == BID:
        out += [("", "\n" + _("Bids: {bids}").format(bids=view.bids_text(look, state.observation(0))))]
    return out


def notes(look: Look, pos: Position, analysis: HandNotes) -> list[str]:
    """The hindsight analysis beside a position: a hand's double-dummy figures at its
    start, the costly cards of a trick at its end."""
    state = pos.state
    rules = look.rules
    if pos.hand_start:
        hand, trick = state.hand_no + 1, 0
    elif pos.trick_end:
        over = state.phase != PLAY
        hand = state.results[-1].hand_no + 1 if over else state.hand_no + 1
        trick = rules.hand_size if over else len(state.tricks)
    else:
        return []
    report = note_of(analysis, hand)
    if report is None:
        return []
    if trick == 0:
        return [f"Hindsight, hand {hand}: {deal_figures(rules, report)}."]
    flags = trick_notes(rules, report, trick)
    return [f"Hindsight: {f}" for f in flags] or [f"Hindsight: no card of trick {trick} gave up points."]


def _hand_no(word: str) -> bool:
    """Whether ``word`` is a hand number (digits 0-9, a few of them)."""
    return is_number(word) and len(word) <= 6


class Stepper:
    """Moves through the positions of one game as the keys say (with the hindsight
    analysis of its hands beside them when ``analysis`` is given)."""

    def __init__(
        self, look: Look, game: list[Position], width: int = 80, analysis: HandNotes | None = None
    ) -> None:
        self.look = look
        self.game = game
        self.total = game[-1].moves if game else 0
        self.width = width
        self.at = 0
        self.analysis = analysis

    def _find(self, step: int, test: str) -> int:
        i = self.at + step
        while 0 <= i < len(self.game):
            if getattr(self.game[i], test):
                return i
            i += step
        return len(self.game) - 1 if step > 0 else 0

    def move(self, key: str) -> str | None:
        """Move as ``key`` says; an error line for an unknown key, else None."""
        word, _sep, arg = key.strip().partition(" ")
        last = len(self.game) - 1
        hands = [i for i, p in enumerate(self.game) if p.hand_start]
        if word in ("", "n"):
            self.at = min(self.at + 1, last)
        elif word in ("p", "b"):
            self.at = max(self.at - 1, 0)
        elif word in ("t", "T"):
            self.at = self._find(1 if word == "t" else -1, "trick_end")
        elif word in ("h", "H"):
            self.at = self._find(1 if word == "h" else -1, "hand_start")
        elif word == "e":
            self.at = last
        elif (word == "g" and _hand_no(arg)) or _hand_no(word):
            n = int(arg if word == "g" else word)
            if not 1 <= n <= len(hands):
                return _("No hand {no}: this game has hands 1 to {last}.").format(no=n, last=len(hands))
            self.at = hands[n - 1]
        else:
            return _("Unknown key {key}.").format(key=repr(key.strip())) + " " + _(KEYS)
        return None

    def show(self) -> Fragments:
        frags = render(self.look, self.game[self.at], self.total, self.width)
        if self.analysis is not None:
            for line in notes(self.look, self.game[self.at], self.analysis):
                frags += [("", "\n"), (view.TITLE, line)]
        return view.wrap_frags(frags, self.width)


def step_through(
    rules: Rules,
    dealer: int,
    decks: Sequence[Sequence[int]],
    actions: Sequence[int],
    keys: TextIO | Callable[[], str | None],
    out: TextIO,
    *,
    symbols: bool = True,
    width: int = 80,
    analysis: HandNotes | None = None,
) -> None:
    """Show a recorded game position by position, moving as the lines of ``keys`` say (or
    as a reader of keys gives them: :func:`spades_cli.repl.keys.key_reader`, None at the
    end); with ``analysis``, the hindsight analysis of each hand beside its tricks."""
    look = Look(rules, symbols)
    stepper = Stepper(look, positions(rules, dealer, decks, actions, look), width, analysis)
    if not stepper.game:
        out.write(_("Nothing was played in this game.") + "\n")
        return
    read = keys if callable(keys) else lambda: keys.readline() or None
    out.write(view.wrap(_(KEYS), width) + "\n")
    if analysis is not None:
        out.write(view.wrap(f"Beside the tricks: {HINDSIGHT}.", width) + "\n")
    shown = plain(stepper.show())
    while True:
        out.write(shown + "\n")
        out.flush()
        line = read()
        if line is None or line.strip().lower() in ("q", "quit"):
            return
        problem = stepper.move(line.rstrip("\r\n"))
        shown = view.wrap(problem, width) if problem is not None else plain(stepper.show())
