"""One game of a tournament: what it is (seed, seats) and the little it leaves behind.

Each game gets its own seed, derived from the tournament seed and the game's index, so a
game's result does not depend on which process, machine or chunk plays it. With
``duplicate`` every game is played once per side on the same cards, every player moved one
seat on each time: twice with two sides (their seats exchanged), three times in cutthroat
and four times in solo, so that each player sits in every seat (the luck of the deal
cancels, as in duplicate bridge).
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from spades_cli.engine import HandResult, Rules, rng_for, zero_at
from spades_cli.game.match import Controller, Match
from spades_cli.simulate.stats import TimeHist

MAX_HANDS = 200


@dataclass(frozen=True, slots=True)
class Tournament:
    """What makes two runs the same tournament: their games have the same seeds and seats."""

    rules: Rules
    labels: tuple[str, ...]  # controller label per seat
    games: int  # games per copy (--games)
    seed: int
    duplicate: bool = False
    max_hands: int = MAX_HANDS

    @property
    def copies(self) -> int:
        """The copies of each deal: one per side with ``duplicate`` (every rotation)."""
        return self.rules.sides if self.duplicate else 1


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything a worker needs to play any game of the tournament (sent to it once)."""

    tournament: Tournament
    transcript_dir: str | None = None
    rules_source: str | None = None  # preset name or file, recorded in transcripts
    overrides: tuple[str, ...] = ()
    bot_timeout: float | None = None  # --bot-timeout for cmd: seats
    on_failure: str | None = None  # --on-bot-failure for cmd: seats


@dataclass(frozen=True, slots=True)
class GameJob:
    index: int  # game number in the tournament
    twin: int  # which copy of a duplicate deal: 0 the first, k: every player k seats on
    seed: int
    labels: tuple[str, ...]  # controller label per seat (already moved on for a copy)


@dataclass(frozen=True, slots=True)
class HandStat:
    hand_no: int
    points: tuple[int, ...]  # per side (two, or one per player without partners: R-CT-7)
    contract: tuple[int, ...]  # per side (0: no contract)
    made: tuple[bool, ...]
    over: tuple[int, ...]  # per side: the tricks that count toward the contract, minus it
    bags: tuple[int, ...]
    penalty: tuple[int, ...]  # bag penalties charged (negative or 0)
    nil: tuple[tuple[int, int], ...]  # per seat: (attempted, made) for an ordinary nil
    blind: tuple[tuple[int, int], ...]  # per seat: (attempted, made) for a blind / double nil

    def penalties(self, side: int, unit: int) -> int:
        """How many bag penalties ``side`` was charged this hand (``unit``: the points of one)."""
        if not self.penalty[side]:
            return 0
        return round(-self.penalty[side] / max(1, unit)) or 1


@dataclass(slots=True)
class GameRecord:
    """One game, kept only until it is added to the totals."""

    index: int
    twin: int  # the copy (GameJob.twin)
    seed: int
    labels: tuple[str, ...]
    winner: int | None  # side; None when the game hit the hand cap or was ended by a failure
    scores: tuple[int, ...]  # per side
    hands: list[HandStat]
    capped: bool
    terminated: str | None = None  # why a failing cmd: bot ended the game, if one did


