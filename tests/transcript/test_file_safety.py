"""The table's promises about files, checked through the CLI as a user runs it.

- a full disk (here: a file size limit) costs at most the action in flight: the file is cut
  back to its last whole action, the table stops with exit 1 and one line, and the file
  replays and resumes to the same end as a game that was never interrupted;
- one writer per transcript: a second game that wants to write a file in use exits 2 at once;
- ``resume`` writes through symlinks and keeps hard links; ``-o`` never overwrites a file
  unless ``--force``;
- transcripts are private (0600, their folder 0700) whatever the umask;
- ``replay`` says when a deck is not the one the seed deals (a stacked deck);
- odd input (a surrogate escape in a tag, arguments that are not UTF-8, output to a full
  device) ends in one line, never a traceback, and leaves no stray file.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest
from helpers.cli import run_cli
from helpers.paths import TRANSCRIPTS

POSIX = pytest.mark.skipif(os.name != "posix", reason="POSIX file semantics")
RANDOM_SEATS = ["--seat", "N=random", "--seat", "E=random", "--seat", "S=random", "--seat", "W=random"]
SCRIPT = '[Rules "four-player"]\n[Seed "disk-full"]\n'
HANDS = "8"  # the games here stop after 8 hands (random players rarely reach 500)
UNFINISHED = TRANSCRIPTS / "four-player-unfinished.txt"


def spades(
    args: Sequence[str | bytes],
    *,
    cwd: Path | None = None,
    limit: int | None = None,
    umask: int | None = None,
    env: dict[str, str] | None = None,
    stdin: int | None = subprocess.DEVNULL,
    stdout: int | None = subprocess.PIPE,
) -> subprocess.CompletedProcess[str]:
    """``spades ARGS`` in a process of its own, with a file size limit and a umask if given."""
    return subprocess.run(
        [sys.executable, "-m", "spades_cli", *args],
        cwd=cwd,
        stdin=stdin,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
        preexec_fn=_limits(limit, umask),
        timeout=300,
        check=False,
    )


def _limits(limit: int | None, umask: int | None) -> Callable[[], None]:
    def apply() -> None:
        if limit is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
            # As a shell with `ulimit -f` leaves it: crossing the limit sends SIGXFSZ, whose
            # default action kills the process. The table must survive it.
            signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
        if umask is not None:
            os.umask(umask)

    return apply


def _one_line(stderr: str) -> str:
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr and "Exception" not in stderr, stderr
    return lines[0]


def _stray(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".spades-") or p.suffix == ".tmp")


def _in_progress(path: Path) -> dict[str, object]:
    replayed = run_cli(["replay", "--json", str(path)])
    assert replayed.exit_code == 0, replayed.stderr
    summary = json.loads(replayed.stdout)
    assert summary["finished"] is False
    progress = summary["in_progress"]
    assert isinstance(progress, dict)
    return progress


# ------------------------------------------------------------------------------ item 3: a full disk


@pytest.mark.slow
@POSIX
@pytest.mark.skipif(not hasattr(signal, "SIGXFSZ"), reason="needs file size limits")
def test_full_disk_never_costs_the_game(tmp_path: Path) -> None:
    script = tmp_path / "script.txt"
    script.write_text(SCRIPT)
    cut = tmp_path / "cut.txt"
    limit = 4000  # the header and two or three hands
    ran = spades(["run", str(script), *RANDOM_SEATS, "--max-hands", HANDS, "-o", str(cut)], limit=limit)
    assert ran.returncode == 1, (ran.returncode, ran.stderr)  # not killed by SIGXFSZ
    line = _one_line(ran.stderr)
    name = re.escape(str(cut))
    found = re.fullmatch(
        rf"spades: cannot save the game: file size limit reached \({name}\); the game is saved up to "
        rf"hand (\d+), (trick (\d+)|the bidding): (.+) and run spades resume {name}",
        line,
    )
    assert found, line
    # Cut back to the last whole action: no half-written line, and it replays to where it says.
    data = cut.read_bytes()
    assert 0 < len(data) <= limit
    progress = _in_progress(cut)
    assert progress["hand"] == int(found[1])
    if found[3] is not None:
        assert (progress["phase"], progress["trick"]) == ("play", int(found[3]))
    else:
        assert (progress["phase"], progress["trick"]) == ("bid", None)
    assert _stray(tmp_path) == []

    # With space again, resume ends exactly where a game that was never interrupted ends.
    resumed = run_cli(["resume", str(cut), "--max-hands", HANDS])
    assert resumed.exit_code == 0, resumed.stderr
    straight = tmp_path / "straight.txt"
    ran = spades(["run", str(script), *RANDOM_SEATS, "--max-hands", HANDS, "-o", str(straight)])
    assert ran.returncode == 0, ran.stderr
    assert cut.read_bytes() == straight.read_bytes()


@pytest.mark.slow
@POSIX
@pytest.mark.skipif(not hasattr(signal, "SIGXFSZ"), reason="needs file size limits")
def test_full_disk_while_resuming_keeps_the_saved_game(tmp_path: Path) -> None:
    game = tmp_path / "game.txt"
    shutil.copyfile(UNFINISHED, game)
    before = game.read_bytes()
    twin = tmp_path / "twin.txt"
    shutil.copyfile(UNFINISHED, twin)

    where = _in_progress(game)

    # No room for one more action: what is saved stays saved (at most its 'end *' goes).
    tight = spades(["resume", str(game), "--max-hands", "3"], limit=len(before) // 2)
    assert tight.returncode == 1, tight.stderr
    said = _one_line(tight.stderr)
    assert re.fullmatch(rf"spades: cannot save the game: .+ \({re.escape(str(game))}\).*", said)
    assert before.startswith(game.read_bytes())
    assert before.endswith(b"end *\n") and len(game.read_bytes()) >= len(before) - len(b"\nend *\n")
    assert _in_progress(game) == where
    assert _stray(tmp_path) == []

    # Room for a few more actions: the game goes on, stops cleanly, and resumes later.
    short = spades(["resume", str(game), "--max-hands", "6"], limit=len(before) + 600)
    assert short.returncode == 1, short.stderr
    assert "spades resume" in _one_line(short.stderr)
    assert len(game.read_bytes()) > len(before) - len(b"end *\n")
    _in_progress(game)
    assert run_cli(["resume", str(game), "--max-hands", "6"]).exit_code == 0
    assert run_cli(["resume", str(twin), "--max-hands", "6"]).exit_code == 0
    assert game.read_bytes() == twin.read_bytes()
    assert _stray(tmp_path) == []


# ------------------------------------------------------------------------------ item 6: one writer


@contextlib.contextmanager
def _game_in_progress(path: Path) -> Iterator[subprocess.Popen[str]]:
    """A game at the prompt (batch mode) that waits for its player's first move, writing ``path``."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "spades_cli", "play", "--seed", "7", "--transcript", str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while b"\ndeck " not in (path.read_bytes() if path.exists() else b""):
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            assert time.monotonic() < deadline, "the game did not start"
            time.sleep(0.01)
        yield proc
    finally:
        assert proc.stdin is not None
        proc.stdin.close()  # the player leaves: the game is saved (exit 3)
        proc.wait(timeout=60)
        if proc.stderr:
            proc.stderr.close()


