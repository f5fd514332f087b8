"""core/api's modules depend on one another in one direction only: the import graph, read from the
source with ``ast`` (imports at module level, inside functions, under ``if TYPE_CHECKING`` and by
``importlib.import_module("...")``), has no cycle; ``server.py`` is imported by none of them; and
every import of a sibling is a plain module-level one, so none is put off to dodge a cycle."""

from __future__ import annotations

import ast
from pathlib import Path

import anvia_nb.core.api

PACKAGE = "anvia_nb.core.api"
FOLDER = Path(anvia_nb.core.api.__file__).parent


def _imported(node: ast.AST, module: str) -> list[str]:
    """The modules of ``PACKAGE`` that one import statement (or ``import_module`` call) names."""
    names: list[str] = []
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    elif isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            parts = module.split(".")[: -node.level]
            base = ".".join([*parts, *([base] if base else [])])
        names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
    elif (
        isinstance(node, ast.Call)
        and getattr(node.func, "attr", getattr(node.func, "id", None)) == "import_module"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        names = [node.args[0].value]
    modules = {f"{PACKAGE}.{path.stem}" for path in FOLDER.glob("*.py") if path.stem != "__init__"}
    return sorted({name for name in names if name in modules and name != module})


Graph = dict[str, dict[str, list[tuple[int, bool]]]]


def _edges() -> Graph:
    """For each module, the sibling modules it imports, with the line of each import and whether
    it is a plain statement of the module's own body."""
    graph: Graph = {}
    for path in sorted(FOLDER.glob("*.py")):
        module = f"{PACKAGE}.{path.stem}"
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        top = {id(node) for node in tree.body}
        found: dict[str, list[tuple[int, bool]]] = {}
        for node in ast.walk(tree):
            for target in _imported(node, module):
                found.setdefault(target, []).append((getattr(node, "lineno", 0), id(node) in top))
        graph[module] = found
    return graph


def _cycle(graph: Graph) -> list[str] | None:
    """One cycle of the graph as the modules along it, or ``None``."""
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = "open"
        path.append(module)
        for target in graph.get(module, {}):
            if state.get(target) == "open":
                return [*path[path.index(target) :], target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        path.pop()
        state[module] = "done"
        return None

    for module in graph:
        if module not in state:
            found = visit(module)
            if found:
                return found
    return None


def test_the_reader_sees_every_kind_of_import() -> None:
    source = (
        "import anvia_nb.core.api.tool\n"
        "from anvia_nb.core.api import features\n"
        "from . import batch\n"
        "if TYPE_CHECKING:\n    from anvia_nb.core.api.server import McpServer\n"
        "def later():\n    from anvia_nb.core.api.tasks import BackgroundCall\n"
        "    importlib.import_module('anvia_nb.core.api.changes')\n"
    )
    seen = {name for node in ast.walk(ast.parse(source)) for name in _imported(node, f"{PACKAGE}.x")}
    assert seen == {f"{PACKAGE}.{name}" for name in ("tool", "features", "batch", "server", "tasks", "changes")}


def test_core_api_has_no_import_cycle() -> None:
    graph = _edges()
    assert f"{PACKAGE}.tool" in graph[f"{PACKAGE}.server"]  # the graph is read, not empty
    cycle = _cycle(graph)
    assert cycle is None, "core/api imports in a cycle: " + " -> ".join(cycle or [])


def test_no_module_of_core_api_depends_back_on_the_server() -> None:
    importers = [module for module, targets in _edges().items() if f"{PACKAGE}.server" in targets]
    assert importers == []


def test_siblings_are_imported_at_module_level_only() -> None:
    late = [
        f"{module}:{line} imports {target}"
        for module, targets in _edges().items()
        for target, places in targets.items()
        for line, at_top in places
        if not at_top
    ]
    assert late == []
