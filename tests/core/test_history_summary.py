"""What a history entry keeps of a call's output for ``%mcp history --to-pytest``: the output and
the structuredContent when each one's JSON is at most limits.RECORD_SEEN_CHARS characters, and never a larger one
(deciding that must not serialize a huge result, but must not drop one that fits either)."""

from __future__ import annotations

import dataclasses
import json
from datetime import datetime, timezone
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.types import CallOutcome, CallRecord
from anvia_nb.display import display_status
from anvia_nb.errors import AnviaError, ToolResultError, ToolTimeoutError
from tests.helpers.support import examples

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=limits.RECORD_SEEN_CHARS // 3),
    lambda inner: st.lists(inner, max_size=8) | st.dictionaries(st.text(max_size=20), inner, max_size=8),
    max_leaves=40,
)


def _outcome(structured: Any) -> CallOutcome:
    raw = {"content": [{"type": "text", "text": json.dumps(structured)}], "structuredContent": structured}
    return CallOutcome(
        server="s",
        tool="t",
        arguments={},
        raw=raw,
        output="x",
        error=None,
        schema_problems=None,
        seconds=0.0,
        started_at=datetime.now(timezone.utc),
    )


@settings(max_examples=examples(100), deadline=None)
@given(JSON)
@example(["ab"] * 600)  # many small values: 3,600 characters
@example({f"k{i}": [i, None, True] for i in range(200)})
@example("x" * (limits.RECORD_SEEN_CHARS - 2))  # exactly the limit with its quotes
@example("x" * (limits.RECORD_SEEN_CHARS - 1))
@example('"' * 2000)  # escaping doubles it: 4,002
def test_structured_content_is_kept_exactly_when_its_json_fits(structured: Any) -> None:
    fits = len(json.dumps(structured, ensure_ascii=False)) <= limits.RECORD_SEEN_CHARS
    seen = _outcome(structured).summary().seen
    assert seen is not None
    assert ("structured" in seen) is fits
    if fits:
        assert seen["structured"] == structured


def test_a_huge_text_output_is_measured_not_kept() -> None:
    outcome = CallOutcome(
        server="s",
        tool="t",
        arguments={},
        raw={"content": []},
        output="é" * 5_000_000,
        error=None,
        schema_problems=None,
        seconds=0.0,
        started_at=datetime.now(timezone.utc),
    )
    summary = outcome.summary()
    assert summary.seen == {} and summary.output_chars == 5_000_000


def _strings(value: Any) -> list[str]:
    """Every string in ``value``: its own, its keys', its items', its attributes'."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(value, list | tuple):
        return [s for item in value for s in _strings(item)]
    if isinstance(value, BaseException):
        return [s for s in (*_strings(list(value.args)), *_strings(vars(value)))]
    return []


def test_a_history_entry_carries_no_result_and_an_outcome_no_history_field() -> None:
    """The history keeps CallRecords: no raw result, no output, no progress, no outputSchema; and
    what only a history keeps (``seen``, a size measured before the output was let go) is not on
    CallOutcome."""
    big = "payload " * 1000
    raw = {"content": [{"type": "text", "text": big}], "structuredContent": {"rows": [big]}, "isError": False}
    error = ToolResultError(big, raw=raw)
    outcome = CallOutcome(
        server="s",
        tool="t",
        arguments={"a": "b"},
        raw=raw,
        output=big,
        error=error,
        schema_problems=None,
        seconds=0.0,
        started_at=datetime.now(timezone.utc),
        progress=((1.0, None, big),),
        output_schema={"title": big},
    )
    record = outcome.summary()
    assert isinstance(record, CallRecord)
    kept = _strings([getattr(record, f.name) for f in dataclasses.fields(CallRecord)])
    assert all(len(text) < len(big) for text in kept), "a history entry holds the result's text"
    assert not {"raw", "output", "progress", "output_schema", "structured"} & set(dir(record))
    assert {f.name for f in dataclasses.fields(CallOutcome)}.isdisjoint({"seen", "kept_output_chars"})
    assert {f.name for f in dataclasses.fields(CallOutcome)} & {f.name for f in dataclasses.fields(CallRecord)} == {
        "server",
        "tool",
        "arguments",
        "error",
        "schema_problems",
        "seconds",
        "started_at",
        "secrets",
        "progress_count",
        "origin",
        "trace_span",
        "requested_by",
    }


def test_a_history_entry_keeps_what_the_history_shows_bounded() -> None:
    outcome = CallOutcome(
        server="s",
        tool="t",
        arguments={"a": "b" * 5000},
        raw={"content": [{"type": "text"}]},
        output="x",
        error=None,
        schema_problems=["p" * 900],
        seconds=1.5,
        started_at=datetime.now(timezone.utc),
        secrets=("k",),
        progress=((1.0, 2.0, "m"),),
        progress_count=1,
        origin="replayed from f",
        output_schema={"type": "object"},
        trace_span=(3, 9),
    )
    summary = outcome.summary()
    for name in (
        "server",
        "tool",
        "seconds",
        "started_at",
        "secrets",
        "progress_count",
        "origin",
        "trace_span",
        "status",
        "shown_status",
        "output_chars",
    ):
        assert getattr(summary, name) == getattr(outcome, name), name
    assert summary.output_chars == 1 and summary.seen == {"output": "x"} and summary.error is None
    assert summary.arguments is not None
    assert summary.schema_problems == ["p" * 500] and len(summary.arguments["a"]) < 5000


@pytest.mark.parametrize(
    ("raw", "error", "status", "shown"),
    [
        ({"content": [{"type": "audio"}]}, None, "ok", "unsupported content"),
        ({"content": [], "isError": True}, None, "ok", "tool error"),
        (
            {"content": [{"type": "text", "text": "no"}], "isError": True},
            ToolResultError("no"),
            "tool error",
            "tool error",
        ),
        (None, ToolTimeoutError("late"), "timeout", "timeout"),
    ],
)
def test_a_history_entry_has_the_status_the_call_had_and_showed(
    raw: dict[str, Any] | None, error: AnviaError | None, status: str, shown: str
) -> None:
    outcome = CallOutcome(
        server="s",
        tool="t",
        arguments={},
        raw=raw,
        output=None,
        error=error,
        schema_problems=None,
        seconds=0.0,
        started_at=datetime.now(timezone.utc),
    )
    record = outcome.summary()
    assert (outcome.status, outcome.shown_status) == (status, shown)
    assert (record.status, record.shown_status, record.is_error) == (status, shown, error is not None)
    assert display_status(record) == display_status(outcome) == shown
