"""``SdkSession``: a connected ``mcp.Client`` seen through plain data (a
:class:`~anvia_nb.core.transport.session.Session`).

Opened by :func:`~anvia_nb.core.transport.sdk.open_sdk_session`. Each method translates the SDK's
exceptions with :func:`~anvia_nb.core.transport.sdk_errors.error_from_exception`, which makes
foreign errors :mod:`anvia_nb.errors`; resources, prompts and completion are in
:mod:`~anvia_nb.core.transport.sdk_features`, tasks in :mod:`~anvia_nb.core.transport.sdk_tasks`,
resource subscriptions in :mod:`~anvia_nb.core.transport.sdk_listen`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import anyio
import mcp_types
from mcp import Client
from mcp.shared.dispatcher import ProgressFnT

from anvia_nb.core.protocol.types import JsonObject, ToolInfo
from anvia_nb.core.protocol.versions import has_tasks_extension
from anvia_nb.core.transport import sdk_features
from anvia_nb.core.transport.sdk_errors import error_from_exception
from anvia_nb.core.transport.sdk_listen import ResourceStreams
from anvia_nb.core.transport.sdk_tasks import call_as_task
from anvia_nb.core.transport.session import ToolCall
from anvia_nb.core.transport.wire import wire_json
from anvia_nb.errors import AnviaError

__all__ = ["SdkSession", "tool_info_from_sdk"]


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


class SdkSession:
    """A connected ``mcp.Client`` seen through plain data; every method translates its errors."""

    def __init__(self, client: Client, server: str, note: Callable[[str, str], None] | None = None) -> None:
        """``note(level, text)``: a note of anvia_nb's own in the connection's log."""
        self._client = client
        self._server = server
        self._resources = ResourceStreams(client, server, note)
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
        """The SDK client itself (the benchmarks measure it)."""
        return self._client

    @property
    def server_name(self) -> str:
        return self._server

    @property
    def capabilities(self) -> JsonObject:
        """What the server said it can do, as JSON with wire keys (``{}`` before it said)."""
        return capabilities_of(self._client)

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

        ``call.as_task``: without the tasks extension, ask the server to run it as a task
        (``sdk_tasks``); with it the server decides, and a task it makes is followed either way."""
        try:
            # The call's whole-time bound: when it passes, the task is cancelled (the SDK tells the
            # server, notifications/cancelled) and the call raises TimeoutError.
            with anyio.fail_after(call.timeout_seconds):
                if call.as_task and not has_tasks_extension(self.protocol_version):
                    return await call_as_task(
                        self._client.session, call.name, call.arguments, self.capabilities, server=self._server
                    )
                result = await self._client.call_tool(
                    call.name, call.arguments, progress_callback=cast("ProgressFnT | None", call.on_progress)
                )
        except AnviaError:
            raise
        except TimeoutError:  # said as the SDK's own request timeout is
            raise error_from_exception(TimeoutError(), server=self._server, tool=call.name) from None
        except Exception as exc:
            raise error_from_exception(exc, server=self._server, tool=call.name) from exc
        return wire_json(result)

    async def list_items(self, key: str, timeout_seconds: float | None) -> list[JsonObject]:
        return await sdk_features.list_items(self._client, self._server, self.capabilities, key, timeout_seconds)

    async def read_resource(self, uri: str, timeout_seconds: float | None) -> JsonObject:
        return await sdk_features.read_resource(self._client, self._server, uri, timeout_seconds)

    async def get_prompt(
        self, name: str, arguments: dict[str, str] | None, timeout_seconds: float | None
    ) -> JsonObject:
        return await sdk_features.get_prompt(self._client, self._server, name, arguments, timeout_seconds)

    async def complete(
        self,
        ref: tuple[str, str],
        argument: str,
        value: str,
        context: dict[str, str] | None,
        timeout_seconds: float | None,
    ) -> list[str]:
        return await sdk_features.complete(
            self._client, self._server, self.capabilities, ref, argument, value, context, timeout_seconds
        )

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
