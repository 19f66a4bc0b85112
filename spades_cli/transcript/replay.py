"""Replaying a transcript: a game run whose decisions come from the file.

:func:`replay` reads the lines in order and drives a :class:`~spades_cli.game.run.GameRun`:
decks and exchange draws through the run's chance, each decision through
:meth:`~spades_cli.game.run.GameRun.apply`, notes, seat changes, undos and terminations
through the run's own calls, so every subscriber (the printer, a writer) sees the same
events as in a live game. Every action is checked against the rules (IllegalActionError,
exit 1) and every recorded result against the engine's (MismatchError, exit 1); a
missing or misplaced part is a FileFormatError (exit 2). Every message is ``FILE:LINE: ...``.
"""

from __future__ import annotations

import io
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from spades_cli.engine import (
    BID,
    CHANCE,
    DEAL,
    DECLARE,
    DISCARD,
    DISCARD_PHASE,
    DRAFT,
    DRAW,
    EXCHANGE,
    EXCHANGE_DONE,
    KEEP,
    PASS,
    PLAY,
    IllegalAction,
    Phase,
    Rules,
    State,
    card_str,
)
from spades_cli.engine.notation import action_text
from spades_cli.errors import FileFormatError, IllegalActionError, MismatchError, SpadesError
from spades_cli.game.events import Emit
from spades_cli.game.match import Controller, Match
from spades_cli.game.run import GameRun
from spades_cli.transcript.checks import RecordedFacts, deck_problem, pile_problem, seat_problem, side_problem
from spades_cli.transcript.order import bids_started, draw_problem, out_of_order
from spades_cli.transcript.syntax import (
    KNOWN_TAGS,
    PHASE_WORDS,
    ActionsLine,
    BidsLine,
    DealLine,
    DeckLine,
    DeclareLine,
    DiscardLine,
    DraftLine,
    EndLine,
    ExchangeLine,
    HandLine,
    Line,
    NoteLine,
    PassLine,
    ResultLine,
    ScoreLine,
    SeatLine,
    TerminatedLine,
    Transcript,
    TrickLine,
    UndoLine,
)
from spades_cli.transcript.tags import first_dealer, transcript_rules
from spades_cli.transcript.writer import Header, TranscriptWriter

__all__ = ["ReplayResult", "header_for", "match_for", "replay", "write_transcript"]


class _Fixed:
    """A ChanceSource that serves the deck or card the replayer puts in front of it."""

    def __init__(self) -> None:
        self.next_deck: tuple[int, ...] | None = None
        self.next_draw: int | None = None

    def deck(self, state: State) -> Sequence[int] | None:
        deck, self.next_deck = self.next_deck, None
        return deck

    def draw(self, state: State, index: int, pool: Sequence[int]) -> int | None:
        card, self.next_draw = self.next_draw, None
        return card


class _Recorded:
    """The controller of a seat during replay: the replayer applies recorded actions itself."""

    def __init__(self, label: str) -> None:
        self.label = label

    def decide(self, match: Match, seat: int) -> int:
        raise IllegalAction("a replayed seat decides nothing by itself")


def match_for(
    t: Transcript,
    rules: Rules,
    *,
    controllers: Sequence[Controller] | None = None,
    seed: str | None = None,
    chance: Any = None,
) -> Match:
    """A fresh Match with the transcript's seed and first dealer."""
    labels = t.seat_labels()
    if controllers is None:
        controllers = [_Recorded(labels.get(n, "?")) for n in rules.seat_names]
    return Match(
        rules,
        seed if seed is not None else (t.seed if t.seed is not None else ""),
        controllers,
        dealer=first_dealer(t, rules),
        chance=chance,
    )


def header_for(t: Transcript, match: Match) -> Header:
    labels = t.seat_labels()
    assert match.dealer is not None
    known = set(KNOWN_TAGS)
    return Header(
        rules=match.rules,
        seed=t.seed,
        first_dealer=match.dealer,
        seats=tuple(labels.get(n) for n in match.rules.seat_names),
        rules_source=t.rules_source,
        overrides=tuple(t.overrides),
        extra_tags=tuple(tag for tag in t.tags if tag.name not in known),
    )


