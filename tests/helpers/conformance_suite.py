"""The cached MCP conformance suite (``@modelcontextprotocol/conformance``, installed by
scripts/setup-test) and a fork server of anvia_nb clients for it (tests/helpers/client_forks.py):
what the core and the auth scenario tests both start."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.helpers.support import REPO, cache_dir, require_setup

__all__ = ["ConformanceSuite", "conformance_suite"]

HELPERS = Path(__file__).parent


@dataclass(frozen=True)
class ConformanceSuite:
    """The suite's folder, the environment to run it in, and the command that runs one client."""

    root: Path
    env: dict[str, str]
    client_command: str

    def command(self, *arguments: str) -> list[str]:
        """``conformance ARGUMENTS...`` with the suite's own Node."""
        node = self.root / "node_modules" / "node" / "bin" / "node"
        return [str(node), str(self.root / "node_modules" / ".bin" / "conformance"), *arguments]


@contextlib.contextmanager
def conformance_suite(work: Path) -> Iterator[ConformanceSuite]:
    """The suite, with the client fork server listening in ``work`` until the block ends (then it is
    stopped with any client still running: a forked child stays in its group)."""
    root = cache_dir() / "conformance"
    require_setup(root / "anvia-ready", "the MCP conformance suite")
    node_bin = root / "node_modules" / "node" / "bin"
    env = {
        **os.environ,
        "PATH": f"{node_bin}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
    }
    socket_path = work / "clients.sock"
    forks = subprocess.Popen(
        [sys.executable, str(HELPERS / "client_forks.py"), "serve", str(socket_path)],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert forks.stdout is not None and forks.stdout.readline() == "ready\n", "the client fork server did not start"
        yield ConformanceSuite(root, env, f"{sys.executable} -I -S {HELPERS / 'client_forks.py'} run {socket_path}")
    finally:
        os.killpg(forks.pid, signal.SIGTERM)
        forks.wait(timeout=60)
