"""The house's bounds, read from the source: module and function sizes, thin commands,
and which layer may import what (the table in docs/internals.md says the same in prose)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest
from helpers.paths import ROOT

PACKAGE = ROOT / "spades_cli"
MAX_MODULE, MAX_FUNCTION, MAX_COMMAND = 800, 80, 200
STDLIB = set(sys.stdlib_module_names)
CLI_FILES = {"cli.py", "cli_options.py"}

# A layer (a subpackage of spades_cli): the project packages its modules may import (with
# everything below them) and the modules it may import exactly, besides the standard library.
LAYERS: dict[str, tuple[set[str], set[str]]] = {
    "engine": ({"spades_cli.engine"}, set()),
    "solver": ({"spades_cli.engine", "spades_cli.solver"}, set()),
    "bots": ({"spades_cli.engine", "spades_cli.solver", "spades_cli.bots"}, {"spades_cli"}),
}


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _imports(path: Path, tree: ast.AST) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module:
                found.add(node.module)
            elif node.level:
                base = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)[: -node.level]
                found.add(".".join(base + ([node.module] if node.module else [])))
    return found


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


@pytest.mark.parametrize("path", _modules(), ids=_rel)
def test_layer_imports(path: Path) -> None:
    imports = _imports(path, ast.parse(path.read_text(encoding="utf-8")))
    tops = {name.split(".")[0] for name in imports}
    parts = path.relative_to(PACKAGE).parts
    layer = parts[0] if len(parts) > 1 else ""
    in_cli = path.name.startswith("cmd_") or path.name in CLI_FILES or layer == "cli"
    assert in_cli or "click" not in tops, f"{_rel(path)} imports click outside the CLI layer"
    if layer in LAYERS:
        packages, exact = LAYERS[layer]
        bad = sorted(
            name
            for name in imports
            if name.split(".")[0] not in STDLIB
            and name not in exact
            and not any(name == p or name.startswith(p + ".") for p in packages)
        )
        assert bad == [], f"{_rel(path)} ({layer}) imports {bad}"


def test_transcript_is_a_package() -> None:
    assert (PACKAGE / "transcript" / "__init__.py").is_file()
    assert not (PACKAGE / "transcript.py").exists()
