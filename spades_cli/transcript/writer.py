"""The canonical transcript writer: a game's events in, transcript text out.

A :class:`TranscriptWriter` is fed by the :class:`~spades_cli.game.run.GameRun` that owns
it: after every action the run hands it that action's events (:meth:`record`) and the
writer turns them into text and writes it in one piece (:meth:`_write` is the one place
where bytes reach the file, through :class:`~spades_cli.transcript.files.TranscriptFile`:
one whole write, the file locked and private). So a process killed at any moment leaves a
file that replays up to its last whole action, and a write that fails (a full disk) is
cut back to it and ends the game with :class:`~spades_cli.transcript.files.SaveFailed`
saying how far the game is saved.

The text written after any action is a canonical transcript of the game so far: the
bids, a trick or an exchange in progress is an unfinished last line that the next
actions complete. Replaying a transcript into a writer (``write_transcript``) gives back
the same bytes.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

from spades_cli.engine import (
    BID,
    DEAL,
    DECLARE,
    DISCARD_PHASE,
    DRAFT,
    EXCHANGE,
    EXCHANGE_DONE,
    KEEP,
    PASS,
    PLAY,
    HandResult,
    Rules,
    State,
    card_str,
)
from spades_cli.engine.notation import action_text
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
from spades_cli.presets.codec import flat_rules
from spades_cli.transcript.files import TranscriptFile, save_failed
from spades_cli.transcript.syntax import FORMAT_VERSION, HEADER_COMMENT, Tag, quote

__all__ = ["Header", "TranscriptWriter"]


@dataclass(frozen=True)
class Header:
    """What the tags of a transcript say."""

    rules: Rules
    seed: str | None
    first_dealer: int
    seats: tuple[str | None, ...]  # the label of each seat ("normal", "human", "cmd:...")
    rules_source: str | None = None
    overrides: tuple[str, ...] = ()
    extra_tags: tuple[Tag, ...] = ()

    def text(self) -> str:
        rules = self.rules
        names = rules.seat_names
        out = [HEADER_COMMENT, '[Game "spades"]', f"[Format {quote(FORMAT_VERSION)}]"]
        if self.rules_source is not None:
            out.append(f"[Rules {quote(self.rules_source)}]")
        out += [f"[Set {quote(o)}]" for o in self.overrides]
        if self.seed is not None:
            out.append(f"[Seed {quote(self.seed)}]")
        out.append(f"[FirstDealer {quote(names[self.first_dealer])}]")
        out += [f"[Seat {quote(names[s])} {quote(label)}]" for s, label in enumerate(self.seats) if label]
        out += [f"[{tag.name} {' '.join(quote(v) for v in tag.values)}]" for tag in self.extra_tags]
        out += [f"[Rule {quote(k)} {quote(v)}]" for k, v in flat_rules(rules)]
        return "\n".join(out) + "\n"


class TranscriptWriter:
    """Writes one game's transcript into a file (:meth:`open`) or a text stream (memory, for
    a replay)."""

    def __init__(
        self, stream: TextIO | None = None, *, close_stream: bool = False, path: str | None = None
    ) -> None:
        self.stream = stream
        self.file: TranscriptFile | None = None
        self.path = path
        self._close_stream = close_stream
        self._open: str | None = None  # the kind of unfinished last line: bids, trick, exchange
        self._won: TrickWon | None = None  # the trick the action being written completes
        self.saved_up_to: str | None = None  # where the game written so far ends (None: nothing yet)

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, exclusive: bool = False) -> TranscriptWriter:
        """A writer into a new file at ``path``, private and locked (``exclusive``:
        FileExistsError if it exists; else an existing file is overwritten)."""
        writer = cls()
        writer.to_file(TranscriptFile.create(path, force=not exclusive))
        return writer

    # -- output: the one place where text reaches the file --------------------------------

    def _write(self, text: str) -> bool:
        """Write ``text`` whole; False if nothing can be written any more (a write failed)."""
        if self.file is None:
            assert self.stream is not None
            self.stream.write(text)
            self.stream.flush()
            return True
        if self.file.failed:
            return False  # the game stopped at the failed write; the file stays as it was cut
        try:
            self.file.append(text.encode("utf-8", "replace"))
        except OSError as exc:
            raise save_failed(exc, self.file.path, self.saved_up_to) from None
        return True

    def write_header(self, header: Header) -> None:
        self._open = None
        if self._write(header.text()):
            self.saved_up_to = "the start of the game"

    def retarget(self, stream: TextIO, *, close_stream: bool = True, path: str | None = None) -> None:
        """Continue writing into another stream."""
        self.stream = stream
        self._close_stream = close_stream
        self.path = path

    def to_file(self, file: TranscriptFile) -> None:
        """Continue writing into ``file`` (resume: from memory to the file)."""
        self.file = file
        self.path = file.path

    def close(self) -> None:
        if self.file is not None:
            self.file.close()
        elif self._close_stream and self.stream is not None:
            self.stream.close()

    # -- events -----------------------------------------------------------------------

    def record(self, events: Sequence[Event], state: State) -> None:
        """Write the events of one action (or one remark) in a single write. ``state`` is the
        game after them: the writer reads the cards of a draft turn and whether the bids or
        an exchange go on from it."""
        self._won = next((e for e in events if isinstance(e, TrickWon)), None)
        text = "".join(self._text(e, state) for e in events)
        if text and self._write(text):
            self.saved_up_to = position(state)

    def _closing(self) -> str:
        closing = "\n" if self._open else ""
        self._open = None
        return closing

    def _text(self, e: Event, state: State) -> str:
        names = state.rules.seat_names
        if isinstance(e, Decided):
            return self._decided(e, state)
        if isinstance(e, HandStarted):
            cards = " ".join(card_str(c) for c in e.deck)
            return f"{self._closing()}\nhand {e.hand_no + 1} dealer {names[e.dealer]}\ndeck {cards}\n"
        if isinstance(e, TrickWon):
            self._open = None
            return f" won {names[e.winner]}\n"
        if isinstance(e, HandScored):
            return _result_lines(e.result, state.rules)
        if isinstance(e, GameOver):
            if e.winner is not None:
                return f"{self._closing()}end winner {state.rules.side_name(e.winner)}\n"
            return f"{self._closing()}end *\n"
        if isinstance(e, Noted):
            who = f"{names[e.seat]} " if e.seat is not None else ""
            return f"{self._closing()}note {who}{quote(e.text)}\n"
        if isinstance(e, SeatChanged):
            return f"{self._closing()}seat {names[e.seat]} {quote(e.label)}\n"
        if isinstance(e, Undone):
            return f"{self._closing()}undo {names[e.seat]}\n"
        if isinstance(e, Terminated):
            who = f"{names[e.seat]} " if e.seat is not None else ""
            return f"{self._closing()}terminated {who}{quote(e.reason)}\n"
        return ""  # GameStarted: the header says it all

    def _decided(self, e: Decided, state: State) -> str:
        names = state.rules.seat_names
        action = e.action
        if e.seat < 0:  # the card drawn in the exchange
            if self._open == "exchange":
                self._open = None
                return f" draw {card_str(action)}\n"
            # a draw after an interruption of the exchange line (not written by this writer)
            return f"{self._closing()}exchange {names[state.exchange_seat]} draw {card_str(action)}\n"
        seat = names[e.seat]
        phase = e.phase
        if phase == DECLARE:
            return f"{self._closing()}declare {seat} {action_text(action)}\n"
        if phase == DRAFT:
            drafted = state.drafted()
            assert drafted is not None
            top, nxt = (card_str(c) for c in drafted)
            if action == KEEP:
                return f"{self._closing()}draft {seat} keep {top} discard {nxt}\n"
            return f"{self._closing()}draft {seat} discard {top} keep {nxt}\n"
        if phase == EXCHANGE:
            if action == EXCHANGE_DONE:
                return f"{self._closing()}exchange {seat} done\n"
            text = f"{self._closing()}exchange {seat} give {card_str(action)}"
            self._open = "exchange"
            return text
        if phase == PASS:  # R-BN-4: the card the seat passes to its partner
            return f"{self._closing()}pass {seat} {card_str(action)}\n"
        if phase == DISCARD_PHASE:  # R-J-6: a card of the ones left over laid aside
            return f"{self._closing()}discard {seat} {card_str(action)}\n"
        if phase == BID:
            text = "" if self._open == "bids" else f"{self._closing()}bids"
            text += f" {seat}:{action_text(action)}"
            if state.phase == BID:
                self._open = "bids"
                return text
            self._open = None
            return text + "\n"
        if phase == PLAY:
            if self._open == "trick":
                return f" {card_str(action)}"
            number = self._won.trick_no if self._won is not None else state.trick_no + 1
            text = f"{self._closing()}trick {number} {seat}: {card_str(action)}"
            self._open = "trick"
            return text
        return ""


_PHASE_WORDS = {
    DECLARE: "the declarations",
    DRAFT: "the draft",
    EXCHANGE: "the exchange",
    BID: "the bidding",
    PASS: "the partners' exchange",
    DISCARD_PHASE: "the discard",
}


def position(state: State) -> str:
    """Where a game stands, in words: ``hand 3, trick 5``, ``hand 2, the bidding``."""
    done = len(state.results)
    if state.is_terminal():
        return "the end of the game"
    if state.phase == DEAL:
        return f"the end of hand {done}" if done else "the start of the game"
    if state.phase == PLAY:
        return f"hand {state.hand_no + 1}, trick {state.trick_no + 1}"
    return f"hand {state.hand_no + 1}, {_PHASE_WORDS.get(state.phase, 'the exchange')}"


def _result_lines(result: HandResult, rules: Rules) -> str:
    sides = [
        f"{rules.side_name(i)} tricks {s.tricks} points {s.points} bags {s.bags}"
        for i, s in enumerate(result.sides)
    ]
    names = [rules.side_name(i) for i in range(len(result.sides))]
    scores = " ".join(f"{name} {s.score}" for name, s in zip(names, result.sides, strict=True))
    bags = " ".join(f"{name} {s.bags_total}" for name, s in zip(names, result.sides, strict=True))
    return f"result {' | '.join(sides)}\nscore {scores} bags {bags}\n"
