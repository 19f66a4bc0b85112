"""Every package of ``spades_cli`` is in pyproject's package list, so that a normal
install (``pip install .``, as CI's compiled build) ships it."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_package_is_installed() -> None:
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for p in (ROOT / "spades_cli").rglob("__init__.py")
        if "__pycache__" not in p.parts
    }
    assert found - listed == set()
