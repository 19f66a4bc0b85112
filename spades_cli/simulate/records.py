"""Statistics across games, read from their transcripts (the transcripts are the database).

:func:`collect` reads transcript files through the public reader
(:func:`spades_cli.transcript.parse_transcript`), keeping only the lines it counts from
(tags, hands, declarations, bids, tricks, results, scores, the end), and adds every seat
of every hand to a group: the seat (``N``...), the player's level (``normal``, ``human``,
``cmd:...``) or the rules' name. Counts are per seat: in the four-player game a side's
result (its contract, bags, points) counts once for each of its two seats.

- a bid (1-13) is *made* when the seat's side made its contract, *set* when it did not;
  its over/under is the seat's own tricks minus its own bid;
- a nil (or a blind / double nil) is made when the seat took no trick;
- bags per hand and points per hand are the side's, per hand; a penalty is counted when
  the side's carried bags drop below what they were plus the hand's bags.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spades_cli.errors import FileFormatError, SpadesError
from spades_cli.transcript import (
    BidsLine,
    DeclareLine,
    EndLine,
    HandLine,
    ResultLine,
    ScoreLine,
    TrickLine,
    parse_transcript,
)
from spades_cli.transcript.files import read_limited

BY = ("seat", "level", "rules")
_KEEP = ("[", "hand ", "declare ", "bids ", "trick ", "result ", "score ", "end ")


@dataclass
class Group:
    """What one group of seats did over the games read."""

    games: int = 0
    wins: int = 0
    losses: int = 0
    unfinished: int = 0
    hands: int = 0
    bids: int = 0
    made: int = 0
    set: int = 0
    over_under: int = 0  # the sum of (own tricks - own bid) over the bids
    nils: int = 0
    nils_made: int = 0
    blind_nils: int = 0
    blind_nils_made: int = 0
    bags: int = 0
    penalties: int = 0
    points: int = 0

    def as_json(self) -> dict[str, Any]:
        per_hand = max(self.hands, 1)
        return {
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "unfinished": self.unfinished,
            "hands": self.hands,
            "bids": {
                "count": self.bids,
                "made": self.made,
                "set": self.set,
                "average_over_under": round(self.over_under / self.bids, 2) if self.bids else 0.0,
            },
            "nil": {"tried": self.nils, "made": self.nils_made},
            "blind_nil": {"tried": self.blind_nils, "made": self.blind_nils_made},
            "bags_per_hand": round(self.bags / per_hand, 2),
            "bag_penalties": self.penalties,
            "points_per_hand": round(self.points / per_hand, 2),
        }


@dataclass
class Stats:
    by: str
    files: int = 0
    skipped: list[str] = field(default_factory=list)  # "FILE: why", for files that could not be read
    groups: dict[str, Group] = field(default_factory=dict)

    def group(self, key: str) -> Group:
        return self.groups.setdefault(key, Group())

    def as_json(self) -> dict[str, Any]:
        return {
            "by": self.by,
            "files": self.files,
            "skipped": self.skipped,
            "groups": {k: g.as_json() for k, g in sorted(self.groups.items())},
        }


def transcript_files(paths: Iterable[str]) -> Iterator[Path]:
    """Every ``*.txt`` file in the folders given (not their subfolders), and the files given."""
    for p in paths:
        path = Path(p)
        if path.is_dir():
            yield from sorted(f for f in path.glob("*.txt") if f.is_file())
        else:
            yield path


def _side_of(seat: str, players: int) -> str:
    if players == 2:
        return seat
    return "NS" if seat in ("N", "S") else "EW"


@dataclass
class _Game:
    """One transcript as it is read, hand by hand."""

    keys: dict[str, str]  # seat -> group key
    players: int
    partner_counts: bool = False  # nil.failed_tricks is "partner": a failed nil's tricks help the bid
    blind: set[str] = field(default_factory=set)
    bids: dict[str, int] = field(default_factory=dict)
    tricks: dict[str, int] = field(default_factory=dict)
    carried: dict[str, int] = field(default_factory=dict)  # bags carried per side
    result: dict[str, tuple[int, int, int]] = field(default_factory=dict)  # side -> tricks, points, bags


def _add_hand(
    stats: Stats, game: _Game, contracts: dict[str, int], toward: dict[str, int], penalties: dict[str, int]
) -> None:
    for seat, key in game.keys.items():
        g = stats.group(key)
        side = _side_of(seat, game.players)
        _, points, bags = game.result.get(side, (0, 0, 0))
        g.hands += 1
        g.points += points
        g.bags += bags
        g.penalties += penalties.get(side, 0)
        bid = game.bids.get(seat)
        took = game.tricks.get(seat, 0)
        if bid is None:
            continue
        if bid == 0:
            if seat in game.blind:
                g.blind_nils += 1
                g.blind_nils_made += took == 0
            else:
                g.nils += 1
                g.nils_made += took == 0
            continue
        g.bids += 1
        g.over_under += took - bid
        if toward.get(side, 0) >= contracts.get(side, 0):
            g.made += 1
        else:
            g.set += 1


def _score(stats: Stats, game: _Game, line: ScoreLine) -> None:
    """A hand's score line: count penalties, then add the hand to every seat's group."""
    penalties = {}
    for side, total in line.bags:
        before = game.carried.get(side, 0)
        hand_bags = game.result.get(side, (0, 0, 0))[2]
        penalties[side] = 1 if total < before + hand_bags else 0
        game.carried[side] = total
    contracts: dict[str, int] = {}
    toward: dict[str, int] = {}  # the tricks that count toward the side's contract
    for seat, bid in game.bids.items():
        side = _side_of(seat, game.players)
        contracts[side] = contracts.get(side, 0) + bid
        if bid or game.partner_counts:
            toward[side] = toward.get(side, 0) + game.tricks.get(seat, 0)
    _add_hand(stats, game, contracts, toward, penalties)


def add_transcript(stats: Stats, text: str, origin: str) -> None:
    """Count one transcript's hands and result into ``stats``."""
    # The lines not counted are read as blank ones, so that a problem names its own line.
    kept = "".join(line if line.startswith(_KEEP) else "\n" for line in text.splitlines(keepends=True))
    t = parse_transcript(kept, origin)
    labels = t.seat_labels()
    if not labels:
        raise FileFormatError("names no seats: not a spades transcript", file=origin)
    rule_tags = {tag.values[0]: tag.values[1] for tag in t.tags_named("Rule")}
    rules = rule_tags.get("name") or t.rules_source or "?"
    players = 2 if set(labels) <= {"N", "S"} else 4
    by = stats.by
    keys = {s: s if by == "seat" else labels[s] if by == "level" else rules for s in sorted(labels)}
    game = _Game(keys, players, rule_tags.get("nil.failed_tricks") == "partner")
    winner: str | None = None
    ended = False
    for e in t.events:
        if isinstance(e, HandLine):
            game.blind, game.bids, game.tricks, game.result = set(), {}, {}, {}
        elif isinstance(e, DeclareLine) and e.blind:
            game.blind.add(e.seat)  # a declared nil: no bid of its own on the bids line
            game.bids[e.seat] = 0
        elif isinstance(e, BidsLine):
            game.bids.update(e.bids)
        elif isinstance(e, TrickLine) and e.winner is not None:
            game.tricks[e.winner] = game.tricks.get(e.winner, 0) + 1
        elif isinstance(e, ResultLine):
            game.result = {side: (tricks, points, bags) for side, tricks, points, bags in e.sides}
        elif isinstance(e, ScoreLine):
            _score(stats, game, e)
        elif isinstance(e, EndLine):
            ended, winner = e.winner is not None, e.winner
    for seat, k in game.keys.items():
        g = stats.group(k)
        g.games += 1
        if not ended:
            g.unfinished += 1
        elif winner == _side_of(seat, players):
            g.wins += 1
        else:
            g.losses += 1
    stats.files += 1