@pytest.mark.slow
@POSIX
def test_one_writer_per_transcript(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    script = tmp_path / "script.txt"
    script.write_text(SCRIPT)
    with _game_in_progress(path) as game:
        held = path.read_bytes()
        busy = f"spades: {path}: already in use by another game (pid {game.pid})"
        for args in (
            ["resume", str(path)],
            ["resume", str(path), "--seat", "S=random"],
            ["run", str(script), *RANDOM_SEATS, "-o", str(path), "--force"],
        ):
            second = run_cli(args)
            assert second.exit_code == 2, (args, second.stderr)
            assert second.stderr.strip() == busy, args
        assert path.read_bytes() == held
    assert game.returncode == 3
    # The lock goes with the game: the file is free again and resumes.
    assert run_cli(["resume", str(path), "--seat", "S=random", "--max-hands", "1"]).exit_code == 0


@POSIX
def test_resume_writes_through_a_symlink(tmp_path: Path) -> None:
    real = tmp_path / "games" / "real.txt"
    real.parent.mkdir()
    shutil.copyfile(UNFINISHED, real)
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    resumed = run_cli(["resume", str(link), "--max-hands", "3"])
    assert resumed.exit_code == 0, resumed.stderr
    assert link.is_symlink() and link.resolve() == real.resolve()
    twin = tmp_path / "twin.txt"
    shutil.copyfile(UNFINISHED, twin)
    assert run_cli(["resume", str(twin), "--max-hands", "3"]).exit_code == 0
    assert real.read_bytes() == twin.read_bytes()
    assert _stray(tmp_path) == [] and _stray(real.parent) == []


@POSIX
def test_resume_keeps_a_hard_link(tmp_path: Path) -> None:
    first = tmp_path / "first.txt"
    shutil.copyfile(UNFINISHED, first)
    second = tmp_path / "second.txt"
    os.link(first, second)
    resumed = run_cli(["resume", str(second), "--max-hands", "3"])
    assert resumed.exit_code == 0, resumed.stderr
    assert os.path.samefile(first, second)
    assert first.stat().st_nlink == 2
    assert first.read_bytes() == second.read_bytes()
    assert _in_progress(first)["hand"] == 4


@POSIX
def test_output_flag_never_overwrites_a_file_without_force(tmp_path: Path) -> None:
    script = tmp_path / "script.txt"
    script.write_text(SCRIPT)
    precious = tmp_path / "precious.txt"
    precious.write_text("not a transcript, and not yours to overwrite\n")
    link = tmp_path / "link.txt"
    link.symlink_to(precious)
    for target in (precious, link):
        refused = run_cli(["run", str(script), *RANDOM_SEATS, "--max-hands", "1", "-o", str(target)])
        assert refused.exit_code == 2, refused.stderr
        said = refused.stderr.strip()
        assert re.fullmatch(rf"spades: {re.escape(str(target))}: already exists.*--force.*", said)
        assert precious.read_text() == "not a transcript, and not yours to overwrite\n"
    resumed_to = run_cli(["resume", str(UNFINISHED), "--transcript", str(precious), "--max-hands", "3"])
    assert resumed_to.exit_code == 2, resumed_to.stderr
    assert "--force" in resumed_to.stderr
    assert precious.read_text() == "not a transcript, and not yours to overwrite\n"

    forced = run_cli(["run", str(script), *RANDOM_SEATS, "--max-hands", "1", "-o", str(link), "--force"])
    assert forced.exit_code == 0, forced.stderr
    assert link.is_symlink()
    assert run_cli(["replay", str(precious)]).exit_code == 0


# ------------------------------------------------------------------------------ item 7: private files


@pytest.mark.slow
@POSIX
@pytest.mark.parametrize("umask", [0o022, 0o000])
def test_transcripts_are_private_whatever_the_umask(tmp_path: Path, umask: int) -> None:
    home = tmp_path / "home"  # does not exist yet: the table creates it
    script = tmp_path / "script.txt"
    script.write_text(SCRIPT)
    env = {"SPADES_HOME": str(home)}
    ran = spades(["run", str(script), *RANDOM_SEATS, "--max-hands", "1"], env=env, umask=umask)
    assert ran.returncode == 0, ran.stderr
    folder = home / "transcripts"
    for made in (home, folder):
        assert stat.S_IMODE(made.stat().st_mode) == 0o700, made
    (recorded,) = folder.iterdir()
    assert stat.S_IMODE(recorded.stat().st_mode) == 0o600

    chosen = tmp_path / "chosen.txt"
    args = ["run", str(script), *RANDOM_SEATS, "--max-hands", "1", "-o", str(chosen)]
    ran = spades(args, env=env, umask=umask)
    assert ran.returncode == 0, ran.stderr
    assert stat.S_IMODE(chosen.stat().st_mode) == 0o600

    # A file resume rewrites is private too, however it was before.
    game = tmp_path / "game.txt"
    shutil.copyfile(UNFINISHED, game)
    game.chmod(0o644)
    ran = spades(["resume", str(game), "--max-hands", "3"], env=env, umask=umask)
    assert ran.returncode == 0, ran.stderr
    assert stat.S_IMODE(game.stat().st_mode) == 0o600


# ------------------------------------------------------------------------------ item 9: stacked decks


def test_replay_reports_a_stacked_deck(tmp_path: Path) -> None:
    # A game whose first deck a script fixed: said openly in the transcript, so no warning.
    scripted = tmp_path / "scripted.txt"
    ran = run_cli(
        [
            "run",
            str(TRANSCRIPTS / "scripts" / "four-player.txt"),
            "--then",
            "random",
            "--max-hands",
            "2",
            "-o",
            str(scripted),
        ]
    )
    assert ran.exit_code == 0, ran.stderr
    shown = run_cli(["replay", "--json", str(scripted)])
    assert shown.exit_code == 0, shown.stderr
    assert "warning" not in shown.stderr
    hands = json.loads(shown.stdout)["hands"]
    assert [h["deck_from_seed"] for h in hands] == [False, True]

    # The same game with that note taken out is a stacked deck: one warning, for hand 1.
    lines = scripted.read_text().splitlines(keepends=True)
    stacked = tmp_path / "stacked.txt"
    stacked.write_text("".join(line for line in lines if not line.startswith("[FixedDecks ")))
    assert stacked.read_text() != scripted.read_text()
    deck_line = next(i for i, line in enumerate(lines, 1) if line.startswith("deck ")) - 1
    for args in (["replay", str(stacked)], ["replay", "--json", str(stacked)]):
        shown = run_cli(args)
        assert shown.exit_code == 0, shown.stderr
        warnings = [line for line in shown.stderr.splitlines() if "warning" in line]
        assert warnings == [
            f"{stacked}:{deck_line}: warning: the deck of hand 1 is not the deck the seed deals "
            "(arranged, not dealt)"
        ]
    assert [h["deck_from_seed"] for h in json.loads(shown.stdout)["hands"]] == [False, True]


def test_replay_finds_every_golden_deck_dealt_from_its_seed() -> None:
    for path in sorted(TRANSCRIPTS.glob("*.txt")):
        shown = run_cli(["replay", "--json", str(path)])
        assert shown.exit_code == 0, (path, shown.stderr)
        assert "warning" not in shown.stderr, path
        summary = json.loads(shown.stdout)
        assert all(h["deck_from_seed"] is True for h in summary["hands"]), path
        if summary["in_progress"] is not None:
            assert summary["in_progress"]["deck_from_seed"] is True, path


def test_replay_without_a_seed_cannot_tell_a_stacked_deck(tmp_path: Path) -> None:
    text = UNFINISHED.read_text()
    seedless = tmp_path / "seedless.txt"
    seedless.write_text("".join(line for line in text.splitlines(True) if not line.startswith("[Seed ")))
    shown = run_cli(["replay", "--json", str(seedless)])
    assert shown.exit_code == 0, shown.stderr
    assert "warning" not in shown.stderr
    assert {h["deck_from_seed"] for h in json.loads(shown.stdout)["hands"]} == {None}


# ------------------------------------------------------------------------------ item 5: odd input


def test_a_surrogate_escape_in_a_tag_is_one_clear_error(tmp_path: Path) -> None:
    lines = UNFINISHED.read_text().splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("[Seed "))
    lines.insert(at + 1, '[Note "a\\uD800b"]\n')
    path = tmp_path / "odd.txt"
    path.write_text("".join(lines))
    before = path.read_bytes()
    for command in ("replay", "resume"):
        result = run_cli([command, str(path)])
        assert result.exit_code == 2, (command, result.stderr)
        assert result.exception is None or isinstance(result.exception, SystemExit)
        assert re.fullmatch(rf"spades: {re.escape(str(path))}:{at + 2}: .*\\uD800.*", result.stderr.strip())
    assert path.read_bytes() == before
    assert _stray(tmp_path) == []


