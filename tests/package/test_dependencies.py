"""Every third-party package that anvia_nb imports is declared in pyproject.toml, and every declared
dependency is imported: read from the code (every import statement, at any depth, and
``importlib.import_module("name")`` with a literal name), so the list cannot drift from it."""

from __future__ import annotations

import ast
import functools
import importlib.metadata
import re
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "anvia_nb"


def _pyproject() -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib  # the test extra's, before Python 3.11
    with (REPO / "pyproject.toml").open("rb") as file:
        data: dict[str, Any] = tomllib.load(file)
    return data


def _normalized(name: str) -> str:
    """A distribution's name as PEP 503 compares it."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirement_name(requirement: str) -> str:
    """``"dask[dataframe]>=2024.8; python_version < '3.11'"`` -> ``"dask"``."""
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    assert match, requirement
    return _normalized(match.group(1))


def imported_top_names() -> dict[str, str]:
    """The top-level module names imported anywhere in anvia_nb, each with one place that imports it."""
    found: dict[str, str] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        where = str(path.relative_to(REPO))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), where)):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "import_module"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                names = [node.args[0].value]
            for name in names:
                found.setdefault(name.split(".")[0], f"{where}:{getattr(node, 'lineno', 0)}")
    return found


def third_party_imports() -> dict[str, str]:
    return {
        name: where
        for name, where in imported_top_names().items()
        if name not in sys.stdlib_module_names and name != "anvia_nb"
    }


@functools.cache
def distributions(module: str) -> frozenset[str]:
    """The distributions that install top-level ``module`` here; a module not installed (e.g.
    ``exceptiongroup`` on Python 3.11+) is taken to be its own distribution's name."""
    installed = importlib.metadata.packages_distributions().get(module) or [module]
    return frozenset(_normalized(name) for name in installed)


def declared() -> tuple[set[str], set[str]]:
    """(the names in [project.dependencies], the names in every extra)."""
    project = _pyproject()["project"]
    required = {_requirement_name(item) for item in project["dependencies"]}
    extras = {_requirement_name(item) for items in project.get("optional-dependencies", {}).values() for item in items}
    return required, extras


def test_the_scan_sees_imports_at_every_depth() -> None:
    found = imported_top_names()
    assert "mcp" in found  # module level
    assert "referencing" in found  # only inside functions (core/protocol/schema.py)
    assert "regex" in found  # only through importlib.import_module("regex")
    assert "exceptiongroup" in found  # only under `if sys.version_info < (3, 11)`


def test_every_imported_third_party_package_is_declared() -> None:
    required, extras = declared()
    missing = {
        f"{module} ({where}) from {' or '.join(sorted(distributions(module)))}"
        for module, where in third_party_imports().items()
        if not distributions(module) & (required | extras)
    }
    assert not missing, f"imported but not declared in pyproject.toml: {sorted(missing)}"


def test_every_required_dependency_is_imported() -> None:
    required, _ = declared()
    imported = set().union(*(distributions(module) for module in third_party_imports()))
    assert required - imported == set(), "declared in [project.dependencies] but never imported"


def test_the_test_extra_is_composed_from_the_other_extras() -> None:
    # The test extra names the others (anvia_nb[lab,dashboard,dask]) rather than copying their lists,
    # so a package added to an extra is tested without a second edit that could be forgotten.
    extras = _pyproject()["project"]["optional-dependencies"]
    others = set(extras) - {"test"}
    composed = [item for item in extras["test"] if _requirement_name(item) == "anvia-nb"]
    assert len(composed) == 1, "the test extra should name the others once: anvia_nb[...]"
    named = re.search(r"\[(.*)\]", composed[0])
    assert named is not None and {name.strip() for name in named.group(1).split(",")} == others
    copied = {_requirement_name(item) for name in others for item in extras[name]} & {
        _requirement_name(item) for item in extras["test"]
    }
    assert copied == set(), "listed in the test extra and in another: name the extra instead"


def test_the_lab_environment_runs_the_file_history_to_pytest_writes() -> None:
    # `%mcp history --to-pytest FILE` prints `python -m pytest ... FILE`: the environment scripts/lab
    # makes (the lab extra) must have pytest, or the printed command fails with "No module named pytest".
    lab = {_requirement_name(item) for item in _pyproject()["project"]["optional-dependencies"]["lab"]}
    assert "pytest" in lab
