"""The suite tests the project's notebooks, not one a person saved while working in notebooks/
(the folder scripts/lab opens): an untracked ``Untitled.ipynb`` with a failing cell is not collected."""

from __future__ import annotations

import subprocess
import sys
import uuid

import nbformat

from tests.helpers.support import REPO

NOTEBOOKS = REPO / "notebooks"


def _collected() -> str:
    command = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "notebooks"]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


def test_a_notebook_a_person_saved_in_the_folder_is_not_collected_and_the_projects_are() -> None:
    theirs = [NOTEBOOKS / f"Untitled-{uuid.uuid4().hex[:8]}.ipynb",
              NOTEBOOKS / f"01-quickstart-Copy{uuid.uuid4().int % 1000}.ipynb"]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("raise SystemExit('mine')")])
    try:
        for path in theirs:
            nbformat.write(notebook, path)
        collected = _collected()
    finally:
        for path in theirs:
            path.unlink(missing_ok=True)
    for path in theirs:
        assert path.name not in collected
    assert "notebooks/01-quickstart.ipynb::Cell 0" in collected
    assert "notebooks/02-result-mapping.ipynb::Cell 0" in collected
