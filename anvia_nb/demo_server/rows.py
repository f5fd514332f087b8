"""Demo tools for maps and tables: ``jitter`` (random latency, fails on request) and ``records``.

``jitter`` answers after a random delay up to ``max_delay_seconds``, so a map's rows finish out
of order; with ``fail: true`` it returns a tool error, so a map has failing rows. ``records``
returns a list of objects in its structuredContent, typed by its outputSchema, for ``r.frame()``.
Both are added to the listing by :mod:`anvia_nb.demo_server.catalog` and dispatched by
:mod:`anvia_nb.demo_server.handlers`.
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any

import anyio

from anvia_nb.demo_server.tool_objects import tool

__all__ = ["ROW_HANDLERS", "ROW_TOOLS"]

JsonObject = dict[str, Any]

logger = logging.getLogger("anvia_nb.demo_server")


ROW_TOOLS: list[JsonObject] = [
    tool(
        "jitter",
        "Jitter",
        "Returns its value after a random delay (fails on request): rows of a map finish out of order.",
        {
            "type": "object",
            "properties": {
                "value": {"type": ["string", "number", "integer", "boolean"], "description": "Sent back"},
                "max_delay_seconds": {"type": "number", "minimum": 0, "maximum": 10, "default": 0.05},
                "fail": {"type": "boolean", "default": False, "description": "Return a tool error instead"},
            },
            "required": ["value"],
            "additionalProperties": False,
        },
        output_schema={
            "type": "object",
            "properties": {"value": {}, "delay_seconds": {"type": "number"}},
            "required": ["value", "delay_seconds"],
        },
    ),
    tool(
        "records",
        "Records",
        "Returns count records {id, name, price, in_stock} as structuredContent, typed by outputSchema.",
        {
            "type": "object",
            "properties": {"count": {"type": "integer", "minimum": 0, "maximum": 1000, "default": 3}},
            "additionalProperties": False,
        },
        output_schema={
            "type": "object",
            "properties": {
                "records": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "id": {"type": "integer"},
                            "name": {"type": "string"},
                            "price": {"type": "number"},
                            "in_stock": {"type": "boolean"},
                        },
                        "required": ["id", "name", "price", "in_stock"],
                    },
                }
            },
            "required": ["records"],
        },
    ),
]


async def _jitter(arguments: JsonObject) -> JsonObject:
    value = arguments["value"]
    delay = random.uniform(0, float(arguments.get("max_delay_seconds", 0.05)))
    try:
        await anyio.sleep(delay)
    except anyio.get_cancelled_exc_class():
        logger.info("jitter cancelled: %s", json.dumps(value))
        raise
    if arguments.get("fail"):
        message = f"jitter failed on purpose for {json.dumps(value)}"
        return {"content": [{"type": "text", "text": message}], "isError": True}
    structured = {"value": value, "delay_seconds": round(delay, 4)}
    return {"content": [{"type": "text", "text": json.dumps(value)}], "structuredContent": structured}


async def _records(arguments: JsonObject) -> JsonObject:
    count = int(arguments.get("count", 3))
    records = [
        {"id": i, "name": f"item {i}", "price": round(1.25 * i, 2), "in_stock": i % 2 == 0} for i in range(1, count + 1)
    ]
    structured = {"records": records}
    return {"content": [{"type": "text", "text": json.dumps(structured)}], "structuredContent": structured}


ROW_HANDLERS: dict[str, Callable[[JsonObject], Awaitable[JsonObject]]] = {"jitter": _jitter, "records": _records}