@dataclass
class ReplayResult:
    """What a replay found: the run at the end of the transcript and what it recorded."""

    run: GameRun
    labels: dict[int, str]  # who plays each seat at the end (Seat tags, then seat lines)
    ended: bool  # an end line was read
    header_labels: dict[int, str] = field(default_factory=dict)  # the Seat tags
    label_lines: dict[int, int] = field(default_factory=dict)  # where each seat's player was named
    terminated: tuple[int | None, str] | None = None
    notes: list[tuple[int | None, str]] = field(default_factory=list)

    @property
    def match(self) -> Match:
        return self.run.match


class _Replayer:
    def __init__(
        self,
        t: Transcript,
        run: GameRun,
        fixed: _Fixed,
        keep_end: bool,
    ) -> None:
        self.t = t
        self.run = run
        self.match = run.match
        self.rules = run.rules
        self.fixed = fixed
        self.keep_end = keep_end
        self.seats = {name: i for i, name in enumerate(self.rules.seat_names)}
        labels = t.seat_labels()
        first = {s: labels.get(n, "?") for s, n in enumerate(self.rules.seat_names)}
        self.result = ReplayResult(run, dict(first), ended=False, header_labels=first)
        tag_lines = {tag.values[0]: tag.line for tag in t.tags_named("Seat")}
        for s, n in enumerate(self.rules.seat_names):
            self.result.label_lines[s] = tag_lines.get(n, 1)
        self.pending: list[str] = []  # checks due after a hand ended: "result", "score"
        self.seen_results = 0
        self.want_deck: HandLine | None = None
        self.open_trick: TrickLine | None = None  # a complete trick whose line lacked "won"
        self.facts = RecordedFacts(self.rules, t.origin)  # dealers, winners, results, scores, the end
        run.subscribe(self.facts)

    # -- errors -------------------------------------------------------------------

    def fail(self, line: int, message: str, kind: type[SpadesError] = IllegalActionError) -> typing.NoReturn:
        raise kind(message, file=self.t.origin, line=line)

    def seat_index(self, name: str, line: int) -> int:
        seat = self.seats.get(name)
        if seat is not None:
            return seat
        problem = seat_problem(self.rules, name)
        if problem is not None:
            self.fail(line, problem, FileFormatError)
        return self.rules.seat_index(name)

    def side_index(self, name: str, line: int) -> int:
        problem = side_problem(self.rules, name)
        if problem is not None:
            self.fail(line, problem, FileFormatError)
        return [self.rules.side_name(s) for s in range(self.rules.sides)].index(name)

    def where(self) -> str:
        st = self.match.state
        if st.is_terminal():
            return "the game is over"
        if st.phase == DEAL:
            return f"hand {st.hand_no + 1} has not been dealt"
        who = self.rules.seat_names[st.current_player()] if st.current_player() >= 0 else "chance"
        if st.phase == PLAY:
            return f"hand {st.hand_no + 1}, trick {st.trick_no + 1}: {who} to play"
        return f"hand {st.hand_no + 1}: {who} to give {PHASE_WORDS[st.phase]}"

    # -- driving ------------------------------------------------------------------

    def run_lines(self) -> ReplayResult:
        for event in self.t.events:
            self.event(event)
        return self.result

    def event(self, e: Line) -> None:
        if self.result.ended:
            self.fail(e.line, "nothing may follow the end line", FileFormatError)
        if self.open_trick is not None:
            self.fail(
                self.open_trick.line,
                f"trick {self.open_trick.number} is complete: the line must end with 'won SEAT'",
                FileFormatError,
            )
        if self.pending and not isinstance(e, ResultLine | ScoreLine):
            self.fail(
                e.line,
                f"the {self.pending[0]} line of hand {self.match.state.results[-1].hand_no + 1} "
                "must come here",
                FileFormatError,
            )
        if self.want_deck is not None and not isinstance(e, DeckLine):
            self.fail(
                e.line,
                f"hand {self.want_deck.number}: a deck line must follow the hand line",
                FileFormatError,
            )
        _BY_KIND[type(e)](self, e)

    def declare(self, e: DeclareLine) -> None:
        self.act(e.line, e.seat, e.action, DECLARE)

    def passed(self, e: PassLine) -> None:
        self.act(e.line, e.seat, e.card, PASS)  # R-BN-4

    def discarded(self, e: DiscardLine) -> None:
        self.act(e.line, e.seat, e.card, DISCARD_PHASE)  # R-J-6

    def bids(self, e: BidsLine) -> None:
        for seat, bid in e.bids:
            self.act(e.line, seat, bid, BID, ordered=True)

    def note(self, e: NoteLine) -> None:
        who = self.seat_index(e.seat, e.line) if e.seat else None
        self.result.notes.append((who, e.text))
        self.run.note(who, e.text)

    def seat_line(self, e: SeatLine) -> None:
        changed = self.seat_index(e.seat, e.line)
        self.result.labels[changed] = e.label
        self.result.label_lines[changed] = e.line
        self.run.seat_changed(changed, e.label)

    def terminated(self, e: TerminatedLine) -> None:
        stopped = self.seat_index(e.seat, e.line) if e.seat else None
        self.result.terminated = (stopped, e.reason)
        self.run.terminate(stopped, e.reason)

    def script_actions(self, e: ActionsLine) -> None:
        self.fail(
            e.line,
            "'SEAT: actions' lines belong to scripts (spades run), not to transcripts",
            FileFormatError,
        )

    def script_deal(self, e: DealLine) -> None:
        self.fail(
            e.line,
            "deal lines belong to scripts (spades run); a transcript records the deck",
            FileFormatError,
        )

    def hand(self, e: HandLine) -> None:
        st = self.match.state
        if st.is_terminal():
            self.fail(e.line, "the game is over: no more hands")
        if st.phase != DEAL:
            self.fail(e.line, f"hand {st.hand_no + 1} is not finished ({self.where()})")
        if e.number != st.hand_no + 1:
            self.fail(e.line, f"this is hand {st.hand_no + 1}, not hand {e.number}")
        if e.dealer is not None:
            self.facts.dealt(st.hand_no, st.dealer)  # known before the deal
            self.facts.dealer(st.hand_no, self.seat_index(e.dealer, e.line), e.line)
        self.want_deck = e

    def deck(self, e: DeckLine) -> None:
        if self.want_deck is None:
            self.fail(e.line, "a deck line comes right after its hand line", FileFormatError)
        self.want_deck = None
        why = deck_problem(self.match.state.rules, e.cards)
        if why is not None:
            self.fail(e.line, why, FileFormatError)
        self.fixed.next_deck = e.cards
        self.run.step()

    def ready(self, line: int) -> State:
        st = self.match.state
        if st.is_terminal():
            self.fail(line, "the game is over: no more actions")
        if st.phase == DEAL:
            self.fail(
                line,
                f"hand {st.hand_no + 1} has no hand and deck lines before its first action",
                FileFormatError,
            )
        if st.current_player() == CHANCE:
            self.fail(
                line,
                "the card drawn in the exchange is missing: write 'exchange SEAT give CARD draw CARD'",
                FileFormatError,
            )
        return st

    def act(
        self,
        line: int,
        seat_name: str,
        action: int,
        phase: Phase,
        *,
        ordered: bool = False,
        trick: int | None = None,
    ) -> None:
        """Apply a line's action; ``ordered`` for a bids or trick line (``trick``: its number),
        whose seats act in the order written (transcript.order)."""
        st = self.ready(line)
        seat = self.seat_index(seat_name, line)
        names = self.rules.seat_names
        if st.phase != phase:
            self.fail(line, f"the line gives {PHASE_WORDS[phase]}, but now {self.where()}")
        if st.current_player() != seat and ordered:
            started = bool(st.trick) if trick is not None else bids_started(st)
            actual = st.current_player()
            self.fail(line, out_of_order(names, trick=trick, started=started, actual=actual, named=seat))
        if st.current_player() != seat:
            self.fail(line, f"{seat_name} cannot act now: {self.where()}")
        try:
            st.check(action)
        except IllegalAction as exc:
            self.fail(line, f"{names[seat]} {action_text(action)} is not legal: {exc.reason}")
        self.run.apply(seat, action)
        if len(self.match.state.results) > self.seen_results:
            self.seen_results = len(self.match.state.results)
            self.pending = ["result", "score"]

    def draft(self, e: DraftLine) -> None:
        st = self.ready(e.line)
        if e.cards is not None and st.draft_pair() is not None:
            problem = pile_problem(st, e.cards)
            if problem is not None:
                self.fail(e.line, problem, MismatchError)
        self.act(e.line, e.seat, KEEP if e.keep else DISCARD, DRAFT)

    def exchange(self, e: ExchangeLine) -> None:
        if e.give is None and e.draw is None:
            self.act(e.line, e.seat, EXCHANGE_DONE, EXCHANGE)
            return
        if e.give is not None:
            self.act(e.line, e.seat, e.give, EXCHANGE)
        if e.draw is None:
            return
        st = self.match.state
        if e.give is None and (st.phase != DRAW or self.seat_index(e.seat, e.line) != st.exchange_seat):
            self.fail(e.line, f"{e.seat} has no card to draw now ({self.where()})")
        if st.phase != DRAW:
            self.fail(e.line, f"{e.seat} has given all the cards allowed: nothing is drawn here")
        if not st.is_legal(e.draw):
            self.fail(e.line, draw_problem(st, st.exchange_seat, e.draw))
        self.fixed.next_draw = e.draw
        self.run.step()

    def trick(self, e: TrickLine) -> None:
        st = self.ready(e.line)
        if st.phase == PLAY and e.number != st.trick_no + 1:
            self.fail(
                e.line, f"this is trick {st.trick_no + 1} of hand {st.hand_no + 1}, not trick {e.number}"
            )
        hand = st.hand_no
        seat = e.seat
        completed: int | None = None
        n = self.rules.players
        for i, card in enumerate(e.cards):
            if completed is not None:
                self.fail(
                    e.line,
                    f"trick {e.number} was complete after {card_str(e.cards[i - 1])}: "
                    f"{card_str(card)} starts another trick (a new line)",
                )
            ends = len(self.match.state.trick) == n - 1  # this card completes the trick
            self.act(e.line, seat, card, PLAY, ordered=True, trick=e.number)
            last = self.match.state.last_trick
            if ends and last is not None:
                completed = last.winner
            seat = self.rules.seat_names[(self.rules.seat_index(seat) + 1) % n]
        if completed is None:
            if e.winner is not None:
                self.fail(e.line, f"trick {e.number} is not complete, yet the line names a winner")
            return
        if e.winner is None:
            self.open_trick = e
            if e is self.t.events[-1]:
                self.open_trick = None
            return
        self.facts.winner(hand, e.number, self.seat_index(e.winner, e.line), e.line)

    def _sides(self, items: Sequence[tuple[str, Any]], line: int, what: str) -> dict[int, Any]:
        out: dict[int, Any] = {}
        for name, value in items:
            side = self.side_index(name, line)
            if side in out:
                self.fail(line, f"{what} names {name} twice", FileFormatError)
            out[side] = value
        return out

    def check_result(self, e: ResultLine) -> None:
        if not self.pending or self.pending[0] != "result":
            self.fail(e.line, "a result line comes right after the last trick of a hand", FileFormatError)
        self.pending.pop(0)
        self._sides([(s, (t, p, b)) for s, t, p, b in e.sides], e.line, "the result")
        self.facts.result(self.match.state.results[-1].hand_no, e)

    def check_score(self, e: ScoreLine) -> None:
        if not self.pending or self.pending[0] != "score":
            self.fail(e.line, "a score line comes right after the result line of a hand", FileFormatError)
        self.pending.pop(0)
        self._sides(e.scores, e.line, "the score")
        self._sides(e.bags, e.line, "the bags")
        self.facts.score(self.match.state.results[-1].hand_no, e)

    def end(self, e: EndLine) -> None:
        st = self.match.state
        if e.winner is None:
            if st.is_terminal():
                winner = st.winner()
                assert winner is not None
                self.fail(
                    e.line,
                    f"the game is over ({self.rules.side_name(winner)} won), "
                    "but the end line says it is unfinished",
                    MismatchError,
                )
            if self.keep_end:
                self.run.finish("stopped")
        else:
            if not st.is_terminal():
                self.fail(
                    e.line,
                    f"the game is not over ({self.where()}), but the end line names a winner",
                    MismatchError,
                )
            self.facts.end(self.side_index(e.winner, e.line), e.line)
        self.result.ended = True

    def undo(self, e: UndoLine) -> None:
        seat = self.seat_index(e.seat, e.line)
        if self.match.state.current_player() == CHANCE and self.match.state.phase == DRAW:
            self.fail(e.line, "the card drawn in the exchange is missing before the undo", FileFormatError)
        try:
            self.run.undo(seat)
        except ValueError as exc:
            self.fail(e.line, str(exc))
        self.seen_results = len(self.match.state.results)


