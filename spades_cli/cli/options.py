"""The click options and small output helpers several commands share: ``--rules``/``--set``,
the bot flags, the display flags, the pace of the prompt (``--fast``, ``--speed``),
``--max-hands``, ``--trust-programs``.

Only the CLI layer (``cli.py``, this module and the ``cmd_*`` modules) imports click; the
layers below take plain values.
"""

from __future__ import annotations

import io
import json
import math
import os
import stat
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from spades_cli import i18n
from spades_cli.bots import LEVELS
from spades_cli.game.run import DEFAULT_MAX_HANDS
from spades_cli.protocol.codec import DEFAULT_TIMEOUT
from spades_cli.session.undo import UNDO_POLICIES
from spades_cli.view.analysis import HandNote
from spades_cli.view.layout import output_width, wrap_lines

__all__ = [
    "DEFAULT_PRESET",
    "MAX_BOT_TIMEOUT",
    "SPEED_NAMES",
    "analysis_progress",
    "analysis_waiting",
    "bot_options",
    "check_bot_timeout",
    "clear_progress",
    "display_options",
    "echo_for",
    "echo_json",
    "echo_lines",
    "force_option",
    "lang_option",
    "max_hands_option",
    "output_piped",
    "pace_options",
    "preset_file_option",
    "rules_options",
    "say_err",
    "script_rules_options",
    "set_option",
    "trust_programs_option",
    "use_color",
]

DEFAULT_PRESET = "four-player"  # spades_cli.presets.DEFAULT_PRESET, kept here to avoid loading YAML

F = TypeVar("F", bound=Callable[..., Any])

SPEED_NAMES = ("slow", "normal", "fast")  # the keys of spades_cli.repl.prompt.SPEEDS (not loaded here)


def set_option(f: F) -> F:
    """A repeatable ``--set key.path=value`` option (parameter ``overrides``, a tuple of str)."""
    return click.option(
        "--set",
        "overrides",
        multiple=True,
        metavar="KEY.PATH=VALUE",
        help="Change one rule option, e.g. --set nil.value=50 or --set bags.limit=null (repeatable).",
    )(f)


def rules_options(f: F) -> F:
    """``--rules NAME|FILE`` (parameter ``preset``, default four-player) and repeatable ``--set``.

    Use ``spades_cli.presets.load_rules(preset, overrides)`` (or ``game.setup.choose_rules``)
    in the command to get the Rules, which commands call ``rules``.
    """
    return _rules_option(set_option(f), show_default=True)


def script_rules_options(f: F) -> F:
    """:func:`rules_options` for a command whose file brings its own rules (``run``): the
    help shows no default, which applies only to a file that names no rules."""
    more = " Default: the script's rules (four-player if it names none)."
    return _rules_option(set_option(f), show_default=False, more=more)


def _rules_option(f: F, *, show_default: bool, more: str = "") -> F:
    return click.option(
        "--rules",
        "preset",
        default=DEFAULT_PRESET,
        show_default=show_default,
        metavar="NAME|FILE",
        help="A rules preset (see 'spades rules list') or a preset YAML file." + more,
    )(f)


def bot_options(f: F) -> F:
    """``--bot-timeout SECONDS`` (parameter ``bot_timeout``) and ``--on-bot-failure LEVEL``
    (parameter ``on_bot_failure``, None = end the game) for commands that seat programs."""
    f = click.option(
        "--on-bot-failure",
        "on_bot_failure",
        type=click.Choice(LEVELS),
        default=None,
        metavar="LEVEL",
        help="When a cmd: bot fails, let this built-in bot (easy, normal, hard, expert) decide instead "
        "of ending the game; the transcript notes each takeover.",
    )(f)
    return click.option(
        "--bot-timeout",
        "bot_timeout",
        type=click.FloatRange(min=0, min_open=True),
        default=DEFAULT_TIMEOUT,
        show_default=True,
        metavar="SECONDS",
        help="How long a cmd: bot may think about one decision.",
    )(f)


