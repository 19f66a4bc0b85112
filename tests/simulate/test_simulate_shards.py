"""Tournaments in parts: running totals, shards and ``spades merge``, resuming, Ctrl-C, Dask."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from spades_cli.cli.main import main
from spades_cli.presets import load_rules
from spades_cli.simulate import Interrupted, Summary, Totals, read_summary, run_tournament
from spades_cli.simulate.report import without_timing, write_summary
from spades_cli.simulate.runner import chunks, shard_range
from spades_cli.simulate.stats import TimeHist

FOUR = load_rules("four-player")
TWO = load_rules("two-player")
# A small duplicate tournament: random and easy bots, short games.
GAME = [
    "--games",
    "7",
    "--seed",
    "11",
    "--seat",
    "N=easy",
    "--seat",
    "S=random",
    "--seat",
    "E=easy",
    "--seat",
    "W=random",
    "--duplicate",
    "--max-hands",
    "3",
    "-q",
]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def simulate_json(*args: str) -> dict[str, object]:
    code, out, err = run("simulate", *GAME, "--json", *args)
    assert code == 0, err
    data: dict[str, object] = json.loads(out)
    return data


@pytest.mark.slow
def test_shards_merge_into_exactly_the_whole_run(tmp_path: Path) -> None:
    whole = simulate_json("-j", "1")
    files = []
    for k, jobs in ((1, "2"), (2, "1"), (3, "1")):
        path = tmp_path / f"part{k}.json"
        path.write_text(json.dumps(simulate_json("--shard", f"{k}/3", "-j", jobs)))
        files.append(str(path))
    part = json.loads(Path(files[1]).read_text())
    assert part["totals"]["done"] == [[2, 4]] and part["complete"] is False  # games 3-4 of 7
    code, out, err = run("merge", "--json", files[2], files[0], files[1])  # any order
    assert code == 0, err
    merged = json.loads(out)
    assert without_timing(merged) == without_timing(whole)
    assert merged["complete"] is True and merged["games_played"] == 14
    # The text summaries agree too, apart from the decision times.
    code, text_whole, _ = run("simulate", *GAME, "-j", "1")
    code2, text_merged, _ = run("merge", *files)
    assert code == code2 == 0
    cut = text_whole.index("decision time")
    assert text_merged[:cut] == text_whole[:cut]


def test_merge_refuses_other_tournaments_and_repeated_games(tmp_path: Path) -> None:
    a = tmp_path / "a.json"
    a.write_text(json.dumps(simulate_json("--shard", "1/2", "-j", "1")))
    b = tmp_path / "b.json"
    b.write_text(json.dumps(simulate_json("--shard", "2/2", "-j", "1", "--seed", "12")))
    code, out, err = run("merge", str(a), str(b))
    assert code == 2 and out == ""
    assert err.strip() == f"spades: {b} is from another tournament than {a}: seed 11 against 12"
    code, _, err = run("merge", str(a), str(a))
    assert code == 2 and "game 1 is counted twice" in err
    bad = tmp_path / "bad.json"
    bad.write_text('{"rules": "four-player"}')
    code, _, err = run("merge", str(a), str(bad))
    assert code == 2 and "not a simulate result" in err and "Traceback" not in err
    bad.write_text("not json at all")
    code, _, err = run("merge", str(bad))
    assert code == 2 and "not JSON" in err
    code, _, err = run("merge", str(tmp_path / "missing.json"))
    assert code == 2 and "cannot read" in err


def test_a_changed_total_in_a_file_is_reported_not_trusted(tmp_path: Path) -> None:
    data = simulate_json("--shard", "1/2", "-j", "1")
    data["totals"]["teams"][0]["wins"] = "many"  # type: ignore[index]
    path = tmp_path / "a.json"
    path.write_text(json.dumps(data))
    code, _, err = run("merge", str(path))
    assert code == 2 and "expected a whole number" in err


def test_a_result_file_never_makes_us_open_another_file(tmp_path: Path) -> None:
    data = simulate_json("--shard", "1/2", "-j", "1")
    data["totals"]["rules"]["base"] = str(tmp_path / "elsewhere.yaml")  # type: ignore[index]
    path = tmp_path / "a.json"
    path.write_text(json.dumps(data))
    code, _, err = run("merge", str(path))
    assert code == 2 and "totals.rules must be the rules in full" in err


def test_an_interrupted_run_without_out_saves_in_the_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from spades_cli.simulate.report import partial_path

    monkeypatch.setenv("SPADES_HOME", str(tmp_path))
    assert partial_path(5, (1, 2)) == str(tmp_path / "simulate" / "partial-5-shard-1-of-2.json")
    assert partial_path(5, None) == str(tmp_path / "simulate" / "partial-5.json")


def stop_after(chunks_done: int) -> object:
    seen = []

    def progress(done: int, total: int) -> None:
        seen.append(done)
        if len(seen) == chunks_done:
            raise KeyboardInterrupt

    return progress


def test_an_interrupted_run_keeps_its_finished_games_and_resumes_to_the_same_result(tmp_path: Path) -> None:
    labels = ("easy", "random")
    whole = run_tournament(TWO, labels, 6, 4, duplicate=True, max_hands=3)
    with pytest.raises(Interrupted) as stop:
        run_tournament(TWO, labels, 6, 4, duplicate=True, max_hands=3, progress=stop_after(2))  # type: ignore[arg-type]
    partial = stop.value.summary
    assert stop.value.exit_code == 130  # Ctrl-C
    assert partial.totals.done == ((0, 2),) and partial.totals.copies == 4 and not partial.complete
    path = tmp_path / "partial.json"
    write_summary(partial, str(path))
    again = run_tournament(TWO, labels, 6, 4, duplicate=True, max_hands=3, resume=read_summary(str(path)))
    assert again.complete
    assert without_timing(again) == without_timing(whole)


def test_resume_from_the_command_line_checks_it_is_the_same_tournament(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(simulate_json("--shard", "1/3", "-j", "1")))
    whole = simulate_json("-j", "1")
    resumed = simulate_json("-j", "1", "--resume-from", str(path))
    assert without_timing(resumed) == without_timing(whole)
    # The seed comes from the file when not given; seats never do: a file starts no program.
    args = [a for a in GAME if a not in ("--seed", "11")]
    code, out, _ = run("simulate", *args, "--json", "-j", "1", "--resume-from", str(path))
    assert code == 0 and json.loads(out)["seed"] == 11
    data = json.loads(path.read_text())
    data["seats"]["N"] = "cmd:evil-program"
    path.write_text(json.dumps(data))
    code, out, err = run("simulate", *GAME, "-j", "1", "--resume-from", str(path))
    assert code == 2 and out == ""
    assert "another tournament: seats easy/easy/random/random against cmd:evil-program/" in err


@pytest.mark.parametrize("text", ["0/3", "4/3", "x", "1/", "2"])
def test_bad_shard_is_a_usage_error(text: str) -> None:
    code, _, err = run("simulate", *GAME, "--shard", text)
    assert code == 2 and "expected K/N with 1 <= K <= N" in err


def test_shards_and_chunks_cover_every_game_once() -> None:
    parts = [shard_range(10, (k, 3)) for k in (1, 2, 3)]
    assert parts == [(0, 3), (3, 6), (6, 10)]
    todo = ((0, 5), (7, 100))
    cut = list(chunks(todo, workers=2))
    covered = [i for a, b in cut for i in range(a, b)]
    assert covered == [*range(5), *range(7, 100)]
    assert max(b - a for a, b in cut) <= 32


def test_totals_round_trip_through_json_and_merge_in_any_order() -> None:
    a = run_tournament(FOUR, ("random",) * 4, 3, 2, max_hands=2).totals
    b = Totals.from_json(json.loads(json.dumps(a.to_json())))
    assert b.to_json() == a.to_json()
    h = TimeHist()
    for t in (0.001, 0.002, 0.003, 0.004, 1.0):
        h.add(t)
    assert h.count == 5 and h.longest == 1.0
    assert 0.0028 < h.quantile(0.5) < 0.0032  # within the 6% of a bucket
    assert h.quantile(1.0) == 1.0


@pytest.mark.slow
@pytest.mark.parametrize(("sig", "jobs", "code"), [(signal.SIGINT, "2", 130), (signal.SIGTERM, "1", 143)])
def test_ctrl_c_stops_cleanly_prints_and_saves_the_totals(
    tmp_path: Path, sig: int, jobs: str, code: int
) -> None:
    out_file = tmp_path / "partial.json"
    args = [
        sys.executable,
        "-m",
        "spades_cli",
        "simulate",
        "--games",
        "100000",
        "--seed",
        "3",
        "--seat",
        "N=random",
        "--seat",
        "E=random",
        "--seat",
        "S=random",
        "--seat",
        "W=random",
        "--max-hands",
        "1",
        "-j",
        jobs,
        "--json",
        "-o",
        str(out_file),
    ]
    proc = subprocess.Popen(
        args,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # as at a terminal
    )
    time.sleep(2.5)
    os.killpg(proc.pid, sig)  # a terminal sends Ctrl-C to the whole process group
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == code, err
    assert "Traceback" not in err
    assert f"the totals so far are saved in {out_file}" in err
    saved = read_summary(str(out_file))
    assert not saved.complete
    printed = json.loads(out)
    assert printed["totals"]["done"] == saved.to_json()["totals"]["done"]


@pytest.mark.slow
def test_a_dask_cluster_gives_the_same_result_as_the_local_run() -> None:
    distributed = pytest.importorskip("distributed")
    whole = simulate_json("-j", "1")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        on_cluster = simulate_json("--scheduler", cluster.scheduler_address)
    assert without_timing(on_cluster) == without_timing(whole)


def test_an_unreachable_scheduler_is_a_usage_error() -> None:
    pytest.importorskip("distributed")
    code, out, err = run("simulate", *GAME, "--scheduler", "nonsense://x")
    assert code == 2 and out == "" and "--scheduler nonsense://x" in err


def test_summary_type_is_what_run_tournament_gives() -> None:
    assert isinstance(run_tournament(TWO, ("random", "random"), 1, 1, max_hands=1), Summary)


def test_the_progress_bar_labels_its_times() -> None:
    import io

    from spades_cli.simulate.progress import ProgressBar

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    bar = ProgressBar(enabled=True, stream=screen)
    bar(5, 20)
    bar.close()
    line = screen.getvalue()
    assert line.startswith("\rgames 5/20 [#######-----------------------] elapsed 0:00, left about 0:00")
    assert line.endswith("\n")
