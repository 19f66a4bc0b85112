"""The presets package: its modules import one way, no private names, yaml in one module."""

from __future__ import annotations

import ast

from helpers.paths import ROOT

PACKAGE = ROOT / "spades_cli" / "presets"
# Each module may import only the ones before it.
ORDER = ["schema", "codec", "tree", "yaml_source", "shipped", "loader", "__init__"]


def _imports(module: str) -> list[ast.ImportFrom | ast.Import]:
    tree = ast.parse((PACKAGE / f"{module}.py").read_text())
    return [node for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)]


def test_every_module_is_in_the_order() -> None:
    assert sorted(p.stem for p in PACKAGE.glob("*.py")) == sorted(ORDER)


def test_the_modules_import_one_way_and_no_private_names() -> None:
    for i, module in enumerate(ORDER):
        for node in _imports(module):
            if not isinstance(node, ast.ImportFrom) or not (node.module or "").startswith(
                "spades_cli.presets"
            ):
                continue
            assert node.module != "spades_cli.presets", f"{module} imports the package's __init__"
            used = node.module.rsplit(".", 1)[-1]
            assert used in ORDER[:i], f"{module} imports {used}, which comes after it"
            assert not [a.name for a in node.names if a.name.startswith("_")], (
                f"{module} imports private names"
            )


def test_only_yaml_source_imports_yaml() -> None:
    importers = []
    for module in ORDER:
        for node in _imports(module):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            if any(n.split(".")[0] == "yaml" for n in names):
                importers.append(module)
    assert importers == ["yaml_source"]
