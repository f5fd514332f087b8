"""Demo tools for the protocol exchange: log messages at every level, and a tool list that changes.

- ``log_levels`` sends one ``notifications/message`` per level (debug to error) while it runs,
  with its ``message``; with ``hostile: true`` it also logs each text payload of the hostile
  corpus, under a hostile logger name, so log views and trace summaries can be tested with them.
- ``change_tools`` adds the tool ``bonus`` to the listing, or takes it away again, and says so
  the way the connection's protocol allows: ``notifications/tools/list_changed`` before
  2026-07-28, an event on the client's ``subscriptions/listen`` stream from 2026-07-28 on.
- ``bump`` adds one to the resource ``demo://counter`` and tells the clients subscribed to it
  (``notifications/resources/updated`` to a ``resources/subscribe`` before 2026-07-28, an event
  on the ``subscriptions/listen`` streams that name the URI from 2026-07-28 on).

The listing is per process (an HTTP demo server shares it between its clients).
"""

from __future__ import annotations

import warnings
from typing import Any

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ResourceUpdated, ToolsListChanged
from mcp.shared.exceptions import MCPDeprecationWarning

from anvia_nb.core.protocol.versions import listens
from anvia_nb.demo_server.hostile import hostile_log_messages
from anvia_nb.demo_server.tool_objects import NO_ARGUMENTS, tool

__all__ = [
    "BONUS",
    "COUNTER_URI",
    "EXCHANGE_TOOLS",
    "LEVELS",
    "LISTEN",
    "SUBSCRIPTION_HANDLERS",
    "call_exchange_tool",
    "counter_text",
    "is_exchange_tool",
    "listed_tools",
]

JsonObject = dict[str, Any]

LEVELS: tuple[types.LoggingLevel, ...] = ("debug", "info", "notice", "warning", "error")
BONUS = "bonus"
COUNTER_URI = "demo://counter"


_CHANGES = {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": False, "openWorldHint": False}

EXCHANGE_TOOLS: list[JsonObject] = [
    tool(
        "log_levels",
        "Log at every level",
        "Sends a log message at each level from debug to error, then answers.",
        {
            "type": "object",
            "properties": {
                "message": {"type": "string", "default": "hello from the demo server"},
                "hostile": {"type": "boolean", "default": False, "description": "Also log the hostile payloads"},
            },
            "additionalProperties": False,
        },
    ),
    tool(
        "change_tools",
        "Change the tool list",
        f"Adds the tool {BONUS!r} to the list, or removes it, and tells the client the list changed.",
        NO_ARGUMENTS,
        annotations=_CHANGES,
    ),
    tool(
        "bump",
        "Bump the counter",
        f"Adds one to the resource {COUNTER_URI} and tells the clients subscribed to it.",
        NO_ARGUMENTS,
        annotations=_CHANGES,
    ),
]

_BONUS_TOOL = tool(BONUS, "Bonus", "Listed only after change_tools added it.", NO_ARGUMENTS)

BUS = InMemorySubscriptionBus()
LISTEN = ListenHandler(BUS)
"""Serves ``subscriptions/listen`` (2026-07-28): the stream the tool list's changes travel on."""

_state = {"bonus": False}
_counter = {"value": 0}
_subscribers: dict[int, Any] = {}
"""The sessions subscribed to ``demo://counter`` with ``resources/subscribe``, by ``id``."""


def counter_text() -> str:
    return f"counter: {_counter['value']}"


async def _subscribe(ctx: ServerRequestContext[Any], params: types.SubscribeRequestParams) -> types.EmptyResult:
    if str(params.uri) == COUNTER_URI:
        _subscribers[id(ctx.session)] = ctx.session
    return types.EmptyResult()


async def _unsubscribe(ctx: ServerRequestContext[Any], params: types.UnsubscribeRequestParams) -> types.EmptyResult:
    if str(params.uri) == COUNTER_URI:
        _subscribers.pop(id(ctx.session), None)
    return types.EmptyResult()


SUBSCRIPTION_HANDLERS: dict[str, Any] = {"on_subscribe_resource": _subscribe, "on_unsubscribe_resource": _unsubscribe}
"""``resources/subscribe`` and ``unsubscribe`` (protocol versions before 2026-07-28)."""


async def _bump(ctx: ServerRequestContext[Any]) -> types.CallToolResult:
    _counter["value"] += 1
    await BUS.publish(ResourceUpdated(uri=COUNTER_URI))  # listen streams that name the URI (2026-07-28)
    for session in list(_subscribers.values()):
        try:
            await session.send_resource_updated(COUNTER_URI)
        except Exception:  # a subscriber gone away is dropped
            _subscribers.pop(id(session), None)
    return _text(counter_text())


def listed_tools(tools: list[JsonObject]) -> list[JsonObject]:
    """The catalog's tools, and ``bonus`` while it is on."""
    return [*tools, _BONUS_TOOL] if _state["bonus"] else tools


def is_exchange_tool(name: str) -> bool:
    return name in ("log_levels", "change_tools", "bump") or (name == BONUS and _state["bonus"])


def _text(text: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)])


async def _log(ctx: ServerRequestContext[Any], level: types.LoggingLevel, data: Any, logger: str) -> None:
    with warnings.catch_warnings():  # logging is deprecated from 2026-07-28 on, and still sent when asked for
        warnings.simplefilter("ignore", MCPDeprecationWarning)
        await ctx.session.send_log_message(level, data, logger, related_request_id=ctx.request_id)


async def call_exchange_tool(ctx: ServerRequestContext[Any], name: str, arguments: JsonObject) -> types.CallToolResult:
    if name == "log_levels":
        message = arguments.get("message", "hello from the demo server")
        for level in LEVELS:
            await _log(ctx, level, f"{level}: {message}", "demo.logs")
        if arguments.get("hostile") is True:
            for logger, text in hostile_log_messages():
                await _log(ctx, "warning", text, logger)
        return _text(f"logged at {len(LEVELS)} levels")
    if name == "change_tools":
        _state["bonus"] = not _state["bonus"]
        if listens(ctx.protocol_version):
            await BUS.publish(ToolsListChanged())
        else:
            await ctx.session.send_tool_list_changed()
        return _text(f"{'added' if _state['bonus'] else 'removed'} the tool {BONUS!r}")
    if name == "bump":
        return await _bump(ctx)
    return _text("bonus")