DEFAULT_LEVEL = "normal"


def level_option(f: F) -> F:
    """``--level LEVEL`` (parameter ``level``): the level of every bot seat that no
    ``--seat`` names."""
    return click.option(
        "--level",
        "level",
        type=click.Choice(LEVELS),
        default=DEFAULT_LEVEL,
        show_default=True,
        metavar="LEVEL",
        help="The level (easy, normal, hard, expert) of every bot seat no --seat names.",
    )(f)


MAX_BOT_TIMEOUT = 86400.0  # a day: longer waits overflow the system's poll timeout


def check_bot_timeout(seconds: float) -> float:
    """``--bot-timeout`` once more than click checks: a finite number of seconds, at most a day
    (``inf`` or ``1e400`` would end in an overflow deep in the wait for an answer)."""
    if not math.isfinite(seconds) or not 0 < seconds <= MAX_BOT_TIMEOUT:
        raise click.BadParameter(
            f"{seconds:g} is not a number of seconds between 0 and {MAX_BOT_TIMEOUT:g}",
            param_hint="'--bot-timeout'",
        )
    return seconds


def display_options(f: F) -> F:
    """``--json`` (parameter ``as_json``), ``--ascii`` (``ascii_only``) and ``--color/--no-color``."""
    f = click.option(
        "--json", "as_json", is_flag=True, help="Print one JSON object with the result instead."
    )(f)
    f = click.option(
        "--ascii", "ascii_only", is_flag=True, help="Write suits as letters (QS) instead of symbols."
    )(f)
    return click.option(
        "--color/--no-color", default=None, help="Colour red suits (default: on a terminal)."
    )(f)


