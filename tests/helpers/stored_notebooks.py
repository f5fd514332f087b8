"""The notebooks as stored in the repository, read as files (no kernel): the tests of
tests/notebooks/test_notebooks_*.py share these readers."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

import nbformat
from nbconvert import HTMLExporter

NOTEBOOK_DIR = Path(__file__).resolve().parents[2] / "notebooks"
NAMES = [
    "01-quickstart.ipynb",
    "02-result-mapping.ipynb",
    "03-forms-and-panel.ipynb",
    "04-untrusted-output.ipynb",
    "05-real-servers.ipynb",
    "06-protocol-exchange.ipynb",
    "07-dashboard.ipynb",
    "08-apps.ipynb",
    "09-tool-poisoning.ipynb",
]


def read(name: str) -> Any:
    return nbformat.read(NOTEBOOK_DIR / name, as_version=4)


@functools.cache
def exporter() -> HTMLExporter:
    """One exporter for the file: each new one loads and compiles its templates again."""
    return HTMLExporter()


@functools.cache
def rendered(name: str) -> str:
    """The notebook ``name`` as nbconvert's HTML, rendered once per file."""
    html, _ = exporter().from_notebook_node(read(name))
    return str(html)


def code_cells(nb: Any) -> list[Any]:
    return [cell for cell in nb.cells if cell.cell_type == "code"]


def output_texts(nb: Any) -> list[str]:
    """Every text an output holds (streams, every mime type, errors), as JSON for non-strings."""
    texts: list[str] = []
    for cell in code_cells(nb):
        for output in cell.get("outputs", []):
            if "text" in output:
                texts.append(output["text"])
            for value in output.get("data", {}).values():
                texts.append(value if isinstance(value, str) else json.dumps(value))
            if output.get("output_type") == "error":
                texts.append(output.get("evalue", ""))
    return texts


def unanswered_exercises(nb: Any) -> int:
    """How many exercises ``nb`` has, after checking each as a workshop's must be: its question says
    ``**Exercise N.**``, its cell (tagged ``exercise``) starts ``answer = ...`` and ends with
    ``check(N, answer)``, and its stored output is "no answer yet", with nothing of the answer."""
    cells = nb.cells
    exercises = [i for i, cell in enumerate(cells) if "exercise" in cell.metadata.get("tags", [])]
    assert not [cell for cell in cells if "solution" in cell.metadata.get("tags", [])]
    for index in exercises:
        cell = cells[index]
        number = re.search(r"\*\*Exercise (\d+)\.\*\*", cells[index - 1].source)
        assert number, "an answer cell follows its question"
        assert cell.source.startswith("answer = ...") and f"check({number.group(1)}, answer)" in cell.source
        shown = "".join(output.get("data", {}).get("text/plain", "") for output in cell.outputs)
        assert shown.startswith(f"Exercise {number.group(1)}: no answer yet"), shown
        assert "right" not in shown and "Why" not in shown
    return len(exercises)
