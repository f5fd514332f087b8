"""``scripts/dashboard`` run after ``scripts/lab``: it uses the ``.venv`` that scripts/_venv.sh made
(the one rule both scripts source), not the system's Python, and installs nothing when that venv
already holds the dashboard extra."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from tests.helpers.support import REPO

RUN_SECONDS = 240.0  # a busy machine, not a broken script: `voila --help` imports Voilà and its server


def _repository_with_this_venv(root: Path) -> Path:
    """A copy of the scripts and pyproject.toml whose ``.venv`` is this repository's, its extras
    installed since pyproject.toml last changed (the copy's file is dated before them)."""
    shutil.copytree(REPO / "scripts", root / "scripts")
    shutil.copy(REPO / "pyproject.toml", root / "pyproject.toml")
    os.utime(root / "pyproject.toml", (0, 0))
    (root / ".venv").symlink_to(Path(os.path.realpath(REPO / ".venv")), target_is_directory=True)
    return root


def test_the_dashboard_script_runs_voila_from_the_venv_scripts_lab_made(tmp_path: Path) -> None:
    root = _repository_with_this_venv(tmp_path / "repo")
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHON", "VIRTUAL_ENV")}
    # The system's Python first on PATH, as in a fresh shell: the script must not pick it.
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if ".venv" not in p)
    done = subprocess.run(["bash", str(root / "scripts" / "dashboard"), "--help"], env=env, capture_output=True,
                          text=True, timeout=RUN_SECONDS, stdin=subprocess.DEVNULL, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert "voila [OPTIONS] NOTEBOOK_FILENAME" in done.stdout
    assert "installing" not in done.stderr and "has no voila" not in done.stderr
