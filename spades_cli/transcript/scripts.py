"""Scripts: transcripts with parts left out, played by ``spades run``.

:func:`prepare_script` collects a script's parts (per-seat queues of decisions, fixed
decks, deals and exchange draws, and the results it records); :func:`script_run` builds
the :class:`~spades_cli.game.run.GameRun` that plays it: scripted seats take their
decisions from the queues (then the ``--then`` bot, if any), the other seats are played
by the given players, chance comes from the script where it fixes it and from the seed
elsewhere, and every recorded result is checked as the game goes (MismatchError, exit 1).
"""

from __future__ import annotations

import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from spades_cli.engine import (
    BID,
    DECLARE,
    DISCARD,
    DISCARD_PHASE,
    DRAFT,
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
    deck_cards,
    rng_for,
)
from spades_cli.engine.notation import NotationError, action_text, parse_action, shown, word_problem
from spades_cli.errors import (
    EXIT_ILLEGAL,
    EXIT_UNFINISHED,
    EXIT_USAGE,
    IllegalActionError,
    MismatchError,
    SpadesError,
    UsageError,
)
from spades_cli.game.events import (
    Decided,
    Emit,
    Event,
    SeatChanged,
)
from spades_cli.game.match import Controller, Match
from spades_cli.game.run import GameRun, Relay
from spades_cli.transcript.checks import RecordedFacts, deck_problem, pile_problem, seat_problem, side_problem
from spades_cli.transcript.order import bids_started, draw_problem, out_of_order
from spades_cli.transcript.syntax import (
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
    PassLine,
    ResultLine,
    ScoreLine,
    Transcript,
    TrickLine,
    UndoLine,
    raise_problems,
)
from spades_cli.transcript.tags import first_dealer

__all__ = ["Script", "ScriptExhausted", "ScriptRun", "finish_script", "prepare_script", "script_run"]


class ScriptExhausted(SpadesError):
    """A scripted seat ran out of actions before the game ended (exit 3: unfinished)."""

    exit_code = EXIT_UNFINISHED


@dataclass(frozen=True, eq=False)
class _Order:
    """A bids or trick line, whose seats act in the order written (transcript.order)."""

    line: int
    seats: tuple[int, ...]
    trick: int | None  # the trick number of a trick line; None for a bids line


@dataclass
class _Item:
    """One scripted decision of a seat."""

    line: int
    text: str | None = None  # notation to read in the phase it meets (SEAT: lists)
    action: int | None = None  # an action fixed by a transcript-style line
    phase: Phase | None = None  # the phase that line is about
    draft_cards: tuple[int, int] | None = None
    order: _Order | None = None  # the bids or trick line it comes from
    index: int = 0  # its place on that line


@dataclass
class Script:
    """A script read for ``spades run``: per-seat queues, fixed deals and draws, checks."""

    t: Transcript
    rules: Rules
    queues: dict[int, list[_Item]]
    decks: dict[int, tuple[tuple[int, ...], int]] = field(default_factory=dict)  # hand -> (deck, line)
    deals: dict[int, dict[int, tuple[tuple[int, ...], int]]] = field(default_factory=dict)  # hand -> seat ->
    draws: dict[tuple[int, int], list[tuple[int, int]]] = field(default_factory=dict)  # (hand, seat) -> cards
    dealers: dict[int, tuple[int, int]] = field(default_factory=dict)  # hand -> (dealer seat, line)
    winners: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)  # (hand, trick) -> seat
    results: dict[int, ResultLine] = field(default_factory=dict)
    scores: dict[int, ScoreLine] = field(default_factory=dict)
    end: EndLine | None = None

    @property
    def scripted(self) -> list[int]:
        return [s for s, q in self.queues.items() if q]


# ------------------------------------------------------------------------------ reading a script


