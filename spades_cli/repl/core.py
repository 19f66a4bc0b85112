"""The play session: one game at the prompt, independent of any terminal library.

A :class:`PlaySession` holds the :class:`~spades_cli.game.match.Match`. It takes one line of
input at a time (a move or a command) and returns what to show as a list of
:class:`Output` items: replies, one-line errors, the moves of the other seats, trick and
hand summaries, and the view of the table when a person must decide. Between two
inputs it lets the bots (and chance) move until a human seat is on turn again.

Two front ends drive it: the prompt_toolkit prompt (``repl.prompt``) and the plain
batch mode for pipes (``repl.batch``). Both show the same outputs; the prompt adds
colour, a toolbar, completion and pauses between bot moves.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from spades_cli import view
from spades_cli.engine import (
    BID_BASE,
    BLIND,
    DEAL,
    DISCARD_PHASE,
    DRAFT,
    EXCHANGE,
    EXCHANGE_DONE,
    KEEP,
    MAX_BID,
    NO_BLIND,
    PASS,
    PLAY,
    ZERO,
    HandResult,
    IllegalAction,
    Observation,
    Phase,
    State,
    Trick,
    sees_pass,
    zero_at,
)
from spades_cli.engine.cards import is_card
from spades_cli.engine.walk import walk
from spades_cli.errors import EXIT_OK, EXIT_UNFINISHED
from spades_cli.game.events import Decided, Event, GameOver, HandScored, HandStarted, TrickWon
from spades_cli.game.match import Match
from spades_cli.game.run import GameRun
from spades_cli.i18n import _, canonical, ngettext
from spades_cli.repl.claim import Claim
from spades_cli.session import moves
from spades_cli.session.commands import LEAVE_WORDS, answer, default_hint_level
from spades_cli.session.output import (
    ASK,
    ERROR,
    GAME,
    GAP,
    HAND,
    HANDOFF,
    INFO,
    MOVE,
    OWN,
    PAUSE,
    REPLY,
    STATUS,
    TABLE,
    TRICK,
    VIEW,
    Output,
)
from spades_cli.session.undo import UNDO_DEFAULT, seen_since
from spades_cli.view import Fragments, Look, narrate, text

__all__ = [
    "ASK",
    "ERROR",
    "GAME",
    "GAP",
    "HAND",
    "HANDOFF",
    "INFO",
    "MOVE",
    "OWN",
    "PAUSE",
    "REPLY",
    "STATUS",
    "TABLE",
    "TRICK",
    "VIEW",
    "Output",
    "PlaySession",
    "PromptSeat",
]

HANDS_SHOWN = 6  # the end of a hand shows the score table of the last few hands


class PromptSeat:
    """The controller of a seat played at the prompt: it plays what the session hands it."""

    label = "human"

    def __init__(self) -> None:
        self.pending: int | None = None

    def decide(self, match: Match, seat: int) -> int:
        if self.pending is None:
            raise RuntimeError(f"seat {match.rules.seat_names[seat]} waits for a move typed at the prompt")
        action, self.pending = self.pending, None
        return action


@dataclass
class _HandLog:
    """What the session remembers of the hands: who made each action, the tricks."""

    actors: list[int] = field(default_factory=list)  # per action of the history; -1 = chance
    tricks: list[Trick] = field(default_factory=list)  # finished tricks of the current hand
    previous: Trick | None = None  # the last trick of the previous hand
    previous_no: int = 0


class PlaySession:
    """One game played at the prompt by the seats in ``humans``; the others are bots."""

    def __init__(
        self,
        game: GameRun | Match,
        humans: Iterable[int],
        *,
        symbols: bool = True,
        transcript_path: str | None = None,
        hint_level: str | None = None,
        width: int = 80,
        ask_again: bool = False,
        undo: str = UNDO_DEFAULT,
        autoplay: bool = False,
        manual: Iterable[int] = (),
    ) -> None:
        self.run = game if isinstance(game, GameRun) else GameRun(game)
        match = self.match = self.run.match
        self.rules = match.rules
        self.humans = frozenset(humans)
        self.look = Look(match.rules, symbols)
        self.transcript_path = transcript_path
        self.hint_level = hint_level or default_hint_level()
        self.shared = False  # the game is played here (the SeatView of the commands)
        self.extra_help: tuple[str, ...] = ()
        self.width = width  # the columns the front end writes to: views fit in them
        self.ask_again = ask_again  # at the end of the game: "Play again? (yes/no)"
        self.undo = undo  # how far undo goes (session.undo: always, before-new-info, never)
        self.autoplay = autoplay  # play a person's only legal card for them (--autoplay)
        self.manual = frozenset(manual)  # seats that type even their only legal card (human:noautoplay)
        self._forced = False  # the move being applied is such a card
        self.asking_again = False
        self.play_again = False
        self.viewer: int | None = None  # the human whose cards are on the screen
        self.confirming = False
        self.left = False
        self._out: list[Output] = []
        self._last_status = ""
        self._log = _HandLog()
        self._phase = match.state.phase
        self._seen_results = len(match.state.results)
        self.run.subscribe(self._on_event)
        self._resync()

    # -- state of the session ---------------------------------------------------------

    @property
    def state(self) -> State:
        return self.match.state

    @property
    def finished(self) -> bool:
        return self.match.finished

    @property
    def done(self) -> bool:
        """The front end should stop asking for input."""
        return self.left or (self.finished and not self.asking_again)

    @property
    def exit_code(self) -> int:
        return EXIT_OK if self.finished else EXIT_UNFINISHED

    @property
    def on_turn(self) -> int | None:
        """The human seat that must decide now, if any."""
        seat = self.state.current_player()
        return seat if seat in self.humans else None

    def observation(self) -> Observation | None:
        seat = self.on_turn if self.on_turn is not None else self.viewer
        return None if seat is None else self.match.observation(seat)

    # -- the two things a front end does ----------------------------------------------

    def start(self, intro: Iterable[str] = ()) -> list[Output]:
        """Show ``intro`` lines, then let the bots move until a person must decide."""
        for line in intro:
            self._emit(INFO, text(line))
        if self.finished:
            self._game_over()
        else:
            self._advance()
        return self._take()

    def handle(self, line: str) -> list[Output]:
        """One line of input: a move, a command, or the answer to a question."""
        entry = line.strip()
        if self.done:
            return []
        if self.asking_again:
            self._answer_again(canonical(entry).lower())
            return self._take()
        if self.confirming:
            self.confirming = False
            if canonical(entry).lower() in LEAVE_WORDS:
                self._leave()
            else:
                self._emit(REPLY, text(_("Still playing.")))
            return self._take()
        if not entry:
            return []
        shown = answer(self, entry)  # a handler may take what was shown: so not `+=` at once
        if shown is None:
            self._move(entry)
        else:
            self._out += shown
        return self._take()

    def _answer_again(self, word: str) -> None:
        """``Play again? (yes/no)``: each answer has one spelling, as every word at the table."""
        if word in ("yes", "no"):
            self.asking_again = False
            self.play_again = word == "yes"
            return
        guess = "yes" if word.startswith("y") else "no" if word.startswith("n") else None
        if guess is None:
            self._error(_("Type yes or no."))
        else:
            self._error(_("Type yes or no: did you mean {word}?").format(word=repr(_(guess))))

    def leave(self) -> list[Output]:
        """End of input (Ctrl-D, a closed pipe): the game stays saved."""
        self.asking_again = False
        if not self.done:
            self._leave()
        return self._take()

    # -- what the prompt shows besides the outputs ---------------------------------------

    def prompt_text(self) -> str:
        if self.asking_again:
            return _("Play again? (yes/no)") + " "
        if self.confirming:
            return _("Leave the game? (yes/no)") + " "
        seat = self.on_turn
        if seat is None:
            return "> "
        return f"{self.look.letter(seat)} {moves.prompt_word(self.state.phase, self.rules.players)}> "

    def status(self) -> list[str]:
        """The parts of the status line (hand, bids, tricks, score, spades); empty before a turn."""
        obs = self.observation()
        return view.status_parts(self.look, obs) if obs is not None else []

    def completions(self) -> list[tuple[str, str, str]]:
        """``(text to insert, label shown, note)`` for the legal moves and the commands."""
        if self.asking_again:
            return [("yes", "yes", "a new game, same rules and seats"), ("no", "no", "stop here")]
        if self.confirming:
            return [("yes", "yes", "leave the game (it stays saved)"), ("no", "no", "keep playing")]
        return moves.completions(self.look, self.rules, self.deciding())

    # -- what the commands ask (the SeatView of spades_cli.session) --------------------

    def deciding(self) -> Observation | None:
        seat = self.on_turn
        return None if seat is None else self.match.observation(seat)

    def up_to_date(self) -> bool:
        return True

    def hand_tricks(self) -> list[Trick]:
        return self._log.tricks

    def previous_trick(self) -> tuple[Trick, int] | None:
        log = self._log
        return None if log.previous is None else (log.previous, log.previous_no)

    def hands_scored(self) -> Sequence[HandResult]:
        return self.state.results

    def hint_rng(self) -> random.Random:
        return self.match.rng("hint")

    # -- moves ----------------------------------------------------------------------

    def _move(self, entry: str) -> None:
        seat = self.on_turn
        if seat is None:
            self._error(_("Nothing to decide now."))
            return
        parsed = self._parse(entry)
        if isinstance(parsed, str):
            self._error(parsed)
            return
        self.run.apply(seat, parsed)
        self._advance()

    def _parse(self, entry: str) -> int | str:
        """The legal action ``entry`` names, or one line saying why it is not one."""
        state = self.state
        obs = self.deciding()
        assert obs is not None
        action = moves.read_move(entry, obs, self.look)
        if isinstance(action, str):
            return action
        try:
            state.check(action, symbols=self.look.symbols)
        except IllegalAction as exc:
            return moves.sentence(moves.engine_words(exc.reason))
        return action

    def _advance(self, *, autoplay: bool = True) -> None:
        """Let chance and the bots move until a human must decide or the game ends; with
        ``autoplay`` (and ``--autoplay``) a human's only legal card is played for it."""
        while True:
            self.run.play(until=lambda: self.state.current_player() in self.humans)
            seat = self.state.current_player()
            if self.finished or seat not in self.humans:
                return
            legal = self.state.legal_actions()
            forced = autoplay and self.autoplay and seat not in self.manual
            if not (forced and self.state.phase == PLAY and len(legal) == 1):
                self._turn(seat)
                return
            self._forced = True
            try:
                self.run.apply(seat, legal[0])
            finally:
                self._forced = False

    def _turn(self, seat: int) -> None:
        if self.viewer != seat and len(self.humans) > 1:
            name = self.look.seat(seat)
            self._emit(
                HANDOFF, text(_("{seat}'s turn: pass the keyboard to {seat}.").format(seat=name)), seat
            )
        self.viewer = seat
        self._show_turn(seat)

    def _show_turn(self, seat: int) -> None:
        shown, self._last_status = moves.turn_view(
            self.look, self.match.observation(seat), self.width, self._last_status
        )
        self._out += shown

    # -- taking back a decision ---------------------------------------------------------

    def take_back(self) -> list[Output]:
        """Undo the last decision of the seat on turn and the moves made after it."""
        self._undo()
        return self._take()

    def _undo(self) -> None:
        seat = self.on_turn
        if seat is None:
            self._error(_("Nothing to undo now."))
            return
        actors = self._log.actors
        history = self.state.history
        mine = [i for i, s in enumerate(actors) if s == seat]
        if not mine:
            self._error(
                _("{seat} has made no decision yet: nothing to undo.").format(seat=self.look.seat(seat))
            )
            return
        index = mine[-1]
        if history[index] in (BLIND, NO_BLIND) and self.match.observation(seat).looked:
            what = _("double nil") if self.rules.players == 2 else _("blind nil")
            said = _(
                "{seat} has seen cards since deciding on {what}: that decision stands and cannot be undone."
            )
            self._error(said.format(seat=self.look.seat(seat), what=what))
            return
        others = [s for s in actors[index + 1 :] if s in self.humans and s != seat]
        if others:
            who = self.look.seat(others[0])
            self._error(
                _("{seat} has moved since; only your own last decision can be undone.").format(seat=who)
            )
            return
        if self._unfair(seat, index):
            return
        removed = history[index:]
        taken = removed[0]
        self.run.undo(seat)
        self._resync()
        after = len(removed) - 1
        what = self._say_action(taken, past=True)
        if after:
            said = ngettext(
                "Took back {seat}'s {what} and {n} move after it.",
                "Took back {seat}'s {what} and {n} moves after it.",
                after,
            )
        else:
            said = _("Took back {seat}'s {what}.")
        self._reply(said.format(seat=self.look.seat(seat), what=what, n=after))
        self._last_status = ""
        self._advance(autoplay=False)  # the decision taken back is the player's to make again

    def _unfair(self, seat: int, index: int) -> bool:
        """Whether the table's undo policy refuses to take back the decision at ``index``
        (and says why)."""
        name = self.look.seat(seat)
        if self.undo == "never":
            self._error(_("Undo is off at this table (--undo never): decisions stand."))
            return True
        if self.undo != "before-new-info":
            return False
        names = [self.look.seat(s) for s in range(self.rules.players)]
        seen = seen_since(self.state.history[index:], self._log.actors[index:], seat, names)
        if seen is None:
            return False
        said = _(
            "{seat}'s decision stands: {seat} has seen {seen} "
            "(undo only before anything new is seen: --undo before-new-info)."
        )
        self._error(said.format(seat=name, seen=seen))
        return True

    # -- claiming the rest of the hand ------------------------------------------------------

    def claim(self) -> list[Output]:
        """The rest of the hand's tricks for the side of the seat on turn, when certain."""
        self._claim()
        return self._take()

    def _claim(self) -> None:
        seat, state, rules = self.on_turn, self.state, self.rules
        if seat is None or state.phase != PLAY:
            self._error(_("A claim is made on your turn in the play: the rest of the tricks for your side."))
            return
        side = rules.side_of(seat)
        if any(s in self.humans and rules.side_of(s) != side for s in range(rules.players)):
            self._error(_("A claim is for a game against the bots: the other side plays on."))
            return
        obs = self.match.observation(seat)
        bidders = [s for s in range(rules.players) if rules.side_of(s) == side]
        seats = [
            s for s in bidders if not rules.is_nil(obs.bids[s] or 0, obs.declared[s], zero_at(obs.zero, s))
        ]
        if seat not in seats:
            self._error(_("A nil bidder claims no tricks."))
            return
        claim = Claim(state, side, seats)
        n = rules.hand_size - len(state.tricks)
        left = ngettext("{n} trick", "{n} tricks", n).format(n=n)
        who = _(" and ").join(self.look.seat(s) for s in seats)
        if not claim.certain:
            said = _(
                "Not certain: {seats} cannot be sure of the last {tricks} whatever the others play. Play on."
            )
            self._error(said.format(seats=who, tricks=left))
            return
        if seats == [seat]:
            said = _("{seat} claims the last {tricks}; they are played out.")
        else:
            said = _("{seat} claims the last {tricks} for {seats}; they are played out.")
        self._reply(said.format(seat=self.look.seat(seat), tricks=left, seats=who))
        hand = state.hand_no
        while not self.finished and self.state.hand_no == hand and self.state.phase == PLAY:
            on_turn = self.state.current_player()
            if rules.side_of(on_turn) == side:
                self.run.apply(on_turn, claim.card(self.state))
            else:
                self.run.step()
        self._advance()

    def _leave(self) -> None:
        self.left = True
        if self.finished:
            return
        if self.transcript_path is None:
            self._emit(INFO, text(_("Game left unfinished.")))
        else:
            path = self.transcript_path
            said = _("Game saved in {path}") + "\n" + _("Continue it with: {command}")
            self._emit(INFO, text(said.format(path=path, command=f"spades resume {path}")))

    # -- helpers ------------------------------------------------------------------------

    def _say_action(self, action: int, *, past: bool = False) -> str:
        look = self.look
        if is_card(action):
            if past:
                return look.card_text(action)
            phase = self.state.phase
            word = _("give up {card}") if phase == EXCHANGE else _("play {card}")
            word = _("pass {card}") if phase == PASS else word  # R-BN-4
            word = _("discard {card}") if phase == DISCARD_PHASE else word  # R-J-6
            return word.format(card=look.card_text(action))
        if BID_BASE <= action <= BID_BASE + MAX_BID:
            bid = action - BID_BASE
            return _("bid {bid}").format(bid=_("nil") if bid == 0 else bid)
        if action == ZERO:
            return _("bid {bid}").format(bid=_("zero"))  # R-NV-4
        if action == BLIND:
            return _("declare double nil") if self.rules.players == 2 else _("bid blind nil")
        if action == NO_BLIND:
            return _("decision not to declare") if past else _("do not declare")
        if action == EXCHANGE_DONE:
            return _("end of the exchange") if past else _("done (keep the rest)")
        if action == KEEP:
            return _("keep decision") if past else _("keep")
        return _("discard decision") if past else _("discard")

    def _emit(self, kind: str, frags: Fragments, seat: int | None = None) -> None:
        self._out.append(Output(kind, frags, seat))

    def _reply(self, s: str) -> None:
        self._emit(REPLY, text(s))

    def _error(self, s: str) -> None:
        self._emit(ERROR, text(s, view.ERROR))

    def _take(self) -> list[Output]:
        out, self._out = self._out, []
        return out

    def take_output(self) -> list[Output]:
        """What was produced but not yet returned (front ends show it when an error, such
        as a failing external bot, ends the session in the middle of a step)."""
        return self._take()

    def _game_over(self) -> None:
        state = self.state
        look = self.look
        win = state.winner()
        if win is None:
            return
        self._emit(GAME, view.game_over(look, self.rules, state.results, win, state.scores, self.width))
        me = next(iter(self.humans)) if len(self.humans) == 1 else None
        self._emit(GAME, text(narrate.game_won(look, win, state.scores, me), view.TITLE))
        if self.transcript_path is not None:
            self._emit(INFO, text(_("The game is saved in {path}").format(path=self.transcript_path)))
        if self.ask_again:
            self.asking_again = True
            self._emit(ASK, text(_("Play again? (yes/no)")))

    # -- bookkeeping shared by live play and replays --------------------------------------

    def _resync(self) -> None:
        """Rebuild what the session remembers from the match's history (start, undo, resume)."""
        match = self.match
        dealer = match.dealer if match.dealer is not None else 0
        log = _HandLog()
        results = 0
        for step in walk(match.rules, dealer, match.decks, match.state.history):
            if step.phase == DEAL:
                log.tricks = []
            else:
                _note(log, step.state, step.seat, step.action, step.phase, results)
            results = len(step.state.results)
        self._log = log
        self._phase = match.state.phase
        self._seen_results = len(match.state.results)
        if self.on_turn is not None and self.viewer is None and len(self.humans) == 1:
            self.viewer = self.on_turn

    def _event(self, e: Decided) -> None:
        """A move just made at the table: remember it and say it."""
        seat, action = e.seat, e.action
        state = self.state
        before = self._phase
        self._phase = state.phase
        results = self._seen_results
        self._seen_results = len(state.results)
        _note(self._log, state, seat, action, before, results)
        owner = state.exchange_seat if seat < 0 else seat
        private = owner in self.humans and owner == self.viewer
        if before == PASS and self.viewer in self.humans:
            private = sees_pass(state.rules, owner, self.viewer)  # R-BN-4: the partner sees it
        draft: tuple[int, ...] = ()
        if before == DRAFT and private:
            drafted = state.drafted()
            assert drafted is not None
            draft = drafted
        lead = before == PLAY and len(state.trick) == 1
        said = narrate.move(
            self.look,
            e,
            lead=lead,
            private=private,
            declined=seat in self.humans,
            draft=draft,
            owner=owner,
            forced=self._forced,
        )
        if said is not None:
            self._emit(OWN if private else MOVE, said)

    def _on_event(self, e: Event) -> None:
        """A move, a trick, a deal, a hand's result or the end, as the run tells it."""
        if isinstance(e, HandStarted):
            self._dealt(e)
        elif isinstance(e, Decided):
            self._event(e)
        elif isinstance(e, TrickWon):
            self._emit(TRICK, narrate.trick_shown(self.look, e, self.width))
        elif isinstance(e, HandScored):
            self._hand_over(e.result)
        elif isinstance(e, GameOver) and e.winner is not None:
            self._game_over()

    def _dealt(self, e: HandStarted) -> None:
        self._phase = self.state.phase
        self._log.previous = self._log.tricks[-1] if self._log.tricks else self._log.previous
        self._log.tricks = []
        self._emit(INFO, text(narrate.dealt(self.look, e), view.TITLE))

    def _hand_over(self, result: HandResult) -> None:
        self._emit(GAP, [])
        self._emit(HAND, view.hand_result(self.look, self.rules, result))
        if self.match.finished:
            return  # the end of the game shows the whole table
        self._emit(TABLE, view.score_table(self.look, self.rules, self.state.results, last=HANDS_SHOWN))
        self._emit(PAUSE, text(_("Press Enter for the next hand.")))


def _note(log: _HandLog, state: State, seat: int, action: int, before: Phase, results: int) -> Trick | None:
    """Record one applied action in ``log``; return the trick it finished, if any."""
    log.actors.append(seat)
    trick = state.last_trick
    if before != PLAY or state.trick or trick is None:
        return None
    if len(state.results) > results:  # the hand's last trick: the hand is scored
        log.previous = trick
        log.previous_no = state.results[-1].hand_no
        log.tricks = []
        return trick
    log.tricks.append(trick)
    return trick


def _last_plays(log: _HandLog, state: State, n: int) -> tuple[int, ...]:
    """The cards of the trick just finished when the state has already moved on."""
    plays = [a for a, s in zip(reversed(state.history), reversed(log.actors), strict=False) if s >= 0][:n]
    return tuple(reversed(plays))