@pytest.mark.slow
@POSIX
@pytest.mark.parametrize(
    "flag, value", [("--seed", b"\xff7"), ("--rules", b"four\xff"), ("--seat", b"N=\xff")]
)
def test_arguments_that_are_not_utf8_end_in_one_line(tmp_path: Path, flag: str, value: bytes) -> None:
    script = tmp_path / "script.txt"
    script.write_text(SCRIPT)
    out = tmp_path / "out.txt"
    ran = spades(["run", str(script), *RANDOM_SEATS[2:], flag.encode(), value, "-o", str(out)], cwd=tmp_path)
    assert ran.returncode == 2, ran.stderr
    assert _one_line(ran.stderr).startswith(f"spades: {flag}: ")
    assert not out.exists()
    assert _stray(tmp_path) == []


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_output_to_a_full_device_ends_in_one_line() -> None:
    with open("/dev/full", "w") as full:
        ran = subprocess.run(
            [sys.executable, "-m", "spades_cli", "replay", "--json", str(TRANSCRIPTS / "four-player.txt")],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    assert ran.returncode == 1, ran.stderr
    assert _one_line(ran.stderr) == "spades: cannot write the output: disk full"


@POSIX
def test_devices_and_fifos_are_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)  # nobody writes to it: reading it would wait forever
    for path in (fifo, Path("/dev/zero")):
        if not path.exists():
            continue
        for command in ("replay", "resume", "run"):
            result = run_cli([command, str(path)])
            assert result.exit_code == 2, (command, path, result.stderr)
            said = result.stderr.strip()
            assert said == f"spades: {path}: is not a regular file (a device or a pipe): not a transcript"


