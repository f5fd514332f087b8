"""Replaying a recording with no server at all.

:class:`ReplayConnection` (``mcp.replay(name=..., path=...)``) gives an
:class:`~anvia_nb.core.transport.client.McpClient` whose opener is a :class:`ReplayOpener`: its
session is the recording (:class:`ReplaySession`, a :class:`~anvia_nb.core.transport.session.Session`
like the live one). No process is started and no socket opened; listings come from the file and a
call is answered by tool and canonical-JSON arguments (the same call recorded twice answers in
order, then repeats the last). The file is untrusted input, read and checked as a live
connection's messages are (:mod:`anvia_nb.core.recording.reading`). A call the recording does not
hold raises :class:`~anvia_nb.errors.UnrecordedCallError` naming the closest recorded calls.

Resource reads, prompts, completions and resource subscriptions are not recorded
(:mod:`anvia_nb.core.recording.recording_session`); on a replayed connection they are refused in
one line (:class:`~anvia_nb.errors.NotOfferedError`).
"""

from __future__ import annotations

import asyncio
import collections
import copy
import difflib
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Literal

from anvia_nb.core.exchange.logs import ServerLog
from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.types import JsonObject, ToolInfo
from anvia_nb.core.recording.reading import read_answer, read_recording
from anvia_nb.core.recording.recorder import Recording, canonical_arguments, error_from_record, tool_from_record
from anvia_nb.core.transport.client import McpClient
from anvia_nb.core.transport.handlers import SessionHandlers
from anvia_nb.core.transport.session import CompletionRequest, Handshake, PromptRequest, Session, ToolCall
from anvia_nb.errors import AnviaError, ConnectError, NotOfferedError, RecordingFileError, UnrecordedCallError
from anvia_nb.policy import MASK

__all__ = ["ReplayConnection", "ReplayOpener", "ReplaySession"]


