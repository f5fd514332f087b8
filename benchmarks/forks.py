"""The bench server's command line, forked while a fork server runs (the quick runs).

The fork server is the test suite's (tests/helpers/server_forks.py, the standard library only):
one process imports the SDK once and each start of the bench server is a fork of it. This module
imports only it, so the peers' venvs import this one as a script's neighbour (benchmarks/ on their path).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE.parent) not in sys.path:
    sys.path.insert(1, str(HERE.parent))  # run as a script (a peer's venv): the repository, for tests.helpers

from tests.helpers.server_forks import ENV, ServerForks, launcher  # noqa: E402  (the path first)

SERVER = str(HERE / "bench_server.py")
PRELOAD = ("anyio", "mcp_types", "mcp.server.lowlevel", "mcp.server.stdio")
"""What ``bench_server.py`` imports: loaded once by the fork server."""

__all__ = ["PRELOAD", "SERVER", "bench_forks", "server_command"]


def server_command(python: str = sys.executable, options: tuple[str, ...] = ()) -> list[str]:
    """One bench server over stdio, with its command-line ``options`` (``--form-tool``): forked
    while a fork server runs (quick runs), else fresh."""
    where = os.environ.get(ENV)
    if where:
        return launcher(where, [SERVER, *options], python)
    return [python, SERVER, *options]


def bench_forks() -> ServerForks:
    """The fork server for the bench server, for a ``with`` block."""
    return ServerForks([[SERVER]], PRELOAD)
