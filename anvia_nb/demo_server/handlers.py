"""The demo server as a low-level MCP ``Server``: paginated listing and the tool dispatch.

The low-level server is used (not ``MCPServer``) so every result goes out as built: MCPServer
checks structured output itself and would turn ``schema_mismatch`` into an error, and clients
must be tested against servers that really send mismatched data.

Three tools need the request context and live here: ``slow`` (progress, cancellation),
``confirm_action`` (elicitation, in both protocol eras) and ``crash`` (ends the process).
"""

from __future__ import annotations

import base64
import binascii
import logging
import os
import sys
from typing import Any

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from anvia_nb.core.protocol.versions import has_input_rounds
from anvia_nb.demo_server.account_app import ACCOUNT_APP_NAMES, account_app_error, call_account_app_tool
from anvia_nb.demo_server.apps import call_app_tool, is_app_tool
from anvia_nb.demo_server.capabilities import CAPABILITY_TOOLS, ToolAnswer, call_capability_tool, install
from anvia_nb.demo_server.catalog import TOOLS, TOOLS_BY_NAME
from anvia_nb.demo_server.exchange import (
    LISTEN,
    SUBSCRIPTION_HANDLERS,
    call_exchange_tool,
    is_exchange_tool,
    listed_tools,
)
from anvia_nb.demo_server.hostile_app import HOSTILE_APP_NAMES, call_hostile_app_tool
from anvia_nb.demo_server.library import HANDLERS as LIBRARY_HANDLERS
from anvia_nb.demo_server.results import SIMPLE_TOOLS, argument_problems, error_result, text_result
from anvia_nb.demo_server.rows import ROW_HANDLERS
from anvia_nb.demo_server.skills import install as install_skills

__all__ = ["CONFIRM_INPUT_KEY", "CONFIRM_SCHEMA", "PAGE_SIZE", "SERVER_NAME", "build_server"]

logger = logging.getLogger("anvia_nb.demo_server")

SERVER_NAME = "anvia-demo"
PAGE_SIZE = 8
"""Tools per ``tools/list`` page: small on purpose, so clients must follow ``nextCursor``."""

CRASH_EXIT_CODE = 3
CONFIRM_INPUT_KEY = "confirm"
CONFIRM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "confirm": {"type": "boolean", "title": "Confirm", "description": "Go ahead with the action?"},
        "reason": {"type": "string", "title": "Reason", "description": "Optional note"},
    },
    "required": ["confirm"],
}

INSTRUCTIONS = (
    "The demo server bundled with anvia_nb, for notebooks, tests and workshops. "
    "echo, add, concat_texts, image and the resource tools show each kind of result; "
    "slow reports progress, confirm_action asks for input, form_showcase exercises forms. "
    "Some tools misbehave on purpose: schema_mismatch breaks its outputSchema, fail and "
    "fail_silently return errors, untrusted and untrusted_all send hostile content, and "
    "crash ends the server process."
)

_CURSOR_PREFIX = "anvia-demo-tools:"
_Context = ServerRequestContext[Any]
CAPABILITY_NAMES = frozenset(tool["name"] for tool in CAPABILITY_TOOLS)


def _cursor_for(offset: int) -> str:
    return base64.urlsafe_b64encode(f"{_CURSOR_PREFIX}{offset}".encode()).decode("ascii")


def _offset_from(cursor: str | None) -> int:
    """The listing offset an opaque cursor stands for; a forged or stale one is a protocol error."""
    if cursor is None:
        return 0
    try:
        text = base64.urlsafe_b64decode(cursor.encode("ascii")).decode("utf-8")
        if not text.startswith(_CURSOR_PREFIX):
            raise ValueError(text)
        offset = int(text[len(_CURSOR_PREFIX) :])
    except (ValueError, UnicodeError, binascii.Error) as error:
        raise MCPError(code=types.INVALID_PARAMS, message="Invalid tools/list cursor") from error
    if not 0 <= offset < len(listed_tools(TOOLS)):
        raise MCPError(code=types.INVALID_PARAMS, message="Invalid tools/list cursor")
    return offset