class _Timed:
    """Wraps a controller and adds how long each decision takes to a histogram."""

    def __init__(self, inner: Controller, sink: TimeHist) -> None:
        self.inner = inner
        self.label = inner.label
        self.sink = sink

    def decide(self, match: Match, seat: int) -> int:
        t0 = time.perf_counter()
        action = self.inner.decide(match, seat)
        self.sink.add(time.perf_counter() - t0)
        return action


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a tournament (independent of workers and order)."""
    return rng_for(seed, "game", index).randrange(1 << 62)


def exchange_sides(labels: Sequence[str], shift: int = 1) -> tuple[str, ...]:
    """Move every seat's player ``shift`` seats on: with one seat, each side sits where the
    other sat (with a side per player, where the player to its right sat)."""
    n = len(labels)
    return tuple(labels[(s - shift) % n] for s in range(n))


def jobs_for(t: Tournament, index: int) -> list[GameJob]:
    """Game ``index`` of the tournament: one job, or every copy of a duplicate deal (the
    players moved on 0, 1, ... seats: each side's players in every side's seats)."""
    gs = game_seed(t.seed, index)
    return [GameJob(index, k, gs, exchange_sides(t.labels, k)) for k in range(t.copies)]


def play_game(settings: Settings, job: GameJob, times: dict[str, TimeHist] | None = None) -> GameRecord:
    """Play one game to its end (or to the hand cap); decision times go into ``times``."""
    from spades_cli.app.setup import make_controller
    from spades_cli.game.events import Event, HandScored
    from spades_cli.game.run import GameRun
    from spades_cli.protocol import BotFailure

    t = settings.tournament
    times = {} if times is None else times
    inner: list[Controller] = [make_controller(label, t.rules) for label in job.labels]
    match = Match(t.rules, job.seed, inner)
    run = GameRun(
        match,
        writer=_transcript_writer(settings, job, match) if settings.transcript_dir is not None else None,
        max_hands=t.max_hands,
        bot_timeout=settings.bot_timeout,
        on_bot_failure=settings.on_failure,
        owned=inner,
        cap_note="stopped by simulate after {hands}",
    )
    hands: list[HandStat] = []

    def scored(event: Event) -> None:
        if isinstance(event, HandScored):
            hands.append(hand_stat(t.rules, event.result))

    run.subscribe(scored)  # the game layer says when each hand is scored
    terminated = None
    try:
        # The run wires the cmd: seats (timeout, fallback, logs, notes), finishes the
        # transcript and stops the programs.
        with run:
            inner[:] = match.controllers  # the run seated the programs
            match.controllers = [
                _Timed(c, times.setdefault(label, TimeHist()))
                for c, label in zip(inner, job.labels, strict=True)
            ]
            run.play()
    except BotFailure as exc:
        # The failing seat's game ends here (recorded as its termination); the
        # tournament goes on and reports it.
        terminated = str(exc)
    state = match.state
    return GameRecord(
        index=job.index,
        twin=job.twin,
        seed=job.seed,
        labels=job.labels,
        winner=state.winner() if match.finished else None,
        scores=tuple(state.scores),
        hands=hands,
        capped=not match.finished and terminated is None,
        terminated=terminated,
    )


def hand_stat(rules: Rules, r: HandResult) -> HandStat:
    """The figures of one scored hand that ``simulate`` and ``stats`` fold."""
    nil = []
    blind = []
    for s in range(rules.players):
        is_nil = rules.is_nil(r.bids[s], r.blind[s], zero_at(r.zero, s))
        ok = int(r.tricks[s] == 0)
        nil.append((1, ok) if is_nil and not r.blind[s] else (0, 0))
        blind.append((1, ok) if is_nil and r.blind[s] else (0, 0))
    sides = r.sides
    return HandStat(
        hand_no=r.hand_no,
        points=tuple(x.points for x in sides),
        contract=tuple(x.contract for x in sides),
        made=tuple(x.made for x in sides),
        over=tuple(x.counted - x.contract for x in sides),
        bags=tuple(x.bags for x in sides),
        penalty=tuple(x.bag_penalty for x in sides),
        nil=tuple(nil),
        blind=tuple(blind),
    )


def _transcript_writer(settings: Settings, job: GameJob, match: Match) -> Any:
    """A transcript of the game in ``settings.transcript_dir``, its header written."""
    from spades_cli.app.setup import RulesChoice, open_transcript

    assert settings.transcript_dir is not None
    copy = "" if not job.twin else "-twin" if job.twin == 1 else f"-twin{job.twin}"
    name = f"game-{job.index + 1:04d}{copy}.txt"
    path = os.path.join(settings.transcript_dir, name)
    choice = RulesChoice(settings.tournament.rules, settings.rules_source, tuple(settings.overrides))
    return open_transcript(path, match, choice, seats=job.labels, exclusive=False)
