"""A call's outcome keeps each value under its own name: ``Tool.call_outcome`` builds it by position
(cheaper than by keyword), so a swapped pair of fields would show here. Real calls of the demo
server over stdio: one that reports progress, one whose structuredContent breaks its outputSchema.
"""

from __future__ import annotations

import dataclasses
import sys
from datetime import datetime, timezone

import pytest

from anvia_nb import connect_mcp, mcp
from anvia_nb.core.protocol.types import CallOutcome
from anvia_nb.errors import OutputSchemaError
from tests.helpers.support import DEMO_ARGS

pytestmark = pytest.mark.anyio


async def test_each_field_of_a_calls_outcome_holds_its_own_value() -> None:
    connection = mcp.stdio(name="demo", command=sys.executable, args=DEMO_ARGS)
    async with await connect_mcp(connection) as server:
        before = datetime.now(timezone.utc)
        slow = await server.tool("slow").call_outcome({"steps": 2, "delay_seconds": 0})
        mismatch = await server.tool("schema_mismatch").call_outcome({})

    assert (slow.server, slow.tool, slow.arguments) == ("demo", "slow", {"steps": 2, "delay_seconds": 0})
    assert slow.raw is not None and isinstance(slow.raw.get("content"), list)
    assert isinstance(slow.output, str) and slow.output
    assert (slow.error, slow.schema_problems, slow.output_schema) == (None, None, None)
    assert isinstance(slow.seconds, float) and slow.seconds >= 0
    assert isinstance(slow.started_at, datetime) and slow.started_at >= before
    assert isinstance(slow.secrets, tuple)
    assert [step[:2] for step in slow.progress] == [(1, 2), (2, 2)] and slow.progress_count == 2
    assert (slow.origin, slow.requested_by, slow.flagged) == (None, None, "")
    assert slow.trace_span is not None and slow.trace_span[0] < slow.trace_span[1]

    assert mismatch.tool == "schema_mismatch" and mismatch.output_schema == server.tool("schema_mismatch").output_schema
    assert isinstance(mismatch.error, OutputSchemaError)
    assert mismatch.schema_problems and mismatch.schema_problems == mismatch.error.problems
    assert mismatch.trace_span is not None and slow.trace_span[1] < mismatch.trace_span[0]


def test_the_fields_are_the_ones_the_outcome_is_built_with() -> None:
    # call_outcome passes them in this order: a field added, removed or moved must be placed there too.
    assert [field.name for field in dataclasses.fields(CallOutcome)] == [
        "server",
        "tool",
        "arguments",
        "raw",
        "output",
        "error",
        "schema_problems",
        "seconds",
        "started_at",
        "secrets",
        "progress",
        "progress_count",
        "origin",
        "requested_by",
        "output_schema",
        "trace_span",
        "flagged",
    ]
