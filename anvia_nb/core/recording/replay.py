"""Recording a live connection, and replaying a recording with no server at all.

:class:`RecordingClient` is an :class:`McpClient` that also writes what it sees to a
:class:`~anvia_nb.core.recording.recorder.Recorder` (the handshake, each listing, each call with its
progress and result). :class:`ReplayConnection` (``mcp.replay(name=..., path=...)``) gives an
:class:`McpClient` whose session is the recording: no process is started and no socket opened;
listings come from the file and a call is answered by tool and canonical-JSON arguments (the same
call recorded twice answers in order, then repeats the last). The file is untrusted input, read
and checked as a live connection's messages are (:mod:`anvia_nb.core.recording.reading`). A call
the recording does not hold raises :class:`~anvia_nb.errors.UnrecordedCallError` naming the closest recorded calls.

The other listings (resources, templates, prompts) go through ``McpClient.list_items``: recorded
as they are read, and replayed from ``ReplaySession.listing(kind)``. Resource reads, prompts,
completions and resource subscriptions are not recorded; on a replayed connection they are refused
in one line (:class:`~anvia_nb.errors.NotOfferedError`). ``ReplaySession`` is a
:class:`~anvia_nb.core.transport.session.Session`, like the live one.
"""

from __future__ import annotations

import asyncio
import collections
import copy
import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Literal

from anvia_nb.core.exchange.logs import ServerLog
from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.types import JsonObject, ToolInfo
from anvia_nb.core.recording.reading import read_answer, read_recording
from anvia_nb.core.recording.recorder import (
    Recorder,
    Recording,
    canonical_arguments,
    error_from_record,
    tool_from_record,
    tool_to_record,
)
from anvia_nb.core.transport.client import McpClient
from anvia_nb.core.transport.sdk import HttpLaunch, MemoryLaunch
from anvia_nb.core.transport.sdk_tasks import TaskWatch
from anvia_nb.core.transport.session import Session, ToolCall
from anvia_nb.core.transport.stdio import StdioLaunch
from anvia_nb.errors import AnviaError, ConnectError, NotOfferedError, RecordingFileError, UnrecordedCallError
from anvia_nb.policy import MASK

__all__ = ["RecordingClient", "ReplayClient", "ReplayConnection", "ReplaySession"]

_CLOSEST = 3


class RecordingClient(McpClient):
    """A live client that writes the handshake, listings and calls to ``recorder``."""

    def __init__(
        self,
        name: str,
        launch: StdioLaunch | HttpLaunch | MemoryLaunch,
        *,
        recorder: Recorder,
        log: ServerLog | None = None,
        log_level: str | None = None,
        roots: tuple[str, ...] = (),
        max_calls_in_flight: int | None = None,
    ) -> None:
        super().__init__(
            name, launch, log=log, log_level=log_level, roots=roots, max_calls_in_flight=max_calls_in_flight
        )
        self.recorder = recorder
        self._tools_listed = False

    def add_secrets(self, values: Iterable[str]) -> None:
        """Also masked in the recording from now on (a token a request carried is not written)."""
        super().add_secrets(values)
        self.recorder.policy = self.recorder.policy.with_secrets(self.log.policy.secrets)

    async def open(self, timeout_seconds: float | limits.Default | None = limits.DEFAULT) -> McpClient:
        try:
            await super().open(timeout_seconds)
        except BaseException:
            self.recorder.discard()  # a failed connect leaves no stub file
            raise
        self.recorder.session(
            protocol_version=self.protocol_version,
            server_info=self.server_info,
            capabilities=self.capabilities,
            instructions=self.instructions,
        )
        return self

    async def list_tools(self) -> list[ToolInfo]:
        tools = await super().list_tools()
        self.recorder.listing("tools", [tool_to_record(t) for t in tools])
        self._tools_listed = True
        return tools

    async def list_items(self, key: str, timeout_seconds: float | None) -> list[JsonObject]:
        items = await super().list_items(key, timeout_seconds)
        self.recorder.listing(key, items)
        return items

    async def send(self, call: ToolCall, watch: TaskWatch | None = None) -> JsonObject:
        progress: list[tuple[float, float | None, str | None]] = []
        on_progress = call.on_progress

        async def keep(value: float, total: float | None, message: str | None) -> None:
            progress.append((value, total, message))
            if on_progress is not None:
                await on_progress(value, total, message)

        try:
            raw = await super().send(replace(call, on_progress=keep), watch)
        except AnviaError as exc:
            self.recorder.call(call.name, call.arguments, progress, error=exc)
            raise
        self.recorder.call(call.name, call.arguments, progress, result=raw)
        return raw

    async def close(self, *, keep_log: bool = False) -> None:
        try:
            await super().close(keep_log=keep_log)
        finally:
            if self._tools_listed:
                self.recorder.close()
            else:  # the connect failed before its tools were listed: nothing worth keeping
                self.recorder.discard()


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
    def protocol_version(self) -> str:
        return str(self.recording.server.get("protocolVersion", ""))

    @property
    def server_info(self) -> JsonObject:
        info = self.recording.server.get("serverInfo")
        return dict(info) if isinstance(info, dict) else {}

    @property
    def instructions(self) -> str | None:
        text = self.recording.server.get("instructions")
        return text if isinstance(text, str) else None

    @property
    def capabilities(self) -> JsonObject:
        found = self.recording.server.get("capabilities")
        return dict(found) if isinstance(found, dict) else {}

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

    async def get_prompt(
        self, name: str, arguments: dict[str, str] | None, timeout_seconds: float | None
    ) -> JsonObject:
        raise self._not_recorded()

    async def complete(
        self,
        ref: tuple[str, str],
        argument: str,
        value: str,
        context: dict[str, str] | None,
        timeout_seconds: float | None,
    ) -> list[str]:
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
        closest = (same_tool or ranked)[:_CLOSEST]
        where = self.recording.path
        hint = f" The closest recorded: {'; '.join(closest)}." if closest else " It holds no calls at all."
        return UnrecordedCallError(
            f"{self._server}.{tool} was not recorded with arguments {arguments} in {where}, so it cannot be "
            f"replayed.{hint} Call one of those, or connect live (with --record) to add it.",
            closest,
            server=self._server,
            tool=tool,
        )


class ReplayClient(McpClient):
    """An :class:`McpClient` whose session is a recording: nothing is started or opened."""

    def __init__(self, name: str, recording: Recording) -> None:
        super().__init__(name, MemoryLaunch(server=None), log=ServerLog(name, transport="replay"))
        self.recording = recording
        self.origin = f"replayed from {recording.path}"

    async def _own(self, ready: asyncio.Future[Session]) -> None:
        assert self._closing is not None
        try:
            ready.set_result(ReplaySession(self.recording, self.name))
            await self._closing.wait()
        finally:
            self._closed = True


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
        return ReplayClient(self.name, read_recording(self.path))

    async def connect(
        self, *, timeout_seconds: limits.Timeout = limits.DEFAULT, log_level: str | None = None
    ) -> McpClient:
        try:
            client = self.client(log_level=log_level)
        except RecordingFileError as exc:
            raise ConnectError(f"Cannot replay {self.name!r}: {exc}", self.name) from exc
        return await client.open(timeout_seconds)