class ReplaySession:
    """What :class:`McpClient` asks of a session, answered from a recording (a :class:`Session`)."""

    def __init__(self, recording: Recording, server: str) -> None:
        self.recording = recording
        self._server = server
        self.origin = f"replayed from {recording.path}"
        self._answers: dict[tuple[str, str], collections.deque[JsonObject]] = {}
        self._last: dict[tuple[str, str], JsonObject] = {}
        self._masked: list[tuple[str, re.Pattern[str], tuple[str, str]]] = []
        """Recorded calls whose arguments held a secret (masked when written): any value matches there."""
        for call in recording.calls:
            key = (str(call["tool"]), canonical_arguments(call.get("arguments")))
            self._answers.setdefault(key, collections.deque()).append(call)
            if MASK in key[1]:
                wildcard = re.escape(key[1]).replace(re.escape(MASK), r'(?:[^"\\]|\\.)+?')
                self._masked.append((key[0], re.compile(wildcard), key))

    @property
    def server_name(self) -> str:
        return self._server

    @property
    def handshake(self) -> Handshake:
        said = self.recording.server
        info, text, found = said.get("serverInfo"), said.get("instructions"), said.get("capabilities")
        return Handshake(
            protocol_version=str(said.get("protocolVersion", "")),
            server_info=dict(info) if isinstance(info, dict) else {},
            instructions=text if isinstance(text, str) else None,
            capabilities=dict(found) if isinstance(found, dict) else {},
        )

    def listing(self, kind: str) -> list[JsonObject]:
        """The recorded listing of ``kind`` (``[]`` when the session never listed it)."""
        return copy.deepcopy(self.recording.listings.get(kind, []))

    async def list_items(self, key: str, timeout_seconds: float | None) -> list[JsonObject]:
        """The listing as recorded (``[]`` when the recorded session never listed it)."""
        return self.listing(key)

    def _not_recorded(self) -> NotOfferedError:
        return NotOfferedError(
            f"{self._server!r} is {self.origin}: its listings and tool calls are recorded, but not resource "
            "reads, prompts or completions. Connect to the live server for those."
        )

    def _no_updates(self) -> NotOfferedError:
        return NotOfferedError(
            f"{self._server!r} is {self.origin}: a recording holds no resource updates, so it cannot "
            "subscribe to any. Connect to the live server for those."
        )

    async def read_resource(self, uri: str, timeout_seconds: float | None) -> JsonObject:
        raise self._not_recorded()

    async def get_skill(self, uri: str, timeout_seconds: float | None) -> JsonObject:
        raise self._not_recorded()

    async def get_prompt(self, request: PromptRequest) -> JsonObject:
        raise self._not_recorded()

    async def complete(self, request: CompletionRequest) -> list[str]:
        raise self._not_recorded()

    async def subscribe_resource(self, uri: str) -> None:
        """Refused: a recording holds no updates to hear of."""
        raise self._no_updates()

    async def unsubscribe_resource(self, uri: str) -> None:
        raise self._no_updates()

    async def list_tools(self) -> list[ToolInfo]:
        return [tool_from_record(item, self._server) for item in self.listing("tools")]

    async def call_tool(self, call: ToolCall) -> JsonObject:
        """The recorded answer (a task's, too: only its final result was recorded), read from the
        file now (:func:`~anvia_nb.core.recording.reading.read_answer`)."""
        key = (call.name, canonical_arguments(call.arguments))
        if key not in self._answers:  # a secret in the arguments was recorded as a marker
            key = next((k for tool, p, k in self._masked if tool == call.name and p.fullmatch(key[1])), key)
        queue = self._answers.get(key)
        if queue:
            where = queue.popleft()
            self._last[key] = where
        elif key in self._last:
            where = self._last[key]
        else:
            raise self._unrecorded(call.name, key[1])
        answer = read_answer(self.recording, where)
        for step in answer.get("progress") or ():
            if call.on_progress is not None and isinstance(step, list) and len(step) == 3:
                await call.on_progress(step[0], step[1], step[2])
        await asyncio.sleep(0)
        error = answer.get("error")
        if isinstance(error, dict):
            raise error_from_record(error, server=self._server, tool=call.name)
        result = answer.get("result")
        return copy.deepcopy(result) if isinstance(result, dict) else {"content": []}

    def _unrecorded(self, tool: str, arguments: str) -> UnrecordedCallError:
        wanted = f"{tool} {arguments}"
        calls = self.recording.calls
        recorded = list(dict.fromkeys(f"{c['tool']} {canonical_arguments(c.get('arguments'))}" for c in calls))
        ranked = sorted(recorded, key=lambda text: -difflib.SequenceMatcher(None, wanted, text).ratio())
        same_tool = [text for text in ranked if text.split(" ", 1)[0] == tool]
        closest = (same_tool or ranked)[: limits.UNRECORDED_CLOSEST_CALLS]
        where = self.recording.path
        hint = f" The closest recorded: {'; '.join(closest)}." if closest else " It holds no calls at all."
        return UnrecordedCallError(
            f"{self._server}.{tool} was not recorded with arguments {arguments} in {where}, so it cannot be "
            f"replayed.{hint} Call one of those, or connect live (with --record) to add it.",
            closest,
            server=self._server,
            tool=tool,
        )


@dataclass(frozen=True)
class ReplayOpener:
    """Opens a :class:`ReplaySession` on a recording (a
    :class:`~anvia_nb.core.transport.session.SessionOpener`): nothing is started or opened."""

    recording: Recording = field(repr=False)

    @asynccontextmanager
    async def open(self, server: str, handlers: SessionHandlers) -> AsyncIterator[Session]:
        """The recording as a session; ``handlers`` are never called (a recording asks nothing)."""
        yield ReplaySession(self.recording, server)

    def auth_failure(self) -> AnviaError | None:
        return None


@dataclass(frozen=True)
class ReplayConnection:
    """A connection answered from a recording (``mcp.replay(name=..., path=...)``)."""

    name: str
    path: str
    transport: Literal["replay"] = "replay"

    def secrets(self) -> tuple[str, ...]:
        return ()  # the recording was masked when it was written

    def unmasked(self) -> tuple[str, ...]:
        return ()

    def target(self) -> str:
        return f"replayed from {self.path}"

    def client(self, *, log_level: str | None = None) -> McpClient:
        """A client answering from the file; raises :class:`RecordingFileError` when it cannot be read."""
        recording = read_recording(self.path)
        client = McpClient(self.name, ReplayOpener(recording), log=ServerLog(self.name, transport="replay"))
        client.origin = f"replayed from {recording.path}"
        return client

    async def connect(
        self, *, timeout_seconds: limits.Timeout = limits.DEFAULT, log_level: str | None = None
    ) -> McpClient:
        try:
            client = self.client(log_level=log_level)
        except RecordingFileError as exc:
            raise ConnectError(f"Cannot replay {self.name!r}: {exc}", self.name) from exc
        return await client.open(timeout_seconds)
