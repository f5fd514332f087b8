"""``Session``: what :class:`~anvia_nb.core.transport.client.McpClient` and ``core.api`` ask of one
connected session, whatever answers it.

Two kinds implement it: :class:`~anvia_nb.core.transport.sdk.session.SdkSession` (a live server
over stdio, streamable HTTP or in memory, through the MCP SDK) and
:class:`~anvia_nb.core.recording.replay.ReplaySession` (a recording, no server at all). Everything
is plain data (JSON with wire keys, :class:`~anvia_nb.core.protocol.types.ToolInfo`); a session
that cannot do something (a recording asked to read a resource) raises a one-line
:class:`~anvia_nb.errors.AnviaError` instead.

What the server said when the session opened is one :class:`Handshake` (:attr:`Session.handshake`),
passed on whole by every layer that wraps a session; ``McpClient.capabilities`` (and its
``protocol_version``, ``server_info``, ``instructions``) read it. A tool call is one :class:`ToolCall`, the same
object on every layer that passes it down (``McpClient``, the recording session, each session);
so is a :class:`PromptRequest` and a :class:`CompletionRequest`. A connection hands the client a
:class:`SessionOpener`, which opens the session.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Protocol

from anvia_nb.core.protocol.types import JsonObject, ProgressHandler, ToolInfo
from anvia_nb.core.transport.handlers import SessionHandlers
from anvia_nb.errors import AnviaError

__all__ = ["CompletionRequest", "Handshake", "PromptRequest", "Session", "SessionOpener", "ToolCall"]


@dataclass(frozen=True, slots=True)
class Handshake:
    """What the server said when the session opened."""

    protocol_version: str
    """The protocol version the session speaks (:mod:`anvia_nb.core.protocol.versions`)."""
    server_info: JsonObject
    """The server's ``serverInfo`` (``name``, ``version``...), ``{}`` when it sent none."""
    instructions: str | None
    """The server's instructions, if it gave any."""
    capabilities: JsonObject
    """What the server said it can do (wire keys: ``tools``, ``resources.subscribe``...), ``{}`` when
    it said nothing."""


@dataclass(slots=True)
class ToolCall:
    """What a session needs to send one ``tools/call``.

    Not frozen: made on every call, and a frozen dataclass sets each field through
    ``object.__setattr__`` (9.1k instructions against 1.5k; benchmarks/README.md, *The per-call
    path, fifth pass*). Nothing assigns to it; a layer that changes a field makes a new one
    (``dataclasses.replace``, as the recording session does)."""

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


@dataclass(frozen=True, slots=True)
class PromptRequest:
    """What a session needs to send one ``prompts/get``."""

    name: str
    arguments: dict[str, str] | None
    timeout_seconds: float | None


@dataclass(frozen=True, slots=True)
class CompletionRequest:
    """What a session needs to send one ``completion/complete``."""

    ref: tuple[str, str]
    """``("prompt", name)`` for a prompt argument, ``("template", uriTemplate)`` for a template variable."""
    argument: str
    value: str
    context: dict[str, str] | None
    """The values of the other arguments already given (``None``: none)."""
    timeout_seconds: float | None


class Session(Protocol):
    """One connected session, seen through plain data; its methods raise :mod:`anvia_nb.errors`."""

    @property
    def server_name(self) -> str:
        """The connection's name (errors name it)."""
        ...

    @property
    def handshake(self) -> Handshake:
        """What the server said when the session opened."""
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

    async def get_skill(self, uri: str, timeout_seconds: float | None) -> JsonObject:
        """One ``skills/get`` (the Skills extension): the entry of the skill whose ``SKILL.md`` is at ``uri``."""
        ...

    async def get_prompt(self, request: PromptRequest) -> JsonObject:
        """One ``prompts/get``; the result (wire keys: ``description``, ``messages``)."""
        ...

    async def complete(self, request: CompletionRequest) -> list[str]:
        """Suggestions for a prompt argument or a template variable; ``[]`` when the server offers none."""
        ...

    async def subscribe_resource(self, uri: str) -> None:
        """Ask to hear of ``uri``'s changes, the way the protocol version allows; each update
        reaches the session's ``resource_updated`` handler."""
        ...

    async def unsubscribe_resource(self, uri: str) -> None:
        """Stop hearing of ``uri``'s changes."""
        ...


class SessionOpener(Protocol):
    """What a connection gives :class:`~anvia_nb.core.transport.client.McpClient`: how to open its
    session, and what only the transport knows about how one ended. Each transport's launch is one
    (:class:`~anvia_nb.core.transport.stdio.transport.StdioLaunch`,
    :class:`~anvia_nb.core.transport.http.launch.HttpLaunch`,
    :class:`~anvia_nb.core.transport.sdk.memory.MemoryLaunch`), so is a recording
    (:class:`~anvia_nb.core.recording.replay.ReplayOpener`); one may wrap another
    (:class:`~anvia_nb.core.recording.recording_session.RecordingOpener`)."""

    def open(self, server: str, handlers: SessionHandlers) -> AbstractAsyncContextManager[Session]:
        """Connect, handshake and yield the session; entered and exited by the same task (the
        client's owner). ``server`` names the connection in errors; ``handlers`` answer what the
        server asks. Raises :class:`~anvia_nb.errors.ConnectError` (or another error of
        :mod:`anvia_nb.errors`) when the session cannot be opened."""
        ...

    def auth_failure(self) -> AnviaError | None:
        """The authorization failure that ended an open session outside any call (an OAuth token
        that could not be refreshed), if one did: calls then raise it instead of "connection
        closed", and closing does not report it again. ``None`` for a transport with no auth."""
        ...
