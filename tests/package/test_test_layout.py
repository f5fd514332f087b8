"""The tests stand on their own: what they share is imported from one place, ``tests.helpers``; the
servers they start by path (``tests/servers/``) import nothing of the tests; no test imports
another test module or the benchmarks. The benchmarks may reuse ``tests.helpers``, nothing else of
the tests. Read from every import statement, at any depth. And no test runs an installer:
scripts/setup-test installs what they use."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TESTS = REPO / "tests"
HELPERS = "tests.helpers"


def imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every absolute import in ``path``."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


def local_names() -> set[str]:
    """The names a test module could import a sibling by (with its folder on ``sys.path``)."""
    return {path.stem for path in TESTS.rglob("*.py")} - {"__init__", "conftest"}


def is_helpers(module: str) -> bool:
    return module == HELPERS or module.startswith(HELPERS + ".")


def test_tests_import_only_tests_helpers_of_the_repository() -> None:
    siblings = local_names()
    wrong = []
    for path in sorted([*TESTS.rglob("*.py"), REPO / "notebooks" / "conftest.py"]):
        for line, module in imports(path):
            top = module.split(".")[0]
            if top == "benchmarks" or top in siblings or (top == "tests" and not is_helpers(module)):
                wrong.append(f"{path.relative_to(REPO)}:{line}: {module}")
    assert not wrong, "import from tests.helpers instead (or run the benchmarks as a process):\n" + "\n".join(wrong)


def test_servers_run_by_path_import_nothing_of_the_tests() -> None:
    siblings = local_names()
    wrong = [
        f"{path.relative_to(REPO)}:{line}: {module}"
        for path in sorted((TESTS / "servers").glob("*.py"))
        for line, module in imports(path)
        if module.split(".")[0] in (siblings | {"tests", "benchmarks"})
    ]
    assert not wrong, "\n".join(wrong)


def test_benchmarks_reuse_only_tests_helpers() -> None:
    siblings = local_names() - {path.stem for path in (REPO / "benchmarks").rglob("*.py")}
    wrong = [
        f"{path.relative_to(REPO)}:{line}: {module}"
        for path in sorted((REPO / "benchmarks").rglob("*.py"))
        for line, module in imports(path)
        if (module.split(".")[0] == "tests" and not is_helpers(module)) or module.split(".")[0] in siblings
    ]
    assert not wrong, "\n".join(wrong)


def test_the_helpers_are_a_package_and_the_servers_are_not_imported() -> None:
    assert (TESTS / "helpers" / "__init__.py").is_file()
    assert not (TESTS / "servers" / "__init__.py").exists()
    assert (TESTS / "servers").is_dir()


def installer_calls(path: Path) -> list[int]:
    """Lines of ``path`` with a command line (a list or tuple) holding the word ``install``."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path)))
        if isinstance(node, ast.List | ast.Tuple)
        and any(isinstance(item, ast.Constant) and item.value == "install" for item in node.elts)
    ]


def test_no_test_runs_an_installer() -> None:
    # scripts/setup-test installs and caches what the tests use; a test that installed would reach the
    # network in the middle of a run, and on every fresh machine.
    paths = sorted(TESTS.rglob("*.py"))
    found = [f"{path.relative_to(REPO)}:{line}" for path in paths for line in installer_calls(path)]
    assert found == []


def test_the_installer_check_finds_a_command_line_that_installs(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('import subprocess\nsubprocess.run([npm, "install", "--prefix", cache, package])\n')
    assert installer_calls(sample) == [2]
