"""Recordings: what a connection exchanged, as a plain JSON Lines file, and reading one back.

A recording is written by a connection made with ``record=PATH`` (``mcp.stdio(..., record=...)``,
``%mcp connect NAME --record FILE ...``) and replayed by ``mcp.replay(name=..., path=...)``. One JSON
object per line, each with a ``type``:

- ``recording``: the format, the connection's name, transport and command line (secrets masked);
- ``server``: protocol version, ``serverInfo``, ``capabilities`` and ``instructions``;
- ``listing``: one listing as the server sent it, ``{"kind": "tools", "items": [...]}``;
- ``call``: one call, ``{"tool", "arguments", "progress": [[progress, total, message]...]}`` and
  either ``result`` (the raw result, wire keys) or ``error`` (``{"class", "message", ...}``). A call
  keeps at most :data:`~anvia_nb.core.protocol.limits.RECORDED_PROGRESS_KEPT` progress steps
  (:class:`KeptSteps`: evenly spaced, the first and the latest always kept, each message cut as a
  call's outcome cuts it); ``progressDropped`` counts the others when there were more.

Every string written (keys too) is masked with the connection's secrets first, through
:class:`~anvia_nb.policy.ShowPolicy`: header and env values, tokens a server echoes back, never
reach the file. Listings are recorded by kind (:meth:`Recorder.listing`), so another listing
(resources, prompts) is one more ``kind`` with no change to the format.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, Any

from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.types import JsonObject, ToolInfo
from anvia_nb.core.transport.session import Handshake
from anvia_nb.errors import (
    AnviaError,
    ConnectionClosedError,
    InputRequiredError,
    ProtocolError,
    RecordingFileError,
    ToolTimeoutError,
    UrlElicitationRequiredError,
)
from anvia_nb.policy import ShowPolicy

__all__ = [
    "FORMAT",
    "KeptSteps",
    "Recorder",
    "Recording",
    "canonical_arguments",
    "error_from_record",
    "error_to_record",
    "tool_from_record",
    "tool_to_record",
]

FORMAT = 1

Step = tuple[float, float | None, str | None]
"""One progress notification: progress, total, message."""

_TOOL_KEYS = (
    ("name", "name"),
    ("title", "title"),
    ("description", "description"),
    ("input_schema", "inputSchema"),
    ("output_schema", "outputSchema"),
    ("annotations", "annotations"),
    ("meta", "_meta"),
)


def canonical_arguments(arguments: object) -> str:
    """Arguments as canonical JSON (sorted keys, no spaces): how replay compares calls."""
    return json.dumps(arguments or {}, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def tool_to_record(info: ToolInfo) -> JsonObject:
    """A listed tool as the server sent it (wire keys; unset fields left out)."""
    found: JsonObject = {wire: getattr(info, attr) for attr, wire in _TOOL_KEYS if getattr(info, attr) is not None}
    if info.icons:
        found["icons"] = list(info.icons)
    return found


def tool_from_record(item: JsonObject, server: str) -> ToolInfo:
    """A recorded tool back as a :class:`ToolInfo` of the connection ``server``."""
    values: dict[str, Any] = {attr: item[wire] for attr, wire in _TOOL_KEYS if wire in item}
    return ToolInfo(server=server, icons=tuple(item.get("icons") or ()), **values)


def error_to_record(error: AnviaError) -> JsonObject:
    """What a call's failure was: its class and message, and a protocol error's code and text."""
    found: JsonObject = {"class": type(error).__name__, "message": str(error.args[0]) if error.args else ""}
    for name in ("code", "server_text", "data"):
        value = getattr(error, name, None)
        if value not in (None, ""):
            found[name] = value
    return found


def error_from_record(record: JsonObject, *, server: str, tool: str) -> AnviaError:
    """The recorded failure raised again: the same class for the ones a call can meet, else
    :class:`AnviaError` with the recorded message."""
    kind, message = str(record.get("class", "")), str(record.get("message", ""))
    text = str(record.get("server_text", ""))
    if kind == UrlElicitationRequiredError.__name__:
        data = record.get("data")
        found = data.get("elicitations") if isinstance(data, dict) else None
        error: AnviaError = UrlElicitationRequiredError(
            message, server=server, server_text=text, data=data, elicitations=found if isinstance(found, list) else []
        )
        return error
    if kind == ProtocolError.__name__:
        return ProtocolError(message, int(record.get("code", 0)), server, text, data=record.get("data"))
    if kind == ToolTimeoutError.__name__:
        return ToolTimeoutError(message, server=server, tool=tool)
    if kind == InputRequiredError.__name__:
        return InputRequiredError(message, server=server, tool=tool)
    if kind == ConnectionClosedError.__name__:
        return ConnectionClosedError(message, server=server)
    return AnviaError(message)


class KeptSteps:
    """A call's progress steps as a recording keeps them: at most ``most`` (at least 2), evenly
    spaced over the call (every ``stride``-th step, the stride doubling each time the steps fill
    up), the first and the latest always among them, so a replay's progress bar moves as the live
    one did. Memory stays bounded however many notifications a server sends."""

    def __init__(self, most: int | None = None) -> None:
        self.most = max(2, limits.RECORDED_PROGRESS_KEPT if most is None else most)
        self.seen = 0
        """Every step the call heard, kept or not."""
        self._spaced: list[Step] = []
        self._stride = 1
        self._latest: Step | None = None

    def add(self, value: float, total: float | None, message: str | None) -> None:
        """One step heard; its message cut as a call's outcome cuts it."""
        if message is not None and len(message) > limits.PROGRESS_MESSAGE_CHARS:
            message = message[: limits.PROGRESS_MESSAGE_CHARS]
        step = (value, total, message)
        if self.seen % self._stride == 0:
            self._spaced.append(step)
            if len(self._spaced) >= self.most:  # one place stays free for the latest
                self._spaced = self._spaced[::2]
                self._stride *= 2
        self._latest = step
        self.seen += 1

    def steps(self) -> list[Step]:
        """The kept steps, in the order heard (at most ``most``)."""
        if self._latest is None:
            return []
        if (len(self._spaced) - 1) * self._stride == self.seen - 1:  # the latest is a spaced one
            return list(self._spaced)
        return [*self._spaced, self._latest]