class _Collector:
    """Reads a script's lines into a :class:`Script`, collecting every problem."""

    def __init__(self, t: Transcript, rules: Rules) -> None:
        self.t = t
        self.rules = rules
        self.s = Script(t, rules, {seat: [] for seat in range(rules.players)})
        self.problems: list[str] = []
        self.bad_words = 0  # problems that are moves no phase reads (exit 1, not 2)
        self.hand = 0
        self.seen_hands: set[int] = set()

    def problem(self, line: int, text: str) -> None:
        self.problems.append(f"{self.t.origin}:{line}: {text}")

    def seat_of(self, name: str, line: int) -> int | None:
        problem = seat_problem(self.rules, name)
        if problem is not None:
            self.problem(line, problem)
            return None
        return self.rules.seat_index(name)

    def side_ok(self, name: str, line: int) -> None:
        problem = side_problem(self.rules, name)
        if problem is not None:
            self.problem(line, problem)

    def add(self, name: str, item: _Item) -> None:
        seat = self.seat_of(name, item.line)
        if seat is not None:
            self.s.queues[seat].append(item)

    def hand_line(self, e: HandLine) -> None:
        self.hand = e.number - 1
        if self.hand in self.seen_hands:
            self.problem(e.line, f"hand {e.number} appears twice")
        self.seen_hands.add(self.hand)
        if e.dealer is not None:
            d = self.seat_of(e.dealer, e.line)
            if d is not None:
                self.s.dealers[self.hand] = (d, e.line)

    def deck_line(self, e: DeckLine) -> None:
        if self.hand in self.s.decks or self.hand in self.s.deals:
            self.problem(e.line, f"hand {self.hand + 1} already has its cards fixed")
        why = deck_problem(self.rules, e.cards)
        if why is not None:
            self.problem(e.line, why)
        self.s.decks[self.hand] = (e.cards, e.line)

    def deal_line(self, e: DealLine) -> None:
        if self.rules.players == 2:
            self.problem(e.line, "the two-player game is drafted from the pile: fix it with a deck line")
            return
        if self.hand in self.s.decks:
            self.problem(e.line, f"hand {self.hand + 1} already has a deck line")
        seat = self.seat_of(e.seat, e.line)
        if seat is None:
            return
        deals = self.s.deals.setdefault(self.hand, {})
        if seat in deals:
            self.problem(e.line, f"the cards of {e.seat} in hand {self.hand + 1} are given twice")
        taken = {c for cards, _ in deals.values() for c in cards}
        clash = [card_str(c) for c in e.cards if c in taken]
        if clash:
            self.problem(e.line, f"{', '.join(clash)} already dealt to another seat")
        deals[seat] = (e.cards, e.line)

    def exchange_line(self, e: ExchangeLine) -> None:
        if e.give is None and e.draw is None:
            self.add(e.seat, _Item(e.line, action=EXCHANGE_DONE, phase=EXCHANGE))
        elif e.give is not None:
            self.add(e.seat, _Item(e.line, action=e.give, phase=EXCHANGE))
        drawer = self.seat_of(e.seat, e.line)
        if e.draw is not None and drawer is not None:
            self.s.draws.setdefault((self.hand, drawer), []).append((e.draw, e.line))

    def trick_line(self, e: TrickLine) -> None:
        first = self.seat_of(e.seat, e.line)
        if first is None:
            return
        names = self.rules.seat_names
        n = self.rules.players
        order = _Order(e.line, tuple((first + i) % n for i in range(len(e.cards))), e.number)
        for i, card in enumerate(e.cards):
            self.add(names[(first + i) % n], _Item(e.line, action=card, phase=PLAY, order=order, index=i))
        if e.winner is not None:
            w = self.seat_of(e.winner, e.line)
            if w is not None:
                self.s.winners[(self.hand, e.number)] = (w, e.line)

    def bids_line(self, e: BidsLine) -> None:
        seats = [self.seat_of(name, e.line) for name, _ in e.bids]
        order = _Order(e.line, tuple(s if s is not None else -1 for s in seats), None)
        for i, (name, bid) in enumerate(e.bids):
            self.add(name, _Item(e.line, action=bid, phase=BID, order=order, index=i))

    def checks(self, e: ResultLine | ScoreLine | EndLine) -> None:
        if isinstance(e, ResultLine):
            for side, *_ in e.sides:
                self.side_ok(side, e.line)
            self.s.results[self.hand] = e
        elif isinstance(e, ScoreLine):
            for side, _ in (*e.scores, *e.bags):
                self.side_ok(side, e.line)
            self.s.scores[self.hand] = e
        else:
            if e.winner is not None:
                self.side_ok(e.winner, e.line)
            self.s.end = e

    def line(self, e: Line) -> None:
        if isinstance(e, HandLine):
            self.hand_line(e)
        elif isinstance(e, DeckLine):
            self.deck_line(e)
        elif isinstance(e, DealLine):
            self.deal_line(e)
        elif isinstance(e, DeclareLine):
            self.add(e.seat, _Item(e.line, action=e.action, phase=DECLARE))
        elif isinstance(e, DraftLine):
            item = _Item(e.line, action=KEEP if e.keep else DISCARD, phase=DRAFT, draft_cards=e.cards)
            self.add(e.seat, item)
        elif isinstance(e, ExchangeLine):
            self.exchange_line(e)
        elif isinstance(e, PassLine):
            self.add(e.seat, _Item(e.line, action=e.card, phase=PASS))  # R-BN-4
        elif isinstance(e, DiscardLine):
            self.add(e.seat, _Item(e.line, action=e.card, phase=DISCARD_PHASE))  # R-J-6
        elif isinstance(e, BidsLine):
            self.bids_line(e)
        elif isinstance(e, TrickLine):
            self.trick_line(e)
        elif isinstance(e, ActionsLine):
            for token in e.tokens:
                why = word_problem(token)
                if why is not None:
                    self.bad_words += 1
                    self.problem(e.line, f"{e.seat} {shown(token)} is {why}")
                self.add(e.seat, _Item(e.line, text=token))
        elif isinstance(e, ResultLine | ScoreLine | EndLine):
            self.checks(e)
        elif isinstance(e, UndoLine):
            self.problem(
                e.line,
                "undo lines are for replay; a script lists each seat's decisions "
                "in the order they are played",
            )
        # notes, seat and terminated lines say nothing a run needs


