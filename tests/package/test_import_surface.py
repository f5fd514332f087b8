"""What `import anvia_nb` costs and exposes, checked in a fresh process.

Starting an interpreter that loads the SDK costs seconds, so one process answers every question
here, in the order a user meets them: each step only adds imports, and what is loaded is noted
after each. A step that must load nothing heavy therefore also proves it of the steps before it.
(Loading the IPython extension without the SDK needs the opposite order: test_import_cost.py.)
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import anvia_nb
from tests.helpers.package_source import tree

HEAVY = ("IPython", "ipywidgets", "pandas", "mcp", "mcp_types", "jsonschema", "httpx2")
STEPS = {
    "package": "import anvia_nb",
    "errors": "from anvia_nb import ToolResultError, AnviaError",
    "first use": "from anvia_nb import connect_mcp, mcp",
}


@pytest.fixture(scope="module")
def loaded() -> dict[str, set[str]]:
    """The top-level modules loaded after each step of ``STEPS``, run one after the other."""
    note = "print(json.dumps(sorted({name.split('.')[0] for name in sys.modules})))"
    script = "\n".join(["import json, sys", *(f"{code}\n{note}" for code in STEPS.values())])
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    found = [set(json.loads(line)) for line in done.stdout.splitlines() if line.startswith("[")]
    assert len(found) == len(STEPS), done.stdout[-2000:]
    return dict(zip(STEPS, found, strict=True))


@pytest.mark.slow  # a fresh interpreter (the module's one)
def test_importing_the_package_loads_no_jupyter_pandas_or_sdk(loaded: dict[str, set[str]]) -> None:
    assert not loaded["package"] & set(HEAVY)


@pytest.mark.slow  # a fresh interpreter (the module's one)
def test_the_error_tree_is_importable_without_the_sdk(loaded: dict[str, set[str]]) -> None:
    assert "mcp" not in loaded["errors"]


@pytest.mark.slow  # a fresh interpreter (the module's one)
def test_first_use_of_the_api_loads_the_sdk_but_not_jupyter(loaded: dict[str, set[str]]) -> None:
    assert "mcp" in loaded["first use"]
    assert not loaded["first use"] & {"IPython", "ipywidgets", "pandas"}


def test_every_public_name_resolves_and_errors_are_one_tree() -> None:
    for name in anvia_nb.__all__:
        assert getattr(anvia_nb, name) is not None, name
    errors = [getattr(anvia_nb, n) for n in anvia_nb.__all__ if n.endswith("Error")]
    assert errors
    assert all(issubclass(e, anvia_nb.AnviaError) for e in errors)
    assert issubclass(anvia_nb.ArgumentError, TypeError)


def _top_level_names(body: list[ast.stmt]) -> set[str]:
    """The names a module's top level binds, in ``if``/``try`` blocks too."""
    names: set[str] = set()
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for target in targets for t in ast.walk(target) if isinstance(t, ast.Name))
        elif isinstance(node, ast.If | ast.Try):
            names |= _top_level_names(node.body + node.orelse)
            for handler in getattr(node, "handlers", []):
                names |= _top_level_names(handler.body)
    return names


def test_every_module_says_its_public_names_in_all() -> None:
    """Each module of the package has a literal ``__all__`` (``[]`` for a package with nothing of its
    own), and each name in it is bound at the module's top level. Read from the source with ``ast``."""
    package = Path(anvia_nb.__file__).parent
    found: list[str] = []
    modules = sorted(package.rglob("*.py"))
    for path in modules:
        name = str(path.relative_to(package))
        module = tree(path)
        listed = [
            node.value
            for node in module.body
            if isinstance(node, ast.Assign | ast.AnnAssign) and "__all__" in _top_level_names([node])
        ]
        if not listed or not isinstance(listed[0], ast.List | ast.Tuple):
            found.append(f"{name}: no literal __all__")
            continue
        missing = {str(e.value) for e in listed[0].elts if isinstance(e, ast.Constant)} - _top_level_names(module.body)
        found += [f"{name}: __all__ names {n!r}, which it does not bind" for n in sorted(missing)]
    assert found == [], f"{len(found)} problems in {len(modules)} modules:\n" + "\n".join(found)
