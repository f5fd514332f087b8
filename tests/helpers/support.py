"""What several test folders share (``tests.helpers.support``):
the demo server's command line, the /proc process walker, where
scripts/setup-test caches what the tests need, and ``run_module`` (``python -m`` from the repository).

``DEMO_ARGS`` (and ``forked(...)`` for the other test servers that import the MCP SDK) start a
server over stdio forked from a process that imported it and the SDK once (server_forks.py;
the fixture ``server_forks`` in conftest.py runs it in each pytest process): the child runs
``python -m anvia_nb.demo_server`` on the launcher's own pipes, and the launcher is the server to
the client (exit status, signals, death). A fresh interpreter per server costs ~1.4 s of CPU, which
was most of the quick set's time. Without the fork server the launcher runs the server itself.
``REAL_DEMO_ARGS`` always start a fresh interpreter: for the tests of the server's own start.

Tests never install anything. ``require_setup`` turns a missing cached part into a skip whose
reason names the setup command, or, under ``CI=true``, into a failure.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
REAL_DEMO_ARGS = ["-m", "anvia_nb.demo_server"]
FORKS_SOCKET = str(Path(tempfile.gettempdir()) / f"anvia-test-forks-{os.getpid()}.sock")
SERVERS = REPO / "tests" / "servers"
"""The MCP servers (and misbehaving ones) that tests start by path."""
LOG_SERVER = str(SERVERS / "log_server.py")
URL_SERVER = str(SERVERS / "url_server.py")
INSTRUCTIONS_SERVER = str(SERVERS / "instructions_server.py")
FORKED_SERVERS = (REAL_DEMO_ARGS, [LOG_SERVER], [URL_SERVER], [INSTRUCTIONS_SERVER])
FORKS_PRELOAD = (
    "anvia_nb.demo_server.server",
    "anvia_nb.demo_server.http",
    "anvia_nb.demo_server.server:import_jsonschema",
    "mcp.server.mcpserver",
    "mcp.server.lowlevel",
    "mcp.server.stdio",
    "mcp_types",
)


def forked(*arguments: str) -> list[str]:
    """The arguments to ``sys.executable`` that start ``python *arguments``, forked from the fork
    server when it is one of ``FORKED_SERVERS``, else started fresh."""
    from tests.helpers.server_forks import launcher  # the standard library only

    return launcher(FORKS_SOCKET, arguments)[1:]


DEMO_ARGS = forked(*REAL_DEMO_ARGS)
DEMO_STDIO = f"--stdio {sys.executable} {' '.join(DEMO_ARGS)}"
SETUP_COMMAND = "scripts/setup-test"


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() not in ("", "0", "false")


def cache_dir() -> Path:
    """Where scripts/setup-test puts the third-party servers and Binder's environment."""
    return Path(os.environ.get("ANVIA_NB_CACHE") or REPO / ".cache")


def servers_venv() -> Path:
    """The venv with mcp-server-time and mcp-server-git."""
    return cache_dir() / "servers"


def npm_servers() -> Path:
    """The npm folder with server-everything and server-filesystem (their commands in node_modules/.bin)."""
    return cache_dir() / "npm"


def binder_venv() -> Path:
    """The venv built by binder/'s own install steps."""
    return cache_dir() / "binder" / "venv"


def setup_missing(ready_file: Path, what: str) -> str | None:
    """The reason a cached part is unusable, or None when scripts/setup-test made it."""
    if ready_file.exists():
        return None
    return f"{what} not installed in {ready_file.parent}: run {SETUP_COMMAND}"


def require_setup(ready_file: Path, what: str) -> None:
    """Skip (fail under CI) unless scripts/setup-test made ``ready_file``."""
    reason = setup_missing(ready_file, what)
    if reason is None:
        return
    if in_ci():
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


def child_pids(parent: int | None = None, *, include_zombies: bool = False) -> set[int]:
    """Live descendants of ``parent`` (default: this process), read from /proc."""
    parent = os.getpid() if parent is None else parent
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        state, ppid = fields[0], int(fields[1])
        if include_zombies or state != "Z":
            children.setdefault(ppid, []).append(int(entry.name))
    found: set[int] = set()
    todo = [parent]
    while todo:
        for pid in children.get(todo.pop(), []):
            if pid not in found:
                found.add(pid)
                todo.append(pid)
    return found


def pid_alive(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie (checked by pid: an orphan is re-parented)."""
    try:
        stat = (Path("/proc") / str(pid) / "stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


# The quick set (a run whose -m leaves the slow tests out, as ``scripts/test --quick`` does) tries
# each property test on at most this many examples: tests/conftest.py then loads the hypothesis
# profile "quick". The full suite tries each test's own count.
QUICK_EXAMPLES = 50


def examples(full: int) -> int:
    """A property test's ``max_examples``: ``full``, or at most ``QUICK_EXAMPLES`` in the quick set."""
    from hypothesis import settings

    quick = settings.get_profile("quick")
    return min(full, QUICK_EXAMPLES) if settings.default is quick else full


def run_module(module: str, *arguments: str, seconds: float) -> subprocess.CompletedProcess[str]:
    """``python -m module arguments...`` run from the repository, its output captured as text, its
    exit status left to the test; ``seconds`` only proves that nothing hangs."""
    command = [sys.executable, "-m", module, *arguments]
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=seconds, check=False)
