"""Opening the SDK's ``Client``: the one place a session of the MCP SDK is made.

:func:`open_sdk_session` wraps the transport a launch supplies (stdio, streamable HTTP, an
in-process server: the launch's ``open``, :class:`~anvia_nb.core.transport.session.SessionOpener`)
in an ``mcp.Client`` with our callbacks (:class:`~anvia_nb.core.transport.handlers.SessionHandlers`
become the SDK's elicitation, logging, sampling, roots and message callbacks), settles the protocol
generation, asks for logs, starts listening for change events, and yields an
:class:`~anvia_nb.core.transport.sdk.session.SdkSession`. A failure on the way becomes a
:class:`~anvia_nb.errors.ConnectError` (:func:`~anvia_nb.core.transport.sdk.errors.connect_error`,
with what the transport told :class:`ConnectFacts`). No launch class is known here.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias

import anyio
import mcp_types
from mcp import Client
from mcp.client.session import ClientRequestContext
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError

from anvia_nb.core.exchange.logs import LOG_LEVELS
from anvia_nb.core.protocol.elicitation import with_defaults
from anvia_nb.core.protocol.versions import sends_log_level_per_request
from anvia_nb.core.transport.handlers import LogHandler, SessionHandlers
from anvia_nb.core.transport.sdk.capabilities import apps_extension, roots_callback, sampling_callback
from anvia_nb.core.transport.sdk.errors import connect_error
from anvia_nb.core.transport.sdk.listen import start_listening
from anvia_nb.core.transport.sdk.protocol import client_mode, settle_protocol
from anvia_nb.core.transport.sdk.session import SdkSession, capabilities_of
from anvia_nb.core.transport.sdk.tasks import TasksExtension
from anvia_nb.errors import ConnectError

if TYPE_CHECKING:
    from mcp.client import Transport
    from mcp.server.lowlevel import Server
    from mcp.server.mcpserver import MCPServer

__all__ = ["ClientTarget", "ConnectFacts", "MakeTransport", "open_sdk_session"]

ClientTarget: TypeAlias = "Transport | Server[Any] | MCPServer"
"""What the SDK's ``Client`` connects over: a transport, or an SDK server object in this process."""


@dataclass
class ConnectFacts:
    """What only the transport knows of a connect, to say why it failed (:func:`connect_error`)."""

    cwd: str | None = None
    """A stdio server's working directory (a missing one is named)."""
    has_auth: bool = True
    """Whether the requests carry credentials (an HTTP 401 without any says to add some)."""
    failed_statuses: list[int] = field(default_factory=list)
    """The HTTP statuses of 400 and above answered while connecting, to say which failure it was."""


MakeTransport = Callable[[contextlib.AsyncExitStack[bool | None], ConnectFacts], Awaitable[ClientTarget]]
"""``make(stack, facts)``: the transport the SDK's ``Client`` speaks over (or an in-process SDK
server). What it opens itself it enters on ``stack`` (closed with the session); it tells ``facts``
what an error message needs."""


def _elicitation_callback(handlers: SessionHandlers, server: str) -> Any:
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


def _log_callback(handlers: SessionHandlers) -> Any:
    async def callback(params: mcp_types.LoggingMessageNotificationParams) -> None:
        if handlers.log is not None:
            handlers.log(params.level, params.logger, params.data)

    return callback


def _message_handler(handlers: SessionHandlers) -> Any:
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
    server: str, handlers: SessionHandlers, protocol: str | None, make_transport: MakeTransport
) -> AsyncIterator[SdkSession]:
    """Connect over the transport ``make_transport`` gives, handshake on ``protocol``
    (:mod:`anvia_nb.core.protocol.versions`) and yield a session; must be entered and exited by the
    same task. Any failure becomes a :class:`~anvia_nb.errors.ConnectError` (:func:`connect_error`)."""
    facts = ConnectFacts()
    async with contextlib.AsyncExitStack() as stack:
        try:
            client = Client(
                await make_transport(stack, facts),
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
                facts.failed_statuses.clear()
                raise
            await _ask_for_logs(client, handlers.log_level)
            await start_listening(stack, client, capabilities_of(client), handlers.notification, handlers.note)
        except Exception as exc:
            with contextlib.suppress(Exception):  # closed here, or the SDK's task groups would wrap the error
                await stack.aclose()
            raise connect_error(exc, server, facts.failed_statuses, facts.cwd, has_auth=facts.has_auth) from exc
        yield SdkSession(client, server, handlers.note)


def _client_notes(handlers: SessionHandlers) -> LogHandler | None:
    """A log handler whose lines are anvia_nb's own notes (source ``client``), not the server's."""
    note = handlers.note
    if note is None:
        return None
    return lambda level, _logger, data: note(level, str(data))


def _log_level(level: str | None) -> Any:
    return level if level in LOG_LEVELS else None


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
