"""``spades play``: a game at the prompt against the bots (or friends at the same keyboard)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Sequence

import click

from spades_cli.cli_options import bot_options, rules_options
from spades_cli.cmd_game import check_bot_timeout
from spades_cli.engine import Rules
from spades_cli.errors import UsageError
from spades_cli.games import unfinished_notice
from spades_cli.match import Controller, Match
from spades_cli.presets import load_rules
from spades_cli.protocol import recording
from spades_cli.repl import PromptSeat, interactive, play_match
from spades_cli.repl.prompt import SPEEDS
from spades_cli.seats import HUMAN, make_controller, parse_seat_specs
from spades_cli.transcript import TranscriptWriter, new_seed, new_transcript_path

DEFAULT_BOT = "normal"


def default_human(rules: Rules) -> int:
    """You sit South (in both games)."""
    return rules.seat_index("S")


def seat_labels(rules: Rules, specs: Sequence[str]) -> dict[int, str]:
    """Who plays each seat. Seats not named by ``--seat`` are bots at the normal level,
    except South, which is yours unless some ``--seat`` already names a human."""
    given = parse_seat_specs(rules, specs)
    labels = {seat: DEFAULT_BOT for seat in range(rules.players)}
    if HUMAN not in given.values():
        labels[default_human(rules)] = HUMAN
    labels.update(given)
    if HUMAN not in labels.values():
        raise UsageError("no seat is played at the prompt: give one to a person, e.g. --seat S=human")
    return labels


def make_controllers(rules: Rules, labels: dict[int, str], stack: contextlib.ExitStack) -> list[Controller]:
    """The controller of every seat: :class:`PromptSeat` for people, bots and programs for the
    others (programs are closed when ``stack`` closes)."""
    controllers: list[Controller] = []
    for seat in range(rules.players):
        controller = make_controller(labels[seat], rules, human=lambda _label: PromptSeat())
        close = getattr(controller, "close", None)
        if callable(close):
            stack.callback(close)
        controllers.append(controller)
    return controllers


def describe_seats(rules: Rules, labels: dict[int, str]) -> str:
    humans = [s for s, label in labels.items() if label == HUMAN]
    words = {"N": "North", "E": "East", "S": "South", "W": "West"}
    parts = []
    for seat in range(rules.players):
        label = labels[seat]
        if label == HUMAN:
            who = "you" if len(humans) == 1 else "a person"
        elif label.startswith("cmd:"):
            who = f"program {label[4:]}"
        else:
            who = f"{label} bot"
        parts.append(f"{words[rules.seat_names[seat]]} {who}")
    return "Seats: " + ", ".join(parts) + "."


def intro_lines(rules: Rules, seed: int | str, labels: dict[int, str], transcript: str | None) -> list[str]:
    lines = [
        f"Spades, {rules.name} rules: game to {rules.target}. Seed {seed}.",
        describe_seats(rules, labels),
    ]
    if transcript is not None:
        lines.append(f"Saving the game in {transcript}")
    lines.append("Type help for the commands.")
    return lines


def open_transcript(
    path: str | None, match: Match, *, rules_source: str, overrides: Sequence[str], labels: dict[int, str]
) -> TranscriptWriter:
    """Start the game's transcript: at ``path`` (never over an existing file), or as a new
    file in the per-user transcripts folder."""
    seats = [labels[s] for s in range(match.rules.players)]
    if path is not None:
        try:
            return TranscriptWriter.create(
                path, match, rules_source=rules_source, overrides=overrides, seats=seats, exclusive=True
            )
        except FileExistsError:
            raise UsageError(
                f"{path} already exists: choose another --transcript, or continue that game with "
                f"'spades resume {path}'"
            ) from None
    for candidate in new_transcript_path(str(match.seed)):
        try:
            return TranscriptWriter.create(
                candidate, match, rules_source=rules_source, overrides=overrides, seats=seats, exclusive=True
            )
        except FileExistsError:
            continue
    raise AssertionError("new_transcript_path never runs out of names")  # pragma: no cover


@click.command("play")
@rules_options
@click.option("--seed", type=int, default=None, help="The game's seed (default: a fresh random one).")
@click.option(
    "--seat",
    "seats",
    multiple=True,
    metavar="SEAT=WHO",
    help="Who plays a seat: human, easy, normal, hard or cmd:PROGRAM (repeatable). Default: you sit South "
    "and bots at the normal level take the other seats; several human seats share the keyboard.",
)
@click.option("--transcript", "transcript", type=click.Path(dir_okay=False), default=None,
              help="Where to save the game (default: a new file in the per-user transcripts folder).")
@click.option("--ascii", "ascii_only", is_flag=True, help="Suit letters (QS) instead of symbols (Q♠).")
@click.option("--no-color", is_flag=True, help="No colours (also off with NO_COLOR or without a terminal).")
@click.option("--fast", is_flag=True, help="Show the bots' moves without pausing, and no pause after a hand.")
@click.option("--speed", type=click.Choice(SPEEDS), default="normal", show_default=True,
              help="How long the bots' moves stay on the screen before the next one.")
@bot_options
def play_command(
    rules: str,
    overrides: tuple[str, ...],
    seed: int | None,
    seats: tuple[str, ...],
    transcript: str | None,
    ascii_only: bool,
    no_color: bool,
    fast: bool,
    speed: str,
    bot_timeout: float,
    on_bot_failure: str | None,
) -> None:
    """Play a game at the prompt against the bots.

    Type a card (QS, 10h, Q♠), a bid (4, nil), keep or discard in the two-player draft,
    or a command (help, hint, undo, score, quit...). Every move is saved as you play;
    'spades resume FILE' continues a game you left.

    Without a terminal, moves and commands are read line by line from stdin:

    \b
        spades play --seed 7 < moves.txt
    """
    check_bot_timeout(bot_timeout)
    table = load_rules(rules, overrides)
    labels = seat_labels(table, seats)
    the_seed: int | str = seed if seed is not None else new_seed()
    humans = {seat for seat, label in labels.items() if label == HUMAN}
    notice = unfinished_notice()
    again: list[bool] = []  # "Play again? yes" at the end of a game at the prompt
    while True:
        again.clear()
        with contextlib.ExitStack() as stack:
            match = Match(table, the_seed, make_controllers(table, labels, stack))
            writer = open_transcript(transcript, match, rules_source=rules, overrides=overrides,
                                     labels=labels)
            intro = intro_lines(table, the_seed, labels, writer.path)
            code = play_match(
                match,
                humans,
                writer=writer,
                intro=[notice, *intro] if notice else intro,
                ascii_only=ascii_only,
                no_color=no_color,
                fast=fast,
                speed=speed,
                bots=recording(match, writer, timeout=bot_timeout, on_failure=on_bot_failure),
                on_play_again=(lambda: again.append(True)) if interactive() else None,
            )
        if not again:
            break
        the_seed, transcript, notice = new_seed(), None, None  # a new deal in a new file
    sys.stdout.flush()
    if code:
        raise SystemExit(code)