async def _list_tools(_ctx: _Context, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    offset = _offset_from(params.cursor if params is not None else None)
    end = offset + PAGE_SIZE
    tools = listed_tools(TOOLS)
    page: dict[str, Any] = {"tools": tools[offset:end]}
    if end < len(tools):
        page["nextCursor"] = _cursor_for(end)
    return types.ListToolsResult.model_validate(page)


def _wire(result: dict[str, Any]) -> types.CallToolResult:
    return types.CallToolResult.model_validate(result)


async def _slow(ctx: _Context, arguments: dict[str, Any]) -> dict[str, Any]:
    """Sleeps ``steps`` times, reporting progress after each; a cancel ends it at the next await."""
    steps: int = arguments.get("steps", 5)
    delay_seconds: float = arguments.get("delay_seconds", 0.2)
    done = 0
    logger.info("slow started: %d steps", steps)
    try:
        for step in range(1, steps + 1):
            await anyio.sleep(delay_seconds)
            done = step
            await ctx.session.report_progress(step, steps, f"step {step} of {steps}")
    except anyio.get_cancelled_exc_class():
        logger.info("slow cancelled after %d of %d steps", done, steps)
        raise
    return text_result(f"done after {steps} steps")


def _client_can_elicit(ctx: _Context) -> bool:
    wanted = types.ClientCapabilities(elicitation=types.ElicitationCapability())
    return ctx.session.check_client_capability(wanted)


def _confirm_verdict(action: str, answer: types.ElicitResult) -> str:
    if answer.action == "decline":
        return f"Declined: {action}"
    if answer.action == "cancel":
        return f"Cancelled: {action}"
    content = answer.content or {}
    reason = content.get("reason")
    verdict = "Confirmed" if content.get("confirm") is True else "Not confirmed"
    return f"{verdict}: {action}" + (f" (reason: {reason})" if isinstance(reason, str) and reason else "")


async def _confirm_action(
    ctx: _Context, params: types.CallToolRequestParams, arguments: dict[str, Any]
) -> types.CallToolResult | types.InputRequiredResult:
    """Asks the user by form elicitation, the way the connection's protocol era allows.

    2026-07-28 has no server-to-client requests: the server answers ``input_required`` with the
    elicitation embedded, and the client retries the call carrying the answer. Earlier versions
    send ``elicitation/create`` to the client in the middle of the call.
    """
    action: str = arguments["action"]
    if not _client_can_elicit(ctx):
        return _wire(error_result("confirm_action needs a client that supports form elicitation"))
    message = f"Confirm this action: {action}"
    if has_input_rounds(ctx.protocol_version):
        answer = (params.input_responses or {}).get(CONFIRM_INPUT_KEY)
        if answer is None:
            request = types.ElicitRequest(
                params=types.ElicitRequestFormParams(message=message, requested_schema=CONFIRM_SCHEMA)
            )
            return types.InputRequiredResult(input_requests={CONFIRM_INPUT_KEY: request})
        if not isinstance(answer, types.ElicitResult):
            return _wire(error_result(f"expected an elicitation answer under {CONFIRM_INPUT_KEY!r}"))
    else:
        try:
            answer = await ctx.session.elicit_form(message, CONFIRM_SCHEMA, related_request_id=ctx.request_id)
        except MCPError as error:
            return _wire(error_result(f"the client could not answer the elicitation: {error}"))
    return _wire(text_result(_confirm_verdict(action, answer)))


def _crash() -> None:
    logger.warning("crash requested: exiting with code %d", CRASH_EXIT_CODE)
    sys.stderr.flush()
    os._exit(CRASH_EXIT_CODE)


async def _call_tool(ctx: _Context, params: types.CallToolRequestParams) -> ToolAnswer:
    name = params.name
    if is_exchange_tool(name) and name not in TOOLS_BY_NAME:  # the tool change_tools adds
        return await call_exchange_tool(ctx, name, params.arguments or {})
    if name not in TOOLS_BY_NAME:
        raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {name}")
    arguments = params.arguments or {}
    problems = argument_problems(name, arguments)
    if problems:
        return _wire(error_result(f"Invalid arguments for {name}: " + "; ".join(problems)))
    if is_exchange_tool(name):
        return await call_exchange_tool(ctx, name, arguments)
    if name == "slow":
        return _wire(await _slow(ctx, arguments))
    if name == "confirm_action":
        return await _confirm_action(ctx, params, arguments)
    if name == "crash":
        _crash()
    if name in CAPABILITY_NAMES:  # ask_model (sampling), long_job (a task): see capabilities.py
        return await call_capability_tool(ctx, params, arguments)
    if is_app_tool(name):  # counter_app and the tools of its view: apps.py
        return call_app_tool(ctx, name, arguments)
    if name in HOSTILE_APP_NAMES:
        return _wire(call_hostile_app_tool(name, arguments))
    if name in ACCOUNT_APP_NAMES:
        refusal = account_app_error(name, arguments)
        if refusal is not None:  # the server's own words, as a JSON-RPC error
            raise MCPError(code=types.INVALID_PARAMS, message=refusal)
        return _wire(call_account_app_tool(name, arguments))
    if name in ROW_HANDLERS:
        return _wire(await ROW_HANDLERS[name](arguments))
    return _wire(SIMPLE_TOOLS[name](arguments))


def _input_schema(name: str) -> dict[str, Any] | None:
    tool = TOOLS_BY_NAME.get(name)
    return None if tool is None else tool["inputSchema"]


def build_server() -> Server[Any]:
    """A fresh demo server, ready for ``run`` on any transport or for ``mcp.Client(server)``."""
    from anvia_nb._version import __version__

    server: Server[Any] = Server(
        SERVER_NAME,
        version=__version__,
        title="Anvia demo server",
        description="Every kind of MCP tool result, including the wrong and hostile ones.",
        instructions=INSTRUCTIONS,
        get_tool_input_schema=_input_schema,
        on_list_tools=_list_tools,
        # The SDK types on_call_tool without the task result (a dict) its runner sends as it is.
        on_call_tool=_call_tool,  # type: ignore[arg-type]  # the SDK's stub omits the task result (a dict)
        **LIBRARY_HANDLERS,
        **SUBSCRIPTION_HANDLERS,
        on_subscriptions_listen=LISTEN,
    )
    install(server)  # tasks/get and tasks/cancel for long_job
    install_skills(server)  # skills/list, skills/get and the skill:// files (SEP-2640)
    return server
