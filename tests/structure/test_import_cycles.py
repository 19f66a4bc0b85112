"""No import cycle in the package, lazy imports included: neither between modules nor
between the package's top-level parts (``spades_cli.game``, ``spades_cli.protocol``, ...).
Each cycle is named as the path of imports that closes it, with the whole group of
modules (or parts) that import each other."""

from __future__ import annotations

from helpers.imports import cycles, imported, module_graph, part_graph

MODULES = {"p", "p.a", "p.b", "p.sub", "p.sub.c"}


def _named(found: list[tuple[list[str], list[str]]]) -> str:
    return "\n".join(f"{' -> '.join(path)}   (the group: {', '.join(group)})" for path, group in found)


def test_the_finder_names_each_cycle_and_its_group() -> None:
    graph = {
        "a": {"b"},
        "b": {"c", "x"},
        "c": {"a", "d", "b"},
        "d": set(),
        "e": {"d"},
        "x": {"y"},
        "y": {"x"},
    }
    assert cycles(graph) == [(["a", "b", "c", "a"], ["a", "b", "c"]), (["x", "y", "x"], ["x", "y"])]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_lazy_relative_and_type_checking_imports_count() -> None:
    source = """
from typing import TYPE_CHECKING
from . import b
from .sub import c
if TYPE_CHECKING:
    from p import thing
def later():
    import p.sub
    from ..outside import x
"""
    assert imported(source, "p.a", MODULES) == {"p.b", "p.sub.c", "p", "p.sub"}
    assert imported("from .a import f\nfrom . import b", "p", MODULES, is_package=True) == {"p.a", "p.b"}


def test_the_package_s_graph_is_read_whole() -> None:
    graph = module_graph()
    assert {"spades_cli.engine.state", "spades_cli.cli.main", "spades_cli.errors"} <= set(graph)
    assert "spades_cli.engine.state" in graph["spades_cli.engine"]  # from .state import ...
    assert part_graph({"spades_cli.a.x": {"spades_cli.b.y", "spades_cli.a.z"}}) == {
        "spades_cli.a": {"spades_cli.b"}
    }


def test_no_cycle_between_modules() -> None:
    found = cycles(module_graph())
    assert not found, "import cycles between modules:\n" + _named(found)


def test_no_cycle_between_the_parts_of_the_package() -> None:
    found = cycles(part_graph(module_graph()))
    assert not found, "import cycles between the package's parts:\n" + _named(found)
