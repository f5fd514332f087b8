"""``SdkSession``: a connected ``mcp.Client`` seen through plain data (a
:class:`~anvia_nb.core.transport.session.Session`).

Opened by :func:`~anvia_nb.core.transport.sdk.connect.open_sdk_session`. Each method translates the SDK's
exceptions with :func:`~anvia_nb.core.transport.sdk.errors.error_from_exception`, which makes
foreign errors :mod:`anvia_nb.errors`; resources, prompts and completion are in
:mod:`~anvia_nb.core.transport.sdk.features`, tasks in :mod:`~anvia_nb.core.transport.sdk.tasks`,
resource subscriptions in :mod:`~anvia_nb.core.transport.sdk.listen`.
"""

from __future__ import annotations

import asyncio
import math
import sys
from collections.abc import Callable
from types import TracebackType

import anyio
import mcp_types
from mcp import Client

from anvia_nb.core.protocol.types import JsonObject, ProgressHandler, ToolInfo
from anvia_nb.core.protocol.versions import has_tasks_extension
from anvia_nb.core.transport.sdk import features
from anvia_nb.core.transport.sdk.errors import error_from_exception
from anvia_nb.core.transport.sdk.listen import ResourceStreams
from anvia_nb.core.transport.sdk.model_json import wire_json
from anvia_nb.core.transport.sdk.skills import get_skill
from anvia_nb.core.transport.sdk.tasks import call_as_task
from anvia_nb.core.transport.session import CompletionRequest, Handshake, PromptRequest, ToolCall
from anvia_nb.errors import AnviaError, ToolTimeoutError

__all__ = ["CallClock", "SdkSession", "tool_info_from_sdk"]


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
        meta=dict(tool.meta) if tool.meta else None,
    )


class _ScopeTimeout:
    """Python 3.10's stand-in for ``asyncio.Timeout`` (3.11+): an anyio cancel scope with the same
    four calls (enter, ``reschedule``, ``when``, ``expired``), except that leaving it once it has
    passed swallows the cancellation instead of raising ``TimeoutError`` (``expired()`` says so)."""

    def __init__(self, when: float | None) -> None:
        self._scope = anyio.CancelScope(deadline=math.inf if when is None else when)

    async def __aenter__(self) -> _ScopeTimeout:
        self._scope.__enter__()
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> bool:
        return self._scope.__exit__(kind, error, trace)

    def reschedule(self, when: float | None) -> None:
        self._scope.deadline = math.inf if when is None else when

    def when(self) -> float | None:
        return None if self._scope.deadline == math.inf else self._scope.deadline

    def expired(self) -> bool:
        return self._scope.cancelled_caught


if sys.version_info >= (3, 11):
    _timeout_at = asyncio.timeout_at
else:  # tests/core/test_call_progress_keeps_alive.py runs the stand-in on 3.11 too
    _timeout_at = _ScopeTimeout


class CallClock:
    """A call's deadline: ``idle`` seconds from the start and from each sign of life (a progress
    notification), never past ``ceiling`` seconds from the start (``None``: no bound).

    ``timeout`` is the standard library's ``asyncio.Timeout`` (``asyncio.timeout_at``), moved by
    ``reschedule``: entered and left in 4.4 µs where an anyio cancel scope with a deadline took 7.8
    (benchmarks/README.md, *The per-call path, third pass*). When it passes, the call's task is
    cancelled (the SDK tells the server, notifications/cancelled) and leaving it raises
    ``TimeoutError`` (on 3.10 ``expired()`` says so). ``progressed`` is the call's progress
    callback: a bound method of the clock, not a closure with its cells, so a call in flight holds
    fewer objects for the collector to walk (*The per-call path, fourth pass*)."""

    __slots__ = ("_last_deadline", "ceiling", "idle", "on_progress", "timeout")

    def __init__(self, idle: float | None, ceiling: float | None, on_progress: ProgressHandler | None = None) -> None:
        self.idle = idle
        self.ceiling = ceiling
        self.on_progress = on_progress
        now = asyncio.get_running_loop().time()  # the clock asyncio.timeout_at reads
        self._last_deadline = math.inf if ceiling is None else now + ceiling
        self.timeout = _timeout_at(self._deadline(now))

    def _deadline(self, now: float) -> float | None:
        deadline = self._last_deadline if self.idle is None else min(now + self.idle, self._last_deadline)
        return None if deadline == math.inf else deadline

    def alive(self) -> None:
        """Move the deadline: ``idle`` seconds from now, within the ceiling (once it has passed, or
        the call is over, nothing moves it)."""
        if self.idle is not None and not self.timeout.expired():
            try:
                self.timeout.reschedule(self._deadline(asyncio.get_running_loop().time()))
            except RuntimeError:  # the call is leaving its timeout: nothing to move
                pass

    async def progressed(self, progress: float, total: float | None, message: str | None) -> None:
        """A progress notification: the call is alive (``alive``), and ``on_progress`` is told."""
        self.alive()
        if self.on_progress is not None:
            await self.on_progress(progress, total, message)

    @property
    def hit_ceiling(self) -> bool:
        return self._last_deadline != math.inf and self.timeout.when() == self._last_deadline

    def error(self, server: str, tool: str) -> AnviaError:
        """The one-line error for a call whose deadline passed."""
        if self.hit_ceiling:
            return ToolTimeoutError(
                f"{server}.{tool} was still running after {self.ceiling:g} s, its overall limit (max time, "
                "counted even while it reports progress); the request was cancelled.",
                server=server,
                tool=tool,
            )
        return error_from_exception(TimeoutError(), server=server, tool=tool)


