"""Deciding a game before its first card: the rules, who plays each seat, the transcript.

**Rules precedence** (one order for every command that plays a game):

1. ``--rules NAME|FILE`` given on the command line is the base; for ``run`` it replaces
   the script's own rules, unless it names the very preset file the script's ``[Rules]``
   tag names (then the script's rules and its ``[Set]`` tags are used);
2. otherwise the file's own rules: its ``[Rule]`` tags (a self-contained transcript),
   else its ``[Rules]`` tag, a shipped preset (a preset *file* only when the same file is
   given with ``--rules``), with its ``[Set]`` tags;
3. otherwise the default preset (``four-player``).

``--set key.path=value`` overrides apply last, on top of whichever base was chosen.

**Seats**: a ``cmd:`` program plays a seat only when the command line names it
(``--seat E=cmd:...``): a seat that a received file gives to a program needs ``--seat``
or ``--trust-programs`` (which shows the command lines before running them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spades_cli.engine import Rules
from spades_cli.engine.notation import excerpt
from spades_cli.errors import UsageError
from spades_cli.game.events import Emit
from spades_cli.game.match import Controller, Match
from spades_cli.game.run import GameRun
from spades_cli.game.seats import (
    BOT_LEVELS,
    CMD_PREFIX,
    HUMAN,
    SCRIPT,
    BotController,
    RandomController,
    close_players,
    normalize_label,
    parse_seat_specs,
)
from spades_cli.protocol.codec import DEFAULT_TIMEOUT
from spades_cli.transcript.paths import new_transcript_path
from spades_cli.transcript.syntax import Tag, Transcript
from spades_cli.transcript.tags import transcript_rules
from spades_cli.transcript.writer import Header, TranscriptWriter

__all__ = [
    "RulesChoice",
    "SeatOptions",
    "choose_rules",
    "file_programs",
    "make_controller",
    "make_seat",
    "make_seats",
    "open_transcript",
    "recorded_run",
]


@dataclass(frozen=True)
class RulesChoice:
    """The rules of a game and how its transcript names them."""

    rules: Rules
    preset: str | None  # the [Rules] tag of the new transcript
    overrides: tuple[str, ...]  # its [Set] tags


def choose_rules(
    preset: str | None, overrides: Sequence[str], script: Transcript | None = None, *, default: str
) -> RulesChoice:
    """The rules of a game, in the precedence above (``preset`` is ``--rules`` if given)."""
    from spades_cli.presets import apply_overrides, load_rules

    if script is not None and (preset is None or preset == script.rules_source):
        files = (preset,) if preset is not None else ()
        own = transcript_rules(script, required=False, preset_files=files)
        if own is not None:
            if script.tags_named("Rule"):
                rules = apply_overrides(own, overrides) if overrides else own
                return RulesChoice(rules, script.rules_source, tuple(overrides))
            source = script.rules_source
            assert source is not None
            all_overrides = (*script.overrides, *overrides)
            rules = load_rules(source, all_overrides) if overrides else own
            return RulesChoice(rules, source, all_overrides)
    base = preset if preset is not None else default
    return RulesChoice(load_rules(base, overrides), base, tuple(overrides))


def file_programs(
    origin: str,
    rules: Rules,
    labels: Mapping[int, tuple[str, int]],
    *,
    trust: bool,
    say: Callable[[str], None],
) -> None:
    """Refuse the ``cmd:`` seats that a file (not the command line) names: ``labels`` maps
    a seat to (label, line). With ``trust`` (``--trust-programs``) each command line is
    shown with ``say`` before it runs."""
    for seat, (label, line) in sorted(labels.items()):
        if not label.startswith(CMD_PREFIX):
            continue
        name = rules.seat_names[seat]
        if trust:
            say(
                f"{origin}:{line}: seat {name} runs the program named in the file: {label[len(CMD_PREFIX) :]}"
            )
            continue
        raise UsageError(
            f"seat {name} is played by a program named in the file ({excerpt(label)}); "
            f"give it a player with --seat {name}=...",
            file=origin,
            line=line,
        )


@dataclass(frozen=True, slots=True)
class SeatOptions:
    """Everything that says who plays a seat and how, given once when the seat is made.

    ``label`` is ``human``, a bot level (``random``, ``easy``, ...) or ``cmd:PROGRAM``;
    ``timeout`` (seconds per decision), ``fallback`` (the built-in level that decides when
    the program fails; None ends the game) and ``log_path`` (where the program's stderr
    goes; None: nowhere) apply to ``cmd:`` seats only.
    """

    label: str
    timeout: float = DEFAULT_TIMEOUT
    fallback: str | None = None
    log_path: Path | None = None


def make_seat(
    options: SeatOptions,
    rules: Rules,
    emit: Emit | None = None,
    *,
    seat: int | None = None,
    human: Callable[[str], Controller] | None = None,
) -> Controller:
    """The controller for one seat: the one factory for every kind of player.

    ``emit`` hears what a ``cmd:`` program has to say for the record: ``Noted`` (its name
    after each handshake, each takeover by the fallback bot) and ``Terminated`` (it failed
    and the game ends). ``human`` builds the controller of a ``human`` seat (the prompt
    passes it); without it a human seat is a UsageError. ``seat`` is the seat played (None
    for a player that may stand in for several, like ``run --then``).
    """
    name = normalize_label(options.label)
    if name == "random":
        return RandomController()
    if name in BOT_LEVELS:
        try:
            return BotController(name)
        except ValueError as exc:  # a level the bots package does not provide
            raise UsageError(str(exc)) from None
    if name == HUMAN:
        if human is None:
            raise UsageError(
                "a human seat needs the interactive prompt: use 'spades play', or give the seat to a bot"
            )
        return human(name)
    if name.startswith(CMD_PREFIX):
        from spades_cli.protocol.table import ExternalController  # programs only when used

        return ExternalController(
            name[len(CMD_PREFIX) :],
            rules,
            timeout=options.timeout,
            on_failure=options.fallback,
            log_path=options.log_path,
            seat=seat,
            emit=emit,
        )
    if name == SCRIPT:
        raise UsageError("this seat was played from a script")  # the caller says which --seat to give
    kinds = ", ".join([*BOT_LEVELS, HUMAN, "cmd:PROGRAM"])
    raise UsageError(f"unknown player {options.label!r} (use one of: {kinds})")


def make_controller(
    label: str, rules: Rules, *, human: Callable[[str], Controller] | None = None
) -> Controller:
    """The controller for a seat label with the default options (:func:`make_seat`)."""
    return make_seat(SeatOptions(label), rules, human=human)


def make_seats(
    rules: Rules,
    labels: Mapping[int, str],
    *,
    human: Callable[[str], Controller] | None = None,
    origin: str | None = None,
) -> list[Controller]:
    """The controller of every seat (UsageError naming the seat for a label nobody can play
    here; ``origin`` is the file that named it)."""
    controllers: list[Controller] = []
    for seat in range(rules.players):
        try:
            controllers.append(make_controller(labels[seat], rules, human=human))
        except UsageError as exc:
            close_players(controllers)
            name = rules.seat_names[seat]
            raise UsageError(
                f"seat {name} ({excerpt(labels[seat])}): {exc.message}; "
                f"give it a player with --seat {name}=LEVEL",
                file=origin,
            ) from None
    return controllers


def open_transcript(
    path: str | None,
    match: Match,
    choice: RulesChoice,
    *,
    seats: Sequence[str | None],
    exclusive: bool,
    extra_tags: Sequence[Tag] = (),
) -> TranscriptWriter:
    """Start a game's transcript at ``path`` (``exclusive``: never over an existing file,
    FileExistsError), or as a new file in the per-user transcripts folder; its header is
    written. The file is private and locked while the game writes it (UsageError if
    another game holds it)."""
    writer: TranscriptWriter | None = None
    if path is not None:
        writer = TranscriptWriter.open(path, exclusive=exclusive)
    else:
        for candidate in new_transcript_path(str(match.seed)):
            try:
                writer = TranscriptWriter.open(candidate, exclusive=True)
                break
            except FileExistsError:
                continue
    assert writer is not None and match.dealer is not None
    header = Header(
        rules=match.rules,
        seed=str(match.seed),
        first_dealer=match.dealer,
        seats=tuple(seats),
        rules_source=choice.preset,
        overrides=choice.overrides,
        extra_tags=tuple(extra_tags),
    )
    try:
        writer.write_header(header)
    except BaseException:
        writer.close()
        raise
    return writer


def recorded_run(match: Match, open_writer: Callable[[], TranscriptWriter], **options: Any) -> GameRun:
    """The run of ``match``, recording into the transcript ``open_writer()`` starts
    (``options`` as for :class:`GameRun`); if it cannot be started the players are closed
    and its error (FileExistsError for an existing file) goes on."""
    try:
        writer = open_writer()
    except BaseException:
        close_players(match.controllers)
        raise
    return GameRun(match, writer=writer, **options)


NO_AUTOPLAY = ":noautoplay"  # --seat S=human:noautoplay: that person types even a forced card


def manual_seats(rules: Rules, specs: Sequence[str]) -> tuple[list[str], set[int]]:
    """``--seat`` specs without their ``:noautoplay`` suffixes, and the seats that had one
    (only a human seat may: a bot has nothing to type)."""
    plain: list[str] = []
    manual: set[int] = set()
    for spec in specs:
        if spec.lower().endswith(NO_AUTOPLAY):
            spec = spec[: -len(NO_AUTOPLAY)]
            _seat, _sep, who = spec.partition("=")
            if who.strip().lower() != HUMAN:
                raise UsageError(f"--seat {spec + NO_AUTOPLAY!r}: only a human seat takes :noautoplay")
            manual.update(parse_seat_specs(rules, [spec]))
        plain.append(spec)
    return plain, manual
