"""The import graph of ``spades_cli``, read from the source (nothing is imported).

Every ``import`` and ``from ... import`` statement counts wherever it is written: at the
top of a module, inside a function (a lazy import), under ``if TYPE_CHECKING:``. ``from P import
a, b`` is an import of P's modules ``P.a`` and ``P.b`` when they are modules, and of
``P`` itself (its ``__init__``) for a name that is not a module.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

from helpers.paths import ROOT

PACKAGE = ROOT / "spades_cli"
Graph = dict[str, set[str]]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(source: str, name: str, modules: set[str], *, is_package: bool = False) -> set[str]:
    """The modules of ``modules`` that the source of module ``name`` imports (not itself)."""
    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                origin = ".".join(base + ([node.module] if node.module else []))
            else:
                origin = node.module or ""
            for alias in node.names:
                sub = f"{origin}.{alias.name}"
                found.add(sub if sub in modules else origin)
    return {m for m in found if m in modules and m != name}


@cache
def module_graph() -> Graph:
    """Each module of the package and the project modules it imports (read once a run)."""
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {module_name(p) for p in paths}
    return {
        module_name(p): imported(
            p.read_text(encoding="utf-8"), module_name(p), modules, is_package=p.name == "__init__.py"
        )
        for p in paths
    }


def part(module: str) -> str:
    """The top-level part a module belongs to: ``spades_cli.game.run`` -> ``spades_cli.game``."""
    return ".".join(module.split(".")[:2])


def part_graph(graph: Graph) -> Graph:
    """The package's top-level parts and the other parts each one imports."""
    parts: Graph = {}
    for module, imported in graph.items():
        parts.setdefault(part(module), set()).update(part(m) for m in imported if part(m) != part(module))
    return parts


def cycles(graph: Graph) -> list[tuple[list[str], list[str]]]:
    """Each group of nodes that import each other (a strongly connected component of more
    than one node): one cycle through it, as the path ``[a, b, ..., a]``, and the group."""
    found = [(_shortest_cycle(graph, min(group), group), sorted(group)) for group in _components(graph)]
    return sorted(found)


def _components(graph: Graph) -> list[set[str]]:
    """Tarjan's strongly connected components of more than one node (iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.add(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(group)
    return groups


def _shortest_cycle(graph: Graph, start: str, group: set[str]) -> list[str]:
    """The shortest path from ``start`` back to itself inside ``group`` (breadth first)."""
    came: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for nxt in sorted(graph[node] & group):
                if nxt == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came[path[-1]])
                    return [*reversed(path), start]
                if nxt not in came:
                    came[nxt] = node
                    following.append(nxt)
        frontier = following
    raise AssertionError(f"no cycle through {start}")
