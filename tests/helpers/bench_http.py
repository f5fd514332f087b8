"""The benchmark's own server (``benchmarks/bench_server.py``) over streamable HTTP, for tests of
large messages: ``payload`` answers one text of the size asked (quotes, backslashes, accents and
CJK in it), ``shout`` sends a log message of that size first. Run by path, as the benchmark runs
it: tests import nothing of the benchmarks."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from tests.helpers.support import REPO

SERVER = str(REPO / "benchmarks" / "bench_server.py")
LISTENING = "listening on "


@contextmanager
def bench_http_url() -> Iterator[str]:
    """The URL of a fresh bench server on 127.0.0.1, stopped on leaving."""
    process = subprocess.Popen([sys.executable, SERVER, "--http"], stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        for line in process.stderr:
            if line.startswith(LISTENING):
                yield line[len(LISTENING) :].strip()
                return
        raise RuntimeError(f"the HTTP bench server did not start (exit status {process.wait()})")
    finally:
        process.terminate()
        process.wait(timeout=30)
