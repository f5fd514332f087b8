"""Recording a live connection: a :class:`RecordingSession` writes what passes through the session
it wraps to a :class:`~anvia_nb.core.recording.recorder.Recorder`.

A connection made with ``record=PATH`` gives its client a :class:`RecordingOpener` around its
transport's opener (:class:`~anvia_nb.core.transport.session.SessionOpener`). Once the inner session
is open, the handshake is written; then each listing (tools, and the others: resources, templates,
prompts; a listing the server refuses is written empty), and each call with its progress (at most
:data:`~anvia_nb.core.protocol.limits.RECORDED_PROGRESS_KEPT` steps, evenly spaced: see
:class:`~anvia_nb.core.recording.recorder.KeptSteps`) and its result or error (as its caller hears
it: a "connection closed" with the server's last stderr lines, or the OAuth failure that closed it).
Resource reads, prompts, completions and subscriptions pass through unrecorded. A connect that fails
or is cancelled, or a client closed before its tools were listed (opened or never), leaves no file;
otherwise the file is closed with the session
(:meth:`~anvia_nb.core.recording.recorder.Recorder.finish`, which the client also calls once it is
done, :meth:`~anvia_nb.core.transport.client.McpClient.on_close`). Every secret the connection
learns (an OAuth token) is masked in the file from then on.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, replace

from anvia_nb._passthrough import Passthrough
from anvia_nb.core.protocol.methods import METHOD_NOT_FOUND
from anvia_nb.core.protocol.types import JsonObject, ToolInfo
from anvia_nb.core.recording.recorder import KeptSteps, Recorder, tool_to_record
from anvia_nb.core.transport.handlers import SessionHandlers
from anvia_nb.core.transport.session import (
    CompletionRequest,
    Handshake,
    PromptRequest,
    Session,
    SessionOpener,
    ToolCall,
)
from anvia_nb.errors import AnviaError, ConnectionClosedError, ProtocolError

__all__ = ["RecordingOpener", "RecordingSession"]


class RecordingSession:
    """A :class:`~anvia_nb.core.transport.session.Session` that writes the listings and calls of
    the session it wraps to ``recorder``; everything else passes through."""

    server_name = Passthrough[str]("inner.server_name", "The name of the wrapped session's server.")
    handshake = Passthrough[Handshake](
        "inner.handshake", "What the server said in the handshake, as the wrapped session holds it."
    )

    def __init__(
        self, inner: Session, recorder: Recorder, explained: Callable[[AnviaError], AnviaError] | None = None
    ) -> None:
        """``explained`` gives a call's error as its caller hears it (the client's
        :meth:`~anvia_nb.core.transport.client.McpClient.explained`): what the file holds."""
        self.inner = inner
        self.recorder = recorder
        self.explained = explained

    def record_handshake(self) -> None:
        """Write what the server said in the handshake."""
        self.recorder.session(self.inner.handshake)

    async def list_tools(self) -> list[ToolInfo]:
        try:
            tools = await self.inner.list_tools()
        except ProtocolError as exc:
            self._refused("tools", exc)
            raise
        self.recorder.listing("tools", [tool_to_record(t) for t in tools])
        return tools

    async def list_items(self, key: str, timeout_seconds: float | None) -> list[JsonObject]:
        try:
            items = await self.inner.list_items(key, timeout_seconds)
        except ProtocolError as exc:
            self._refused(key, exc)
            raise
        self.recorder.listing(key, items)
        return items

    def _refused(self, key: str, exc: ProtocolError) -> None:
        """A listing the server does not offer (-32601) lists nothing: written as an empty listing."""
        if exc.code == METHOD_NOT_FOUND:
            self.recorder.listing(key, [])

    async def call_tool(self, call: ToolCall) -> JsonObject:
        progress = KeptSteps()  # bounded: a server may send millions of notifications
        on_progress = call.on_progress

        async def keep(value: float, total: float | None, message: str | None) -> None:
            progress.add(value, total, message)
            if on_progress is not None:
                await on_progress(value, total, message)

        try:
            raw = await self.inner.call_tool(replace(call, on_progress=keep))
        except AnviaError as exc:
            heard = exc
            if isinstance(exc, ConnectionClosedError) and self.explained is not None:
                heard = self.explained(exc)  # as the client will raise it (it explains it again: no change)
            self.recorder.call(call.name, call.arguments, progress, error=heard)
            raise
        self.recorder.call(call.name, call.arguments, progress, result=raw)
        return raw

    async def read_resource(self, uri: str, timeout_seconds: float | None) -> JsonObject:
        return await self.inner.read_resource(uri, timeout_seconds)

    async def get_skill(self, uri: str, timeout_seconds: float | None) -> JsonObject:
        return await self.inner.get_skill(uri, timeout_seconds)

    async def get_prompt(self, request: PromptRequest) -> JsonObject:
        return await self.inner.get_prompt(request)

    async def complete(self, request: CompletionRequest) -> list[str]:
        return await self.inner.complete(request)

    async def subscribe_resource(self, uri: str) -> None:
        await self.inner.subscribe_resource(uri)

    async def unsubscribe_resource(self, uri: str) -> None:
        await self.inner.unsubscribe_resource(uri)


@dataclass(frozen=True)
class RecordingOpener:
    """Opens ``inner``'s session wrapped in a :class:`RecordingSession` writing to ``recorder``
    (a :class:`~anvia_nb.core.transport.session.SessionOpener` itself)."""

    inner: SessionOpener
    recorder: Recorder

    @contextlib.asynccontextmanager
    async def open(self, server: str, handlers: SessionHandlers) -> AsyncIterator[Session]:
        """The inner session, recorded; the file is kept when the session ends after listing its
        tools, and removed otherwise (a failed connect leaves no stub file)."""
        handlers.secrets.append(self._mask)
        try:
            async with self.inner.open(server, handlers) as session:
                recording = RecordingSession(session, self.recorder, handlers.explained)
                recording.record_handshake()
                yield recording
        finally:
            self.recorder.finish()

    def auth_failure(self) -> AnviaError | None:
        return self.inner.auth_failure()

    def _mask(self, secrets: Iterable[str]) -> None:
        """Secrets the connection learned: masked in the recording from now on."""
        self.recorder.policy = self.recorder.policy.with_secrets(secrets)