def prepare_script(t: Transcript, rules: Rules) -> Script:
    """Collect a script's parts (FileFormatError / MultiError, exit 2, for what cannot be used)."""
    collector = _Collector(t, rules)
    for e in t.events:
        collector.line(e)
    if collector.problems:
        words_only = collector.bad_words == len(collector.problems)
        raise_problems(collector.problems, EXIT_ILLEGAL if words_only else EXIT_USAGE)
    return collector.s


# ------------------------------------------------------------------------------ playing a script


class _ScriptChance:
    """Decks, deals and exchange draws fixed by a script; the rest comes from the seed."""

    def __init__(self, script: Script, seed: str) -> None:
        self.script = script
        self.seed = seed
        self.used: dict[tuple[int, int], int] = {}  # scripted draws taken, per (hand, seat)

    def deck(self, state: State) -> Sequence[int] | None:
        s = self.script
        hand_no = state.hand_no
        if hand_no in s.decks:
            return s.decks[hand_no][0]
        deals = s.deals.get(hand_no)
        if not deals:
            return None
        dealer = state.dealer
        taken = {c for cards, _ in deals.values() for c in cards}
        deck = deck_cards(state.rules)
        rest = [c for c in deck if c not in taken]
        rng_for(self.seed, "deal-rest", hand_no).shuffle(rest)
        order = [0] * len(deck)
        n, size = state.rules.players, state.rules.hand_size  # R-4P-3, R-CT-1
        for seat in range(n):
            k = (seat - dealer - 1) % n
            cards = list(deals[seat][0]) if seat in deals else [rest.pop() for _ in range(size)]
            for i, c in enumerate(cards):
                order[k + n * i] = c
        for i in range(n * size, len(deck)):
            order[i] = rest.pop()  # R-J-6: the cards left over, at the bottom of the deck
        return order

    def draw(self, state: State, index: int, pool: Sequence[int]) -> int | None:
        key = (state.hand_no, state.exchange_seat)
        used = self.used.get(key, 0)
        draws = self.script.draws.get(key, [])
        if used >= len(draws):
            return None
        self.used[key] = used + 1
        card, line = draws[used]
        if card not in pool:
            why = draw_problem(state, state.exchange_seat, card)
            raise IllegalActionError(why, file=self.script.t.origin, line=line)
        return card


