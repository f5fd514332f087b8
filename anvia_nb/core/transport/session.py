"""``Session``: what :class:`~anvia_nb.core.transport.client.McpClient` and ``core.api`` ask of one
connected session, whatever answers it.

Two kinds implement it: :class:`~anvia_nb.core.transport.sdk_session.SdkSession` (a live server
over stdio, streamable HTTP or in memory, through the MCP SDK) and
:class:`~anvia_nb.core.recording.replay.ReplaySession` (a recording, no server at all). Everything
is plain data (JSON with wire keys, :class:`~anvia_nb.core.protocol.types.ToolInfo`); a session
that cannot do something (a recording asked to read a resource) raises a one-line
:class:`~anvia_nb.errors.AnviaError` instead.

A connection's capabilities are read one way: :attr:`Session.capabilities` (and
``McpClient.capabilities``, which returns it). A tool call is one :class:`ToolCall`, the same
object on every layer that passes it down (``McpClient``, the recording client, each session).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from anvia_nb.core.protocol.types import JsonObject, ProgressHandler, ToolInfo

__all__ = ["Session", "ToolCall"]


@dataclass(frozen=True, slots=True)
class ToolCall:
    """What a session needs to send one ``tools/call``."""

    name: str
    arguments: JsonObject | None
    timeout_seconds: float | None
    """How long the call may go without an answer or a progress notification, already resolved
    (``None``: no limit); when it passes, the request is cancelled."""
    on_progress: ProgressHandler | None = None
    """``await on_progress(progress, total, message)`` for each progress notification."""
    as_task: bool = False
    """Ask the server to run it as a task, where the protocol lets the client ask."""
    max_seconds: float | None = None
    """The whole call's bound, progress or not, already resolved (``None``: none)."""


class Session(Protocol):
    """One connected session, seen through plain data; its methods raise :mod:`anvia_nb.errors`."""

    @property
    def server_name(self) -> str:
        """The connection's name (errors name it)."""
        ...

    @property
    def protocol_version(self) -> str:
        """The protocol version the session speaks (:mod:`anvia_nb.core.protocol.versions`)."""
        ...

    @property
    def server_info(self) -> JsonObject:
        """The server's ``serverInfo`` (``name``, ``version``...), ``{}`` when it sent none."""
        ...

    @property
    def instructions(self) -> str | None:
        """The server's instructions, if it gave any."""
        ...

    @property
    def capabilities(self) -> JsonObject:
        """What the server said it can do (wire keys: ``tools``, ``resources.subscribe``...),
        ``{}`` when it said nothing."""
        ...

    async def list_tools(self) -> list[ToolInfo]:
        """Every tool on every page of ``tools/list``."""
        ...

    async def call_tool(self, call: ToolCall) -> JsonObject:
        """One ``tools/call``; the raw result (wire keys)."""
        ...

    async def list_items(self, key: str, timeout_seconds: float | None) -> list[JsonObject]:
        """Every page of ``resources``, ``resourceTemplates`` or ``prompts`` (``[]`` when not offered)."""
        ...

    async def read_resource(self, uri: str, timeout_seconds: float | None) -> JsonObject:
        """One ``resources/read``; the result (wire keys: ``contents``)."""
        ...

    async def get_prompt(
        self, name: str, arguments: dict[str, str] | None, timeout_seconds: float | None
    ) -> JsonObject:
        """One ``prompts/get``; the result (wire keys: ``description``, ``messages``)."""
        ...

    async def complete(
        self,
        ref: tuple[str, str],
        argument: str,
        value: str,
        context: dict[str, str] | None,
        timeout_seconds: float | None,
    ) -> list[str]:
        """Suggestions for a prompt argument (``("prompt", name)``) or a template variable
        (``("template", uriTemplate)``); ``[]`` when the server offers none."""
        ...

    async def subscribe_resource(self, uri: str) -> None:
        """Ask to hear of ``uri``'s changes, the way the protocol version allows; each update
        reaches the session's ``resource_updated`` handler."""
        ...

    async def unsubscribe_resource(self, uri: str) -> None:
        """Stop hearing of ``uri``'s changes."""
        ...
