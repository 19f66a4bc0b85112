"""One game's life: :class:`GameRun`.

Every front door (``play``, ``run``, ``resume``, ``replay``, ``simulate``, a network
table) runs its game through one ``GameRun``. It holds the :class:`~spades_cli.game.match.Match`
(the engine driver: chance from the seed or a file, the controller on turn), the
transcript writer (optional: ``simulate`` may run without one), the hand cap and the
programs that play seats. It owns the one step loop (:meth:`GameRun.play`), turns what
happens into the typed events of :mod:`spades_cli.game.events` and hands them to its
subscribers (the printer, the prompt, the replay checker, statistics), after the writer
has saved them. :meth:`GameRun.finish` is the one place where a game that stops before
its end is marked ``end *``; leaving the ``with`` block finishes the run and closes
every controller it holds.

Decisions come from the seats' controllers (:meth:`step`), or from a front end that
supplies them for a seat played by a person (:meth:`apply`): the prompt, a network
table, or a transcript being replayed.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Callable, Iterator, Sequence
from types import TracebackType
from typing import Any, Protocol

from spades_cli.engine import CHANCE, DEAL, PLAY, HandResult, IllegalAction, Rules, State
from spades_cli.engine.walk import Walk
from spades_cli.errors import (
    IllegalActionError,
    Interrupted,
    SeatFailure,
    SpadesError,
    on_signals,
)
from spades_cli.game.events import (
    Decided,
    Emit,
    Event,
    GameOver,
    GameStarted,
    HandScored,
    HandStarted,
    Noted,
    SeatChanged,
    Terminated,
    TrickWon,
    Undone,
)
from spades_cli.game.match import BaseListener, Controller, Match
from spades_cli.game.seats import Program, bot_log_path, close_players

__all__ = ["DEFAULT_MAX_HANDS", "GameRun", "Recorder", "Relay", "actors", "stop_signals", "take_back"]

DEFAULT_MAX_HANDS = 200
"""``run`` and ``resume`` stop after this many hands unless ``--max-hands`` says otherwise."""


class _Tracker(BaseListener):
    """Turns the Match's listener calls into typed events, queued for the run to publish."""

    def __init__(self, queue: list[Event]) -> None:
        self.queue = queue
        self.phase = DEAL
        self.hand_no = 0
        self.trick_no = 0
        self.in_trick = 0  # cards played to the trick in progress

    def sync(self, st: State) -> None:
        self.phase = st.phase
        self.hand_no = st.hand_no
        self.trick_no = st.trick_no
        self.in_trick = len(st.trick)

    def on_deal(self, match: Match, hand_no: int, deck: tuple[int, ...]) -> None:
        self.sync(match.state)
        self.queue.append(HandStarted(hand_no, match.state.dealer, deck))

    def on_action(self, match: Match, seat: int, action: int) -> None:
        st = match.state
        self.queue.append(Decided(seat, action, self.phase, self.hand_no))
        n = match.rules.players
        trick = st.last_trick
        if self.phase == PLAY and self.in_trick == n - 1 and trick is not None:
            cards = tuple((trick.seat_of(i, n), c) for i, c in enumerate(trick.cards))
            self.queue.append(TrickWon(self.hand_no, self.trick_no + 1, trick.leader, cards, trick.winner))
        self.sync(st)

    def on_hand_end(self, match: Match, result: HandResult) -> None:
        sides = result.sides
        scores = tuple(s.score for s in sides)
        self.queue.append(HandScored(result.hand_no, result, scores, tuple(s.bags_total for s in sides)))

    def on_game_end(self, match: Match) -> None:
        self.queue.append(GameOver(match.state.winner(), "won", len(match.state.results)))


class Recorder(Protocol):
    """Where a run saves what happens, before anyone hears it: a
    :class:`spades_cli.transcript.writer.TranscriptWriter`. ``path`` is the file (None for
    a stream); the programs' logs go beside it."""

    path: str | None

    def record(self, events: Sequence[Event], state: State) -> None: ...

    def close(self) -> None: ...


class Relay:
    """What players made before their run say for the record (the ``emit`` of a ``--then``
    program, a scripted seat's takeover): given to them when they are made, and to the
    :class:`GameRun` when it is built (``said``), which records all of it."""

    def __init__(self) -> None:
        self._listeners: list[Emit] = []

    def subscribe(self, listener: Emit) -> None:
        self._listeners.append(listener)

    def __call__(self, event: Event) -> None:
        for listener in list(self._listeners):
            listener(event)


