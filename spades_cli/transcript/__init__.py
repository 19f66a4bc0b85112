"""The transcript format: read it, write it, replay it, and play scripts written in it.

- :mod:`~spades_cli.transcript.syntax`: the line types and the lenient reader
  (:func:`read_transcript`, :func:`parse_transcript`; every problem with its line);
- :mod:`~spades_cli.transcript.tags`: the rules and first dealer a transcript's tags fix;
- :mod:`~spades_cli.transcript.writer`: the canonical writer (:class:`TranscriptWriter`),
  fed with a game run's events;
- :mod:`~spades_cli.transcript.checks`: what a file records, checked against the game
  (one subscriber, one message per problem, for replay and scripts);
- :mod:`~spades_cli.transcript.replay`: :func:`replay`, a game run whose decisions come
  from the file and whose recorded results are checked; :func:`write_transcript`;
- :mod:`~spades_cli.transcript.scripts`: scripts for ``spades run``;
- :mod:`~spades_cli.transcript.paths`: the transcripts folder, new file names, seeds.
"""

from __future__ import annotations

from spades_cli.presets.codec import flat_rules
from spades_cli.transcript.paths import default_transcript_dir, new_seed, new_transcript_path
from spades_cli.transcript.replay import ReplayResult, header_for, match_for, replay, write_transcript
from spades_cli.transcript.scripts import (
    Script,
    ScriptExhausted,
    ScriptRun,
    finish_script,
    prepare_script,
    script_run,
    script_seats,
)
from spades_cli.transcript.syntax import (
    FORMAT_VERSION,
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
    Tag,
    TerminatedLine,
    Transcript,
    TrickLine,
    UndoLine,
    parse_transcript,
    read_transcript,
)
from spades_cli.transcript.tags import first_dealer, transcript_rules
from spades_cli.transcript.writer import Header, TranscriptWriter

__all__ = [
    "FORMAT_VERSION",
    "ActionsLine",
    "BidsLine",
    "DealLine",
    "DeckLine",
    "DeclareLine",
    "DiscardLine",
    "DraftLine",
    "EndLine",
    "ExchangeLine",
    "HandLine",
    "Header",
    "Line",
    "NoteLine",
    "PassLine",
    "ReplayResult",
    "ResultLine",
    "ScoreLine",
    "Script",
    "ScriptExhausted",
    "ScriptRun",
    "SeatLine",
    "Tag",
    "TerminatedLine",
    "Transcript",
    "TranscriptWriter",
    "TrickLine",
    "UndoLine",
    "default_transcript_dir",
    "finish_script",
    "first_dealer",
    "flat_rules",
    "header_for",
    "match_for",
    "new_seed",
    "new_transcript_path",
    "parse_transcript",
    "prepare_script",
    "read_transcript",
    "replay",
    "script_run",
    "script_seats",
    "transcript_rules",
    "write_transcript",
]