class Recorder:
    """Writes one connection's recording, a line at a time (flushed, so a crash keeps what was seen)."""

    def __init__(
        self, path: str | Path, *, name: str, transport: str, target: str, secrets: Iterable[str] = ()
    ) -> None:
        self.path = Path(path)
        self.policy = ShowPolicy().with_secrets(secrets)
        self._lock = threading.Lock()
        self._file: IO[str] | None = None
        self.tools_listed = False
        """Whether the tools were listed (a recording without them is not kept: :meth:`finish`)."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = self.path.open("w", encoding="utf-8")
        except OSError as exc:
            raise RecordingFileError(f"Cannot write the recording {self.path}: {exc.strerror or exc}.") from exc
        from anvia_nb._version import __version__

        self.write(
            {
                "type": "recording",
                "format": FORMAT,
                "name": name,
                "transport": transport,
                "command": target,
                "recorded_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                "anvia_nb": __version__,
            }
        )

    def write(self, record: JsonObject) -> None:
        """One line: every string masked, keys included."""
        line = json.dumps(self.policy.mask_json(record), ensure_ascii=False, default=str)
        with self._lock:
            if self._file is not None:
                self._file.write(line + "\n")
                self._file.flush()

    def session(self, handshake: Handshake) -> None:
        """What the server said when the session opened."""
        self.write(
            {
                "type": "server",
                "protocolVersion": handshake.protocol_version,
                "serverInfo": handshake.server_info,
                "capabilities": handshake.capabilities,
                "instructions": handshake.instructions,
            }
        )

    def listing(self, kind: str, items: Sequence[JsonObject]) -> None:
        """One listing of ``kind`` (``"tools"``; ``"resources"``, ``"prompts"``... as they come)."""
        self.write({"type": "listing", "kind": kind, "items": list(items)})
        self.tools_listed = self.tools_listed or kind == "tools"

    def call(
        self,
        tool: str,
        arguments: JsonObject | None,
        progress: KeptSteps,
        *,
        result: JsonObject | None = None,
        error: AnviaError | None = None,
    ) -> None:
        """One call's line: its progress (a :class:`KeptSteps`: the steps it kept, and how many it
        dropped as ``progressDropped``), then its result or its error."""
        steps = progress.steps()
        record: JsonObject = {
            "type": "call",
            "tool": tool,
            "arguments": arguments or {},
            "progress": [list(step) for step in steps],
        }
        if progress.seen > len(steps):
            record["progressDropped"] = progress.seen - len(steps)
        if error is not None:
            record["error"] = error_to_record(error)
        else:
            record["result"] = result
        self.write(record)

    def close(self) -> None:
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None

    def finish(self) -> None:
        """Keep the file (closed) when the tools were listed; otherwise remove it: a connect that
        failed, or a client closed before listing its tools, leaves nothing worth replaying. Once
        finished, finishing again does nothing."""
        if self.tools_listed:
            self.close()
        else:
            self.discard()

    def discard(self) -> None:
        """Close and remove the file: a connect that failed leaves no stub recording behind."""
        with self._lock:
            if self._file is None:
                return
            self._file.close()
            self._file = None
        with contextlib.suppress(OSError):
            self.path.unlink()


@dataclass
class Recording:
    """A recording read back (:func:`anvia_nb.core.recording.reading.read_recording`): its header,
    the server's handshake, listings by kind, and calls (each ``{"tool", "arguments", "line",
    "offset"}``: where its answer is read when it is replayed)."""

    path: Path
    header: JsonObject
    server: JsonObject = field(default_factory=dict)
    listings: dict[str, list[JsonObject]] = field(default_factory=dict)
    calls: list[JsonObject] = field(default_factory=list)
