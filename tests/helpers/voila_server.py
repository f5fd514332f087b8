"""One Voilà serving a folder on 127.0.0.1, with its own Jupyter dirs and a kernelspec of this
interpreter, stopped with everything it started (kernels, and the servers they started).

(tests/browser/test_voila_browser.py starts its own the same way.)
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.lab import QUICK_JUPYTER, free_port, jupyter_environment
from tests.helpers.support import child_pids, in_ci

START_TIMEOUT_SECONDS = 60.0
STOP_TIMEOUT_SECONDS = 15.0


def _environment(home: Path) -> dict[str, str]:
    for name in ("config", "data", "runtime", "ipython"):
        (home / name).mkdir(parents=True, exist_ok=True)
    kernel_dir = home / "data" / "kernels" / "python3"
    kernel_dir.mkdir(parents=True)
    spec = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    (kernel_dir / "kernel.json").write_text(json.dumps(spec))
    return jupyter_environment(home)


def _stop(process: subprocess.Popen[bytes]) -> None:
    started = child_pids(process.pid, include_zombies=True)
    process.terminate()
    try:
        process.wait(timeout=STOP_TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=STOP_TIMEOUT_SECONDS)
    for pid in started:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


@contextlib.contextmanager
def served_voila() -> Iterator[tuple[str, Path]]:
    """``(base URL, notebook root)`` of a running Voilà; skipped (failed under CI) without voila."""
    if importlib.util.find_spec("voila") is None:
        reason = "voila is not installed: pip install -e '.[test]' to enable the Voilà tests"
        if in_ci():
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    with tempfile.TemporaryDirectory(prefix="anvia-voila-") as home_text:
        home = Path(home_text)
        root = home / "root"
        root.mkdir()
        port = free_port()
        command = [
            sys.executable, "-c", QUICK_JUPYTER, "voila", str(root), "--no-browser", f"--port={port}",
            "--Voila.ip=127.0.0.1", "--Voila.port_retries=0",
        ]  # fmt: skip
        log_path = home / "voila.log"
        with log_path.open("wb") as log:
            process = subprocess.Popen(
                command, env=_environment(home), cwd=root,
                stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            )  # fmt: skip
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + START_TIMEOUT_SECONDS
            while True:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"Voilà did not start:\n{log_path.read_text()[-3000:]}")
                try:
                    with urllib.request.urlopen(base + "/", timeout=2) as response:
                        if response.status == 200:
                            break
                except (urllib.error.URLError, ConnectionError, TimeoutError):
                    time.sleep(0.2)  # polling interval of a bounded wait, not synchronisation
            yield base, root
        finally:
            _stop(process)
