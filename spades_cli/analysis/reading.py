"""The file an analysis reads: a transcript, replayed and checked."""

from __future__ import annotations

from spades_cli.engine import Rules
from spades_cli.errors import FileFormatError
from spades_cli.game.match import Match
from spades_cli.transcript import Transcript, replay, transcript_rules
from spades_cli.transcript.files import read_limited
from spades_cli.transcript.syntax import LineProblems, transcript_from_bytes


def read_for_analysis(path: str) -> Transcript:
    """The transcript in ``path``; a file none of whose lines reads as a transcript line
    (a JSON summary, a text of another kind) is refused in one line (exit 2), not with a
    problem for each of its lines."""
    try:
        return transcript_from_bytes(read_limited(path), path)
    except LineProblems as exc:
        if exc.read:
            raise
        raise FileFormatError(
            "this is not a spades transcript (no line of it reads as one)", file=path
        ) from None


def replayed(t: Transcript) -> tuple[Rules, Match]:
    """The transcript's rules and its game, replayed and checked."""
    rules = transcript_rules(t)
    assert rules is not None
    return rules, replay(t, rules).match


__all__ = ["read_for_analysis", "replayed"]
