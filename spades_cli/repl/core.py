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

from collections.abc import Iterable
from dataclasses import dataclass, field

from spades_cli import view
from spades_cli.engine import (
    BID,
    BID_BASE,
    BLIND,
    DEAL,
    DECLARE,
    DISCARD,
    DRAFT,
    DRAW,
    EXCHANGE,
    EXCHANGE_DONE,
    KEEP,
    NO_BLIND,
    PLAY,
    HandResult,
    IllegalAction,
    Observation,
    Phase,
    State,
    Trick,
)
from spades_cli.engine import compiled as _compiled
from spades_cli.engine.cards import RANK_NAMES, card_label
from spades_cli.engine.notation import NotationError, action_text, parse_action
from spades_cli.engine.walk import walk
from spades_cli.errors import EXIT_OK, EXIT_UNFINISHED
from spades_cli.game.events import Decided, Event, GameOver, HandScored, HandStarted
from spades_cli.game.match import Match
from spades_cli.game.run import GameRun
from spades_cli.repl.commands import COMMAND_NAMES, COMMANDS, find_command, help_lines, suggest_command
from spades_cli.view import Fragments, Look, plain, plural, text

# Kinds of output. The prompt pauses after MOVE and TRICK (unless --fast), hides the
# screen at HANDOFF (hot seat) and leaves STATUS to its toolbar.
INFO = "info"
REPLY = "reply"
ERROR = "error"
MOVE = "move"  # a move of a seat other than the one deciding now
OWN = "own"  # the move just typed, as the table saw it
TRICK = "trick"
HAND = "hand"
TABLE = "table"  # the score table of the last hands, after a hand's result
GAME = "game"
GAP = "gap"  # an empty line before the view of the table
STATUS = "status"
VIEW = "view"
HANDOFF = "handoff"
PAUSE = "pause"  # the end of a hand: the prompt waits for Enter (unless --fast)
ASK = "ask"  # a question the prompt asks in its prompt line (batch mode prints it)

HANDS_SHOWN = 6  # the end of a hand shows the score table of the last few hands

_YES = {"y", "yes", "quit", "leave", "ok"}


