"""Which notebooks of notebooks/ are the project's: one rule for nbval's collection
(notebooks/conftest.py) and for the tests that read the stored notebooks.

In a git checkout they are the notebooks git tracks or has staged; outside one (a source archive,
a copy without ``.git``) they are those named like ``01-quickstart.ipynb``. A notebook a person saves
in the folder while working in it (``Untitled.ipynb``, ``01-quickstart-Copy1.ipynb``) is theirs.
"""

from __future__ import annotations

import re
import subprocess
from functools import cache
from pathlib import Path

__all__ = ["NOTEBOOK_FOLDER", "is_project_notebook", "project_notebooks"]

NOTEBOOK_FOLDER = Path(__file__).resolve().parents[2] / "notebooks"
_PROJECT_NAME = re.compile(r"\d\d-[a-z0-9-]+\.ipynb")
_COPY = re.compile(r"-copy\d*\.ipynb$", re.IGNORECASE)


@cache
def _tracked() -> frozenset[str] | None:
    """The notebooks of the folder git tracks or has staged; None outside a git checkout."""
    try:
        listed = subprocess.run(["git", "ls-files", "--cached", "-z", "--", "*.ipynb"], cwd=NOTEBOOK_FOLDER,
                                capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return None
    if listed.returncode != 0:
        return None
    return frozenset(Path(name).name for name in listed.stdout.split("\0") if name and "/" not in name)


def is_project_notebook(path: Path) -> bool:
    """Whether ``path`` (a notebook in notebooks/) is one of the project's, to be tested."""
    tracked = _tracked()
    if tracked is not None:
        return path.name in tracked
    return bool(_PROJECT_NAME.fullmatch(path.name)) and not _COPY.search(path.name)


def project_notebooks() -> list[str]:
    """The names of the project's notebooks in notebooks/, sorted."""
    return sorted(path.name for path in NOTEBOOK_FOLDER.glob("*.ipynb") if is_project_notebook(path))