class _Turns:
    """Keeps the seats of a bids or trick line acting in the order written, whoever plays
    them (transcript.order): the line's next seat is due at one place in the game."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.due: tuple[_Order, int, int] | None = None  # (line, index on it, history length)
        self.played: dict[int, int] = {}  # per line: how many of its actions were played

    def fail(self, order: _Order, st: State, actual: int, named: int, started: bool) -> typing.NoReturn:
        names = st.rules.seat_names
        message = out_of_order(names, trick=order.trick, started=started, actual=actual, named=named)
        raise IllegalActionError(message, file=self.script.t.origin, line=order.line)

    def before(self, item: _Item, st: State, seat: int) -> None:
        """A scripted seat is about to play ``item``."""
        h = len(st.history)
        due = self.due
        if due is not None and due[2] == h and (due[0] is not item.order or due[1] != item.index):
            self.fail(due[0], st, seat, due[0].seats[due[1]], True)
        order = item.order
        if order is None:
            return
        if order.trick is not None and order.trick != st.trick_no + 1:
            raise IllegalActionError(
                f"this is trick {st.trick_no + 1} of hand {st.hand_no + 1}, not trick {order.trick}",
                file=self.script.t.origin,
                line=order.line,
            )
        if item.index > 0 and not (due is not None and due[0] is order and due[2] == h):
            started = bool(st.trick) if order.trick is not None else bids_started(st)
            self.fail(order, st, seat, order.seats[self.played.get(order.line, 0)], started)
        self.played[order.line] = item.index + 1
        self.due = (order, item.index + 1, h + 1) if item.index + 1 < len(order.seats) else None

    def after(self, e: Decided, st: State) -> None:
        """Any seat acted: a bot that took the place of a line's seat breaks its order."""
        due = self.due
        if due is not None and due[2] == len(st.history) - 1:
            self.fail(due[0], st, e.seat, due[0].seats[due[1]], True)