@dataclass(frozen=True)
class Output:
    kind: str
    frags: Fragments
    seat: int | None = None

    @property
    def text(self) -> str:
        return plain(self.frags)


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
    ) -> None:
        self.run = game if isinstance(game, GameRun) else GameRun(game)
        match = self.match = self.run.match
        self.rules = match.rules
        self.humans = frozenset(humans)
        self.look = Look(match.rules, symbols)
        self.transcript_path = transcript_path
        # The expert answers well within a second when the engine is compiled.
        self.hint_level = hint_level or ("expert" if _compiled() else "hard")
        self.width = width  # the columns the front end writes to: views fit in them
        self.ask_again = ask_again  # at the end of the game: "Play again? (yes/no)"
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
            self.asking_again = False
            self.play_again = entry.lower() in ("y", "yes")
            return self._take()
        if self.confirming:
            self.confirming = False
            if entry.lower() in _YES:
                self._leave()
            else:
                self._emit(REPLY, text("Still playing."))
            return self._take()
        if not entry:
            return []
        word, _, rest = entry.partition(" ")
        command = find_command(word)
        if command is not None:
            getattr(self, f"_cmd_{command.name}")(rest.strip())
        else:
            self._move(entry)
        return self._take()

    def leave(self) -> list[Output]:
        """End of input (Ctrl-D, a closed pipe): the game stays saved."""
        self.asking_again = False
        if not self.done:
            self._leave()
        return self._take()

    # -- what the prompt shows besides the outputs ---------------------------------------

    def prompt_text(self) -> str:
        if self.asking_again:
            return "Play again? (yes/no) "
        if self.confirming:
            return "Leave the game? (yes/no) "
        seat = self.on_turn
        if seat is None:
            return "> "
        declare = "double nil?" if self.rules.players == 2 else "blind nil?"
        word = {PLAY: "play", BID: "bid", DRAFT: "keep/discard", DECLARE: declare, EXCHANGE: "exchange"}
        return f"{self.look.letter(seat)} {word.get(self.state.phase, self.state.phase)}> "

    def status(self) -> list[str]:
        """The parts of the status line (hand, bids, tricks, score, spades); empty before a turn."""
        obs = self.observation()
        return view.status_parts(self.look, obs) if obs is not None else []

    def completions(self) -> list[tuple[str, str, str]]:
        """``(text to insert, label shown, note)`` for the legal moves and the commands."""
        out: list[tuple[str, str, str]] = []
        if self.asking_again:
            return [("yes", "yes", "a new game, same rules and seats"), ("no", "no", "stop here")]
        if self.confirming:
            return [("yes", "yes", "leave the game (it stays saved)"), ("no", "no", "keep playing")]
        seat = self.on_turn
        if seat is not None:
            state = self.state
            for action in _hand_order(state.legal_actions()):
                word = action_text(action)
                if state.phase == EXCHANGE and action == EXCHANGE_DONE:
                    out.append((word, word, "keep the rest"))
                elif action < 52:
                    label = self.look.card_text(action)
                    out.append((word, label, "give up" if state.phase == EXCHANGE else "play"))
                elif action == BLIND:
                    note = "declare double nil" if self.rules.players == 2 else "bid blind nil"
                    out.append(("blind", "blind", note))
                elif action == NO_BLIND:
                    out.append(("noblind", "noblind", "do not declare"))
                elif action == KEEP:
                    out.append((word, word, "keep this card, discard the next"))
                elif action == DISCARD:
                    out.append((word, word, "discard this card, keep the next"))
                else:
                    out.append((word, word, "bid"))
        notes = {c.name: c.summary for c in COMMANDS}
        out.extend((name, name, notes[name]) for name in COMMAND_NAMES)
        return out

    # -- moves ----------------------------------------------------------------------

    def _move(self, entry: str) -> None:
        seat = self.on_turn
        if seat is None:
            self._error("Nothing to decide now.")
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
        phase = state.phase
        words = entry.split()
        if len(words) > 1 and words[0].lower() in ("play", "lead", "bid", "give", "exchange"):
            entry = " ".join(words[1:])
        if phase == BID and entry.lower() == "pass":
            legal = view.compress_bids([a - BID_BASE for a in state.legal_actions()])
            return f"Nobody may pass in Spades: bid {legal}"
        try:
            action = parse_action(entry, phase)
        except NotationError as exc:
            shortcut = self._rank_shortcut(entry)
            if shortcut is not None:
                return shortcut
            if entry.isalpha() and len(entry) > 2:
                guess = suggest_command(entry)
                if guess is not None:
                    return f"Unknown command {entry!r}: did you mean {guess!r}?"
                if phase in (PLAY, EXCHANGE, BID):
                    return f"Unknown command {entry!r} (type help)"
            return _sentence(str(exc))
        try:
            state.check(action, symbols=self.look.symbols)
        except IllegalAction as exc:
            return _sentence(exc.reason)
        return action

    def _rank_shortcut(self, entry: str) -> int | str | None:
        """``q`` when exactly one legal card is a queen; a question when several are."""
        state = self.state
        if state.phase not in (PLAY, EXCHANGE):
            return None
        rank = entry.strip().upper()
        rank = "10" if rank == "T" else rank
        if rank not in RANK_NAMES:
            return None
        r = RANK_NAMES.index(rank)
        cards = [a for a in state.legal_actions() if a < 52 and a % 13 == r]
        if len(cards) == 1:
            return cards[0]
        if not cards:
            return f"No {rank} you can play here."
        options = " or ".join(self.look.card_text(c) for c in reversed(cards))
        return f"Which one: {options}?"

    def _advance(self) -> None:
        """Let chance and the bots move until a human must decide or the game ends."""
        self.run.play(until=lambda: self.state.current_player() in self.humans)
        seat = self.state.current_player()
        if not self.finished and seat in self.humans:
            self._turn(seat)

    def _turn(self, seat: int) -> None:
        if self.viewer != seat and len(self.humans) > 1:
            name = self.look.seat(seat)
            self._emit(HANDOFF, text(f"{name}'s turn: pass the keyboard to {name}."), seat)
        self.viewer = seat
        self._show_turn(seat)

    def _show_turn(self, seat: int) -> None:
        obs = self.match.observation(seat)
        look = self.look
        self._emit(GAP, [])
        line = plain(view.status(look, obs, self.width))
        if line != self._last_status and obs.phase != PLAY:
            self._last_status = line
            self._emit(STATUS, text(line))
        frags: Fragments = []
        if obs.phase == PLAY:
            frags += [*view.table_view(look, obs, self.width), ("", "\n")]
        if obs.phase == BID:
            frags += text(f"Bids: {view.bids_text(look, obs)}\n")
        if obs.phase != DECLARE:
            frags += [*view.hand_line(look, obs), ("", "\n")]
        frags += view.turn_prompt(look, obs, self.rules)
        self._emit(VIEW, frags, seat)

    # -- commands -------------------------------------------------------------------

    def _cmd_help(self, arg: str) -> None:
        self._reply("\n".join(help_lines()))

    def _cmd_hand(self, arg: str) -> None:
        obs = self.observation()
        if obs is None:
            self._reply("Nobody is at the table.")
            return
        frags = view.hand_line(self.look, obs)
        if self.rules.players == 2 and obs.phase in (DRAFT, DECLARE, EXCHANGE) and obs.looked:
            frags += [("", "\n"), *view.discards_line(self.look, obs)]
        self._emit(REPLY, frags)

    def _cmd_table(self, arg: str) -> None:
        obs = self.observation()
        if obs is None or obs.phase != PLAY:
            self._reply("No trick is being played now.")
            return
        self._emit(REPLY, view.table_view(self.look, obs, self.width))

    def _cmd_last(self, arg: str) -> None:
        log = self._log
        if log.tricks:
            self._emit(REPLY, self.look.finished_trick(len(log.tricks), log.tricks[-1]))
        elif log.previous is not None:
            frags = self.look.finished_trick(13, log.previous)
            self._emit(REPLY, [*frags, ("", f" (hand {log.previous_no + 1})")])
        else:
            self._reply("No trick has been played yet.")

    def _cmd_tricks(self, arg: str) -> None:
        if not self._log.tricks:
            self._reply("No trick of this hand has been played yet.")
            return
        lines: Fragments = []
        for i, trick in enumerate(self._log.tricks):
            if i:
                lines.append(("", "\n"))
            lines += self.look.finished_trick(i + 1, trick)
        self._emit(REPLY, lines)

    def _cmd_score(self, arg: str) -> None:
        obs = self.observation()
        if obs is None:
            return
        results = self.state.results
        if not results:
            self._reply(f"No hand has been scored yet (game to {self.rules.target}).")
            return
        self._emit(
            REPLY,
            [
                ("", f"Score (game to {self.rules.target}):\n"),
                *view.score_table(self.look, self.rules, results),
            ],
        )

    def _cmd_bids(self, arg: str) -> None:
        obs = self.observation()
        if obs is None:
            return
        look = self.look
        bids, tricks = view.seats_text(look, obs), view.tricks_text(look, obs)
        self._reply(f"Bids/tricks: {bids}. Sides: {tricks}.")

    def _cmd_rules(self, arg: str) -> None:
        if arg.lower() == "all":
            from spades_cli.presets import rules_to_yaml

            self._reply(rules_to_yaml(self.rules).rstrip("\n"))
            return
        self._emit(REPLY, view.rules_summary(self.look, self.rules))

    def _cmd_hint(self, arg: str) -> None:
        seat = self.on_turn
        if seat is None:
            self._reply("Nothing to decide now.")
            return
        from spades_cli.bots import make_bot

        bot = make_bot(self.hint_level)
        try:
            action, reason = bot.explain(self.match.observation(seat), self.rules, self.match.rng("hint"))
        except Exception as exc:  # a failing adviser must not end the game
            self._error(f"No hint this time: the {self.hint_level} bot failed ({type(exc).__name__}: {exc}).")
            return
        if not self.state.is_legal(action):
            self._error(f"No hint this time: the {self.hint_level} bot suggested an illegal move.")
            return
        self._reply(f"Hint ({self.hint_level} bot): {self._typed(action)} - {reason}")

    def _typed(self, action: int) -> str:
        """An action in the words a player types for it (``play 9C``, ``bid 3``, ``no``)."""
        if action < 52:
            card = card_label(action, symbols=False)
            return f"give up {card}" if self.state.phase == EXCHANGE else f"play {card}"
        if BID_BASE <= action < BID_BASE + 14:
            return "bid nil" if action == BID_BASE else f"bid {action - BID_BASE}"
        typed = {BLIND: "blind", NO_BLIND: "noblind", EXCHANGE_DONE: "done", KEEP: "keep", DISCARD: "discard"}
        return typed[action]

    def _cmd_undo(self, arg: str) -> None:
        seat = self.on_turn
        if seat is None:
            self._error("Nothing to undo now.")
            return
        actors = self._log.actors
        history = self.state.history
        mine = [i for i, s in enumerate(actors) if s == seat]
        if not mine:
            self._error(f"{self.look.seat(seat)} has made no decision yet: nothing to undo.")
            return
        index = mine[-1]
        if history[index] in (BLIND, NO_BLIND) and self.match.observation(seat).looked:
            what = "double nil" if self.rules.players == 2 else "blind nil"
            self._error(
                f"{self.look.seat(seat)} has seen cards since deciding on {what}: "
                "that decision stands and cannot be undone."
            )
            return
        others = [s for s in actors[index + 1 :] if s in self.humans and s != seat]
        if others:
            who = self.look.seat(others[0])
            self._error(f"{who} has moved since; only your own last decision can be undone.")
            return
        removed = history[index:]
        taken = removed[0]
        self.run.undo(seat)
        self._resync()
        after = len(removed) - 1
        more = f" and {plural(after, 'move')} after it" if after else ""
        self._reply(f"Took back {self.look.seat(seat)}'s {self._say_action(taken, past=True)}{more}.")
        self._last_status = ""
        self._advance()

    def _cmd_discards(self, arg: str) -> None:
        obs = self.observation()
        if self.rules.players != 2:
            self._reply("Nobody discards in the four-player game.")
            return
        if obs is None:
            self._reply("Nobody is at the table.")
            return
        frags = view.discards_line(self.look, obs)
        other = self.look.seat(1 - obs.seat)
        frags += text(f"\n{other}'s discards are out of play too, unseen.")
        self._emit(REPLY, frags)

    def _cmd_transcript(self, arg: str) -> None:
        if self.transcript_path is None:
            self._reply("This game is not being saved.")
        else:
            self._reply(f"The game is saved in {self.transcript_path}")

    def _cmd_quit(self, arg: str) -> None:
        self.confirming = True
        where = f" (it stays saved in {self.transcript_path})" if self.transcript_path else ""
        self._reply(f"Leave the game{where}? Type yes to leave, anything else to keep playing.")

    def _leave(self) -> None:
        self.left = True
        if self.finished:
            return
        if self.transcript_path is None:
            self._emit(INFO, text("Game left unfinished."))
        else:
            path = self.transcript_path
            self._emit(INFO, text(f"Game saved in {path}\nContinue it with: spades resume {path}"))

    # -- helpers ------------------------------------------------------------------------

    def _say_action(self, action: int, *, past: bool = False) -> str:
        look = self.look
        if action < 52:
            word = {EXCHANGE: "give up"}.get(self.state.phase, "play") if not past else ""
            return f"{word} {look.card_text(action)}".strip()
        if BID_BASE <= action < BID_BASE + 14:
            bid = action - BID_BASE
            return "bid nil" if bid == 0 else f"bid {bid}"
        if action == BLIND:
            return "declare double nil" if self.rules.players == 2 else "bid blind nil"
        if action == NO_BLIND:
            return "decision not to declare" if past else "do not declare"
        if action == EXCHANGE_DONE:
            return "end of the exchange" if past else "done (keep the rest)"
        return {KEEP: "keep", DISCARD: "discard"}[action] + (" decision" if past else "")

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
        lose = 1 - win
        self._emit(GAME, view.game_over(look, self.rules, state.results, win, state.scores, self.width))
        verb = "wins" if self.rules.players == 2 else "win"
        line = f"Game over: {look.side(win)} {verb}, {state.scores[win]} to {state.scores[lose]}."
        if len(self.humans) == 1:
            (me,) = self.humans
            line += " You win!" if self.rules.side_of(me) == win else " You lose."
        self._emit(GAME, text(line, view.TITLE))
        if self.transcript_path is not None:
            self._emit(INFO, text(f"The game is saved in {self.transcript_path}"))
        if self.ask_again:
            self.asking_again = True
            self._emit(ASK, text("Play again? (yes/no)"))

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

    def _event(self, seat: int, action: int) -> None:
        """A move just made at the table: remember it and say it."""
        state = self.state
        before = self._phase
        self._phase = state.phase
        results = self._seen_results
        self._seen_results = len(state.results)
        finished = _note(self._log, state, seat, action, before, results)
        look = self.look
        mine = seat in self.humans and seat == self.viewer
        kind = OWN if mine else MOVE
        name = look.seat(seat) if seat >= 0 else ""
        if before == PLAY:
            verb = "leads" if finished is None and len(state.trick) == 1 else "plays"
            self._emit(kind, [("", f"{name} {verb} "), look.card(action), ("", ".")])
            if finished is not None:
                no = len(self._log.tricks) if state.phase == PLAY else 13
                trick = finished
                winning = trick.cards[(trick.winner - trick.leader) % self.rules.players]
                said = f"Trick {no}: {look.seat(trick.winner)} wins with "
                self._emit(TRICK, [("", said), look.card(winning), ("", ".")])
        elif before == BID:
            bid = action - BID_BASE
            self._emit(kind, text(f"{name} bids {'nil' if bid == 0 else bid}."))
        elif before == DECLARE:
            what = "declares double nil" if self.rules.players == 2 else "bids blind nil"
            if action == BLIND:
                self._emit(kind, text(f"{name} {what}."))
            elif seat in self.humans:
                what = "declare double nil" if self.rules.players == 2 else "bid blind nil"
                self._emit(kind, text(f"{name} does not {what}."))
        elif before == DRAFT:
            if seat in self.humans and seat == self.viewer:
                drafted = state.drafted()
                assert drafted is not None
                top, nxt = drafted
                if action == KEEP:
                    frags = [("", f"{name} keeps "), look.card(top), ("", " and discards "), look.card(nxt)]
                else:
                    frags = [("", f"{name} discards "), look.card(top), ("", " and keeps "), look.card(nxt)]
                self._emit(kind, [*frags, ("", ".")])
            else:
                self._emit(kind, text(f"{name} takes a card."))
        elif before == EXCHANGE:
            if action == EXCHANGE_DONE:
                if mine:
                    self._emit(kind, text(f"{name} keeps the other cards."))
            elif mine:
                self._emit(kind, [("", f"{name} gives up "), look.card(action), ("", ".")])
            else:
                self._emit(kind, text(f"{name} gives up a card and draws one from the discard pile."))
        elif before == DRAW:
            owner = state.exchange_seat
            if owner in self.humans and owner == self.viewer:
                self._emit(
                    OWN,
                    [("", f"{look.seat(owner)} draws "), look.card(action), ("", " from the discard pile.")],
                )

    def _on_event(self, e: Event) -> None:
        """A move, a deal, a hand's result or the end, as the run tells it."""
        if isinstance(e, HandStarted):
            self._dealt()
        elif isinstance(e, Decided):
            self._event(e.seat, e.action)
        elif isinstance(e, HandScored):
            self._hand_over(e.result)
        elif isinstance(e, GameOver) and e.winner is not None:
            self._game_over()

    def _dealt(self) -> None:
        state = self.state
        self._phase = state.phase
        self._log.previous = self._log.tricks[-1] if self._log.tricks else self._log.previous
        self._log.tricks = []
        look = self.look
        if self.rules.players == 2:
            first = look.seat(state.dealer)
            second = look.seat(1 - state.dealer)
            said = f"Hand {state.hand_no + 1}: {first} draws first; {second} bids first and leads."
        else:
            said = f"Hand {state.hand_no + 1}: {look.seat(state.dealer)} deals."
        self._emit(INFO, text(said, view.TITLE))

    def _hand_over(self, result: HandResult) -> None:
        self._emit(GAP, [])
        self._emit(HAND, view.hand_result(self.look, self.rules, result))
        if self.match.finished:
            return  # the end of the game shows the whole table
        self._emit(TABLE, view.score_table(self.look, self.rules, self.state.results, last=HANDS_SHOWN))
        self._emit(PAUSE, text("Press Enter for the next hand."))


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


def _hand_order(actions: Iterable[int]) -> list[int]:
    """Actions with the cards first, in the order the hand shows them (spades, hearts,
    clubs, diamonds, high to low), then the rest in their own order."""
    actions = list(actions)
    cards = [c for group in view.sort_hand(a for a in actions if a < 52) for c in group]
    return cards + [a for a in actions if a >= 52]


def _sentence(s: str) -> str:
    s = s.strip()
    return s[:1].upper() + s[1:] if s else s
