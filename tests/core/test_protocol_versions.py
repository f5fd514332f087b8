"""Protocol versions live in one module: ``anvia_nb/core/protocol/versions.py``.

Its predicates say what a version can do; nothing else in the package writes a version string or
compares a session's ``protocol_version`` (the demo server asks the same predicates).
"""

from __future__ import annotations

import ast
import functools
import itertools
import re
from pathlib import Path

import pytest
from mcp_types.version import KNOWN_PROTOCOL_VERSIONS

import anvia_nb
from anvia_nb.core.protocol import versions
from anvia_nb.core.protocol.versions import (
    HANDSHAKE,
    MODERN,
    has_input_rounds,
    has_tasks_extension,
    listens,
    sends_log_level_per_request,
)

PACKAGE = Path(anvia_nb.__file__).parent
OWNER = Path(versions.__file__)
VERSION = re.compile(r"\b20[0-9]{2}-[01][0-9]-[0-3][0-9]\b")
"""A date-shaped protocol version (what every MCP version so far is)."""


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the module, class and function docstrings (prose, not values)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    # an attribute's docstring: a string statement right after an assignment
    for node in ast.walk(tree):
        for body in (getattr(node, "body", None), getattr(node, "orelse", None)):
            if not isinstance(body, list):
                continue
            for before, after in itertools.pairwise(body):
                assigned = isinstance(before, ast.Assign | ast.AnnAssign) and isinstance(after, ast.Expr)
                if assigned and isinstance(after.value, ast.Constant) and isinstance(after.value.value, str):
                    found.add(id(after.value))
    return found


def _is_version(text: str) -> bool:
    return text in KNOWN_PROTOCOL_VERSIONS or text in versions.PROTOCOLS


@functools.cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _version_literals(path: Path) -> list[str]:
    if not any(_is_version(match) for match in VERSION.findall(path.read_text(encoding="utf-8"))):
        return []  # not even in prose: nothing to parse
    tree = _tree(path)
    prose = _docstrings(tree)
    return [
        f"{path.name}:{node.lineno}: {node.value[:80]!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in prose
        and any(_is_version(match) for match in VERSION.findall(node.value))
    ]


def _version_comparisons(path: Path) -> list[str]:
    if "protocol_version" not in path.read_text(encoding="utf-8"):
        return []
    tree = _tree(path)
    return [
        f"{path.name}:{node.lineno}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Compare)
        and any(
            isinstance(side, ast.Attribute) and side.attr == "protocol_version"
            for side in (node.left, *node.comparators)
        )
    ]


def _sources() -> list[Path]:
    return sorted(path for path in PACKAGE.rglob("*.py") if path != OWNER)


def test_no_protocol_version_is_written_outside_versions_py() -> None:
    found = [f"{path.parent.name}/{line}" for path in _sources() for line in _version_literals(path)]
    assert found == [], "protocol versions belong in anvia_nb/core/protocol/versions.py:\n" + "\n".join(found)


def test_no_session_version_is_compared_outside_versions_py() -> None:
    found = [f"{path.parent.name}/{line}" for path in _sources() for line in _version_comparisons(path)]
    assert found == [], "ask a predicate of anvia_nb/core/protocol/versions.py instead:\n" + "\n".join(found)


def test_the_scan_finds_a_version_written_in_code(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    source = (
        '"""A docstring may say 2026-07-28."""\n'
        'LEVEL = "2025-06-18"\n'
        '"""So may an attribute\'s: 2025-11-25."""\n'
        "def late(session):\n"
        '    return session.protocol_version >= LEVEL or f"--protocol {LEVEL}|2026-07-28"\n'
    )
    sample.write_text(source, encoding="utf-8")
    assert _version_literals(sample) == ["sample.py:2: '2025-06-18'", "sample.py:5: '|2026-07-28'"]
    assert _version_comparisons(sample) == ["sample.py:5"]


@pytest.mark.parametrize("version", [MODERN])
def test_a_discovered_version_listens_and_has_tasks_input_rounds_and_per_request_log_levels(version: str) -> None:
    assert listens(version) and has_tasks_extension(version) and has_input_rounds(version)
    assert sends_log_level_per_request(version)


@pytest.mark.parametrize("version", [HANDSHAKE, "2025-06-18", "2024-11-05", "", None, "not-a-version"])
def test_a_handshake_or_unknown_version_does_none_of_that(version: str | None) -> None:
    assert not (listens(version) or has_tasks_extension(version) or has_input_rounds(version))
    assert not sends_log_level_per_request(version)
