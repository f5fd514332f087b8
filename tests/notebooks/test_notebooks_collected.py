"""The suite tests the project's notebooks, not one a person saved while working in notebooks/
(the folder scripts/lab opens): an untracked ``Untitled.ipynb`` with a failing cell is not collected.

The check runs pytest in a copy of what collecting needs (pyproject.toml, notebooks/ as git tracks
it, tests/helpers/), never in the repository's own folder: a notebook written there would be seen by
the tests that read that folder at the same time in another worker, and by a person working in it.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import nbformat
import pytest

from tests.helpers.support import REPO


def _git(*args: str, cwd: Path) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _project_copy(root: Path, *, in_git: bool) -> Path:
    """What collecting the notebooks needs, copied under ``root``; its notebooks/ folder."""
    shutil.copy2(REPO / "pyproject.toml", root / "pyproject.toml")
    helpers = REPO / "tests" / "helpers"
    shutil.copytree(helpers, root / "tests" / "helpers", ignore=shutil.ignore_patterns("__pycache__"))
    for name in _git("ls-files", "-z", "notebooks", cwd=REPO).split("\0"):
        if name:
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, root / name)
    if in_git:
        _git("init", "-q", cwd=root)
        _git("add", "notebooks", cwd=root)  # staged counts as the project's, as in a checkout being edited
    return root / "notebooks"


def _collected(root: Path) -> str:
    command = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "notebooks"]
    done = subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


@pytest.mark.parametrize("in_git", [True, False], ids=["a git checkout", "no git (an unpacked copy)"])
def test_a_notebook_a_person_saved_in_the_folder_is_not_collected_and_the_projects_are(
    tmp_path: Path, in_git: bool
) -> None:
    notebooks = _project_copy(tmp_path, in_git=in_git)
    theirs = [f"Untitled-{uuid.uuid4().hex[:8]}.ipynb", "01-quickstart-Copy1.ipynb"]
    for name in theirs:
        nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("raise SystemExit('mine')")]),
                       notebooks / name)
    collected = _collected(tmp_path)
    for name in theirs:
        assert name not in collected
    assert "notebooks/01-quickstart.ipynb::Cell 0" in collected
    assert "notebooks/02-result-mapping.ipynb::Cell 0" in collected
