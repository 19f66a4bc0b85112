"""Statistics across games, read from their transcripts (the transcripts are the database).

:func:`collect` replays each transcript (:func:`spades_cli.transcript.replay`: a file
that does not replay is skipped and named) and folds every scored hand with the figures
``simulate`` folds (:func:`spades_cli.simulate.game.hand_stat`), adding every seat of
every hand to a group: the seat (``N``...), the player's level (``normal``, ``human``,
``cmd:...``, from the Seat tags) or the rules' name. Hands are counted per seat: in the
four-player game a side's result (its contract, bags, points) counts once for each of
its two seats. A game counts once in each group that played in it: won when a side of
the group won it, lost for each side of the group that lost it.

- a bid (1-13) counts the side's contract: *made* or *set*, and its over/under is the
  tricks that count toward the contract minus the contract;
- a nil (or a blind / double nil) is made when the seat took no trick;
- bags per hand, bag penalties and points per hand are the side's, per hand.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spades_cli.errors import FileFormatError, SpadesError
from spades_cli.game.events import Emit, Event, HandScored
from spades_cli.game.run import GameRun
from spades_cli.simulate.game import HandStat, hand_stat
from spades_cli.transcript import Transcript, read_transcript, replay
from spades_cli.transcript.paths import transcript_files
from spades_cli.transcript.tags import recorded_undo
from spades_cli.view.look import plural

BY = ("seat", "level", "rules")


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


@dataclass(frozen=True)
class Played:
    """One game of ``--player``: when (the file's time), the file, the seats sat at, the
    final score of the player's side and whether that side won (None: unfinished)."""

    when: float
    file: str
    seats: str
    score: int
    won: bool | None


@dataclass
class Stats:
    by: str
    player: str | None = None  # --player: only the seats whose Seat tag names this player
    played: list[Played] = field(default_factory=list)  # --player: the games, in order of time
    files: int = 0
    skipped: list[str] = field(default_factory=list)  # "FILE: why", for files that could not be read
    groups: dict[str, Group] = field(default_factory=dict)
    undo: dict[str, int] = field(default_factory=dict)  # games by their Undo tag ("not recorded": none)

    def group(self, key: str) -> Group:
        return self.groups.setdefault(key, Group())

    def as_json(self) -> dict[str, Any]:
        games = [
            {"file": g.file, "seats": g.seats, "score": g.score, "won": g.won}
            for g in sorted(self.played, key=_order)
        ]
        return {
            "by": "player" if self.player else self.by,
            **({"player": self.player, "games_played": games} if self.player else {}),
            "files": self.files,
            "skipped": self.skipped,
            "undo": dict(sorted(self.undo.items())),
            "groups": {k: g.as_json() for k, g in sorted(self.groups.items())},
        }


def add_transcript(stats: Stats, t: Transcript, origin: str) -> None:
    """Replay one transcript and fold its scored hands and its result into ``stats``."""
    labels = t.seat_labels()
    if not labels:
        raise FileFormatError("names no seats: not a spades transcript", file=origin)
    hands: dict[int, HandStat] = {}  # by hand number: a hand scored again after an undo counts once

    def watch(run: GameRun) -> Emit:
        def scored(event: Event) -> None:
            if isinstance(event, HandScored):
                hands[event.hand_no] = hand_stat(run.rules, event.result)

        return scored

    run = replay(t, watchers=[watch]).run
    rules = run.rules
    names = rules.seat_names
    by = stats.by
    keys: list[str | None] = [
        names[s] if by == "seat" else labels.get(names[s], "?") if by == "level" else rules.name
        for s in range(rules.players)
    ]
    if stats.player is not None:  # the player's seats only, each its own group
        keys = [
            names[s] if _same(labels.get(names[s], ""), stats.player) else None for s in range(rules.players)
        ]
    for h in hands.values():
        for s, key in enumerate(keys):
            if key is not None:
                _add_hand(stats.group(key), h, s, rules.side_of(s), rules.bags.penalty)
    winner = run.state.winner() if run.match.finished else None
    if stats.player is not None:
        _add_played(stats, run, keys, winner, origin)
    for key in {k for k in keys if k is not None}:  # a game counts once in each group that played in it
        g = stats.group(key)
        g.games += 1
        sides = {rules.side_of(s) for s, k in enumerate(keys) if k == key}
        if winner is None:
            g.unfinished += 1
        else:
            g.wins += winner in sides
            g.losses += len(sides - {winner})
    stats.files += 1
    policy = recorded_undo(t.tags) or "not recorded"
    stats.undo[policy] = stats.undo.get(policy, 0) + 1


def _same(label: str, player: str) -> bool:
    return label.strip().lower() == player.strip().lower()


def _add_played(stats: Stats, run: GameRun, keys: list[str | None], winner: int | None, origin: str) -> None:
    """One game of ``--player`` (nothing when the player sat at no seat of it)."""
    seats = [s for s, k in enumerate(keys) if k is not None]
    if not seats:
        return
    sides = sorted({run.rules.side_of(s) for s in seats})
    try:
        when = Path(origin).stat().st_mtime
    except OSError:
        when = 0.0
    score = max(run.state.scores[side] for side in sides)
    won = None if winner is None else winner in sides
    stats.played.append(Played(when, origin, "".join(run.rules.seat_names[s] for s in seats), score, won))


def _order(g: Played) -> tuple[float, str]:
    return (g.when, g.file)


def _add_hand(g: Group, h: HandStat, seat: int, side: int, penalty_unit: int) -> None:
    """One seat's hand, from the figures ``simulate`` folds too."""
    g.hands += 1
    g.points += h.points[side]
    g.bags += h.bags[side]
    g.penalties += h.penalties(side, penalty_unit)
    tried, made = h.nil[seat]
    g.nils += tried
    g.nils_made += made
    tried_blind, made_blind = h.blind[seat]
    g.blind_nils += tried_blind
    g.blind_nils_made += made_blind
    if tried or tried_blind or h.contract[side] <= 0:
        return
    g.bids += 1
    g.over_under += h.over[side]
    if h.made[side]:
        g.made += 1
    else:
        g.set += 1


def collect(paths: Iterable[str], by: str = "seat", player: str | None = None) -> Stats:
    """Statistics over the transcripts in ``paths`` (files, or folders of ``*.txt``), grouped
    ``by`` seat, level or rules; with ``player``, only the seats whose Seat tag names that
    player (``human``, ``hard``, ``cmd:...``), grouped by seat, and the games it played.
    Files that cannot be read are listed in ``skipped``."""
    stats = Stats(by, player)
    for path in transcript_files(paths):
        try:
            add_transcript(stats, read_transcript(path), str(path))
        except SpadesError as exc:  # read_transcript's one-line reasons (cannot read, not UTF-8, ...)
            stats.skipped.append(str(exc).splitlines()[0][:200])
    return stats


def _percent(part: int, whole: int) -> str:
    return f" ({100 * part // whole}%)" if whole else ""


def report(stats: Stats) -> list[str]:
    """The statistics as text, a short block per group (fits 60 columns)."""
    if stats.player is not None:
        lines = [
            f"{plural(stats.files, 'game')} read; {len(stats.played)} with {stats.player},"
            " by the seats it sat at."
        ]
    else:
        lines = [f"{plural(stats.files, 'game')} read; by {stats.by}."]
    if stats.undo:
        policies = ", ".join(f"{n} {policy}" for policy, n in sorted(stats.undo.items()))
        lines.append(f"Undo: {policies}.")
    for key, g in sorted(stats.groups.items()):
        j = g.as_json()
        lines.append("")
        lines.append(
            f"{key}: {plural(g.games, 'game')}, {g.wins} won, {g.losses} lost"
            + (f", {g.unfinished} unfinished" if g.unfinished else "")
        )
        bids = j["bids"]
        made = f"{g.made} made{_percent(g.made, g.bids)}"
        lines.append(f"  {plural(g.hands, 'hand')}; {plural(g.bids, 'bid')}: {made}, {g.set} set")
        lines.append(f"  {bids['average_over_under']:+.2f} tricks over/under the bid on average")
        lines.append(
            f"  nil {g.nils} tried, {g.nils_made} made; blind/double nil "
            f"{g.blind_nils} tried, {g.blind_nils_made} made"
        )
        lines.append(f"  {j['bags_per_hand']:.2f} bags per hand, {g.penalties} bag penalties")
        lines.append(f"  {j['points_per_hand']:.2f} points per hand")
    if stats.played:
        lines += ["", f"{stats.player}'s side's final score, game by game (oldest first):"]
        lines += points_chart([g.score for g in sorted(stats.played, key=_order)])
    return lines


def points_chart(values: list[int], height: int = 6, width: int = 60) -> list[str]:
    """A small bar chart of ``values``, oldest first (two columns each, the last ones that fit
    ``width``): a bar of ``#`` from the zero line (``-``) up to each value, or down to a
    negative one; the highest and lowest values and zero as labels."""
    label = max(len(str(v)) for v in [0, *values])
    values = values[-((width - label - 2) // 2) :]
    top, bottom = max(0, *values), min(0, *values)
    span = max(top - bottom, 1)

    def row(v: int) -> int:  # 0 is the top row
        return round((top - v) * (height - 1) / span)

    zero = row(0)
    lines = []
    for r in range(height):
        cells = [
            "#" if v and min(row(v), zero) <= r <= max(row(v), zero) else "-" if r == zero else " "
            for v in values
        ]
        name = str(top) if r == 0 else str(bottom) if r == height - 1 else "0" if r == zero else ""
        gap = "-" if r == zero else " "
        lines.append(f"{name.rjust(label)} |{gap.join(cells)}".rstrip())
    lines.append(f"{' ' * label}  {len(values)} games")
    return lines
