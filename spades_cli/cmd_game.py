"""``spades replay``, ``spades run`` and ``spades resume``: recorded and scripted games.

- ``replay FILE`` checks every action and every recorded result of a transcript and
  shows the game hand by hand (``--step`` waits for Enter after each trick, ``--json``
  prints one JSON object instead);
- ``run SCRIPT`` plays a script: a transcript with parts left out (see
  ``docs/transcript-format.md``); seats without scripted actions are played by
  ``--seat SEAT=LEVEL``; ``--then LEVEL`` lets a bot finish for a seat whose script ends;
- ``resume FILE`` continues an unfinished game with the same rules and seats.

Every game played here is recorded (``--transcript PATH``, or the per-user folder).
Exit codes: 0 success; 1 an illegal action or a recorded result that does not match;
2 a usage error or a file that cannot be parsed; 3 the game stopped before its end
(a script ran out); 130 interrupted. Every message about a file names FILE:LINE.
"""

from __future__ import annotations

import io
import json
import math
import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from spades_cli.cli_options import bot_options, rules_options
from spades_cli.engine import BID, BLIND, DECLARE, EXCHANGE, EXCHANGE_DONE, PLAY, Rules
from spades_cli.errors import SpadesError, UsageError
from spades_cli.match import Controller, Match
from spades_cli.presets import apply_overrides, load_rules
from spades_cli.protocol import recording
from spades_cli.seats import (
    Relay,
    SeatOptions,
    bot_log_path,
    check_level,
    make_controller,
    make_seat,
    parse_seat_specs,
    to_transcript,
)
from spades_cli.transcript import (
    ActionInfo,
    Follower,
    ScriptExhausted,
    TranscriptWriter,
    game_summary,
    new_seed,
    new_transcript_path,
    prepare_script,
    read_transcript,
    replay,
    run_script,
    setup_script_run,
    transcript_rules,
)
from spades_cli.view import (
    render_bids,
    render_card,
    render_deal,
    render_hand_result,
    render_scores,
    render_trick,
)


class Printer(Follower):
    """Shows a game as it goes: each hand's bids, result and score; with ``detail`` also the
    hands, declarations, exchanges and every trick (``step`` is called after each trick)."""

    def __init__(
        self,
        rules: Rules,
        echo: Callable[[str], None],
        *,
        detail: bool,
        symbols: bool = True,
        color: bool = False,
        step: Callable[[], None] | None = None,
    ) -> None:
        super().__init__()
        self.rules = rules
        self.echo = echo
        self.detail = detail
        self.symbols = symbols
        self.color = color
        self.step = step
        self.given: int | None = None

    def card(self, card: int) -> str:
        return render_card(card, symbols=self.symbols, color=self.color)

    def dealt(self, match: Match, hand_no: int, deck: tuple[int, ...]) -> None:
        word = "first player" if self.rules.players == 2 else "dealer"
        self.echo(f"\nHand {hand_no + 1} ({word} {self.rules.seat_names[match.state.dealer]})")
        if match.state.phase in (BID, PLAY):
            self.show_hands(match)

    def show_hands(self, match: Match) -> None:
        if self.detail:
            hands = [match.state.hand_of(s) for s in range(self.rules.players)]
            self.echo(render_deal(hands, self.rules, symbols=self.symbols, color=self.color))

    def acted(self, match: Match, info: ActionInfo) -> None:
        st = match.state
        names = self.rules.seat_names
        if self.detail and info.phase == DECLARE and info.action == BLIND:
            word = "double nil" if self.rules.players == 2 else "blind nil"
            self.echo(f"{names[info.seat]} declares {word}")
        if info.phase == EXCHANGE and info.action != EXCHANGE_DONE:
            self.given = info.action
        if self.detail and info.seat < 0 and self.given is not None:
            seat = names[info.exchange_seat]
            self.echo(f"{seat} gives {self.card(self.given)}, draws {self.card(info.action)}")
            self.given = None
        if info.phase not in (BID, PLAY) and st.phase in (BID, PLAY) and info.result is None:
            self.show_hands(match)
        if info.phase != PLAY and st.phase == PLAY and info.result is None:
            order = [(st.dealer + 1 + i) % self.rules.players for i in range(self.rules.players)]
            bids: list[int | None] = [b if b >= 0 else None for b in st.bids]
            self.echo("Bids: " + render_bids(bids, self.rules, blind=st.blind, order=order))
        if self.detail and info.trick is not None:
            self.echo(
                render_trick(
                    info.trick, self.rules, number=info.trick_number, symbols=self.symbols, color=self.color
                )
            )
            if self.step is not None and info.result is None:
                self.step()
        if info.result is not None:
            self.echo(render_hand_result(info.result, self.rules))
            r = info.result
            self.echo(render_scores(r.scores, [s.bags_total for s in r.sides], self.rules))
            if self.step is not None and not info.game_over:
                self.step()
        if info.game_over:
            winner = st.winner()
            assert winner is not None
            self.echo(
                f"\nWinner: {self.rules.side_name(winner)} ({st.scores[winner]} to {st.scores[1 - winner]})"
            )

    # replay hooks
    def on_note(self, match: Match, seat: int | None, text: str) -> None:
        if self.detail:
            who = f"{self.rules.seat_names[seat]}: " if seat is not None else ""
            self.echo(f"Note: {who}{text}")

    def on_seat(self, match: Match, seat: int, label: str) -> None:
        self.echo(f"{self.rules.seat_names[seat]} is now played by {label}")

    def on_undo(self, match: Match, seat: int) -> None:
        self.echo(f"{self.rules.seat_names[seat]} takes back the last decision (undo)")

    def on_terminated(self, match: Match, seat: int | None, reason: str) -> None:
        who = f" ({self.rules.seat_names[seat]})" if seat is not None else ""
        self.echo(f"The game was stopped{who}: {reason}")