class _ScriptController:
    """Plays a seat's scripted decisions in order; when they run out, the ``then`` bot (if any)."""

    def __init__(self, script: Script, seat: int, then: Controller | None, said: Emit, turns: _Turns) -> None:
        self.script = script
        self.seat = seat
        self.items = script.queues[seat]
        self.pos = 0
        self.then = then
        self.said = said  # a takeover by the --then player is recorded through it
        self.turns = turns
        self.closing: int | None = None  # the place of the done that closes an exchange
        self.label = "script"

    def fail(self, line: int, message: str, kind: type[SpadesError] = IllegalActionError) -> typing.NoReturn:
        raise kind(message, file=self.script.t.origin, line=line)

    def decide(self, match: Match, seat: int) -> int:
        st = match.state
        if self.pos == self.closing and st.phase != EXCHANGE:
            self.pos += 1  # the done after the last card an exchange allows
        self.closing = None
        if self.pos >= len(self.items):
            return self._after_script(match, seat)
        item = self.items[self.pos]
        self.pos += 1
        name = match.rules.seat_names[seat]
        if item.action is not None:
            action = item.action
            if item.phase is not None and item.phase != st.phase:
                self.fail(
                    item.line,
                    f"{name}'s next scripted action is {PHASE_WORDS[item.phase]}, "
                    f"but {name} must now give {PHASE_WORDS[st.phase]} (hand {st.hand_no + 1})",
                )
        else:
            action = self._read(item, st, name)
        self.turns.before(item, st, seat)
        self._check(item, action, st, name)
        return action

    def _read(self, item: _Item, st: State, name: str) -> int:
        """A word of a SEAT: list, read in the phase it meets."""
        assert item.text is not None
        try:
            action = parse_action(item.text, st.phase)
        except NotationError as exc:
            wanted = PHASE_WORDS[st.phase]
            if st.phase == DECLARE and st.rules.players == 2:
                wanted = "the double nil declaration that opens each hand of the two-player game"
            where = f"hand {st.hand_no + 1}"
            self.fail(item.line, f"{name} {shown(item.text)}: {wanted} is wanted here ({where}): {exc.hint}")
        if st.phase == EXCHANGE and action != EXCHANGE_DONE:
            self._exchange_list(item, st, name)
        return action

    def _exchange_list(self, item: _Item, st: State, name: str) -> None:
        """A card on a SEAT: list met in the exchange is given up only when ``done`` closes
        the cards to give up (``N: JS done``): a script that forgot the exchange would
        otherwise lose the cards it meant to play."""
        end = self.pos
        while end < len(self.items) and self.items[end].text is not None and _is_card(self.items[end]):
            end += 1
        closed = end < len(self.items) and _is_done(self.items[end])
        left = st.rules.blind_nil.exchange - st.exchange_count
        what = "double nil" if st.rules.players == 2 else "blind nil"
        if not closed:
            self.fail(
                item.line,
                f"{name} {shown(item.text or '')}: {name} declared {what} and may now give up to {left} "
                f"card{'s' if left != 1 else ''} for cards of the discard pile (hand {st.hand_no + 1}); "
                f"on a {name}: list the cards to give up end with done ({name}: {item.text} done), "
                "and done alone keeps every card",
            )
        given = end - self.pos + 1
        if given > left:
            self.fail(item.line, f"{name} lists {given} cards to give up before done, but may give up {left}")
        if given == left:
            self.closing = end

    def _after_script(self, match: Match, seat: int) -> int:
        st = match.state
        if self.then is not None:
            if self.pos == len(self.items):
                self.pos += 1
                self.said(SeatChanged(seat, self.then.label))
            return self.then.decide(match, seat)
        last = self.items[-1].line if self.items else self.script.t.last_line
        where = f"hand {st.hand_no + 1}" + (f", trick {st.trick_no + 1}" if st.phase == PLAY else "")
        raise ScriptExhausted(
            f"{match.rules.seat_names[seat]} has no scripted action left ({where}, "
            f"{PHASE_WORDS[st.phase]} wanted); --then LEVEL lets a bot finish the game",
            file=self.script.t.origin,
            line=last,
        )

    def _check(self, item: _Item, action: int, st: State, name: str) -> None:
        if item.draft_cards is not None and st.draft_pair() is not None:
            problem = pile_problem(st, item.draft_cards)
            if problem is not None:
                self.fail(item.line, problem, MismatchError)
        try:
            st.check(action)
        except IllegalAction as exc:
            self.fail(
                item.line, f"{name} {action_text(action)} is not legal in hand {st.hand_no + 1}: {exc.reason}"
            )

    def leftover(self) -> _Item | None:
        pos = self.pos + 1 if self.pos == self.closing else self.pos  # a done closing an exchange is used
        return self.items[pos] if pos < len(self.items) else None


def _is_card(item: _Item) -> bool:
    """Whether a SEAT: list item is a card word."""
    try:
        parse_action(item.text or "", PLAY)
    except NotationError:
        return False
    return True


def _is_done(item: _Item) -> bool:
    if item.text is not None:
        return item.text.strip().lower() == "done"
    return item.action == EXCHANGE_DONE and item.phase == EXCHANGE


@dataclass
class ScriptRun:
    """Who plays a script's seats, decided before the first card."""

    script: Script
    labels: dict[int, str]  # as recorded in the transcript header
    controllers: list[Controller]
    scripted: dict[int, _ScriptController]
    chance: _ScriptChance
    dealer: int | None
    said: Relay
    turns: _Turns