# Each kind of line and the _Replayer method that takes it (every kind of Line has one).
_BY_KIND: dict[type, Callable[[_Replayer, Any], None]] = {
    HandLine: _Replayer.hand,
    DeckLine: _Replayer.deck,
    DeclareLine: _Replayer.declare,
    DraftLine: _Replayer.draft,
    ExchangeLine: _Replayer.exchange,
    PassLine: _Replayer.passed,
    DiscardLine: _Replayer.discarded,
    BidsLine: _Replayer.bids,
    TrickLine: _Replayer.trick,
    ResultLine: _Replayer.check_result,
    ScoreLine: _Replayer.check_score,
    EndLine: _Replayer.end,
    NoteLine: _Replayer.note,
    SeatLine: _Replayer.seat_line,
    TerminatedLine: _Replayer.terminated,
    UndoLine: _Replayer.undo,
    ActionsLine: _Replayer.script_actions,
    DealLine: _Replayer.script_deal,
}


def replay(
    t: Transcript,
    rules: Rules | None = None,
    *,
    watchers: Sequence[Callable[[GameRun], Emit]] = (),
    writer: TranscriptWriter | None = None,
    keep_end: bool = True,
) -> ReplayResult:
    """Replay a transcript: every action is checked against the rules (IllegalActionError,
    exit 1), every recorded result against the engine's (MismatchError, exit 1); a missing
    or misplaced part is a FileFormatError (exit 2). Every message is ``FILE:LINE: ...``.

    ``writer`` (if given) receives the header and the whole game, which makes it
    canonical; ``keep_end=False`` leaves out an ``end *`` line (resume). Each of
    ``watchers`` is called with the run and subscribes what it returns to the run's
    events, as in a live game (the printer of ``spades replay``). The returned result holds the run, ready to
    go on from the file's last action once its seats are given players (resume).
    """
    if rules is None:
        found = transcript_rules(t)
        assert found is not None
        rules = found
    fixed = _Fixed()
    match = match_for(t, rules, chance=fixed)
    if writer is not None:
        writer.write_header(header_for(t, match))
    run = GameRun(match, writer=writer, origin=t.origin)
    for watcher in watchers:
        run.subscribe(watcher(run))
    replayer = _Replayer(t, run, fixed, keep_end)
    try:
        return replayer.run_lines()
    except IllegalAction as exc:  # a defect of the checks above: still name the place
        raise IllegalActionError(str(exc), file=t.origin, line=t.last_line) from None
    finally:
        match.chance = None


def write_transcript(t: Transcript, rules: Rules | None = None) -> str:
    """The canonical text of a transcript (it is replayed, so it must be legal)."""
    buf = io.StringIO()
    replay(t, rules, writer=TranscriptWriter(buf))
    return buf.getvalue()
