"""Who may import whom: the layer table and the library table of docs/architecture.md, checked
against the real imports of the package.

An import is any of them (package_source.py): module level, inside a function, under
``TYPE_CHECKING``, or a module name handed to ``importlib``. The tables are read from the doc,
so the doc cannot say one thing while the code does another.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

from tests.helpers.package_source import (
    REPO,
    Import,
    code_spans,
    imports_of,
    modules,
    paths_to_units,
    section,
    table_rows,
    third_party_imports,
)

ARCHITECTURE = REPO / "docs" / "architecture.md"

# Upward imports being removed right now; each is (importer, the unit it reaches).


def _layers() -> list[tuple[int, list[str]]]:
    text = section(ARCHITECTURE, "## The layers")
    return [(int(row[0]), paths_to_units(row[1])) for row in table_rows(text, "layer")]


def _matches(module: str, unit: str) -> bool:
    if unit.endswith("/"):
        return module == unit[:-1] or module.startswith(unit[:-1] + ".")
    return module == unit


def unit_of(module: str, layers: list[tuple[int, list[str]]]) -> tuple[int, str] | None:
    """The layer and table entry a module belongs to (the longest entry that holds it)."""
    found = [(len(unit), rank, unit) for rank, units in layers for unit in units if _matches(module, unit)]
    return (max(found)[1], max(found)[2]) if found else None


def upward_imports(
    importer: str, found: Iterable[Import], layers: list[tuple[int, list[str]]]
) -> list[tuple[str, str, int]]:
    """Every import of ``importer`` that reaches a layer above its own: (importer, unit, line)."""
    own = unit_of(importer, layers)
    assert own is not None, f"{importer} is in no layer of docs/architecture.md"
    upward = []
    for each in found:
        target = unit_of(each.target, layers)
        if target is not None and target[0] > own[0]:
            upward.append((importer, target[1], each.line))
    return upward


def _layered_modules() -> dict[str, Path]:
    return {name: path for name, path in modules().items() if not name.startswith("anvia_nb.demo_server")}


def test_the_layer_table_is_read_bottom_up_and_places_every_module() -> None:
    layers = _layers()
    assert [rank for rank, _ in layers] == list(range(len(layers)))
    assert all(units for _, units in layers)
    unplaced = [name for name in _layered_modules() if unit_of(name, layers) is None]
    assert unplaced == []


def test_no_module_imports_a_layer_above_its_own() -> None:
    layers = _layers()
    known = modules()
    upward = [
        found
        for name, path in _layered_modules().items()
        for found in upward_imports(name, imports_of(path, known), layers)
    ]
    assert upward == []


def test_the_check_finds_an_upward_import_of_every_kind(tmp_path: Path) -> None:
    """The check above can fail: a core module reaching the magic, each way it could."""
    layers = _layers()
    sources = {
        "module level": "import anvia_nb.magic.output.tables\n",
        "in a function": "def f():\n    from anvia_nb.widgets import form\n",
        "TYPE_CHECKING": "import typing\nif typing.TYPE_CHECKING:\n    from anvia_nb.runtime import Runtime\n",
        "importlib": "import importlib\ndef f():\n    return importlib.import_module('anvia_nb.frames')\n",
    }
    probe = "anvia_nb.core.protocol.probe"
    for how, source in sources.items():
        path = tmp_path / f"{how.replace(' ', '_')}.py"
        path.write_text(source)
        assert upward_imports(probe, imports_of(path, as_module=probe), layers), how


def test_runtime_and_display_never_import_each_other() -> None:
    known = modules()
    for low, other in (("anvia_nb.runtime", "anvia_nb.display"), ("anvia_nb.display", "anvia_nb.runtime")):
        for name, path in known.items():
            if name == low or name.startswith(low + "."):
                reached = [i for i in imports_of(path, known) if i.target == other or i.target.startswith(other + ".")]
                assert reached == [], name


def test_the_demo_server_imports_only_itself_the_version_and_the_schema_import() -> None:
    known = modules()
    outside = {
        i.target
        for name, path in known.items()
        if name.startswith("anvia_nb.demo_server")
        for i in imports_of(path, known)
        if not i.target.startswith("anvia_nb.demo_server")
    }
    assert outside == {"anvia_nb._version", "anvia_nb.core.protocol.versions", "anvia_nb.core.protocol.schema"}


def test_no_import_cycle_among_the_magic_modules() -> None:
    """No module of the magic imports, in any way, one that imports it back: no import inside a
    function is there to dodge a cycle. (The package ``anvia_nb.magic`` itself is left out: Python
    runs it before any of its modules, whoever imports them.)"""
    known = modules()
    graph = {
        name: {i.target for i in imports_of(path, known) if i.target.startswith("anvia_nb.magic.")}
        for name, path in known.items()
        if name.startswith("anvia_nb.magic.")
    }
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, " -> ".join([*path[path.index(name) :], name])
        if name in done:
            return
        for target in sorted(graph.get(name, ())):
            visit(target, (*path, name))
        done.add(name)

    for name in sorted(graph):
        visit(name, ())


def _library_rows() -> list[tuple[list[str], list[str]]]:
    rows = table_rows(section(ARCHITECTURE, "## The layers"), "library")
    return [(code_spans(row[0]), paths_to_units(row[1])) for row in rows]


def test_each_library_is_imported_exactly_where_the_library_table_says() -> None:
    """Every module importing a library of a row is in that row's places, and every place holds one."""
    rows = _library_rows()
    named = {library for libraries, _ in rows for library in libraries}
    assert {"mcp", "mcp_types", "pandas", "ipywidgets", "IPython", "jsonschema", "traitlets"} <= named
    imported = {name: third_party_imports(path) for name, path in _layered_modules().items()}
    for libraries, places in rows:
        importers = [name for name, found in imported.items() if found & set(libraries)]
        assert [m for m in importers if not any(_matches(m, p) for p in places)] == [], libraries
        assert [p for p in places if not any(_matches(m, p) for m in importers)] == [], libraries


def test_every_library_the_package_imports_is_in_the_library_table() -> None:
    named = {library for libraries, _ in _library_rows() for library in libraries}
    imported = {
        library
        for path in _layered_modules().values()
        for library in third_party_imports(path)
        if library not in sys.stdlib_module_names and library not in ("anvia_nb", "__future__")
    }
    assert imported - named == set()
