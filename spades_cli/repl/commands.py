"""The commands a player can type at the prompt besides a move, with their help text."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Command:
    name: str
    aliases: tuple[str, ...]
    summary: str


COMMANDS: tuple[Command, ...] = (
    Command("help", ("?",), "what you can type"),
    Command("hand", ("cards",), "your cards, sorted by suit"),
    Command("table", ("trick",), "the trick in progress, who led it and who is on turn"),
    Command("last", (), "the previous trick"),
    Command("tricks", (), "every trick of this hand so far"),
    Command("score", ("scores",), "points of every hand, totals and bags"),
    Command("bids", (), "the bids and the tricks taken against them"),
    Command("discards", (), "two-player: the cards you discarded in the draft"),
    Command("rules", (), "the rules of this table ('rules all' prints every option)"),
    Command("hint", (), "what the expert bot (hard on a pure-Python install) would do here, and why"),
    Command("undo", (), "take back your last decision and the moves made after it"),
    Command("transcript", (), "where the game is saved"),
    Command("quit", ("exit",), "leave; the game stays saved and 'spades resume' continues it"),
)

_BY_WORD = {word: c for c in COMMANDS for word in (c.name, *c.aliases)}

COMMAND_NAMES: tuple[str, ...] = tuple(c.name for c in COMMANDS)


def find_command(word: str) -> Command | None:
    """The command a word names (a name or an alias, any letter case), else None."""
    return _BY_WORD.get(word.strip().lower())


def suggest_command(word: str) -> str | None:
    """The command a mistyped word most likely meant (``hnad`` -> ``hand``), else None."""
    import difflib

    close = difflib.get_close_matches(word.strip().lower(), list(_BY_WORD), n=1, cutoff=0.7)
    return _BY_WORD[close[0]].name if close else None


MOVES_HELP = (
    "Moves: a card as QS, qs, Q♠, 10h or Th (a rank alone, like q, when only one card of it",
    "  is legal); a bid as 4 or nil; keep or discard in the draft; blind or noblind when",
    "  asked about double / blind nil; in the exchange a card to give up, or done.",
)


def help_lines() -> list[str]:
    width = max(len(c.name) for c in COMMANDS)
    lines = list(MOVES_HELP)
    lines.append("Commands:")
    for c in COMMANDS:
        lines.append(f"  {c.name.ljust(width)}  {c.summary}")
    lines.append("Tab completes moves and commands; Ctrl-C clears the line; Ctrl-D saves and leaves.")
    return lines
