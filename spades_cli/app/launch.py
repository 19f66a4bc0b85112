"""The games behind ``run``, ``resume`` and ``replay``: each builds one GameRun.

The ``cmd_*`` modules parse flags and call these; these resolve the rules and the seats
(:mod:`spades_cli.app.setup`), open the transcript and hand back a run ready to play.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from spades_cli.app.setup import (
    SeatOptions,
    choose_rules,
    file_programs,
    make_controller,
    make_seat,
    make_seats,
    manual_seats,
    open_transcript,
)
from spades_cli.engine import Rules
from spades_cli.engine.notation import shown
from spades_cli.errors import UsageError
from spades_cli.game.match import Controller
from spades_cli.game.run import GameRun, Relay
from spades_cli.game.seats import (
    bot_log_path,
    check_level,
    close_players,
    parse_seat_specs,
)
from spades_cli.protocol.codec import DEFAULT_TIMEOUT
from spades_cli.transcript.decks import fixed_decks_tag
from spades_cli.transcript.files import TranscriptFile, save_failed
from spades_cli.transcript.replay import ReplayResult, replay
from spades_cli.transcript.scripts import ScriptRun, prepare_script, script_match, script_run, script_seats
from spades_cli.transcript.syntax import Tag, Transcript, read_transcript, transcript_from_bytes
from spades_cli.transcript.tags import transcript_rules
from spades_cli.transcript.writer import TranscriptWriter

__all__ = ["BotFlags", "ScriptGame", "Unfinished", "go_on", "replay_unfinished", "resume_game", "script_game"]


@dataclass(frozen=True)
class BotFlags:
    """``--bot-timeout``, ``--on-bot-failure``, ``--max-hands`` and ``--trust-programs``."""

    timeout: float = DEFAULT_TIMEOUT
    fallback: str | None = None
    max_hands: int | None = None
    trust_programs: bool = False
    say: Callable[[str], None] = print  # where --trust-programs shows the command lines


@dataclass
class ScriptGame:
    """A script ready to be played by ``spades run``."""

    run: GameRun
    seats: ScriptRun
    labels: dict[int, str] = field(default_factory=dict)


def _header_seats(t: Transcript, rules_names: Sequence[str]) -> dict[int, tuple[str, int]]:
    """The players the file's Seat tags name, with their lines."""
    lines = {tag.values[0]: (tag.values[1], tag.line) for tag in t.tags_named("Seat")}
    return {s: lines[name] for s, name in enumerate(rules_names) if name in lines}


def script_game(
    path: str,
    *,
    preset: str | None,
    default_preset: str,
    overrides: Sequence[str],
    seed: str | None,
    seat_specs: Sequence[str],
    then: str | None,
    transcript: str | None,
    flags: BotFlags,
    new_seed: Callable[[], str],
    force: bool = False,
) -> ScriptGame:
    """Read a script and build the run that plays it (UsageError and file errors: exit 2)."""
    t = read_transcript(path)
    choice = choose_rules(preset, overrides, t, default=default_preset)
    rules = choice.rules
    the_seed = seed if seed is not None else (t.seed if t.seed is not None else new_seed())
    prepared = prepare_script(t, rules)
    labels = parse_seat_specs(rules, seat_specs, allow_human=False)
    from_file = {
        s: found
        for s, found in _header_seats(t, rules.seat_names).items()
        if s not in labels and not prepared.queues[s]
    }
    file_programs(path, rules, from_file, trust=flags.trust_programs, say=flags.say)
    for s, (label, line) in from_file.items():
        try:
            labels[s] = check_level(label, allow_human=False)
        except UsageError:
            name = rules.seat_names[s]
            raise UsageError(
                f"seat {name} is played by {shown(label)}, which 'spades run' cannot use: "
                f"give it a player with --seat {name}=LEVEL",
                file=path,
                line=line,
            ) from None
    players = {seat: make_controller(label, rules) for seat, label in labels.items()}
    then_player = None
    then_says = Relay()  # what a --then program says: the run records it
    if then:
        # It plays for the scripted seats whose actions run out: its notes go in the
        # transcript, its stderr beside the file named by -o.
        log = bot_log_path(transcript, "then")
        options = SeatOptions(check_level(then, allow_human=False), flags.timeout, flags.fallback, log)
        then_player = make_seat(options, rules, then_says)
    owned = [then_player] if then_player is not None else []
    seats = script_seats(prepared, seed=the_seed, players=players, then=then_player, said=then_says)
    match = script_match(seats, the_seed)
    header_seats = [seats.labels[s] for s in range(rules.players)]
    fixed = fixed_decks_tag({*prepared.decks, *prepared.deals})
    try:
        writer = open_transcript(
            transcript,
            match,
            choice,
            seats=header_seats,
            exclusive=not force,
            extra_tags=[fixed] if fixed is not None else [],
        )
    except FileExistsError:
        close_players([*match.controllers, *owned])
        raise UsageError(
            "already exists: choose another -o PATH, or add --force to overwrite it", file=transcript
        ) from None
    except BaseException:
        close_players([*match.controllers, *owned])
        raise
    run = script_run(
        seats,
        match,
        writer=writer,
        max_hands=flags.max_hands,
        bot_timeout=flags.timeout,
        on_bot_failure=flags.fallback,
        owned=owned,
    )
    return ScriptGame(run, seats, seats.labels)


