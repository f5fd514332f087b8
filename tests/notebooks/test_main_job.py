"""The README's main job, ``scripts/lab``: the URL it prints opens the quickstart notebook, not the
Launcher. scripts/setup-test installs the lab extra it uses, so the script installs nothing here."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import threading
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

import pytest
from tests.helpers.support import REPO, require_setup, wait_until

pytestmark = pytest.mark.slow  # starts a Jupyter server: left out of scripts/test --quick
URL = re.compile(r"http://127\.0\.0\.1:\d+/\S+")
START_SECONDS = 240.0  # a busy machine, not a broken script


def _environment(home: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("PYTEST_", "JUPYTER_", "IPYTHONDIR"))}
    env.update(HOME=str(home), JUPYTER_CONFIG_DIR=str(home / "config"), JUPYTER_DATA_DIR=str(home / "data"),
               JUPYTER_RUNTIME_DIR=str(home / "runtime"), IPYTHONDIR=str(home / "ipython"))
    return env


def test_the_url_scripts_lab_prints_opens_the_quickstart_notebook(tmp_path: Path) -> None:
    require_setup(REPO / ".venv" / ".installed-lab", "the lab extra of .venv")
    lab = subprocess.Popen(["bash", "scripts/lab", "--port", "0"], cwd=REPO, env=_environment(tmp_path),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                           text=True, start_new_session=True)  # fmt: skip
    printed: list[str] = []
    assert lab.stdout is not None
    reader = threading.Thread(target=lambda: printed.extend(iter(lab.stdout.readline, "")), daemon=True)  # type: ignore[union-attr]
    reader.start()
    try:
        wait_until(lambda: any(URL.search(line) for line in printed) or lab.poll() is not None,
                   START_SECONDS, "scripts/lab to print its URL")
        found = next((URL.search(line) for line in printed if URL.search(line)), None)
        assert found is not None, "".join(printed)[-3000:]
        url = found.group(0)
        assert urlparse(url).path == "/lab/tree/notebooks/01-quickstart.ipynb", url
        with urllib.request.urlopen(url, timeout=60) as page:
            body = page.read().decode()
        assert '"treePath": "notebooks/01-quickstart.ipynb"' in body
    finally:
        os.killpg(lab.pid, signal.SIGTERM)
        try:
            lab.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(lab.pid, signal.SIGKILL)
            lab.wait(30)
        reader.join(30)
