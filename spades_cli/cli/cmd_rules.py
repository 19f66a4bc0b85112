"""``spades rules``: list the shipped presets, show a resolved preset, validate a preset file.

Every error is a SpadesError (MultiError for the problems of a file); the main group prints
them and exits with their code (2), so no traceback is ever shown.
"""

from __future__ import annotations

import click

from spades_cli.cli.options import set_option
from spades_cli.presets import describe, list_presets, load_rules, rules_to_yaml


@click.group("rules")
def rules_group() -> None:
    """The rule presets: list them, show one in full, or check a YAML file."""


@rules_group.command("list")
def list_command() -> None:
    """List the shipped presets (name, file, description)."""
    presets = list_presets()
    name_width = max((len(name) for name, _, _ in presets), default=4)
    file_width = max((len(file) for _, file, _ in presets), default=4)
    for name, file, description in presets:
        click.echo(f"{name:<{name_width}}  {file:<{file_width}}  {description}".rstrip())


@rules_group.command("show")
@click.argument("source", metavar="NAME|FILE")
@set_option
def show_command(source: str, overrides: tuple[str, ...]) -> None:
    """Print the fully resolved rules of a preset or YAML file, every key included, after
    a comment that says what the variant is and what it changes from four-player.

    The output is itself a complete preset file.
    """
    rules = load_rules(source, overrides)
    click.echo(describe(rules) + rules_to_yaml(rules), nl=False)


@rules_group.command("validate")
@click.argument("file", metavar="FILE")
@set_option
def validate_command(file: str, overrides: tuple[str, ...]) -> None:
    """Check a preset file: print 'FILE: ok', or every problem (exit code 2)."""
    load_rules(file, overrides)
    click.echo(f"{file}: ok")
