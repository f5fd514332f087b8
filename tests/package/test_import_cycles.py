"""No import made inside a function closes a cycle: a late import is for a heavy library (the SDK,
pandas, ipywidgets) or an optional one, never a way round two modules that need each other."""

from __future__ import annotations

import ast
from collections.abc import Mapping

from tests.helpers.package_source import modules, tree

Graph = Mapping[str, Mapping[str, bool]]
"""importer -> {imported module: whether some import of it is made inside a function}."""


def _nearest(name: str, known: Mapping[str, object]) -> str:
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name


def _graph() -> dict[str, dict[str, bool]]:
    known = modules()
    graph: dict[str, dict[str, bool]] = {name: {} for name in known}

    def visit(importer: str, node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            late = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            targets: list[str] = []
            if isinstance(child, ast.ImportFrom) and child.level == 0 and (child.module or "").startswith("anvia_nb"):
                targets = [_nearest(f"{child.module}.{alias.name}", known) for alias in child.names]
            elif isinstance(child, ast.Import):
                targets = [_nearest(alias.name, known) for alias in child.names if alias.name.startswith("anvia_nb")]
            for target in targets:
                if target and target != importer and not importer.startswith(target + "."):
                    graph[importer][target] = graph[importer].get(target, False) or late
            visit(importer, child, late)

    for name, path in known.items():
        visit(name, tree(path), False)
    return graph


def _reaches(graph: Graph, start: str, goal: str) -> bool:
    seen, todo = {start}, [start]
    while todo:
        here = todo.pop()
        if here == goal:
            return True
        for there in graph.get(here, {}):
            if there not in seen:
                seen.add(there)
                todo.append(there)
    return False


def late_cycles(graph: Graph) -> list[str]:
    """``a -> b`` for each import of ``b`` inside a function of ``a`` where ``b`` leads back to ``a``."""
    return [
        f"{importer} -> {target}"
        for importer, targets in sorted(graph.items())
        for target, late in sorted(targets.items())
        if late and _reaches(graph, target, importer)
    ]


def test_no_import_inside_a_function_closes_a_cycle() -> None:
    graph = _graph()
    assert "anvia_nb.core.api.tool" in graph["anvia_nb.core.api.server"]  # the graph is read, not empty
    assert late_cycles(graph) == []


def test_the_check_finds_a_cycle_closed_late() -> None:
    graph = {"a": {"b": False}, "b": {"c": False}, "c": {"a": True}, "d": {"a": True}}
    assert late_cycles(graph) == ["c -> a"]
