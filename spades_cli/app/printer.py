"""The line printer of ``run``, ``resume`` and ``replay``: a game's events as plain lines.

A :class:`Printer` subscribes to a :class:`~spades_cli.game.run.GameRun` and renders
through :mod:`spades_cli.view`: each hand's bids, result and running score; with
``detail`` also the hands, declarations, exchanges, every trick and the notes. ``step``
(``replay --step``) is called after each trick and each hand.
"""

from __future__ import annotations

from collections.abc import Callable

from spades_cli.engine import BID, DECLARE, DISCARD_PHASE, DRAW, EXCHANGE, EXCHANGE_DONE, PLAY, Trick
from spades_cli.engine.text import safe_line
from spades_cli.game.events import (
    Decided,
    Event,
    GameOver,
    HandScored,
    HandStarted,
    Noted,
    SeatChanged,
    Terminated,
    TrickWon,
    Undone,
)
from spades_cli.game.run import GameRun
from spades_cli.i18n import _
from spades_cli.view import (
    Look,
    ansi,
    narrate,
    render_bids,
    render_card,
    render_deal,
    render_hand_result,
    render_scores,
    render_trick,
)

__all__ = ["Printer", "progress"]


class Printer:
    """Shows a game as it goes (subscribe it to the run: ``run.subscribe(printer)``)."""

    def __init__(
        self,
        run: GameRun,
        echo: Callable[[str], None],
        *,
        detail: bool,
        symbols: bool = True,
        color: bool = False,
        step: Callable[[], None] | None = None,
    ) -> None:
        self.run = run
        self.rules = run.rules
        self.echo = echo
        self.detail = detail
        self.symbols = symbols
        self.color = color
        self.step = step
        self.look = Look(self.rules, symbols)

    def card(self, card: int) -> str:
        return render_card(card, symbols=self.symbols, color=self.color)

    def __call__(self, e: Event) -> None:
        if isinstance(e, HandStarted):
            self.dealt(e)
        elif isinstance(e, Decided):
            self.decided(e)
        elif isinstance(e, TrickWon):
            self.trick(e)
        elif isinstance(e, HandScored):
            self.scored(e)
        elif isinstance(e, GameOver):
            if e.winner is not None:
                scores = self.run.state.scores
                side = self.rules.side_name(e.winner)
                said = _("Winner: {side} ({won} to {lost})")
                lost = self.look.losers(scores, e.winner)
                self.echo("\n" + said.format(side=side, won=scores[e.winner], lost=lost))
        else:
            self.remark(e)

    def dealt(self, e: HandStarted) -> None:
        said = (
            _("Hand {no} (first player {seat})")
            if self.rules.players == 2
            else _("Hand {no} (dealer {seat})")
        )
        self.echo("\n" + said.format(no=e.hand_no + 1, seat=self.rules.seat_names[e.dealer]))
        if self.run.state.phase in (BID, PLAY, DISCARD_PHASE):  # (R-J-6: the cards left over too)
            self.show_hands()

    def show_hands(self) -> None:
        if self.detail:
            st = self.run.state
            hands = [st.hand_of(s) for s in range(self.rules.players)]
            self.echo(render_deal(hands, self.rules, symbols=self.symbols, color=self.color))

    def decided(self, e: Decided) -> None:
        st = self.run.state
        phase = e.phase
        if self.detail and phase in (DECLARE, EXCHANGE, DRAW, DISCARD_PHASE) and e.action != EXCHANGE_DONE:
            said = narrate.move(self.look, e, private=True, owner=st.exchange_seat)
            if said is not None:
                self.echo(ansi(said, self.color))
        if phase not in (BID, PLAY) and st.phase in (BID, PLAY):
            self.show_hands()
        if phase != PLAY and st.phase == PLAY:
            order = [(st.dealer + 1 + i) % self.rules.players for i in range(self.rules.players)]
            bids: list[int | None] = [b if b >= 0 else None for b in st.bids]
            self.echo(
                _("Bids: {bids}").format(
                    bids=render_bids(bids, self.rules, blind=st.blind, order=order, zero=st.zero)
                )
            )

    def trick(self, e: TrickWon) -> None:
        if not self.detail:
            return
        trick = Trick(e.leader, tuple(card for _, card in e.cards), e.winner)
        self.echo(render_trick(trick, self.rules, number=e.trick_no, symbols=self.symbols, color=self.color))
        if self.step is not None and e.trick_no < self.rules.hand_size:
            self.step()

    def scored(self, e: HandScored) -> None:
        self.echo(render_hand_result(e.result, self.rules))
        self.echo(render_scores(e.scores, e.bags, self.rules))
        if self.step is not None and not self.run.state.is_terminal():
            self.step()

    def remark(self, e: Event) -> None:
        names = self.rules.seat_names
        if isinstance(e, Noted):
            if self.detail:
                who = f"{names[e.seat]}: " if e.seat is not None else ""
                self.echo(_("Note: {who}{text}").format(who=who, text=safe_line(e.text)))
        elif isinstance(e, SeatChanged):
            self.echo(_("{seat} is now played by {who}").format(seat=names[e.seat], who=e.label))
        elif isinstance(e, Undone):
            self.echo(_("{seat} takes back the last decision (undo)").format(seat=names[e.seat]))
        elif isinstance(e, Terminated):
            who = f" ({names[e.seat]})" if e.seat is not None else ""
            self.echo(_("The game was stopped{who}: {reason}").format(who=who, reason=e.reason))


def progress(text: str, run: GameRun) -> str:
    """``text`` followed by where the game stands: ``(hand 3, trick 5)``."""
    st = run.state
    if st.is_terminal():
        return text
    if st.phase == PLAY:
        return f"{text} (hand {st.hand_no + 1}, trick {st.trick_no + 1})"
    return f"{text} (hand {st.hand_no + 1}, {st.phase})"
