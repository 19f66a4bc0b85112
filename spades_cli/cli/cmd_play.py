"""``spades play``: a game at the prompt against the bots (or friends at the same keyboard)."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from spades_cli.app.setup import (
    RulesChoice,
    choose_rules,
    make_seats,
    manual_seats,
    open_transcript,
    recorded_run,
)
from spades_cli.cli.options import (
    DEFAULT_LEVEL,
    autoplay_option,
    bot_options,
    check_bot_timeout,
    level_option,
    pace_options,
    rules_options,
    undo_option,
)
from spades_cli.engine import Rules
from spades_cli.engine.rules import SEAT_WORDS
from spades_cli.errors import UsageError
from spades_cli.game.match import Match
from spades_cli.game.run import GameRun
from spades_cli.game.seats import HUMAN, parse_seat_specs
from spades_cli.repl import PromptSeat, play_match
from spades_cli.session.undo import UNDO_DEFAULT
from spades_cli.transcript import new_seed
from spades_cli.transcript.games import unfinished_notice
from spades_cli.transcript.syntax import Tag
from spades_cli.transcript.tags import UNDO_TAG
from spades_cli.view import Look
from spades_cli.view.summary import opening_lines


def default_human(rules: Rules) -> int:
    """You sit South (in both games)."""
    return rules.seat_index("S")


def seat_labels(rules: Rules, specs: Sequence[str], level: str = DEFAULT_LEVEL) -> dict[int, str]:
    """Who plays each seat. Seats not named by ``--seat`` are bots at ``level`` (``--level``),
    except South, which is yours unless some ``--seat`` already names a human."""
    given = parse_seat_specs(rules, specs)
    labels = {seat: level for seat in range(rules.players)}
    if HUMAN not in given.values():
        labels[default_human(rules)] = HUMAN
    labels.update(given)
    if HUMAN not in labels.values():
        raise UsageError("no seat is played at the prompt: give one to a person, e.g. --seat S=human")
    return labels


def describe_seats(rules: Rules, labels: dict[int, str]) -> str:
    humans = [s for s, label in labels.items() if label == HUMAN]
    parts = []
    for seat in range(rules.players):
        label = labels[seat]
        if label == HUMAN:
            who = "you" if len(humans) == 1 else "a person"
        elif label.startswith("cmd:"):
            who = f"program {label[4:]}"
        else:
            who = f"{label} bot"
        parts.append(f"{SEAT_WORDS[rules.seat_names[seat]]} {who}")
    return "Seats: " + ", ".join(parts) + "."


def intro_lines(rules: Rules, seed: int | str, labels: dict[int, str], transcript: str | None) -> list[str]:
    return opening_lines(Look(rules), seed, labels, transcript)


def new_game(
    choice: RulesChoice,
    seed: int | str,
    labels: dict[int, str],
    transcript: str | None,
    bot_timeout: float,
    on_bot_failure: str | None,
    undo: str = UNDO_DEFAULT,
) -> GameRun:
    """The run of one game at the prompt, its transcript started (never over an existing file)."""
    match = Match(choice.rules, seed, make_seats(choice.rules, labels, human=lambda _label: PromptSeat()))
    seats = [labels[s] for s in range(choice.rules.players)]
    try:
        return recorded_run(
            match,
            lambda: open_transcript(
                transcript, match, choice, seats=seats, exclusive=True, extra_tags=[Tag(UNDO_TAG, (undo,), 0)]
            ),
            bot_timeout=bot_timeout,
            on_bot_failure=on_bot_failure,
        )
    except FileExistsError:
        raise UsageError(
            f"{transcript} already exists: choose another --transcript, or continue that game with "
            f"'spades resume {transcript}'"
        ) from None


@click.command("play")
@rules_options
@click.option("--seed", type=int, default=None, help="The game's seed (default: a fresh random one).")
@click.option(
    "--seat",
    "seats",
    multiple=True,
    metavar="SEAT=WHO",
    help="Who plays a seat: human, random, easy, normal, hard, expert or cmd:PROGRAM (repeatable). "
    "Default: you sit South "
    "and bots at the --level level take the other seats; several human seats share the keyboard. "
    "human:noautoplay: that person types even an only legal card (see --autoplay).",
)
@level_option
@click.option(
    "--transcript",
    "transcript",
    type=click.Path(dir_okay=False),
    default=None,
    help="Where to save the game (default: a new file in the per-user transcripts folder).",
)
@click.option("--ascii", "ascii_only", is_flag=True, help="Suit letters (QS) instead of symbols (Q♠).")
@click.option("--no-color", is_flag=True, help="No colours (also off with NO_COLOR or without a terminal).")
@pace_options
@undo_option(UNDO_DEFAULT)
@autoplay_option
@bot_options
def play_command(
    preset: str,
    overrides: tuple[str, ...],
    seed: int | None,
    seats: tuple[str, ...],
    level: str,
    transcript: str | None,
    ascii_only: bool,
    no_color: bool,
    fast: bool,
    speed: str,
    undo: str,
    autoplay: bool | None,
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
    choice = choose_rules(preset, overrides, default=preset)
    rules = choice.rules
    specs, manual = manual_seats(rules, seats)
    labels = seat_labels(rules, specs, level)
    the_seed: int | str = seed if seed is not None else new_seed()
    humans = {seat for seat, label in labels.items() if label == HUMAN}
    notice = unfinished_notice()
    again: list[bool] = []  # "Play again? yes" at the end of a game (prompt or batch mode)
    while True:
        again.clear()
        run = new_game(choice, the_seed, labels, transcript, bot_timeout, on_bot_failure, undo)
        intro = intro_lines(rules, the_seed, labels, run.writer.path if run.writer else None)
        code = play_match(
            run,
            humans,
            intro=[notice, *intro] if notice else intro,
            ascii_only=ascii_only,
            no_color=no_color,
            fast=fast,
            speed=speed,
            undo=undo,
            autoplay=autoplay,
            manual=manual,
            on_play_again=lambda: again.append(True),  # asked in batch mode too; end of input: no
        )
        if not again:
            break
        the_seed, transcript, notice = new_seed(), None, None  # a new deal in a new file
    sys.stdout.flush()
    if code:
        raise SystemExit(code)
