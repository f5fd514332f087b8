"""How long the in-process work on huge inputs takes: the figures the tests no longer assert.

    .venv/bin/python benchmarks/bench_render.py

The tests check that these inputs give bounded results (a visible cut, a bounded bundle, a bounded
number of form fields); the time they take belongs here, where a busy machine makes a slow figure
rather than a failed test.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script: the repository first

from anvia_nb.display import bundle_from_outcome, tree_bundle_from_outcome
from anvia_nb.widgets.fields.arguments_form import ArgumentsForm
from tests.helpers.display import outcome, text_result


def best_of(repeat: int, work: Callable[[], Any]) -> float:
    runs = []
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        runs.append(time.perf_counter() - started)
    return min(runs)


def wide_schema() -> dict[str, Any]:
    """32,767 fields if expanded in full: each level refers twice to the next."""
    defs: dict[str, Any] = {
        f"L{i}": {"type": "object", "properties": {key: {"$ref": f"#/$defs/L{i + 1}"} for key in "ab"}}
        for i in range(14)
    }
    defs["L14"] = {"type": "string"}
    return {"type": "object", "$defs": defs, "properties": {"root": {"$ref": "#/$defs/L0"}}}


def recursive_schema() -> dict[str, Any]:
    node = {"type": "object", "properties": {"name": {"type": "string"}, "child": {"$ref": "#/$defs/node"}}}
    return {"type": "object", "$defs": {"node": node}, "properties": {"root": {"$ref": "#/$defs/node"}}}


def main() -> None:
    fifty_mb = outcome(text_result("0123456789" * 5_000_000))
    million_items = outcome({"content": [{"type": "text", "text": "<"}] * 1_000_000})
    structured = {"rows": [{"id": i, "name": "x" * 100} for i in range(200_000)], "blob": "y" * 10_000_000}
    huge_structured = outcome(text_result("", structuredContent=structured), problems=[])
    cases: list[tuple[str, Callable[[], Any]]] = [
        ("render a 50 MB text result", lambda: bundle_from_outcome(fifty_mb)),
        ("render a million content items", lambda: bundle_from_outcome(million_items)),
        (
            "render huge structuredContent + JSON tree",
            lambda: (bundle_from_outcome(huge_structured), tree_bundle_from_outcome(huge_structured)),
        ),
        ("form over a recursive schema", lambda: ArgumentsForm(schema=recursive_schema())),
        ("form over a 32,767-field schema", lambda: ArgumentsForm(schema=wide_schema())),
    ]
    for what, work in cases:
        print(f"{what:<45} {best_of(3, work) * 1000:9.1f} ms")


if __name__ == "__main__":
    main()
