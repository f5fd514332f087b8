"""A history's record keeps each of the outcome's fields under its own name (the record is built by
position, so a swapped pair would show here), and the bounded copy of the arguments is the same
value as the recursive rule makes, whether a value is kept as it is or cut."""

from __future__ import annotations

import dataclasses
from datetime import datetime, timezone
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.bounded import bounded_json
from anvia_nb.core.protocol.types import CallOutcome, CallRecord
from anvia_nb.errors import ToolResultError
from tests.helpers.support import examples


def _outcome() -> CallOutcome:
    return CallOutcome(
        server="the-server",
        tool="the-tool",
        arguments={"message": "hi", "n": 3},
        raw={"content": [{"type": "text", "text": "boom"}], "isError": True},
        output=None,
        error=ToolResultError("boom", server="the-server", tool="the-tool"),
        schema_problems=["one problem"],
        seconds=1.25,
        started_at=datetime(2026, 12, 7, 14, 0, tzinfo=timezone.utc),
        secrets=("a-secret-value",),
        progress=((1.0, 2.0, "half"),),
        progress_count=7,
        origin="replayed from calls.json",
        requested_by="app ui://view",
        trace_span=(11, 12),
        flagged="tool-poisoning:high",
    )


def test_every_field_of_the_record_holds_the_outcomes_value_of_that_name() -> None:
    outcome = _outcome()
    record = outcome.summary()
    kept_as_is = {"server", "tool", "seconds", "started_at", "secrets", "progress_count", "origin", "trace_span"}
    kept_as_is |= {"requested_by", "schema_problems", "arguments"}  # short: their bounded copies are equal
    for name in kept_as_is:
        assert getattr(record, name) == getattr(outcome, name), name
    assert (record.status, record.shown_status) == ("tool error", "tool error")
    assert isinstance(record.error, ToolResultError) and str(record.error) == "boom"
    assert record.output_chars is None and record.seen == {}
    assert {f.name for f in dataclasses.fields(CallRecord)} == kept_as_is | {
        "status",
        "shown_status",
        "error",
        "output_chars",
        "seen",
    }


def _by_the_rule(value: Any, depth: int = 0) -> Any:
    """bounded_json's rule written as plainly as it reads, every value through a call."""
    chars, items = limits.KEPT_JSON_CHARS, limits.KEPT_JSON_ITEMS
    if isinstance(value, str):
        return value if len(value) <= chars else f"{value[:chars]}… ({len(value) - chars} more)"
    if depth >= limits.KEPT_JSON_DEPTH and isinstance(value, dict | list):
        return "…"
    if isinstance(value, dict):
        kept = {str(k)[:chars]: _by_the_rule(v, depth + 1) for k, v in list(value.items())[:items]}
        if len(value) > items:
            kept["…"] = f"{len(value) - items} more"
        return kept
    if isinstance(value, list):
        shortened = [_by_the_rule(v, depth + 1) for v in value[:items]]
        return [*shortened, f"… {len(value) - items} more"] if len(value) > items else shortened
    return value


LONG = limits.KEPT_JSON_CHARS + 3
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=LONG),
    lambda inner: (
        st.lists(inner, max_size=limits.KEPT_JSON_ITEMS + 2)
        | st.dictionaries(st.text(max_size=LONG) | st.integers(), inner, max_size=limits.KEPT_JSON_ITEMS + 2)
    ),
    max_leaves=60,
)


@settings(max_examples=examples(60), deadline=None)
@given(st.dictionaries(st.text(max_size=LONG), VALUES, max_size=limits.KEPT_JSON_ITEMS + 2))
def test_the_bounded_copy_of_arguments_is_what_the_rule_makes(arguments: dict[str, Any]) -> None:
    assert bounded_json(arguments) == _by_the_rule(arguments)


def test_a_long_key_and_a_long_value_are_cut_and_short_ones_kept() -> None:
    long = "k" * LONG
    copy = bounded_json({long: "v" * LONG, "short": "hi", 3: 1.5})
    assert copy == {
        long[: limits.KEPT_JSON_CHARS]: "v" * limits.KEPT_JSON_CHARS + "… (3 more)",
        "short": "hi",
        "3": 1.5,
    }
