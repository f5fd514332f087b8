"""The pictures of the house in docs/architecture.md ("The house in pictures") are what the code
draws: ``scripts/house-pictures --check`` reads the imports of every module, collapses them to
rooms and compares each Mermaid graph with the docs'. Each picture keeps to a handful of boxes."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "house-pictures"
ARCHITECTURE = REPO / "docs" / "architecture.md"
MOST_BOXES = 9


def check(doc: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, str(SCRIPT), "--check", "--doc", str(doc)]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


def pictures() -> list[str]:
    section = ARCHITECTURE.read_text(encoding="utf-8").split("### The house in pictures\n", 1)[1]
    section = re.split(r"^##+ ", section, maxsplit=1, flags=re.M)[0]
    return re.findall(r"```mermaid\n(.*?)```", section, re.S)


def test_the_pictures_in_the_docs_are_what_the_imports_draw() -> None:
    result = check(ARCHITECTURE)
    assert result.returncode == 0, result.stderr


def test_a_picture_that_differs_from_the_imports_fails_the_check(tmp_path: Path) -> None:
    doc = tmp_path / "architecture.md"
    text = ARCHITECTURE.read_text(encoding="utf-8")
    arrow = re.search(r"^    (transport_\d+) --> (transport_\d+)$", text, re.M)
    assert arrow is not None
    doc.write_text(text.replace(arrow[0], f"    {arrow[2]} --> {arrow[1]}", 1), encoding="utf-8")
    result = check(doc)
    assert result.returncode == 1
    assert "redraw" in result.stderr


def test_each_picture_keeps_to_a_handful_of_boxes() -> None:
    drawn = pictures()
    assert len(drawn) == 5
    boxes = [len(re.findall(r'^\s+\w+\["', picture, re.M)) for picture in drawn]
    assert all(2 <= n <= MOST_BOXES for n in boxes), boxes