class SdkSession:
    """A connected ``mcp.Client`` seen through plain data; every method translates its errors."""

    def __init__(self, client: Client, server: str, note: Callable[[str, str], None] | None = None) -> None:
        """``note(level, text)``: a note of anvia_nb's own in the connection's log."""
        self._client = client
        self._server = server
        self._resources = ResourceStreams(client, server, note)
        # Core validates outputSchema itself (the SDK's check raises a bare RuntimeError, loses the
        # result, and lists tools again on every call to a tool it has not seen).
        self._client.session.validate_tool_result = _skip_validation  # type: ignore[method-assign]  # mcp SDK: a method

    @property
    def handshake(self) -> Handshake:
        """What the server said when the session opened, read from the SDK's client (each read
        dumps ``serverInfo``: this session's own methods read only the field they need)."""
        info = self._client.server_info
        return Handshake(
            protocol_version=self._client.protocol_version,
            server_info=info.model_dump(by_alias=True, exclude_none=True) if info is not None else {},
            instructions=self._client.instructions,
            capabilities=capabilities_of(self._client),
        )

    @property
    def sdk_client(self) -> Client:
        """The SDK client itself (the benchmarks measure it)."""
        return self._client

    @property
    def server_name(self) -> str:
        return self._server

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

    async def call_tool(self, call: ToolCall) -> JsonObject:
        """One tools/call; the raw result as JSON with wire keys. A timeout cancels the request.

        ``call.timeout_seconds`` counts from the call's start and again from each progress
        notification (a server that reports progress is alive); ``call.max_seconds`` bounds the
        whole call, progress or not. ``call.as_task``: without the tasks extension, ask the server
        to run it as a task (:mod:`~anvia_nb.core.transport.sdk.tasks`); with it the server
        decides, and a task it makes is followed either way."""
        clock = CallClock(call.timeout_seconds, call.max_seconds, call.on_progress)
        try:
            # When the deadline passes the task is cancelled (the SDK tells the server,
            # notifications/cancelled) and leaving the timeout raises TimeoutError.
            async with clock.timeout:
                if call.as_task and not has_tasks_extension(self._client.protocol_version):
                    capabilities = capabilities_of(self._client)
                    return await call_as_task(
                        self._client.session, call.name, call.arguments, capabilities, server=self._server
                    )
                result = await self._client.call_tool(call.name, call.arguments, progress_callback=clock.progressed)
        except AnviaError:
            raise
        except TimeoutError:  # ours, or the SDK's own request timeout, said the same way
            if clock.timeout.expired():
                raise clock.error(self._server, call.name) from None
            raise error_from_exception(TimeoutError(), server=self._server, tool=call.name) from None
        except Exception as exc:
            raise error_from_exception(exc, server=self._server, tool=call.name) from exc
        if clock.timeout.expired():  # Python 3.10's stand-in: the deadline passed, nothing raised
            raise clock.error(self._server, call.name)
        return wire_json(result)

    async def list_items(self, key: str, timeout_seconds: float | None) -> list[JsonObject]:
        return await features.list_items(
            self._client, self._server, capabilities_of(self._client), key, timeout_seconds
        )

    async def read_resource(self, uri: str, timeout_seconds: float | None) -> JsonObject:
        return await features.read_resource(self._client, self._server, uri, timeout_seconds)

    async def get_skill(self, uri: str, timeout_seconds: float | None) -> JsonObject:
        return await get_skill(self._client, self._server, uri, timeout_seconds)

    async def get_prompt(self, request: PromptRequest) -> JsonObject:
        return await features.get_prompt(self._client, self._server, request)

    async def complete(self, request: CompletionRequest) -> list[str]:
        return await features.complete(self._client, self._server, capabilities_of(self._client), request)

    async def subscribe_resource(self, uri: str) -> None:
        try:
            await self._resources.subscribe(uri)
        except Exception as exc:
            raise error_from_exception(exc, server=self._server, during=f"subscribing to {uri[:200]}") from exc

    async def unsubscribe_resource(self, uri: str) -> None:
        try:
            await self._resources.unsubscribe(uri)
        except Exception as exc:
            raise error_from_exception(exc, server=self._server, during=f"unsubscribing from {uri[:200]}") from exc


def capabilities_of(client: Client) -> JsonObject:
    """The capabilities ``client``'s server declared, as JSON with wire keys (``{}``: none yet)."""
    found = client.server_capabilities
    return wire_json(found) if found is not None else {}


async def _skip_validation(name: str, result: mcp_types.CallToolResult) -> None:
    return None
