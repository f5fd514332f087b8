"""The README's main job, ``scripts/lab``: the URL it prints opens the quickstart notebook, not the
Launcher. scripts/setup-test installs the lab extra it uses, so the script installs nothing here."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import threading
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

import pytest

from tests.helpers.ports import free_port
from tests.helpers.support import REPO, require_setup
from tests.helpers.waiting import wait_until

pytestmark = pytest.mark.slow  # starts a Jupyter server: left out of scripts/test --quick
URL = re.compile(r"http://127\.0\.0\.1:\d+/\S+")
START_SECONDS = 240.0  # a busy machine, not a broken script


def _environment(home: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTEST_", "JUPYTER_", "IPYTHONDIR"))}
    env.update(
        HOME=str(home),
        JUPYTER_CONFIG_DIR=str(home / "config"),
        JUPYTER_DATA_DIR=str(home / "data"),
        JUPYTER_RUNTIME_DIR=str(home / "runtime"),
        IPYTHONDIR=str(home / "ipython"),
    )
    return env


def _read_into(bodies: list[str], url: str) -> bool:
    """Whether ``url`` answered; its page goes into ``bodies``. A refused connection is a False."""
    try:
        with urllib.request.urlopen(url, timeout=60) as page:
            bodies.append(page.read().decode())
    except ConnectionRefusedError:
        return False
    except urllib.error.URLError as error:
        if isinstance(error.reason, ConnectionRefusedError):
            return False
        raise
    return True


def test_the_url_scripts_lab_prints_opens_the_quickstart_notebook(tmp_path: Path) -> None:
    installed = [REPO / ".venv" / f".installed-{extra}" for extra in ("lab", "test")]  # test holds lab (_venv.sh)
    require_setup(next((f for f in installed if f.exists()), installed[0]), "the lab extra of .venv")
    # A port named here, not --port 0: JupyterLab probes port 0, closes it, prints its URL, then
    # binds; on a busy machine another connection can take the port in between (tests/helpers/ports.py).
    command = ["bash", "scripts/lab", "--port", str(free_port()), "--ServerApp.port_retries=0"]
    lab = subprocess.Popen(
        command,
        cwd=REPO,
        env=_environment(tmp_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    printed: list[str] = []
    assert lab.stdout is not None
    reader = threading.Thread(target=lambda: printed.extend(iter(lab.stdout.readline, "")), daemon=True)  # type: ignore[union-attr]
    reader.start()
    try:
        wait_until(
            lambda: any(URL.search(line) for line in printed) or lab.poll() is not None,
            "scripts/lab to print its URL",
            seconds=START_SECONDS,
        )
        found = next((URL.search(line) for line in printed if URL.search(line)), None)
        assert found is not None, "".join(printed)[-3000:]
        url = found.group(0)
        assert urlparse(url).path == "/lab/tree/notebooks/01-quickstart.ipynb", url
        # JupyterLab prints its URL just before its event loop binds the port: a first try may be refused.
        bodies: list[str] = []
        wait_until(lambda: lab.poll() is not None or _read_into(bodies, url), f"{url} to answer", seconds=START_SECONDS)
        assert bodies, f"scripts/lab exited with {lab.returncode}:\n" + "".join(printed)[-3000:]
        assert '"treePath": "notebooks/01-quickstart.ipynb"' in bodies[0]
    finally:
        os.killpg(lab.pid, signal.SIGTERM)
        try:
            lab.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(lab.pid, signal.SIGKILL)
            lab.wait(30)
        reader.join(30)