class GameRun:
    """One game from its first action (or the last action of a resumed file) to its end."""

    def __init__(
        self,
        match: Match,
        *,
        writer: Recorder | None = None,
        max_hands: int | None = None,
        origin: str | None = None,
        bot_timeout: float | None = None,
        on_bot_failure: str | None = None,
        owned: Sequence[object] = (),
        said: Relay | None = None,
        cap_note: str = "stopped after {hands}, the limit (--max-hands)",
    ) -> None:
        self.match = match
        self.cap_note = cap_note  # the note written when the hand cap stops the game
        self.writer = writer
        self.max_hands = max_hands
        self.origin = origin  # the file named in messages about a seat's action (a script)
        self.bot_timeout = bot_timeout
        self.on_bot_failure = on_bot_failure
        self.outcome: GameOver | None = None
        self.stop_requested: int | None = None  # a signal noted by stop_signals()
        self._owned = list(owned)  # more things to close at the end (a --then program)
        self._subscribers: list[Emit] = []
        self._queue: list[Event] = []
        self._tracker = _Tracker(self._queue)
        self._tracker.sync(match.state)
        self._programs: list[Program] = []  # the programs seated by __enter__
        match.listeners.insert(0, self._tracker)
        if said is not None:
            said.subscribe(self.report)  # what its players made before it say

    @classmethod
    def new(
        cls,
        rules: Rules,
        seed: int | str,
        controllers: Sequence[Controller],
        *,
        dealer: int | None = None,
        **options: Any,
    ) -> GameRun:
        """A run of a new game of ``rules`` with ``seed`` (the first dealer from the seed
        unless the rules or ``dealer`` fix it)."""
        return cls(Match(rules, seed, controllers, dealer=dealer), **options)

    # -- what a front end reads ---------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self.match.rules

    @property
    def state(self) -> State:
        return self.match.state

    @property
    def over(self) -> bool:
        """The run has ended: the game was won, or it was finished early (see ``outcome``)."""
        return self.outcome is not None or self.match.finished

    @property
    def labels(self) -> list[str]:
        return [c.label for c in self.match.controllers]

    def subscribe(self, fn: Emit) -> None:
        """Call ``fn`` with every event from now on (after the transcript has it)."""
        self._subscribers.append(fn)

    def go_on_with(
        self,
        controllers: Sequence[Controller],
        *,
        max_hands: int | None,
        bot_timeout: float | None,
        on_bot_failure: str | None,
    ) -> None:
        """A game replayed from its file goes on with these players (``resume``): the
        controllers of every seat, the hand cap and the programs' time limit and fallback
        (the programs are seated when the run begins)."""
        self.match.controllers = list(controllers)
        self.max_hands = max_hands
        self.bot_timeout = bot_timeout
        self.on_bot_failure = on_bot_failure

    # -- the one loop -------------------------------------------------------------------

    def start(self, *, resumed: bool = False) -> None:
        """Tell the subscribers who plays (GameStarted); the transcript's header said it."""
        assert self.match.dealer is not None
        self._publish([GameStarted(str(self.match.seed), tuple(self.labels), self.match.dealer, resumed)])

    def play(self, until: Callable[[], bool] | None = None, *, max_actions: int | None = None) -> None:
        """Play until the game ends, the hand cap is reached (the run is then finished with
        reason ``max-hands``), ``until()`` is true (a person must decide) or ``max_actions``
        decisions and draws have been made (tests, benchmarks)."""
        done = 0
        while not self.over:
            self.stop_if_asked()
            if until is not None and until():
                return
            if self.max_hands is not None and len(self.state.results) >= self.max_hands:
                played = len(self.state.results)
                hands = f"{played} hand" if played == 1 else f"{played} hands"
                self.finish("max-hands", note=self.cap_note.format(hands=hands))
                return
            if max_actions is not None and done >= max_actions:
                return
            self.step()
            done += 1

    def stop_if_asked(self) -> None:
        """A signal noted by :func:`stop_signals` stops the game here, between two actions."""
        signum, self.stop_requested = self.stop_requested, None
        if signum is None:
            return
        if signum == getattr(signal, "SIGINT", None):
            raise KeyboardInterrupt
        raise Interrupted(signum)

    def step(self) -> None:
        """One action: chance, or the controller of the seat on turn."""
        seat = self.state.current_player()
        try:
            self.match.step()
        except IllegalAction as exc:
            self._queue.clear()
            raise self._illegal(seat, exc) from None
        self._flush()

    def apply(self, seat: int, action: int) -> None:
        """A decision made outside the seats' controllers (the prompt, a network table, a
        replayed file); IllegalAction if it is not legal (nothing changes then)."""
        try:
            self.match.apply(seat, action)
        except IllegalAction:
            self._queue.clear()
            raise
        self._flush()

    def _illegal(self, seat: int, exc: IllegalAction) -> SpadesError:
        if seat == CHANCE:
            message = f"the cards fixed for this game cannot be used: {exc}"
            return IllegalActionError(message, file=self.origin)
        who = self.rules.seat_names[seat] if seat >= 0 else "nobody"
        label = self.match.controllers[seat].label if seat >= 0 else ""
        return IllegalActionError(f"{who} ({label}) chose an illegal action: {exc}", file=self.origin)

    # -- remarks and changes from outside the game's rules ----------------------------

    def note(self, seat: int | None, text: str) -> None:
        self._publish([Noted(seat, text)])

    def report(self, event: Event) -> None:
        """An event from a seat (a program's note, its termination): recorded and passed on.
        This is the ``emit`` of the programs the run seats (:meth:`__enter__`)."""
        self._publish([event])

    def seat_changed(self, seat: int, label: str) -> None:
        """From here on ``label`` plays ``seat`` (a takeover, a resume with --seat)."""
        self._publish([SeatChanged(seat, label)])

    def terminate(self, seat: int | None, reason: str) -> None:
        """The game cannot go on (a failed program): recorded; ``finish`` follows."""
        self._publish([Terminated(seat, reason)])

    def undo(self, seat: int) -> int:
        """``seat`` takes back its last decision and everything after it; returns how many
        actions were taken back (ValueError if the seat has decided nothing yet)."""
        history = self.state.history
        remaining = take_back(self.match, seat)
        self.match.rebuild(remaining)
        self._tracker.sync(self.state)
        removed = len(history) - len(remaining)
        self._publish([Undone(seat, removed)])
        return removed

    # -- the end ------------------------------------------------------------------------

    def finish(self, reason: str, *, note: str | None = None) -> GameOver:
        """End the run (``end *`` in the transcript when the game is not over); returns the
        outcome. A run that has ended already keeps its outcome."""
        if self.outcome is not None:
            return self.outcome
        st = self.state
        if st.is_terminal():  # won: the GameOver event went out with the last trick
            self.outcome = GameOver(st.winner(), "won", len(st.results))
            return self.outcome
        events: list[Event] = [Noted(None, note)] if note else []
        self._publish([*events, GameOver(None, reason, len(st.results))])
        assert self.outcome is not None
        return self.outcome

    def close(self) -> None:
        """Close the writer and every controller and program this run holds."""
        close_players([*self.match.controllers, *self._owned])
        if self.writer is not None:
            self.writer.close()

    def __enter__(self) -> GameRun:
        """Seat the programs (:class:`~spades_cli.game.seats.Program`): each gets the run's
        time limit and fallback, its log beside the transcript, and :meth:`report` for its
        notes and its termination."""
        rules = self.rules
        path = self.writer.path if self.writer is not None else None
        controllers = list(self.match.controllers)
        for seat, controller in enumerate(controllers):
            if isinstance(controller, Program):
                log = bot_log_path(path, rules.seat_names[seat])
                program = controller.seated(
                    self.report, seat, timeout=self.bot_timeout, fallback=self.on_bot_failure, log_path=log
                )
                self._programs.append(program)
                controllers[seat] = program
        self.match.controllers = controllers
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        try:
            programs, self._programs = self._programs, []
            for program in programs:
                program.close()  # a failed program has recorded its termination already
        finally:
            try:
                if not self.over:
                    self.finish(_reason(exc))
            finally:
                self.close()

    # -- publishing ---------------------------------------------------------------------

    def _flush(self) -> None:
        events = list(self._queue)
        self._queue.clear()
        self._publish(events)

    def _publish(self, events: Sequence[Event]) -> None:
        if not events:
            return
        if self.writer is not None:
            self.writer.record(events, self.state)  # first: saved before anyone can fail
        for event in events:
            if isinstance(event, GameOver):
                self.outcome = event
            for fn in list(self._subscribers):
                fn(event)