class _Stepper:
    """Waits for Enter (``q`` then Enter, or the end of input, stops waiting)."""

    def __init__(self) -> None:
        self.on = True

    def __call__(self) -> None:
        if not self.on:
            return
        click.echo("-- Enter: next trick, q: run to the end --", err=True, nl=False)
        line = sys.stdin.readline()
        click.echo("", err=True)
        if not line or line.strip().lower() in ("q", "quit"):
            self.on = False


def _echo_for(color: bool) -> Callable[[str], None]:
    """click.echo, keeping ANSI colours when they were asked for (click drops them off a terminal)."""

    def echo(text: str) -> None:
        click.echo(text, color=True if color else None)

    return echo


def _use_color(color: bool | None) -> bool:
    if color is not None:
        return color
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def _display_options(f: Callable[..., Any]) -> Callable[..., Any]:
    f = click.option(
        "--json", "as_json", is_flag=True, help="Print one JSON object with the result instead."
    )(f)
    f = click.option(
        "--ascii", "ascii_only", is_flag=True, help="Write suits as letters (QS) instead of symbols."
    )(f)
    return click.option(
        "--color/--no-color", default=None, help="Colour red suits (default: on a terminal)."
    )(f)


def _max_hands_option(f: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--max-hands",
        type=click.IntRange(min=1),
        metavar="N",
        help="Stop once N hands of the game are over, even if it is not (the transcript ends with 'end *').",
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


def _progress(text: str, match: Match) -> str:
    st = match.state
    if st.is_terminal():
        return text
    if st.phase == PLAY:
        return f"{text} (hand {st.hand_no + 1}, trick {st.trick_no + 1})"
    return f"{text} (hand {st.hand_no + 1}, {st.phase})"


# ------------------------------------------------------------------------------ replay


@click.command("replay")
@click.argument("file", metavar="FILE")
@click.option("--step", is_flag=True, help="Wait for Enter after each trick.")
@_display_options
def replay_command(file: str, step: bool, as_json: bool, ascii_only: bool, color: bool | None) -> None:
    """Check a transcript against the rules and show the game hand by hand.

    Every action must be legal and every recorded result (trick winners, hand results,
    running scores, the winner) must be what the rules give: otherwise the first
    difference is reported as FILE:LINE (exit 1). An unfinished game replays up to its
    last action (exit 0).
    """
    t = read_transcript(file)
    rules = transcript_rules(t)
    assert rules is not None
    listeners = []
    if not as_json:
        printer = Printer(
            rules,
            _echo_for(_use_color(color)),
            detail=True,
            symbols=not ascii_only,
            color=_use_color(color),
            step=_Stepper() if step else None,
        )
        listeners.append(printer)
    result = replay(t, rules, listeners=listeners)
    match = result.match
    if as_json:
        extra: dict[str, Any] = {"file": file}
        if result.terminated is not None:
            seat, reason = result.terminated
            extra["terminated"] = {
                "seat": rules.seat_names[seat] if seat is not None else None,
                "reason": reason,
            }
        summary = game_summary(match, result.header_labels, **extra)
        click.echo(json.dumps(summary, indent=2, ensure_ascii=False))
        return
    actions = len(match.state.history)
    if match.finished:
        click.echo(f"\n{file}: ok, {actions} actions and {len(match.state.results)} hands checked")
    else:
        click.echo(
            _progress(f"\n{file}: ok so far, {actions} actions checked; the game is unfinished", match)
        )
        click.echo(f"Continue it with: spades resume {file}")


# ------------------------------------------------------------------------------ run


def _controllers(rules: Rules, labels: dict[int, str]) -> dict[int, Controller]:
    return {seat: make_controller(label, rules) for seat, label in labels.items()}


def _open_writer(
    path: str | None,
    match: Match,
    *,
    rules_source: str | None,
    overrides: Sequence[str],
    seats: Sequence[str],
) -> TranscriptWriter:
    if path is not None:
        return TranscriptWriter.create(
            path, match, rules_source=rules_source, overrides=overrides, seats=seats
        )
    for candidate in new_transcript_path(str(match.seed)):
        try:
            return TranscriptWriter.create(
                candidate, match, rules_source=rules_source, overrides=overrides, seats=seats, exclusive=True
            )
        except FileExistsError:
            continue
    raise AssertionError("unreachable")  # pragma: no cover


def _finish_output(
    match: Match, labels: dict[int, str], writer: TranscriptWriter, as_json: bool, printed: bool
) -> None:
    if as_json:
        click.echo(
            json.dumps(game_summary(match, labels, transcript=writer.path), indent=2, ensure_ascii=False)
        )
    elif printed:
        click.echo(f"Transcript: {writer.path}")


@click.command("run")
@click.argument("script", metavar="SCRIPT")
@rules_options
@click.option(
    "--seed", help="Seed for the deals the script leaves out (default: the script's [Seed], else new)."
)
@click.option(
    "--seat",
    "seat_specs",
    multiple=True,
    metavar="SEAT=LEVEL",
    help="Who plays a seat without scripted actions: random, easy, normal, hard or cmd:PROGRAM (repeatable).",
)
@click.option(
    "--then", "then", metavar="LEVEL", help="A bot that takes over a scripted seat whose actions run out."
)
@click.option("-o", "--transcript", "transcript_path", metavar="PATH", help="Write the transcript here.")
@_max_hands_option
@_display_options
@bot_options
@click.pass_context
def run_command(
    ctx: click.Context,
    script: str,
    rules: str,
    overrides: tuple[str, ...],
    seed: str | None,
    seat_specs: tuple[str, ...],
    then: str | None,
    transcript_path: str | None,
    max_hands: int | None,
    as_json: bool,
    ascii_only: bool,
    color: bool | None,
    bot_timeout: float,
    on_bot_failure: str | None,
) -> None:
    """Play a scripted game: a transcript with parts left out.

    The script may fix the deck of some hands and list actions for some or all seats;
    the other seats are played by --seat SEAT=LEVEL, the other deals come from the seed.
    A scripted seat that runs out of actions stops the game (exit 3) unless --then LEVEL
    lets a bot finish. Recorded results in the script (trick winners, hand results,
    scores, the winner) are checked (exit 1 if different).
    """
    check_bot_timeout(bot_timeout)
    t = read_transcript(script)
    explicit_rules = ctx.get_parameter_source("rules") not in (ParameterSource.DEFAULT, None)
    script_rules = None if explicit_rules else transcript_rules(t, required=False)
    rules_source: str | None
    all_overrides: list[str]
    if script_rules is None:
        final_rules = load_rules(rules, overrides)
        rules_source, all_overrides = rules, list(overrides)
    else:
        rules_source = t.rules_source
        if t.tags_named("Rule"):
            all_overrides = list(overrides)
            final_rules = apply_overrides(script_rules, overrides) if overrides else script_rules
        else:
            assert rules_source is not None
            all_overrides = [*t.overrides, *overrides]
            final_rules = load_rules(rules_source, all_overrides) if overrides else script_rules
    the_seed = seed if seed is not None else (t.seed if t.seed is not None else new_seed())
    prepared = prepare_script(t, final_rules)
    labels = parse_seat_specs(final_rules, seat_specs, allow_human=False)
    header_labels = t.seat_labels()
    for s, name in enumerate(final_rules.seat_names):
        label = header_labels.get(name)
        if s not in labels and not prepared.queues[s] and label is not None:
            try:
                labels[s] = check_level(label, allow_human=False)
            except UsageError:
                tag = next(tg for tg in t.tags_named("Seat") if tg.values[0] == name)
                raise UsageError(
                    f"{script}:{tag.line}: seat {name} is played by {label!r}, which 'spades run' cannot "
                    f"use: give it a player with --seat {name}=LEVEL"
                ) from None
    players = _controllers(final_rules, labels)
    then_events = Relay()  # the transcript, once it is open, records what a --then program says
    then_controller = (
        make_seat(
            SeatOptions(
                check_level(then, allow_human=False),
                bot_timeout,
                on_bot_failure,
                bot_log_path(transcript_path, "then"),
            ),
            final_rules,
            then_events,
        )
        if then
        else None
    )
    writer_box: list[TranscriptWriter] = []

    def takeover(seat: int, label: str) -> None:
        if writer_box:
            writer_box[0].seat_changed(seat, label, final_rules)

    printer = None
    if not as_json:
        printer = Printer(
            final_rules,
            _echo_for(_use_color(color)),
            detail=False,
            symbols=not ascii_only,
            color=_use_color(color),
        )
    setup = setup_script_run(
        prepared,
        seed=the_seed,
        players=players,
        then=then_controller,
        listeners=[printer] if printer else [],
        on_takeover=takeover,
    )
    match = setup.match
    seats = [setup.labels[s] for s in range(final_rules.players)]
    writer = _open_writer(
        transcript_path, match, rules_source=rules_source, overrides=all_overrides, seats=seats
    )
    writer_box.append(writer)
    then_events.subscribe(to_transcript(writer, final_rules))
    try:
        try:
            with recording(match, writer, timeout=bot_timeout, on_failure=on_bot_failure):
                run_script(setup, max_hands=max_hands)
        finally:
            close = getattr(then_controller, "close", None)
            if close is not None:
                close()
        if not match.finished:
            writer.unfinished()
            if printer is not None:
                click.echo(f"\nStopped after {len(match.state.results)} hands (--max-hands)")
    except ScriptExhausted as exc:
        writer.unfinished()
        writer.close()
        if as_json:
            click.echo(json.dumps(game_summary(match, setup.labels, transcript=writer.path), indent=2))
        raise ScriptExhausted(
            f"{exc.message}. The game so far is in {writer.path}: "
            f"'spades resume {writer.path} --seat SEAT=LEVEL' continues it",
            file=exc.file,
            line=exc.line,
        ) from None
    except (SpadesError, KeyboardInterrupt):
        if not match.finished:
            writer.unfinished()
        writer.close()
        raise
    writer.close()
    _finish_output(match, setup.labels, writer, as_json, printer is not None)


# ------------------------------------------------------------------------------ resume


def _write_atomically(path: str, text: str) -> None:
    target = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=".spades-", suffix=".tmp", dir=target.parent or Path("."))
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
        os.replace(tmp, target)
    except OSError as exc:
        raise UsageError(f"{path}: cannot write the transcript: {exc.strerror or exc}") from None


