"""What a history entry keeps of a call's output for ``%mcp history --to-pytest``: the output and
the structuredContent when each one's JSON is at most SEEN_CHARS characters, and never a larger one
(deciding that must not serialize a huge result, but must not drop one that fits either)."""

from __future__ import annotations

import dataclasses
import json
from datetime import datetime, timezone
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from anvia_nb.core.protocol.types import SEEN_CHARS, CallOutcome
from tests.helpers.support import examples

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=SEEN_CHARS // 3),
    lambda inner: st.lists(inner, max_size=8) | st.dictionaries(st.text(max_size=20), inner, max_size=8),
    max_leaves=40,
)


def _outcome(structured: Any) -> CallOutcome:
    raw = {"content": [{"type": "text", "text": json.dumps(structured)}], "structuredContent": structured}
    return CallOutcome(server="s", tool="t", arguments={}, raw=raw, output="x", error=None, schema_problems=None,
                       seconds=0.0, started_at=datetime.now(timezone.utc))


@settings(max_examples=examples(100), deadline=None)
@given(JSON)
@example(["ab"] * 600)  # many small values: 3,600 characters
@example({f"k{i}": [i, None, True] for i in range(200)})
@example("x" * (SEEN_CHARS - 2))  # exactly the limit with its quotes
@example("x" * (SEEN_CHARS - 1))
@example('"' * 2000)  # escaping doubles it: 4,002
def test_structured_content_is_kept_exactly_when_its_json_fits(structured: Any) -> None:
    fits = len(json.dumps(structured, ensure_ascii=False)) <= SEEN_CHARS
    seen = _outcome(structured).summary().seen
    assert seen is not None
    assert ("structured" in seen) is fits
    if fits:
        assert seen["structured"] == structured


def test_a_huge_text_output_is_measured_not_kept() -> None:
    outcome = CallOutcome(server="s", tool="t", arguments={}, raw={"content": []}, output="é" * 5_000_000,
                          error=None, schema_problems=None, seconds=0.0, started_at=datetime.now(timezone.utc))
    summary = outcome.summary()
    assert summary.output is None and summary.seen == {} and summary.kept_output_chars == 5_000_000


def test_a_summary_keeps_every_field_it_does_not_cut_and_is_a_whole_outcome() -> None:
    """The history's copy is made without ``dataclasses.replace``: it must still hold every field,
    none more, and equal an outcome built field by field."""
    outcome = CallOutcome(server="s", tool="t", arguments={"a": "b" * 5000}, raw={"content": [{"type": "text"}]},
                          output="x", error=None, schema_problems=["p" * 900], seconds=1.5,
                          started_at=datetime.now(timezone.utc), secrets=("k",), progress=((1.0, 2.0, "m"),),
                          progress_count=1, origin="replayed from f", output_schema={"type": "object"},
                          trace_span=(3, 9))
    summary = outcome.summary()
    names = [f.name for f in dataclasses.fields(CallOutcome)]
    assert sorted(vars(summary)) == sorted(names)
    cut = {"arguments", "raw", "output", "error", "schema_problems", "progress", "kept_output_chars", "seen"}
    for name in set(names) - cut:
        assert getattr(summary, name) == getattr(outcome, name), name
    assert summary.output is None and summary.progress == () and summary.kept_output_chars == 1
    assert summary.arguments is not None
    assert summary.schema_problems == ["p" * 500] and len(summary.arguments["a"]) < 5000
    assert summary == CallOutcome(**{name: getattr(summary, name) for name in names})