def collect(paths: Iterable[str], by: str = "seat") -> Stats:
    """Statistics over the transcripts in ``paths`` (files, or folders of ``*.txt``), grouped
    ``by`` seat, level or rules. Files that cannot be read are listed in ``skipped``."""
    stats = Stats(by)
    for path in transcript_files(paths):
        try:
            text = read_limited(path).decode("utf-8")
            add_transcript(stats, text, str(path))
        except (OSError, UnicodeDecodeError) as exc:
            stats.skipped.append(f"{path}: cannot read: {getattr(exc, 'strerror', None) or exc}")
        except SpadesError as exc:
            stats.skipped.append(str(exc).splitlines()[0][:200])
    return stats


def _percent(part: int, whole: int) -> str:
    return f" ({100 * part // whole}%)" if whole else ""


def report(stats: Stats) -> list[str]:
    """The statistics as text, a short block per group (fits 60 columns)."""
    lines = [f"{stats.files} games read; by {stats.by}."]
    for key, g in sorted(stats.groups.items()):
        j = g.as_json()
        lines.append("")
        lines.append(
            f"{key}: {g.games} games, {g.wins} won, {g.losses} lost"
            + (f", {g.unfinished} unfinished" if g.unfinished else "")
        )
        bids = j["bids"]
        made = f"{g.made} made{_percent(g.made, g.bids)}"
        lines.append(f"  {g.hands} hands; {g.bids} bids: {made}, {g.set} set")
        lines.append(f"  {bids['average_over_under']:+.2f} tricks over/under the bid on average")
        lines.append(
            f"  nil {g.nils} tried, {g.nils_made} made; blind/double nil "
            f"{g.blind_nils} tried, {g.blind_nils_made} made"
        )
        lines.append(f"  {j['bags_per_hand']:.2f} bags per hand, {g.penalties} bag penalties")
        lines.append(f"  {j['points_per_hand']:.2f} points per hand")
    return lines
