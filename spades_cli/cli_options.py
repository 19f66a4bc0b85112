"""The click options several commands share: ``--rules``/``--set`` and the bot flags.

Only the CLI layer (``cli.py``, this module and the ``cmd_*`` modules) imports click; the
layers below take plain values.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from spades_cli.bots import LEVELS
from spades_cli.seats import DEFAULT_TIMEOUT

__all__ = ["DEFAULT_PRESET", "bot_options", "rules_options", "set_option"]

DEFAULT_PRESET = "four-player"  # spades_cli.presets.DEFAULT_PRESET, kept here to avoid loading YAML

F = TypeVar("F", bound=Callable[..., Any])


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
    """``--rules NAME|FILE`` (parameter ``rules``, default four-player) and repeatable ``--set``.

    Use ``spades_cli.presets.load_rules(rules, overrides)`` in the command to get the Rules.
    """
    f = set_option(f)
    return click.option(
        "--rules",
        "rules",
        default=DEFAULT_PRESET,
        show_default=True,
        metavar="NAME|FILE",
        help="A rules preset (see 'spades rules list') or a preset YAML file.",
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
        help="When a cmd: bot fails, let this built-in bot (easy, normal, hard) decide instead "
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