def _use_language(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value is None:
        return  # the group chose the environment's language already
    try:
        i18n.use(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


def lang_option(f: F) -> F:
    """``--lang LANG`` (no parameter): the language of the words a player reads."""
    return click.option(
        "--lang",
        metavar="LANG",
        default=None,
        expose_value=False,
        is_eager=True,
        callback=_use_language,
        help="The language of the table's words: en, pl, ja or fa (default: from LANGUAGE, LC_ALL, "
        "LC_MESSAGES or LANG; English otherwise). Transcripts stay in the canonical words.",
    )(f)


def pace_options(f: F) -> F:
    """``--fast`` and ``--speed slow|normal|fast`` (parameters ``fast``, ``speed``): how the
    other seats' moves (the bots') are paced at the prompt; with ``--fast`` no pause after
    them nor after a hand; and :func:`lang_option`."""
    f = lang_option(f)
    f = click.option(
        "--speed",
        type=click.Choice(SPEED_NAMES),
        default="normal",
        show_default=True,
        help="At the prompt: how long the other seats' moves stay on the screen before the next one.",
    )(f)
    return click.option(
        "--fast", is_flag=True, help="At the prompt: no pause after the other seats' moves, nor after a hand."
    )(f)


def undo_option(default: str | None) -> Callable[[F], F]:
    """``--undo always|before-new-info|never`` (parameter ``undo``): how far a seat at the
    prompt may take back its decisions (None: the policy the game was started with)."""
    again = "" if default else " Default: the policy the game was started with."
    return click.option(
        "--undo",
        type=click.Choice(UNDO_POLICIES),
        default=default,
        show_default=default is not None,
        help="How far 'undo' goes: always, before-new-info (until you have seen something new: "
        f"a move of another seat, a new deal, a draft card) or never.{again}",
    )


def autoplay_option(f: F) -> F:
    """``--autoplay/--no-autoplay`` (parameter ``autoplay``, None when not given): play a
    person's only legal card for them."""
    return click.option(
        "--autoplay/--no-autoplay",
        default=None,
        help="Play your only legal card for you, with a line saying so "
        "(default: at a terminal; not when moves come from a pipe).",
    )(f)


def max_hands_option(f: F) -> F:
    """``--max-hands N`` (parameter ``max_hands``), default :data:`DEFAULT_MAX_HANDS`."""
    return click.option(
        "--max-hands",
        type=click.IntRange(min=1),
        default=DEFAULT_MAX_HANDS,
        show_default=True,
        metavar="N",
        help="Stop once N hands of the game are over, even if it is not (the transcript ends with "
        "a note and 'end *'; 'spades resume' goes on).",
    )(f)


def preset_file_option(f: F) -> F:
    """``--rules FILE`` for a command that reads a transcript (parameter ``preset_files``):
    the only preset files the transcript's ``[Rules]`` tag may name."""
    return click.option(
        "--rules",
        "preset_files",
        multiple=True,
        metavar="FILE",
        help="A preset file the transcript's [Rules] tag names (a file is read only when given here).",
    )(f)


def force_option(f: F) -> F:
    """``--force`` (parameter ``force``): the transcript may overwrite an existing file."""
    return click.option(
        "--force",
        is_flag=True,
        help="Overwrite the transcript file given if it exists (without it, an existing file is refused).",
    )(f)


def trust_programs_option(f: F) -> F:
    """``--trust-programs`` (parameter ``trust_programs``)."""
    return click.option(
        "--trust-programs",
        is_flag=True,
        help="Run the cmd: programs the file names for its seats (each command line is shown first). "
        "Without it such a seat needs --seat SEAT=...",
    )(f)


def use_color(color: bool | None) -> bool:
    if color is not None:
        return color
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def echo_lines(text: str, *, color: bool = False, err: bool = False) -> None:
    """click.echo through the one wrapper (``view.layout.wrap_lines``): lines broken between
    words at ``$COLUMNS`` or the terminal's width, whole in a pipe or a file; ANSI colours
    kept when they were asked for (click drops them off a terminal)."""
    stream = sys.stderr if err else sys.stdout
    click.echo(wrap_lines(text, output_width(stream)), color=True if color else None, err=err)


def echo_for(color: bool) -> Callable[[str], None]:
    """:func:`echo_lines` with the colours chosen once."""

    def echo(text: str) -> None:
        echo_lines(text, color=color)

    return echo


def echo_json(data: object) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def say_err(text: str) -> None:
    """One line on stderr (what --trust-programs is about to run)."""
    click.echo(text, err=True)


def analysis_progress() -> Callable[[int, int], None] | None:
    """A one-line "analysing hand K of N" on a terminal's standard error (nothing when
    it is not a terminal), cleared when the analysis is done."""
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        if done < total:
            click.echo(
                f"\ranalysing hand {done + 1} of {total} (hindsight, every hand known)...", err=True, nl=False
            )
        else:
            clear_progress()

    return show


def analysis_waiting(
    report: Callable[[int], HandNote | None], ready: Callable[[int], bool]
) -> Callable[[int], HandNote | None]:
    """``report`` (a hand's analysis by number, waiting for it), saying on a terminal's
    standard error which hand it waits for when ``ready`` says it will wait."""

    def lookup(hand: int) -> HandNote | None:
        if ready(hand) or not sys.stderr.isatty():
            return report(hand)
        click.echo(f"\ranalysing hand {hand} (hindsight, every hand known)...", err=True, nl=False)
        try:
            return report(hand)
        finally:
            clear_progress()

    return lookup


def output_piped() -> bool:
    """Whether standard output is a pipe: its reader may write to the terminal at any
    time, so a progress line there would run into the output it is given."""
    try:
        return stat.S_ISFIFO(os.fstat(sys.stdout.fileno()).st_mode)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return False


def clear_progress() -> None:
    """Clear the line :func:`analysis_progress` shows, so that other output can follow."""
    if sys.stderr.isatty():
        click.echo("\r\033[K", err=True, nl=False)
