"""``spades simulate --jobs 1`` keeps its memory flat: nothing a game leaves behind grows
with the number of games (issue 34: the bots' hand-value caches grew to 2 x 65,536
entries, 32 MB at 200 games to 71 MB at 4,000; the figures are in bench/README.md)."""

from __future__ import annotations

import importlib
import pkgutil
import random

from click.testing import CliRunner

import spades_cli
from spades_cli.bots import hand
from spades_cli.cli.main import main
from spades_cli.presets import load_rules
from spades_cli.simulate import Settings, Tournament
from spades_cli.simulate.totals import play_range

MAX_CACHE = 4096  # entries: a few hundred kB at most per cache


def _caches() -> list[tuple[str, int | None]]:
    found: dict[int, tuple[str, int | None]] = {}
    for info in pkgutil.walk_packages(spades_cli.__path__, "spades_cli."):
        if ".cli" in info.name or info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            params = getattr(value, "cache_parameters", None)
            if callable(params):
                found.setdefault(id(value), (f"{info.name}.{name}", params()["maxsize"]))
    return list(found.values())


def test_every_cache_of_the_package_is_bounded_and_small() -> None:
    caches = _caches()
    assert any(name.endswith("_spade_value") for name, _ in caches)
    too_big = [(name, size) for name, size in caches if size is None or size > MAX_CACHE]
    assert too_big == []


def test_the_hand_value_caches_key_only_the_cards_that_matter() -> None:
    """Normalising the out-of-play cards changes no value (so the bots bid as before)."""
    rng = random.Random(34)
    spade = hand._spade_value.__wrapped__
    side = hand._side_value.__wrapped__
    for _ in range(3000):
        bits, out, two = rng.getrandbits(13), rng.getrandbits(13) & rng.getrandbits(13), rng.random() < 0.5
        norm = hand._relevant(bits, out)
        assert spade(bits, out, two) == spade(bits, norm, two)
        assert side(bits, out, two) == side(bits, norm, two)


def test_games_fill_the_caches_no_further_than_their_bound() -> None:
    """R-2P-1: a short two-player tournament (normal against easy) leaves each cache at its bound."""
    t = Tournament(load_rules("two-player"), ("normal", "easy"), 40, 7)
    play_range(Settings(t), 0, 40)
    for cached in (hand._spade_value, hand._side_value):
        info = cached.cache_info()
        assert info.maxsize is not None and info.currsize <= info.maxsize <= MAX_CACHE


def test_one_game_is_one_game_not_one_games() -> None:
    """R-2P-1: the counts say "1 game" and "1 hand" (issue 34: "1 games")."""
    args = ["simulate", "--games", "1", "--rules", "two-player", "--seat", "N=easy", "--seat", "S=easy"]
    result = CliRunner().invoke(main, [*args, "-q"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("1 game of two-player (seed ")
    assert "1 games" not in result.output