@click.command("resume")
@click.argument("file", metavar="FILE")
@click.option(
    "--seat",
    "seat_specs",
    multiple=True,
    metavar="SEAT=LEVEL",
    help="Give a seat to another player (random, easy, normal, hard, cmd:PROGRAM) (repeatable).",
)
@click.option(
    "--transcript",
    "transcript_path",
    metavar="PATH",
    help="Write the continued game here instead of into FILE.",
)
@_max_hands_option
@_display_options
@click.option("--fast", is_flag=True, help="At the prompt: no pause after bot moves.")
@bot_options
def resume_command(
    file: str,
    seat_specs: tuple[str, ...],
    transcript_path: str | None,
    max_hands: int | None,
    as_json: bool,
    ascii_only: bool,
    color: bool | None,
    fast: bool,
    bot_timeout: float,
    on_bot_failure: str | None,
) -> None:
    """Continue an unfinished game with the same rules and seats.

    The transcript is checked like 'spades replay', then the game goes on from its last
    action and is appended to FILE (or written to --transcript PATH).
    """
    check_bot_timeout(bot_timeout)
    t = read_transcript(file)
    rules = transcript_rules(t)
    assert rules is not None
    if t.seed is None:
        raise UsageError(f"{file}:1: the transcript has no [Seed] tag, so the next deals are unknown")
    buffer = io.StringIO()
    writer = TranscriptWriter(buffer)
    result = replay(t, rules, writer=writer, keep_end=False)
    match = result.match
    if match.finished:
        winner = match.state.winner()
        assert winner is not None
        raise UsageError(f"{file}: the game is over ({rules.side_name(winner)} won): nothing to resume")
    from spades_cli.repl import PromptSeat, play_match

    changes = parse_seat_specs(rules, seat_specs, allow_human=True)
    controllers: list[Controller] = []
    for seat, name in enumerate(rules.seat_names):
        label = changes.get(seat, result.labels[seat])
        try:
            controllers.append(make_controller(label, rules, human=lambda _label: PromptSeat()))
        except UsageError as exc:
            raise UsageError(
                f"{file}: seat {name} ({label}): {exc.message}; give it a player with --seat {name}=LEVEL"
            ) from None
        if seat in changes and changes[seat] != result.labels[seat]:
            writer.seat_changed(seat, changes[seat], rules)
    match.controllers = controllers
    target = transcript_path or file
    _write_atomically(target, buffer.getvalue())
    try:
        stream = open(target, "a", encoding="utf-8", newline="\n")  # noqa: SIM115
    except OSError as exc:
        raise UsageError(f"{target}: cannot write the transcript: {exc.strerror or exc}") from None
    writer.retarget(stream, path=target)
    humans = {seat for seat, c in enumerate(controllers) if isinstance(c, PromptSeat)}
    if humans:
        # A person sits at this table: continue at the prompt (or in batch mode when
        # stdin is not a terminal); the session shows the game itself.
        code = play_match(
            match,
            humans,
            writer=writer,
            intro=[f"Resuming {file}"],
            ascii_only=ascii_only,
            no_color=not _use_color(color),
            fast=fast,
            bots=recording(match, writer, timeout=bot_timeout, on_failure=on_bot_failure),
        )
        if code:
            sys.exit(code)
        return
    printer = None
    if not as_json:
        printer = Printer(
            rules, _echo_for(_use_color(color)), detail=False, symbols=not ascii_only, color=_use_color(color)
        )
        printer.sync(match)
        match.listeners.append(printer)
        click.echo(_progress(f"Resuming {file}", match))
    labels = result.header_labels
    try:
        with recording(match, writer, timeout=bot_timeout, on_failure=on_bot_failure):
            while not match.finished and (max_hands is None or len(match.state.results) < max_hands):
                match.step()
        if not match.finished:
            writer.unfinished()
            if printer is not None:
                click.echo(f"\nStopped after {len(match.state.results)} hands (--max-hands)")
    except (SpadesError, KeyboardInterrupt):
        if not match.finished:
            writer.unfinished()
        writer.close()
        raise
    writer.close()
    _finish_output(match, labels, writer, as_json, printer is not None)