def script_seats(
    script: Script,
    *,
    seed: str,
    players: Mapping[int, Controller],
    then: Controller | None,
    said: Relay | None = None,
) -> ScriptRun:
    """The seats of a script run: scripted seats from their queues, the others from
    ``players`` (UsageError naming a seat that has neither). ``said`` is the relay the
    ``then`` player was made with (what it says is recorded by the run)."""
    rules = script.rules
    t = script.t
    names = rules.seat_names
    said = said if said is not None else Relay()
    controllers: list[Controller] = []
    labels: dict[int, str] = {}
    scripted: dict[int, _ScriptController] = {}
    turns = _Turns(script)
    for seat in range(rules.players):
        if script.queues[seat]:
            if seat in players:
                raise UsageError(
                    f"{names[seat]} has scripted actions here, so --seat {names[seat]}=... cannot play it; "
                    "--then LEVEL lets a bot finish for a scripted seat",
                    file=t.origin,
                    line=script.queues[seat][0].line,
                )
            c = scripted[seat] = _ScriptController(script, seat, then, said, turns)
            controllers.append(c)
            labels[seat] = "script"
        elif seat in players:
            controllers.append(players[seat])
            labels[seat] = players[seat].label
        else:
            raise UsageError(
                f"seat {names[seat]} has no scripted actions in this script: "
                f"give it a player with --seat {names[seat]}=LEVEL",
                file=t.origin,
                line=max(t.last_line, 1),
            )
    dealer = first_dealer(t, rules)
    if dealer is None and 0 in script.dealers:
        dealer = script.dealers[0][0]
    chance = _ScriptChance(script, seed)
    return ScriptRun(script, labels, controllers, scripted, chance, dealer, said, turns)


def script_match(seats: ScriptRun, seed: str) -> Match:
    """The match of a script: its seats, its dealer, chance from the script, then ``seed``."""
    script = seats.script
    return Match(script.rules, seed, seats.controllers, dealer=seats.dealer, chance=seats.chance)


def script_run(seats: ScriptRun, match: Match, **options: typing.Any) -> GameRun:
    """The GameRun that plays a script's ``match`` (``options`` as for :class:`GameRun`):
    the script's recorded results are checked as the game goes."""
    script = seats.script
    run = GameRun(match, origin=script.t.origin, said=seats.said, **options)
    run.subscribe(_recorded_facts(script))
    turns = seats.turns

    def in_turn(e: Event) -> None:
        if isinstance(e, Decided):
            turns.after(e, run.state)

    run.subscribe(in_turn)
    return run


def _recorded_facts(script: Script) -> RecordedFacts:
    """What the script records, to be checked as the game goes."""
    rules = script.rules
    facts = RecordedFacts(rules, script.t.origin)
    for hand_no, (seat, line) in script.dealers.items():
        facts.dealer(hand_no, seat, line)
    for (hand_no, trick_no), (seat, line) in script.winners.items():
        facts.winner(hand_no, trick_no, seat, line)
    for hand_no, result in script.results.items():
        facts.result(hand_no, result)
    for hand_no, score in script.scores.items():
        facts.score(hand_no, score)
    end = script.end
    if end is not None and end.winner:
        facts.end(0 if end.winner == rules.side_name(0) else 1, end.line)
    return facts


def finish_script(seats: ScriptRun, run: GameRun) -> None:
    """After a game that ended: a scripted action that was never played is a MismatchError."""
    if not run.match.finished:
        return
    for seat, c in seats.scripted.items():
        item = c.leftover()
        if item is not None:
            what = item.text if item.text is not None else action_text(item.action or 0)
            raise MismatchError(
                f"the game ended before {run.rules.seat_names[seat]}'s scripted action "
                f"{shown(what)} was played",
                file=seats.script.t.origin,
                line=item.line,
            )
