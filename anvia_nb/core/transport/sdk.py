"""The one border with the MCP SDK: SDK models in, plain JSON and our errors out.

Everything that touches ``mcp``/``mcp_types`` objects lives here: :func:`open_sdk_session` connects
and yields an :class:`~anvia_nb.core.transport.sdk_session.SdkSession` (whose methods translate SDK
exceptions with :func:`~anvia_nb.core.transport.sdk_errors.error_from_exception`, which makes
foreign errors :mod:`anvia_nb.errors`; docs/architecture.md lists the two other functions that
test an SDK exception); ``stdio`` is the transport we plug into the SDK,
``sdk_capabilities`` roots and sampling, ``sdk_tasks`` tasks, ``sdk_features`` resources and prompts.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import anyio
import httpx2
import mcp_types
from mcp import Client
from mcp.client.session import ClientRequestContext
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError

from anvia_nb.core.exchange.trace import ProtocolTrace
from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.elicitation import with_defaults
from anvia_nb.core.protocol.types import JsonObject
from anvia_nb.core.protocol.versions import sends_log_level_per_request
from anvia_nb.core.transport.http_limits import bound_json_bodies
from anvia_nb.core.transport.sdk_capabilities import (
    SamplingState,
    apps_extension,
    roots_callback,
    sampling_callback,
)
from anvia_nb.core.transport.sdk_errors import connect_error
from anvia_nb.core.transport.sdk_http import Wires, wire_http_client
from anvia_nb.core.transport.sdk_listen import start_listening
from anvia_nb.core.transport.sdk_protocol import client_mode, settle_protocol
from anvia_nb.core.transport.sdk_session import SdkSession, capabilities_of
from anvia_nb.core.transport.sdk_tasks import TasksExtension
from anvia_nb.core.transport.stdio import StdioLaunch, stdio_transport
from anvia_nb.core.transport.trace_streams import traced_transport
from anvia_nb.errors import ConnectError

__all__ = ["HttpLaunch", "MemoryLaunch", "SdkHandlers", "open_sdk_session"]

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
    credential: Callable[[str], None] | None = None
    """Called with the ``Authorization`` value each HTTP request carries (an OAuth token, a refreshed
    one): a secret from then on, before any answer can echo it."""


def _credentials(handlers: SdkHandlers) -> Callable[[httpx2.Request], Awaitable[None]]:
    """A request hook (it runs after the auth flow set the header) telling ``handlers.credential``."""

    async def hook(request: httpx2.Request) -> None:
        value = request.headers.get("authorization")
        if value and handlers.credential is not None:
            handlers.credential(value)

    return hook


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
            answer = with_defaults(request, await handler(request))  # SEP-1034, whoever answered
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
                from anvia_nb.core.transport.http_reads import http_client  # loads httpcore: HTTP only

                timeout = httpx2.Timeout(launch.timeout_seconds, read=None)
                http = http_client(launch.headers, timeout, launch.auth)
                # The SDK reports any HTTP failure as "error response"; keep the status to say which.
                largest = launch.max_message_bytes or limits.MAX_MESSAGE_BYTES
                http.event_hooks = {
                    "request": [_credentials(handlers)], "response": [remember_status, bound_json_bodies(largest)]
                }  # fmt: skip
                http = await stack.enter_async_context(http)
                transport = _http_transport(launch, http, handlers.trace)
            if isinstance(launch, StdioLaunch):
                transport = traced_transport(transport, None)  # only lets go of each answer handed on
            protocol = launch.protocol
            client = Client(
                transport,
                mode=client_mode(protocol),
                elicitation_callback=_elicitation_callback(handlers, server),
                logging_callback=_log_callback(handlers),
                sampling_callback=sampling_callback(handlers.sampling, server, _client_notes(handlers)),
                list_roots_callback=roots_callback(handlers.roots) if handlers.roots else None,
                extensions=[TasksExtension(), apps_extension()],
                log_level=_log_level(handlers.log_level),
                message_handler=_message_handler(handlers),
                client_info=mcp_types.Implementation(name="anvia_nb", version=_version()),
                cache=None,
            )
            await stack.enter_async_context(client)
            try:
                await settle_protocol(client, protocol, server)
            except ConnectError:  # a protocol answer (-32022 comes as HTTP 400): its words, not the status
                failed_statuses.clear()
                raise
            await _ask_for_logs(client, handlers.log_level)
            await start_listening(stack, client, capabilities_of(client), handlers.notification, handlers.note)
        except Exception as exc:
            cwd = launch.cwd if isinstance(launch, StdioLaunch) else None
            authorized = not isinstance(launch, HttpLaunch) or launch.auth is not None
            authorized = authorized or any(key.lower() == "authorization" for key in getattr(launch, "headers", {}))
            with contextlib.suppress(Exception):  # closed here, or the SDK's task groups would wrap the error
                await stack.aclose()
            raise connect_error(exc, server, failed_statuses, cwd, has_auth=authorized) from exc
        yield SdkSession(client, server, handlers.note)


def _http_transport(launch: HttpLaunch, http: httpx2.AsyncClient, trace: ProtocolTrace | None) -> Any:
    """Streamable HTTP read as stdio is (one parse of a body's bytes), its messages traced with
    their wire text, its read stream letting go of each answer once handed on."""
    wires = Wires() if trace is not None else None
    largest = launch.max_message_bytes or limits.MAX_MESSAGE_BYTES
    transport = wire_http_client(launch.url, http_client=http, max_sse_event_size=largest, wires=wires)
    return traced_transport(transport, trace, wires)


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
    if _log_level(level) is None or sends_log_level_per_request(client.protocol_version):
        return
    if "logging" not in capabilities_of(client):
        return
    with contextlib.suppress(MCPError), warnings.catch_warnings():  # a refusal only means fewer logs
        warnings.simplefilter("ignore", MCPDeprecationWarning)  # deprecated from 2026-07-28 on only
        await client.set_logging_level(_log_level(level))


def _version() -> str:
    from anvia_nb._version import __version__

    return __version__
