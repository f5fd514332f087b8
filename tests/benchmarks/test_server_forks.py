"""The fork server behind ``DEMO_ARGS`` and ``forked(...)`` (tests/helpers/server_forks.py): to a client
a forked server must be the process it started, as a fresh ``python ...`` would be. Exit status,
stderr, environment, signals and death of the launcher all reach the forked child or come from it."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.support import DEMO_ARGS, LOG_SERVER, forked
from tests.helpers.waiting import wait_until

BOUND_SECONDS = 60
pytestmark = pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="the fork server runs on Linux only")


def start(*arguments: str, **options: object) -> subprocess.Popen[bytes]:
    process: subprocess.Popen[bytes] = subprocess.Popen(  # type: ignore[call-overload]
        [sys.executable, *arguments], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **options
    )
    return process


def still_the_launcher(pid: int) -> bool:
    """True while ``pid`` runs the launcher, not ``python -m ...`` (which it would ``exec`` unforked)."""
    return b"server_forks.py" in Path(f"/proc/{pid}/cmdline").read_bytes()


def test_a_wrong_option_exits_with_the_servers_status_and_says_why_on_its_stderr() -> None:
    done = subprocess.run(
        [sys.executable, *DEMO_ARGS, "--bogus"], capture_output=True, text=True, timeout=BOUND_SECONDS, check=False
    )
    assert done.returncode == 2  # argparse's usage error, from the forked child
    assert "unrecognized arguments: --bogus" in done.stderr


def test_the_child_gets_the_launchers_environment_and_working_directory(tmp_path: Path) -> None:
    env = {**os.environ, "DEMO_TOKEN": "forked-env-5d1e"}
    done = subprocess.run(
        [sys.executable, *forked(LOG_SERVER, "fatal")],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=BOUND_SECONDS,
        check=False,
    )
    assert done.returncode == 1
    assert "fatal: missing API key (token was forked-env-5d1e)" in done.stderr


def test_the_demo_answers_on_the_launchers_pipes_while_the_launcher_stays_the_process() -> None:
    process = start(*DEMO_ARGS)
    try:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}\n')
        process.stdin.flush()
        assert b'"id":1' in process.stdout.readline().replace(b" ", b"")
        assert still_the_launcher(process.pid)  # forked: nothing was exec'd in its place
        process.stdin.close()  # as a client closing: the server ends on end of input
        assert process.wait(BOUND_SECONDS) == 0
    finally:
        process.kill()
        process.wait()


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
def test_a_launcher_killed_takes_its_forked_server_with_it(how: signal.Signals) -> None:
    process = start(*DEMO_ARGS)
    try:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}\n')
        process.stdin.flush()
        process.stdout.readline()  # the child is serving
        wait_until(lambda: still_the_launcher(process.pid), what="the forked server")
        process.send_signal(how)
        assert process.wait(BOUND_SECONDS) == -how
        readable, _, _ = select.select([process.stdout], [], [], BOUND_SECONDS)
        assert readable and process.stdout.read() == b""  # end of output: nothing is left holding the pipe
    finally:
        process.kill()
        process.wait()
