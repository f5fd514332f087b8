"""Voilà for browser tests: one server on 127.0.0.1 with its own Jupyter dirs and a kernelspec of
this interpreter, serving a folder, and stopped with everything it started (kernels, and the MCP
servers they started). Its log is kept beside its home, so a test that fails can say what Voilà said.

- :func:`served_voila`: plain ``voila ROOT``, in a temporary home;
- :func:`serve_dashboard`: ``scripts/dashboard ROOT``, as the repository documents serving a
  dashboard (its ``voila.json`` culls the kernels of closed pages);
- :func:`call_fixed_add`: on notebooks/07-dashboard.ipynb's page, the viewer's call of its form
  with a fixed argument.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.helpers.lab import QUICK_JUPYTER, jupyter_environment
from tests.helpers.ports import free_port
from tests.helpers.support import REPO, child_pids
from tests.helpers.waiting import wait_until

__all__ = ["DASHBOARD_SCRIPT", "RunningVoila", "call_fixed_add", "serve_dashboard", "served_voila"]

DASHBOARD_SCRIPT = REPO / "scripts" / "dashboard"
START_TIMEOUT_SECONDS = 90.0
STOP_TIMEOUT_SECONDS = 15.0


@dataclass(frozen=True)
class RunningVoila:
    base_url: str
    root: Path
    process: subprocess.Popen[bytes]
    log_path: Path

    def descendants(self) -> set[int]:
        """Live processes Voilà started, and theirs (kernels, the MCP servers kernels started)."""
        return child_pids(self.process.pid)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-40000:]


def _environment(home: Path) -> dict[str, str]:
    """Voilà's own Jupyter dirs under ``home``, with the kernelspec of this interpreter."""
    for name in ("config", "data", "runtime", "ipython"):
        (home / name).mkdir(parents=True, exist_ok=True)
    kernel_dir = home / "data" / "kernels" / "python3"
    kernel_dir.mkdir(parents=True, exist_ok=True)
    spec = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    (kernel_dir / "kernel.json").write_text(json.dumps(spec))
    env = jupyter_environment(home)
    env["PYTHON"] = sys.executable  # scripts/dashboard runs Voilà with it
    return env


def _stop(process: subprocess.Popen[bytes]) -> None:
    started = child_pids(process.pid, include_zombies=True)  # kernels, and the servers they started
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
def _running(command: list[str], home: Path, root: Path, port: int) -> Iterator[RunningVoila]:
    """``command`` started in ``root``, yielded once it answers on ``port``; stopped however it ends."""
    log_path = home / "voila.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command, env=_environment(home), cwd=root, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
        )
    running = RunningVoila(f"http://127.0.0.1:{port}", root, process, log_path)

    def answering() -> bool:
        if process.poll() is not None:
            raise RuntimeError(f"Voilà exited before it answered:\n{running.log()}")
        try:
            with urllib.request.urlopen(running.base_url + "/", timeout=2) as response:
                status: int = response.status
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return False
        return status == 200

    try:
        wait_until(answering, lambda: f"Voilà to answer:\n{running.log()}", seconds=START_TIMEOUT_SECONDS)
        yield running
    finally:
        _stop(process)


@contextlib.contextmanager
def served_voila() -> Iterator[tuple[str, Path]]:
    """``(base URL, notebook root)`` of a plain running Voilà (the test extra installs voila)."""
    with tempfile.TemporaryDirectory(prefix="anvia-voila-") as home_text:
        home = Path(home_text)
        root = home / "root"
        root.mkdir()
        port = free_port()
        command = [
            sys.executable,
            "-c",
            QUICK_JUPYTER,
            "voila",
            str(root),
            "--no-browser",
            f"--port={port}",
            "--Voila.ip=127.0.0.1",
            "--Voila.port_retries=0",
        ]
        with _running(command, home, root, port) as running:
            yield running.base_url, root


@contextlib.contextmanager
def serve_dashboard(home: Path, *options: str) -> Iterator[RunningVoila]:
    """``scripts/dashboard HOME/root [OPTIONS]`` on a free port, answering when this yields."""
    root = home / "root"
    root.mkdir(parents=True, exist_ok=True)
    port = free_port()
    command = [str(DASHBOARD_SCRIPT), str(root), "--no-browser", f"--port={port}", "--Voila.port_retries=0", *options]
    with _running(command, home, root, port) as running:
        yield running


def call_fixed_add(page: Any, a: str, wait_ms: float, poll_ms: float) -> Any:  # any: Playwright's page
    """On notebook 07's page: type ``a`` in the add form (``b`` is fixed), press Call, wait for the
    result; the form's output area (a Playwright locator)."""
    form = page.locator(".jp-OutputArea-output").filter(has_text="Fixed by this notebook")
    a_field = form.locator(".widget-hbox", has=page.locator(".widget-label", has_text=re.compile(r"^a\b")))
    a_field.locator(".widget-text input").first.fill(a)
    call = form.locator("button.widget-button", has_text=re.compile(r"^\s*Call\s*$"))
    page.wait_for_function("b => !b.disabled", arg=call.element_handle(), timeout=wait_ms, polling=poll_ms)
    call.click()
    form.locator(".widget-output .anvia-result").wait_for(timeout=wait_ms)
    return form