@dataclass
class ResumedGame:
    """An unfinished transcript replayed and ready to go on."""

    run: GameRun
    replayed: ReplayResult
    humans: set[int]
    tags: Sequence[Tag] = ()  # the transcript's tags
    manual: set[int] = field(default_factory=set)  # human seats given :noautoplay


def resume_game(
    path: str,
    *,
    seat_specs: Sequence[str],
    preset_files: Sequence[str],
    transcript: str | None,
    flags: BotFlags,
    human: Callable[[str], Controller],
    force: bool = False,
) -> ResumedGame:
    """Replay ``path`` (checked like ``spades replay``) into memory, give its seats their
    players, then go on writing the game: into ``path`` itself (locked before it is read;
    see :meth:`TranscriptFile.continue_with`), or into a new file ``transcript`` (an
    existing one only with ``force``). The two steps are :func:`replay_unfinished` and
    :func:`go_on`."""
    game = replay_unfinished(path, preset_files=preset_files, transcript=transcript)
    try:
        plain, manual = manual_seats(game.rules, seat_specs)
    except BaseException:
        game.close()
        raise
    resumed = go_on(game, seat_specs=plain, flags=flags, human=human, force=force)
    resumed.manual = manual
    return resumed


@dataclass
class Unfinished:
    """An unfinished transcript replayed into memory, before its seats get their players."""

    path: str
    file: TranscriptFile | None  # the transcript itself, locked, when the game goes on in it
    transcript: str | None  # else the new file the game goes on in
    replayed: ReplayResult
    writer: TranscriptWriter  # holds the game so far, in memory
    buffer: io.StringIO
    tags: Sequence[Tag] = ()  # the transcript's tags

    @property
    def rules(self) -> Rules:
        return self.replayed.run.rules

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


def replay_unfinished(path: str, *, preset_files: Sequence[str], transcript: str | None) -> Unfinished:
    """Read and replay the unfinished game in ``path`` (UsageError if it is over or has no
    seed); with ``transcript`` None the file is locked to go on in it."""
    file: TranscriptFile | None = None
    if transcript is None:
        file, data = TranscriptFile.open_existing(path)
        t_data: bytes | None = data
    else:
        t_data = None
    try:
        t = transcript_from_bytes(t_data, path) if t_data is not None else read_transcript(path)
        rules = transcript_rules(t, preset_files=preset_files)
        assert rules is not None
        if t.seed is None:
            raise UsageError(
                "the transcript has no [Seed] tag, so the next deals are unknown", file=path, line=1
            )
        buffer = io.StringIO()
        writer = TranscriptWriter(buffer)
        result = replay(t, rules, writer=writer, keep_end=False)
        if result.run.match.finished:
            winner = result.run.state.winner()
            assert winner is not None
            raise UsageError(
                f"the game is over ({rules.side_name(winner)} won): nothing to resume", file=path
            )
    except BaseException:
        if file is not None:
            file.close()
        raise
    return Unfinished(path, file, transcript, result, writer, buffer, tuple(t.tags))


def go_on(
    game: Unfinished,
    *,
    seat_specs: Sequence[str],
    flags: BotFlags,
    human: Callable[[str], Controller],
    force: bool = False,
) -> ResumedGame:
    """Give the seats of a replayed game their players and go on writing it."""
    try:
        return _go_on(game, seat_specs, flags, human, force)
    except BaseException:
        game.close()
        raise


def _go_on(
    game: Unfinished,
    seat_specs: Sequence[str],
    flags: BotFlags,
    human: Callable[[str], Controller],
    force: bool,
) -> ResumedGame:
    path, result, rules = game.path, game.replayed, game.rules
    run = result.run
    changes = parse_seat_specs(rules, seat_specs, allow_human=True)
    from_file = {s: result.labels[s] for s in range(rules.players) if s not in changes}
    file_programs(
        path,
        rules,
        {s: (label, result.label_lines.get(s, 1)) for s, label in from_file.items()},
        trust=flags.trust_programs,
        say=flags.say,
    )
    labels = {**from_file, **changes}
    players = make_seats(rules, labels, human=human, origin=path)
    run.go_on_with(
        players, max_hands=flags.max_hands, bot_timeout=flags.timeout, on_bot_failure=flags.fallback
    )
    try:
        text = game.buffer.getvalue()
        game.writer.to_file(_continue(game.writer, game.file, text, game.transcript, force))
        for seat, label in changes.items():
            if label != result.labels[seat]:
                run.seat_changed(seat, label)
    except BaseException:
        run.close()
        raise
    humans = {s for s, label in labels.items() if label == "human"}
    return ResumedGame(run, result, humans, game.tags)


def _continue(
    writer: TranscriptWriter, file: TranscriptFile | None, text: str, transcript: str | None, force: bool
) -> TranscriptFile:
    """The file the resumed game goes on in, holding ``text`` (the game so far)."""
    data = text.encode("utf-8", "replace")
    if file is not None:  # the transcript itself, locked and read
        try:
            file.continue_with(data)
        except OSError as exc:
            raise save_failed(exc, file.path, writer.saved_up_to) from None
        return file
    assert transcript is not None
    try:
        other = TranscriptFile.create(transcript, force=force)
    except FileExistsError:
        raise UsageError(
            "already exists: choose another --transcript, or add --force to overwrite it", file=transcript
        ) from None
    try:
        other.append(data)
    except OSError as exc:
        other.close()
        raise save_failed(exc, other.path, None) from None
    return other
