"""The tests stand on their own: what they share is imported from one place, ``tests.helpers``; the
servers they start by path (``tests/servers/``) import nothing of the tests; no test imports
another test module or the benchmarks. The benchmarks may reuse ``tests.helpers``, nothing else of
the tests. Read from every import statement, at any depth. And no test runs an installer:
scripts/setup-test installs what they use."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.helpers.package_source import tree

REPO = Path(__file__).resolve().parents[2]
TESTS = REPO / "tests"
HELPERS = "tests.helpers"


def imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every absolute import in ``path``."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree(path)):
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
        for node in ast.walk(tree(path))
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


# One wait helper: tests.helpers.waiting (wait_until, wait_until_async). A test that defines its own
# (the old ``until``, ``wait_for``, ``eventually``) or writes a poll loop (a loop that sleeps, or
# that reads a clock to stop in time) would drift from it in bound, interval or failure message.
WAITING = TESTS / "helpers" / "waiting.py"
POLL_LOOPS_ALLOWED = {
    TESTS / "helpers" / "lite_server.py": "a server's own event loop schedules its slow calls by the clock",
}
WAIT_HELPER_NAMES = {"until", "wait_until", "wait_until_async", "await_until", "wait_for", "eventually", "poll"}
SLEEPS = {"sleep", "wait_for_timeout"}  # time/asyncio/anyio.sleep, Playwright's page.wait_for_timeout
CLOCKS = {"monotonic", "perf_counter", "time"}  # time.monotonic(), time.time(), loop.time()


def _called(node: ast.Call) -> str:
    return node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")


def _in_loop(loop: ast.AST) -> list[ast.AST]:
    """The nodes of ``loop`` outside the functions and classes defined in it."""
    found, todo = [], list(ast.iter_child_nodes(loop))
    while todo:
        node = todo.pop()
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            found.append(node)
            todo.extend(ast.iter_child_nodes(node))
    return found


def _polls(loop: ast.AST) -> bool:
    """Whether ``loop`` sleeps (a turn of the event loop, ``sleep(0)``, is not a wait) or reads a clock."""
    for node in _in_loop(loop):
        if isinstance(node, ast.Call):
            turn = [ast.dump(arg) for arg in node.args] == [ast.dump(ast.Constant(0))]
            if (_called(node) in SLEEPS and not turn) or _called(node) in CLOCKS:
                return True
    return False


def own_waits(source: str, name: str = "<test>") -> list[str]:
    """The wait helpers ``source`` defines and the poll loops it writes, one line each, in order."""
    found = []
    for node in ast.walk(ast.parse(source, name)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.lstrip("_") in WAIT_HELPER_NAMES:
            found.append((node.lineno, f"{name}:{node.lineno}: def {node.name}"))
        elif isinstance(node, ast.While | ast.For | ast.AsyncFor) and _polls(node):
            found.append((node.lineno, f"{name}:{node.lineno}: a poll loop"))
    return [line for _, line in sorted(found)]


def test_tests_wait_only_through_tests_helpers_waiting() -> None:
    paths = sorted(TESTS.rglob("*.py"))
    found = [
        line
        for path in paths
        if path != WAITING and path not in POLL_LOOPS_ALLOWED and "servers" not in path.relative_to(TESTS).parts
        for line in own_waits(path.read_text(encoding="utf-8"), str(path.relative_to(REPO)))
    ]
    assert found == [], "wait with tests.helpers.waiting.wait_until / wait_until_async instead:\n" + "\n".join(found)


def test_the_wait_check_finds_the_helpers_and_loops_that_came_before() -> None:
    before = """
async def until(predicate, what):
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_SECONDS
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError(what)
        await asyncio.sleep(0.02)

def wait_for(predicate, stop, timeout_seconds=30.0):
    deadline = time.monotonic() + timeout_seconds
    while not stop.is_set() and time.monotonic() < deadline:
        if predicate():
            return True
        stop.wait(0.02)
    return False

@pytest.fixture
def eventually():
    return wait_until

async def told_of_the_cancel(server):
    for _ in range(200):
        if "slow cancelled" in server.client.log.stderr_text():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the server was not told of the cancelled call")

async def settle():
    for _ in range(10):
        await asyncio.sleep(0)
"""
    assert own_waits(before) == [
        "<test>:2: def until",
        "<test>:5: a poll loop",
        "<test>:10: def wait_for",
        "<test>:12: a poll loop",
        "<test>:19: def eventually",
        "<test>:23: a poll loop",
    ]
