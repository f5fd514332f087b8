"""The one border with the MCP SDK: SDK models in, plain JSON and our errors out.

Everything that touches ``mcp``/``mcp_types`` objects lives here (and in ``_stdio``, the transport
we plug into the SDK; in ``_sdk_capabilities``, roots and sampling; in ``_sdk_tasks``, tasks).
Each method of :class:`SdkSession` translates SDK exceptions with
:func:`~anvia_nb.core.transport.sdk_errors.error_from_exception`, the only place foreign errors become
:mod:`anvia_nb.errors`.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, cast

import anyio
import httpx2
import mcp_types
from mcp import Client
from mcp.client.session import ClientRequestContext
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.dispatcher import ProgressFnT
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError

from anvia_nb.core.exchange.trace import ProtocolTrace
from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.types import JsonObject, ProgressHandler, ToolInfo
from anvia_nb.core.transport.http_limits import bound_json_bodies
from anvia_nb.core.transport.sdk_capabilities import SamplingState, roots_callback, sampling_callback
from anvia_nb.core.transport.sdk_errors import connect_error, error_from_exception
from anvia_nb.core.transport.sdk_listen import start_listening
from anvia_nb.core.transport.sdk_protocol import client_mode, settle_protocol
from anvia_nb.core.transport.sdk_tasks import TasksExtension, call_as_task
from anvia_nb.core.transport.stdio import StdioLaunch, stdio_transport
from anvia_nb.core.transport.trace_streams import traced_transport
from anvia_nb.errors import AnviaError

__all__ = ["HttpLaunch", "MemoryLaunch", "SdkHandlers", "SdkSession", "open_sdk_session"]

ElicitationHandler = Callable[[JsonObject], Awaitable[JsonObject]]
"""Takes ``{"message", "mode", "requestedSchema" | "url", "server"}``, returns ``{"action", "content"}``."""
LogHandler = Callable[[str, str | None, Any], None]
NotificationHandler = Callable[[str], None]

_LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")


@dataclass(frozen=True)
class HttpLaunch:
    """Where to connect over streamable HTTP, with headers and an optional httpx2 auth."""

    url: str = field(repr=False)  # the URL and headers may hold secrets: never in a repr
    headers: dict[str, str] = field(repr=False)
    timeout_seconds: float | None
    """Connect, write and pool timeout (``None``: no limit). Reads have no timeout of their own:
    each request is bounded by its caller (a call's ``timeout_seconds``, the connect timeout)."""
    auth: Any = field(default=None, repr=False)
    max_message_bytes: int | None = None
    """Largest SSE event or JSON body accepted (``None``: :data:`anvia_nb.core.protocol.limits.MAX_MESSAGE_BYTES`)."""
    protocol: str | None = None
    """The protocol generation to speak (:mod:`anvia_nb.core.protocol.versions`; ``None``: discover, then fall back)."""


@dataclass(frozen=True)
class MemoryLaunch:
    """An in-process server object (``mcp.server.lowlevel.Server`` or ``MCPServer``), for tests and teaching."""

    server: Any
    protocol: str | None = None


@dataclass
class SdkHandlers:
    """Callbacks a session calls for what the server sends on its own initiative."""

    elicitation: ElicitationHandler | None = None
    log: LogHandler | None = None
    note: Callable[[str, str], None] | None = None
    """``note(level, text)``: a note of anvia_nb's own in the connection's log."""
    notification: NotificationHandler | None = None
    resource_updated: Callable[[str], None] | None = None
    """``resource_updated(uri)`` for each ``notifications/resources/updated`` (core/subscriptions.py)."""
    unanswered_elicitations: int = 0
    log_level: str | None = None
    """The least severe ``notifications/message`` level asked of the server, or ``None``."""
    roots: tuple[str, ...] = ()
    """Absolute paths offered to the server as roots (none: the roots capability is not declared)."""
    sampling: SamplingState = field(default_factory=SamplingState)
    trace: ProtocolTrace | None = None
    """Where the JSON-RPC messages of a stdio or HTTP connection are recorded (``%mcp trace``)."""
    server_exit_status: int | None = None
    """A stdio server's exit status once its process ended (negative: the signal that ended it)."""


def tool_info_from_sdk(tool: mcp_types.Tool, server: str) -> ToolInfo:
    annotations = tool.annotations.model_dump(by_alias=True, exclude_none=True) if tool.annotations else None
    icons = tuple(icon.model_dump(by_alias=True, exclude_none=True) for icon in tool.icons or ())
    return ToolInfo(
        server=server,
        name=tool.name,
        title=tool.title,
        description=tool.description,
        input_schema=dict(tool.input_schema),
        output_schema=dict(tool.output_schema) if tool.output_schema is not None else None,
        annotations=annotations,
        icons=icons,
        task_support=tool.execution.task_support if tool.execution is not None else None,
    )


class SdkSession:
    """A connected ``mcp.Client`` seen through plain data; every method translates its errors."""

    def __init__(self, client: Client, server: str) -> None:
        self._client = client
        self._server = server
        # Core validates outputSchema itself (the SDK's check raises a bare RuntimeError, loses the
        # result, and lists tools again on every call to a tool it has not seen).
        self._client.session.validate_tool_result = _skip_validation  # type: ignore[method-assign]

    @property
    def protocol_version(self) -> str:
        return self._client.protocol_version

    @property
    def server_info(self) -> JsonObject:
        info = self._client.server_info
        return info.model_dump(by_alias=True, exclude_none=True) if info is not None else {}

    @property
    def instructions(self) -> str | None:
        return self._client.instructions

    @property
    def sdk_client(self) -> Client:
        """The SDK client, for the other requests (resources, prompts: ``_sdk_features``)."""
        return self._client

    @property
    def server_name(self) -> str:
        return self._server

    @property
    def capabilities(self) -> JsonObject:
        """What the server said it can do, as JSON with wire keys."""
        return self._client.server_capabilities.model_dump(by_alias=True, mode="json", exclude_none=True)

    @property
    def server_capabilities(self) -> JsonObject:
        capabilities = self._client.server_capabilities
        return capabilities.model_dump(by_alias=True, mode="json", exclude_none=True) if capabilities else {}

    async def list_tools(self, page_limit: int = 1000) -> list[ToolInfo]:
        """Every page of tools/list, once."""
        tools: list[ToolInfo] = []
        cursor: str | None = None
        try:
            for _ in range(page_limit):
                page = await self._client.list_tools(cursor=cursor, cache_mode="bypass")
                tools.extend(tool_info_from_sdk(t, self._server) for t in page.tools)
                cursor = page.next_cursor
                if cursor is None:
                    break
        except Exception as exc:
            raise error_from_exception(exc, server=self._server, during="listing tools") from exc
        return tools

    async def call_tool(
        self,
        name: str,
        arguments: JsonObject | None,
        *,
        timeout_seconds: float | None,
        on_progress: ProgressHandler | None,
        as_task: bool = False,
    ) -> JsonObject:
        """One tools/call; the raw result as JSON with wire keys. A timeout cancels the request.

        ``as_task``: before 2026-07-28, ask the server to run it as a task (``_sdk_tasks``); from
        2026-07-28 on the server decides, and a task it makes is followed either way."""
        try:
            # The call's whole-time bound: when it passes, the task is cancelled (the SDK tells the
            # server, notifications/cancelled) and the call raises TimeoutError.
            with anyio.fail_after(timeout_seconds):
                progress = cast("ProgressFnT | None", on_progress)
                if self.protocol_version >= "2026-07-28":
                    result = await self._client.call_tool(name, arguments, progress_callback=progress)
                elif as_task:
                    return await call_as_task(self._client.session, name, arguments, server=self._server)
                else:
                    # Before 2026-07-28 the Client's layer adds nothing to a call (its input rounds,
                    # claimed results and header retry are 2026-07-28's) and costs a call 1.5%.
                    result = await self._client.session.call_tool(name, arguments, progress_callback=progress)
        except AnviaError:
            raise
        except TimeoutError:  # said as the SDK's own request timeout is
            raise error_from_exception(TimeoutError(), server=self._server, tool=name) from None
        except Exception as exc:
            raise error_from_exception(exc, server=self._server, tool=name) from exc
        return wire_json(result)


def wire_json(model: Any) -> JsonObject:
    """An SDK model as JSON with wire keys, nulls left out: what ``model_dump(by_alias=True,
    mode="json", exclude_none=True)`` gives, from the model's serializer without the Python layer
    around it (a third of the dump's cost, on every call's result)."""
    dumped: JsonObject = type(model).__pydantic_serializer__.to_python(
        model, by_alias=True, mode="json", exclude_none=True
    )
    return dumped


async def _skip_validation(name: str, result: mcp_types.CallToolResult) -> None:
    return None


def _elicitation_callback(handlers: SdkHandlers, server: str) -> Any:
    async def callback(
        context: ClientRequestContext, params: mcp_types.ElicitRequestParams
    ) -> mcp_types.ElicitResult | mcp_types.ErrorData:
        handler = handlers.elicitation
        request = params.model_dump(by_alias=True, mode="json", exclude_none=True)
        request["server"] = server
        if handler is None:
            # Nobody can answer: cancel (the spec's "dismissed"), and say so where people look.
            handlers.unanswered_elicitations += 1
            if handlers.note is not None:
                handlers.note("warning", "the server asked for input and nothing could answer: cancelled")
            return mcp_types.ElicitResult(action="cancel")
        try:
            answer = await handler(request)
            return mcp_types.ElicitResult.model_validate(answer)
        except Exception as exc:  # a UI failure must answer the server, not kill the session
            return mcp_types.ErrorData(code=mcp_types.INTERNAL_ERROR, message=f"elicitation failed: {exc}")

    return callback


def _log_callback(handlers: SdkHandlers) -> Any:
    async def callback(params: mcp_types.LoggingMessageNotificationParams) -> None:
        if handlers.log is not None:
            handlers.log(params.level, params.logger, params.data)

    return callback


def _message_handler(handlers: SdkHandlers) -> Any:
    async def handler(message: Any) -> None:
        if handlers.notification is not None and isinstance(message, mcp_types.ServerNotification):
            method = getattr(getattr(message, "root", message), "method", "")
            handlers.notification(str(method))
            uri = getattr(getattr(getattr(message, "root", message), "params", None), "uri", None)
            if method == "notifications/resources/updated" and uri is not None and handlers.resource_updated:
                handlers.resource_updated(str(uri))
        await anyio.lowlevel.checkpoint()

    return handler


@asynccontextmanager
async def open_sdk_session(
    server: str, launch: StdioLaunch | HttpLaunch | MemoryLaunch, handlers: SdkHandlers
) -> AsyncIterator[SdkSession]:
    """Connect, handshake and yield a session; must be entered and exited by the same task."""
    failed_statuses: list[int] = []

    async def remember_status(response: httpx2.Response) -> None:
        if response.status_code >= 400:
            failed_statuses.append(response.status_code)

    async with contextlib.AsyncExitStack() as stack:
        try:
            transport: Any
            if isinstance(launch, MemoryLaunch):
                transport = launch.server
            elif isinstance(launch, StdioLaunch):
                transport = stdio_transport(  # traced at the pipe itself
                    launch, handlers.trace, on_exit=lambda status: setattr(handlers, "server_exit_status", status)
                )
            else:
                timeout = httpx2.Timeout(launch.timeout_seconds, read=None)
                http = create_mcp_http_client(headers=launch.headers, timeout=timeout, auth=launch.auth)
                # The SDK reports any HTTP failure as "error response"; keep the status to say which.
                largest = launch.max_message_bytes or limits.MAX_MESSAGE_BYTES
                http.event_hooks = {"request": [], "response": [remember_status, bound_json_bodies(largest)]}
                http = await stack.enter_async_context(http)
                transport = streamable_http_client(launch.url, http_client=http, max_sse_event_size=largest)
            if handlers.trace is not None and isinstance(launch, HttpLaunch):
                transport = traced_transport(transport, handlers.trace)
            protocol = launch.protocol
            client = Client(
                transport,
                mode=client_mode(protocol),
                elicitation_callback=_elicitation_callback(handlers, server),
                logging_callback=_log_callback(handlers),
                sampling_callback=sampling_callback(handlers.sampling, server, _client_notes(handlers)),
                list_roots_callback=roots_callback(handlers.roots) if handlers.roots else None,
                extensions=[TasksExtension()],
                log_level=_log_level(handlers.log_level),
                message_handler=_message_handler(handlers),
                client_info=mcp_types.Implementation(name="anvia_nb", version=_version()),
                cache=None,
            )
            await stack.enter_async_context(client)
            await settle_protocol(client, protocol, server)
            await _ask_for_logs(client, handlers.log_level)
            await start_listening(stack, client, handlers.notification, handlers.note)
        except Exception as exc:
            cwd = launch.cwd if isinstance(launch, StdioLaunch) else None
            authorized = not isinstance(launch, HttpLaunch) or launch.auth is not None
            authorized = authorized or any(key.lower() == "authorization" for key in getattr(launch, "headers", {}))
            with contextlib.suppress(Exception):  # closed here, or the SDK's task groups would wrap the error
                await stack.aclose()
            raise connect_error(exc, server, failed_statuses, cwd, has_auth=authorized) from exc
        yield SdkSession(client, server)


def _client_notes(handlers: SdkHandlers) -> LogHandler | None:
    """A log handler whose lines are anvia_nb's own notes (source ``client``), not the server's."""
    note = handlers.note
    if note is None:
        return None
    return lambda level, _logger, data: note(level, str(data))


def _log_level(level: str | None) -> Any:
    return level if level in _LOG_LEVELS else None


async def _ask_for_logs(client: Client, level: str | None) -> None:
    """On protocols before 2026-07-28, ``logging/setLevel`` once (when the server logs at all);
    from 2026-07-28 on, the level travels with every request instead."""
    if _log_level(level) is None or client.protocol_version >= "2026-07-28":
        return
    if client.server_capabilities.logging is None:
        return
    with contextlib.suppress(MCPError), warnings.catch_warnings():  # a refusal only means fewer logs
        warnings.simplefilter("ignore", MCPDeprecationWarning)  # deprecated from 2026-07-28 on only
        await client.set_logging_level(_log_level(level))


def _version() -> str:
    from anvia_nb._version import __version__

    return __version__
