"""A test's per-test limit (pytest-timeout's ``timeout`` in pyproject.toml) is never shorter than the
bound it gives a process it runs: otherwise a busy machine ends the test at the per-test limit, a
wall-clock assertion in disguise, while the process was still within its own bound."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from tests.helpers.support import REPO


def _per_test_limit() -> float:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib  # the test extra's, before Python 3.11
    with (REPO / "pyproject.toml").open("rb") as file:
        return float(tomllib.load(file)["tool"]["pytest"]["ini_options"]["timeout"])


def _long_bounds(path: Path, limit: float) -> list[str]:
    """The module's constants named ``*_SECONDS`` at or above ``limit``."""
    found = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            try:
                value = ast.literal_eval(node.value)
            except ValueError:
                continue
            if name.endswith("SECONDS") and isinstance(value, int | float) and value >= limit:
                found.append(f"{name} = {value}")
    return found


def test_a_module_bounding_a_process_past_the_per_test_limit_raises_its_limit() -> None:
    limit = _per_test_limit()
    unraised = [
        f"{path.relative_to(REPO)}: {', '.join(bounds)}"
        for path in sorted((REPO / "tests").rglob("test_*.py"))
        if (bounds := _long_bounds(path, limit)) and "pytest.mark.timeout(" not in path.read_text(encoding="utf-8")
    ]
    assert unraised == [], f"bounds past pytest-timeout's {limit:g} s with no pytest.mark.timeout: {unraised}"
