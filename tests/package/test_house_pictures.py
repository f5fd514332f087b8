"""The pictures of the house in docs/architecture.md ("The house in pictures") are what the code
draws: ``scripts/house-pictures --check`` reads the imports of every module, collapses them to
rooms and compares each Mermaid graph with the docs'. Each picture keeps to a handful of boxes, and
its arrows all point one way: no two boxes import each other, directly or round a loop."""

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


def boxes(picture: str) -> dict[str, str]:
    """The picture's boxes: id -> label."""
    return dict(re.findall(r'^\s+(\w+)\["([^"]*)"\]$', picture, re.M))


def arrows(picture: str) -> dict[str, set[str]]:
    """The picture's arrows: each box's id -> the ids of the boxes it imports."""
    found: dict[str, set[str]] = {box: set() for box in boxes(picture)}
    for source, target in re.findall(r"^\s+(\w+) --> (\w+)$", picture, re.M):
        found.setdefault(source, set()).add(target)
    return found


def loop_in(graph: dict[str, set[str]]) -> list[str]:
    """A loop of ``graph`` (its boxes in order, the first repeated at the end), or ``[]`` when
    every arrow points one way (depth first; a box on the current path met again closes a loop)."""
    done: set[str] = set()
    path: list[str] = []

    def visit(box: str) -> list[str]:
        if box in path:
            return [*path[path.index(box) :], box]
        if box in done:
            return []
        path.append(box)
        for target in sorted(graph.get(box, ())):
            loop = visit(target)
            if loop:
                return loop
        path.pop()
        done.add(box)
        return []

    for box in sorted(graph):
        loop = visit(box)
        if loop:
            return loop
    return []


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


def test_no_two_boxes_of_a_picture_import_each_other() -> None:
    drawn = pictures()
    assert drawn
    for picture in drawn:
        loop = loop_in(arrows(picture))
        labels = boxes(picture)
        assert not loop, " -> ".join(labels[box] for box in loop)


def test_a_two_way_pair_or_a_loop_is_found() -> None:
    picture = pictures()[0]
    graph = arrows(picture)
    source, targets = next((box, targets) for box, targets in sorted(graph.items()) if targets)
    target = min(targets)
    graph[target].add(source)
    assert loop_in(graph) in ([source, target, source], [target, source, target])
    assert loop_in({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert loop_in({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []
