"""docs/internals.md's module table is true: every part of the package has a row, and each
part imports only the project parts and third-party packages its row allows."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest
from helpers.paths import ROOT

PACKAGE = ROOT / "spades_cli"
DOC = ROOT / "docs" / "internals.md"
STDLIB = set(sys.stdlib_module_names)
CLI = re.compile(r"^(cli|cli_options|cmd_\w+)$")
ROW = re.compile(r"^\| (`spades_cli/[^|]*) \| [^|]* \| ([^|]*) \|$", re.M)
PART = re.compile(r"`spades_cli/([a-z_0-9]+)(?:/|\.py)`")
WORD = re.compile(r"[a-z_0-9]+")


def _part_of(path: Path) -> str:
    rel = path.relative_to(PACKAGE)
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def _parts() -> set[str]:
    names = {_part_of(p) for p in PACKAGE.rglob("*.py")}
    return {n for n in names if n not in ("__init__", "__main__") and not CLI.match(n)}


def _rows() -> dict[str, set[str]]:
    rows: dict[str, set[str]] = {}
    for parts, allowed in ROW.findall(DOC.read_text(encoding="utf-8")):
        for part in PART.findall(parts):
            rows[part] = set(WORD.findall(allowed))
    return rows


def _imports(part: str) -> tuple[set[str], set[str]]:
    """The project parts and the third-party packages that ``part``'s modules import."""
    project: set[str] = set()
    third: set[str] = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        if _part_of(path) != part:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue  # relative imports stay inside the part
            for name in names:
                top, _, rest = name.partition(".")
                if top == "spades_cli":
                    if rest:
                        project.add(rest.split(".")[0])
                elif top not in STDLIB:
                    third.add(top)
    project.discard(part)
    return project, third


def test_every_part_of_the_package_has_a_row() -> None:
    assert sorted(_parts() - set(_rows())) == []


@pytest.mark.parametrize("part", sorted(_parts()))
def test_a_part_imports_only_what_its_row_allows(part: str) -> None:
    allowed = _rows().get(part, set())
    if "everything" in allowed:
        return
    project, third = _imports(part)
    unnamed = sorted((project | third) - allowed)
    assert unnamed == [], f"{part} imports {unnamed}, which its row in docs/internals.md does not allow"
