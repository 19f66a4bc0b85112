"""``spades analyze --jobs N`` and ``spades analyze DIR``: hands spread over worker
processes give the same analysis as one after another; a folder is one job."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from helpers.cli import run_cli
from helpers.paths import TRANSCRIPTS

FLAGS = ["--tricks", "4", "--budget", "200000"]


@pytest.mark.slow
def test_jobs_give_the_same_text_and_json_as_one_job() -> None:
    """R-C-6: the double-dummy figures and costly cards are the same whichever process
    analyses a hand, and the hands come out in their order."""
    path = str(TRANSCRIPTS / "two-player-short.txt")
    for extra in ([], ["--json"]):
        one = run_cli(["analyze", path, *FLAGS, *extra, "--jobs", "1"])
        two = run_cli(["analyze", path, *FLAGS, *extra, "--jobs", "2"])
        assert one.exit_code == 0 and two.exit_code == 0, two.output
        assert two.output == one.output
    data = json.loads(two.output)
    assert [h["hand"] for h in data["hands"]] == [1, 2]


@pytest.mark.slow
def test_a_folder_is_analysed_file_by_file_in_name_order(tmp_path: Path) -> None:
    """Every ``*.txt`` of the folder, in name order, each as ``analyze FILE`` gives it."""
    for name in ("four-player-short.txt", "two-player-short.txt"):
        shutil.copy(TRANSCRIPTS / name, tmp_path / name)
    (tmp_path / "notes.md").write_text("not a transcript\n")
    got = run_cli(["analyze", str(tmp_path), *FLAGS, "--json", "--jobs", "2"])
    assert got.exit_code == 0, got.output
    files = json.loads(got.output)["files"]
    assert [Path(f["file"]).name for f in files] == ["four-player-short.txt", "two-player-short.txt"]
    for f in files:
        alone = run_cli(["analyze", f["file"], *FLAGS, "--json", "--jobs", "1"])
        assert {k: v for k, v in f.items() if k != "file"} == json.loads(alone.output)
    text = run_cli(["analyze", str(tmp_path), *FLAGS, "--jobs", "1"]).output.splitlines()
    heads = [line for line in text if line.startswith("== ")]
    assert heads == [
        f"== {tmp_path / 'four-player-short.txt'} ==",
        f"== {tmp_path / 'two-player-short.txt'} ==",
    ]
    assert sum(line.startswith("hand 1:") for line in text) == 2


def test_a_folder_without_transcripts_or_with_a_broken_one_ends_in_one_line(tmp_path: Path) -> None:
    empty = run_cli(["analyze", str(tmp_path)])
    assert empty.exit_code == 2 and "no transcripts" in empty.output
    (tmp_path / "a.txt").write_bytes(b"\x00\xff not a transcript\n")
    broken = run_cli(["analyze", str(tmp_path), "--jobs", "2"])
    assert broken.exit_code == 2 and "Traceback" not in broken.output
    assert len([line for line in broken.output.splitlines() if line.strip()]) == 1


def test_jobs_below_one_are_refused() -> None:
    result = run_cli(["analyze", str(TRANSCRIPTS / "two-player-short.txt"), "--jobs", "0"])
    assert result.exit_code == 2


def test_the_hands_come_back_in_order_whatever_order_they_finish_in() -> None:
    """The in-order buffer of ``analyzed_in_order`` (a pool that finishes them backwards)."""
    from spades_cli.analysis import many
    from spades_cli.workers.pool import InProcess

    class Backwards(InProcess):
        workers = 3

        def next_result(self) -> tuple[object, object]:
            item = self.todo.pop()
            return item, f"report {item[0]}"

    items = [(i, "data") for i in range(5)]
    got = list(many.in_order(items, [str(i) for i in range(5)], Backwards(lambda s, i: None, None)))
    assert got == [f"report {i}" for i in range(5)]


@pytest.mark.slow
def test_a_dask_cluster_gives_the_same_analysis_as_one_job() -> None:
    distributed = pytest.importorskip("distributed")
    path = str(TRANSCRIPTS / "two-player-short.txt")
    flags = ["--tricks", "2", "--budget", "200000", "--json"]
    whole = run_cli(["analyze", path, *flags, "--jobs", "1"])
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        on_cluster = run_cli(["analyze", path, *flags, "--scheduler", cluster.scheduler_address])
    assert on_cluster.exit_code == 0, on_cluster.output
    assert json.loads(on_cluster.output) == json.loads(whole.output)


def test_an_unreachable_scheduler_is_a_usage_error() -> None:
    pytest.importorskip("distributed")
    result = run_cli(["analyze", str(TRANSCRIPTS / "two-player-short.txt"), "--scheduler", "nonsense://x"])
    assert result.exit_code == 2 and "--scheduler nonsense://x" in result.output


def test_an_unreachable_scheduler_prints_no_analysis() -> None:
    """The scheduler is refused before anything of the analysis is written (as simulate)."""
    pytest.importorskip("distributed")
    result = run_cli(["analyze", str(TRANSCRIPTS / "two-player-short.txt"), "--scheduler", "nonsense://x"])
    assert result.exit_code == 2 and result.stdout == ""


def test_a_scheduler_without_dask_is_refused_before_any_output(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    result = run_cli(["analyze", str(TRANSCRIPTS), "--scheduler", "local"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "--scheduler needs Dask: pip install 'spades[cluster]'" in result.stderr