@POSIX
@pytest.mark.parametrize(
    "args",
    [
        ["run", "SCRIPT", "-o", "FIFO", "--force", *RANDOM_SEATS],
        ["run", "SCRIPT", "-o", "FIFO", *RANDOM_SEATS],
        ["resume", "UNFINISHED", "--transcript", "FIFO", *RANDOM_SEATS],
        ["resume", "UNFINISHED", "--transcript", "FIFO", "--force", *RANDOM_SEATS],
    ],
)
def test_a_fifo_as_the_transcript_to_write_is_refused_at_once(tmp_path: Path, args: list[str]) -> None:
    """Issue 34: ``run -o FIFO --force`` and ``resume --transcript FIFO`` waited forever for
    a reader (the file was opened before it was checked); now one line, exit 2."""
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    script = tmp_path / "script.txt"
    script.write_text(SCRIPT)
    where = {"FIFO": str(fifo), "SCRIPT": str(script), "UNFINISHED": str(UNFINISHED)}
    ran = subprocess.run(
        [sys.executable, "-m", "spades_cli", *(where.get(a, a) for a in args)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,  # the old code never ended: this fails it instead of hanging the suite
        check=False,
        env=dict(os.environ, SPADES_HOME=str(tmp_path / "home")),
    )
    assert ran.returncode == 2, ran.stderr
    assert ran.stderr.strip() == f"spades: {fifo}: is not a regular file: a transcript cannot go there"


def test_an_oversized_line_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "long.txt"
    path.write_text(UNFINISHED.read_text() + "note " + "x" * 70_000 + "\n")
    result = run_cli(["replay", str(path)])
    assert result.exit_code == 2
    last = len(UNFINISHED.read_text().splitlines()) + 1
    said = result.stderr.strip()
    assert said.startswith(f"spades: {path}:{last}: the line is longer than 65536 characters: 'note xxx")
    assert said.endswith("...'") and len(said) < len(str(path)) + 200
