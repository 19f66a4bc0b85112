"""The house's bounds, read from the source: module and function sizes, thin commands.
Which layer may import what is checked by ``lint-imports`` (the contracts in pyproject's
``[tool.importlinter]``), and import cycles by test_import_cycles."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from helpers.paths import ROOT

PACKAGE = ROOT / "spades_cli"
MAX_MODULE, MAX_FUNCTION, MAX_COMMAND = 800, 80, 200


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _rel(path: Path) -> str:
    return path.relative_to(PACKAGE.parent).as_posix()


@pytest.mark.parametrize("path", _modules(), ids=_rel)
def test_module_and_function_sizes(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    lines = text.count("\n") + 1
    assert lines <= MAX_MODULE, f"{_rel(path)}: {lines} lines"
    if path.name.startswith("cmd_"):
        assert lines <= MAX_COMMAND, f"{_rel(path)}: a command module of {lines} lines"
    long = [
        f"{node.name} ({(node.end_lineno or node.lineno) - node.lineno + 1} lines)"
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and (node.end_lineno or node.lineno) - node.lineno + 1 > MAX_FUNCTION
    ]
    assert long == [], f"{_rel(path)}: {long}"


def test_transcript_is_a_package() -> None:
    assert (PACKAGE / "transcript" / "__init__.py").is_file()
    assert not (PACKAGE / "transcript.py").exists()
