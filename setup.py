"""Build hook: compile the rules engine and the bots' hot paths with mypyc when available,
and the double-dummy search core of hindsight analysis (``solver/_ddcore.c``).

The engine is plain, fully typed Python (it passes ``mypy --strict``); compiling it
with mypyc makes random play and bot search faster (bench/README.md). If mypyc or a C
compiler is missing, or ``SPADES_PURE_PYTHON=1`` is set, or the install is editable, the package installs as
pure Python and behaves the same, only slower. The C search core is optional in the same
way (``analyze`` then uses the Python solver, which finds the same values more slowly).
"""

import os
import platform
import sys

from setuptools import Extension, setup

# rules.py stays interpreted: the presets schema reads its dataclass type hints; so does
# phases.py (an IntEnum: the compiled code compares the plain integers behind it).
ENGINE = [
    "spades_cli/engine/actions.py",
    "spades_cli/engine/bidding.py",
    "spades_cli/engine/cards.py",
    "spades_cli/engine/chance.py",
    "spades_cli/engine/declare.py",
    "spades_cli/engine/illegal.py",
    "spades_cli/engine/ledger.py",
    "spades_cli/engine/observation.py",
    "spades_cli/engine/plan.py",
    "spades_cli/engine/play.py",
    "spades_cli/engine/scoring.py",
    "spades_cli/engine/state.py",
]
# The double-dummy solver (Python side; the C core is built below).
SOLVER = [
    "spades_cli/solver/search.py",
    "spades_cli/solver/sets.py",
    "spades_cli/solver/sure.py",
    "spades_cli/solver/table.py",
]
# The search bots' hot paths: hand evaluation, reading the table, sampling the hidden
# cards and the rollout policy (hard spends nearly all its time here). normal.py, easy.py
# and hard.py stay interpreted; the compiled and the pure builds play the same moves.
BOTS = [
    "spades_cli/bots/determinize.py",
    "spades_cli/bots/hand.py",
    "spades_cli/bots/rollout.py",
    "spades_cli/bots/view.py",
]


def _extensions() -> list:
    if os.environ.get("SPADES_PURE_PYTHON") == "1":
        return []
    if {"editable_wheel", "develop"} & set(sys.argv):
        return []  # editable installs run the .py files, so edits take effect at once
    try:
        from mypyc.build import mypycify
    except ImportError:
        return []
    try:
        return mypycify(ENGINE + SOLVER + BOTS, opt_level="3")
    except Exception as exc:  # a missing compiler or mypy problem: fall back to pure Python
        print(f"spades: building the engine as pure Python ({exc})")
        return []


def _search_core() -> list:
    """The C double-dummy search (optional: a failed build leaves the Python solver)."""
    if os.environ.get("SPADES_PURE_PYTHON") == "1":
        return []
    flags = ["-O3"] if os.name != "nt" else ["/O2"]
    if os.name != "nt" and platform.machine().lower() in ("x86_64", "amd64"):
        flags.append("-mpopcnt")  # every x86-64 processor since 2008 has the instruction
    parts = ["moves", "table", "sure", "search"]  # included by _ddcore.c, in this order
    return [
        Extension(
            "spades_cli.solver._ddcore",
            ["spades_cli/solver/_ddcore.c"],
            depends=[f"spades_cli/solver/_ddcore_{p}.h" for p in parts],
            extra_compile_args=flags,
            optional=True,
        )
    ]


setup(ext_modules=_extensions() + _search_core())