def _reason(exc: BaseException | None) -> str:
    """Why a run left its ``with`` block without a winner."""
    if exc is None:
        return "stopped"
    if isinstance(exc, KeyboardInterrupt):
        return "interrupted"
    if isinstance(exc, SeatFailure):
        return "terminated"
    if isinstance(exc, SpadesError) and exc.exit_code == 3:
        return "stopped"
    return "failed"


@contextlib.contextmanager
def stop_signals(run: GameRun) -> Iterator[None]:
    """While the block runs, Ctrl-C, SIGTERM and SIGHUP are noted and stop the game between
    two actions, never in the middle of writing one or of a wait (a hosted table's waits
    ask the run through ``stop_if_asked``): the run's loop raises KeyboardInterrupt
    (exit 130) or :class:`~spades_cli.errors.Interrupted` (exit 143), and the run saves
    ``end *``. A signal the process inherited as ignored (``nohup``) stays ignored."""

    def note(signum: int, frame: object) -> None:
        run.stop_requested = signum

    with on_signals(note, ("SIGINT", "SIGTERM", "SIGHUP")):
        yield


# ------------------------------------------------------------------------------ undo


def actors(rules: Rules, dealer: int, decks: Sequence[Sequence[int]], actions: Sequence[int]) -> list[int]:
    """The seat that took each action (-1 for chance draws), replaying from the first deal."""
    walked = Walk(rules, dealer, decks)
    return [walked.apply(action).seat for action in actions]


def take_back(match: Match, seat: int) -> list[int]:
    """The actions that remain when ``seat`` takes back its last decision (and everything after
    it). ValueError if the seat has not decided anything yet."""
    assert match.dealer is not None
    history = list(match.state.history)
    who = actors(match.rules, match.dealer, match.decks, history)
    for i in range(len(history) - 1, -1, -1):
        if who[i] == seat:
            return history[:i]
    raise ValueError(f"{match.rules.seat_names[seat]} has no decision to take back")
