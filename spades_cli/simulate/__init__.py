"""Bot tournaments: many games between seat controllers, summarised with confidence intervals.

- :mod:`.game`: one game (its seed from the tournament seed and its index; a duplicate deal's copies);
- :mod:`.totals`: running totals that every game is added to, mergeable in any order;
- :mod:`.runner`: chunks of games on this process, worker processes, or Dask
  (``spades_cli.workers``);
- :mod:`.report`: the JSON (read and written) and the text summary.

``run_tournament`` returns a :class:`Summary`; the commands are ``cmd_simulate`` and
``cmd_merge``.
"""

from __future__ import annotations

from spades_cli.engine import Rules
from spades_cli.errors import UsageError
from spades_cli.simulate.game import (
    MAX_HANDS,
    GameJob,
    GameRecord,
    Settings,
    Tournament,
    exchange_sides,
    game_seed,
    jobs_for,
    play_game,
)
from spades_cli.simulate.report import (
    TIMING_FIELDS,
    Summary,
    differences,
    format_summary,
    merge_summaries,
    read_summary,
    team_names,
)
from spades_cli.simulate.runner import Interrupted, Progress, backend_for, play, shard_range
from spades_cli.simulate.stats import Interval, mean_ci, wilson
from spades_cli.simulate.totals import Totals

__all__ = [
    "MAX_HANDS",
    "TIMING_FIELDS",
    "GameJob",
    "GameRecord",
    "Interrupted",
    "Interval",
    "Settings",
    "Summary",
    "Totals",
    "Tournament",
    "differences",
    "exchange_sides",
    "format_summary",
    "game_seed",
    "jobs_for",
    "mean_ci",
    "merge_summaries",
    "play_game",
    "read_summary",
    "run_tournament",
    "team_names",
    "wilson",
]


def run_tournament(
    rules: Rules,
    labels: tuple[str, ...],
    games: int,
    seed: int,
    *,
    jobs: int = 1,
    duplicate: bool = False,
    max_hands: int = MAX_HANDS,
    transcript_dir: str | None = None,
    rules_source: str | None = None,
    overrides: tuple[str, ...] = (),
    progress: Progress | None = None,
    bot_timeout: float | None = None,
    on_failure: str | None = None,
    shard: tuple[int, int] | None = None,
    resume: Summary | None = None,
    scheduler: str | None = None,
) -> Summary:
    """Play the tournament (or shard ``K/N`` of it, or what ``resume`` has not played yet)
    in ``jobs`` worker processes, or on the Dask ``scheduler``, and summarise it.

    Raises :class:`Interrupted` (with the totals so far) on Ctrl-C or SIGTERM, UsageError
    when ``resume`` is another tournament, SpadesError when a game cannot be played."""
    settings = Settings(
        Tournament(rules, labels, games, seed, duplicate, max_hands),
        transcript_dir=transcript_dir,
        rules_source=rules_source,
        overrides=overrides,
        bot_timeout=bot_timeout,
        on_failure=on_failure,
    )
    if resume is not None:
        diff = differences(settings.tournament, resume.tournament)
        if diff:
            raise UsageError(f"--resume-from is another tournament: {'; '.join(diff)}")
    lo, hi = shard_range(games, shard)
    backend = backend_for(settings, jobs, hi - lo, scheduler)
    return play(settings, backend, shard=shard, resume=resume, progress=progress)
