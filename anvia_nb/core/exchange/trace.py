"""The protocol exchange of one connection: every JSON-RPC message sent and received, bounded.

A :class:`ProtocolTrace` is a ring buffer of :class:`TraceEntry` values, filled at the transport
(:mod:`anvia_nb.core.transport.sdk.trace_streams` wraps the streams a transport yields to the
SDK; the stdio transport records the lines it reads and writes itself), so what it holds is
what went over the wire, in order. It is bounded three ways: at most
``max_messages`` entries, at most ``max_total_chars`` characters of JSON in all (the oldest
entries go first, and are counted in :attr:`ProtocolTrace.dropped`), and a message larger than
``max_message_chars`` is kept as a summary (its method, id and size, and the head of its JSON),
counted in :attr:`ProtocolTrace.truncated`. The JSON kept is masked with the connection's secrets
when it is recorded, and kept entries are masked again when a secret becomes known later
(:meth:`ProtocolTrace.add_secrets`: an OAuth token, a refreshed one), so a token a server echoes
never sits in the buffer.

Recording is on the path of every message, and most messages are never looked at: a message is
kept as a plain tuple (masked JSON, kind, method, id; for one too large, its head and summary), and
becomes a :class:`TraceEntry` only when read. A large line's bytes are decoded only as far as its
kept head needs (:mod:`~anvia_nb.core.exchange.trace_wire`).

Core knows no Jupyter: the DataFrame of ``%mcp trace`` is built in the magic from
:meth:`ProtocolTrace.entries`.
"""

from __future__ import annotations

import collections
import json
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

from anvia_nb.core.exchange.trace_summary import refers_to as _refers_to
from anvia_nb.core.exchange.trace_summary import summary as _summary
from anvia_nb.core.exchange.trace_summary import target as _target
from anvia_nb.core.exchange.trace_wire import secret_reach, wire_head
from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.types import JsonObject
from anvia_nb.policy import ShowPolicy

__all__ = ["ProtocolTrace", "TraceEntry", "WireModel", "call_entries", "record_safely"]

Direction = Literal["sent", "received"]
Kind = Literal["request", "notification", "result", "error"]


class WireModel(Protocol):
    """A JSON-RPC message as the SDK's pydantic model, as the transports record it: its JSON and its
    fields (read with ``vars``) are what the trace reads of it."""

    def model_dump_json(self, *, by_alias: bool = False, exclude_unset: bool = False) -> str: ...


@dataclass(frozen=True)
class TraceEntry:
    """One JSON-RPC message as it went over the wire (masked; maybe cut, see ``truncated``)."""

    seq: int
    """Its number in the connection's exchange, from 1; gaps are entries dropped from the buffer."""
    time: float
    direction: Direction
    """``"sent"`` by this client, ``"received"`` from the server."""
    kind: Kind
    method: str | None
    """The method; for a result or an error, the method of the request it answers (when known)."""
    id: str | int | None
    size: int
    """Characters of the message's JSON as sent or received; for one received as bytes (a stdio line,
    an HTTP body or event) and too large to keep whole, its bytes, counted without decoding it."""
    json: str
    """The message's JSON, masked; for a truncated one, a JSON object summarising it."""
    truncated: bool = False
    refers_to: str | int | None = None
    """The request id a notification refers to (a progress token, a cancelled request's id)."""
    target: str | None = None
    """What a request is about: the tool or prompt name, the resource URI (display masks it)."""
    said: str | None = field(default=None, repr=False, compare=False)
    """The summary when it was made at recording (a truncated message); otherwise made on first read."""

    @property
    def summary(self) -> str:
        """A short line: what a person reads first (masked, not yet made visible or cut for display).

        Made from the masked JSON when first read, so recording a message costs no more than
        serializing it: most entries are never looked at."""
        if self.said is None:
            found = self.message()
            fields = found if isinstance(found, dict) else {}
            params = fields.get("params") if isinstance(fields.get("params"), dict) else {}
            said = _summary(self.kind, self.method, params or {}, fields)[: limits.TRACE_SUMMARY_CHARS * 2]
            object.__setattr__(self, "said", said)  # a cache: the entry stays the same value
        assert self.said is not None
        return self.said

    def message(self) -> JsonObject:
        """The message as a JSON object (for a truncated one, its summary object)."""
        message: JsonObject = json.loads(self.json)  # recorded from a JSON-RPC model or object
        return message

    @property
    def arrow(self) -> str:
        return "→" if self.direction == "sent" else "←"


_Cut = tuple[str, "str | int | None", "str | None"]
"""What is kept of a message too large to keep whole beside the head of its JSON: its summary, the
id it refers to and its target (its entry's JSON, an object holding the head, is made when read)."""
_Kept = tuple[int, float, Direction, Kind, "str | None", "str | int | None", int, str, "_Cut | None"]
"""A message kept as recorded: seq, time, direction, kind, method, id, size, its masked JSON (for
one too large to keep whole, the head of it) and, for that one, the rest of what is kept of it."""
_Item = TraceEntry | _Kept


def _entry_of(item: _Item) -> TraceEntry:
    """The entry of a kept item: a tuple's is made now, its request target or referred id read from
    its (masked) JSON."""
    if isinstance(item, TraceEntry):
        return item
    seq, at, direction, kind, method, ident, size, stored, cut = item
    if cut is not None:
        said, refers, about = cut
        kept: JsonObject = {"truncated": True, "size": size, "method": method, "id": ident, "head": stored}
        shown = json.dumps(kept, ensure_ascii=False)
        return TraceEntry(seq, at, direction, kind, method, ident, size, shown, True, refers, about, said)
    refers_to: str | int | None = None
    target: str | None = None
    if kind in ("notification", "request"):
        try:
            found = json.loads(stored)
        except ValueError:  # masking cut through an escape: the entry stays, without these two
            found = None
        params = found.get("params") if isinstance(found, dict) else None
        params = params if isinstance(params, dict) else {}
        if kind == "notification":
            refers_to = _refers_to(method, params)
        else:
            target = _target(params)
    return TraceEntry(seq, at, direction, kind, method, ident, size, stored, False, refers_to, target)


def _kind(ident: Any, method: Any, fields: dict[str, Any]) -> tuple[str | int | None, str | None, Kind]:
    """A message's id and method, when they are ones, and its kind (``fields``: its fields)."""
    if ident.__class__ is not int and ident.__class__ is not str:  # a bool is not an id
        ident = None
    if method.__class__ is str:
        return ident, method, "request" if ident is not None else "notification"
    return ident, None, "error" if fields.get("error") is not None else "result"


def _remasked(item: _Item, policy: ShowPolicy) -> _Item:
    """A kept item masked again with ``policy`` (which knows more secrets than when it was kept)."""
    if not isinstance(item, TraceEntry):
        cut = item[8]
        if cut is not None:
            cut = (policy.mask(cut[0]), cut[1], None if cut[2] is None else policy.mask(cut[2]))
        return (*item[:7], policy.mask(item[7]), cut)
    said = None if item.said is None else policy.mask(item.said)
    target = None if item.target is None else policy.mask(item.target)
    return replace(item, json=policy.mask(item.json), said=said, target=target)


def _json_of(item: _Item) -> str:
    """The JSON an item holds (for a message too large to keep whole, its head)."""
    return item.json if isinstance(item, TraceEntry) else item[7]


class ProtocolTrace:
    """A connection's JSON-RPC messages, oldest first, bounded; safe to read from any thread."""

    def __init__(
        self,
        name: str,
        *,
        secrets: Iterable[str] = (),
        max_messages: int = limits.TRACE_MESSAGES_KEPT,
        max_message_chars: int = limits.TRACE_MESSAGE_CHARS,
        max_total_chars: int = limits.TRACE_TOTAL_CHARS,
    ) -> None:
        self.name = name
        self.policy = ShowPolicy().with_secrets(secrets)
        self.max_messages = max(1, max_messages)
        self.max_message_chars = max(limits.TRACE_HEAD_CHARS, max_message_chars)
        self.max_total_chars = max(self.max_message_chars, max_total_chars)
        self._entries: collections.deque[_Item] = collections.deque()
        self._chars = 0
        self._methods: dict[tuple[Direction, str | int], str] = {}
        self._reach = secret_reach(self.policy)
        self._lock = threading.Lock()
        self.recorded = 0
        """Messages seen in all, kept or not (the last one's number: see :attr:`TraceEntry.seq`)."""
        self.dropped = 0
        """Entries let go from the front of the buffer (too many, or too many characters)."""
        self.truncated = 0
        """Messages larger than ``max_message_chars``, kept as a summary."""

    @property
    def kept_chars(self) -> int:
        """Characters of JSON the buffer holds now (at most ``max_total_chars``)."""
        return self._chars

    def __len__(self) -> int:
        return len(self._entries)

    def entries(self, last: int | None = None) -> list[TraceEntry]:
        """A snapshot of the kept entries, oldest first; the last ``last`` of them when given."""
        with self._lock:
            kept = list(self._entries)
        chosen = kept if last is None else kept[-last:] if last > 0 else []
        return [_entry_of(item) for item in chosen]

    def entry(self, seq: int) -> TraceEntry | None:
        """The entry numbered ``seq``, or ``None`` when it was dropped (or never was); only that one
        is made an entry."""
        with self._lock:
            kept = list(self._entries)
        for item in kept:
            if (item.seq if isinstance(item, TraceEntry) else item[0]) == seq:
                return _entry_of(item)
        return None

    @property
    def last_seq(self) -> int:
        with self._lock:
            return _entry_of(self._entries[-1]).seq if self._entries else 0

    def add_secrets(self, secrets: Iterable[str]) -> None:
        """Mask ``secrets`` too, from now on and in the entries already kept (a token found while
        connected, a refreshed one: it never sits in the buffer, whenever it became known)."""
        policy = self.policy.with_secrets(secrets)
        if policy is self.policy:
            return
        with self._lock:
            self.policy = policy
            self._reach = secret_reach(policy)
            kept = [_remasked(item, policy) for item in self._entries]
            self._entries = collections.deque(kept)
            self._chars = sum(len(_json_of(item)) for item in kept)

    def clear(self) -> None:
        """Forget every entry (the counts stay)."""
        with self._lock:
            self.dropped += len(self._entries)
            self._entries.clear()
            self._chars = 0

    # -- recording ---------------------------------------------------------------------------

    def record(self, direction: Direction, message: JsonObject | WireModel, wire: str | bytes | None = None) -> None:
        """Add one message (a JSON-RPC model of the SDK, or its JSON as a dict); ``wire``, when the
        transport has it, is the model's JSON as it went over the wire (not serialized again).

        A small message is kept as it came (the common case: no more than a few dict reads, its
        summary made when read). A line's bytes too large to keep whole are not decoded: only the
        head kept of them is (:func:`~anvia_nb.core.exchange.trace_wire.wire_head`), and the size of
        such a message is its bytes."""
        if wire is not None and len(wire) <= self.max_message_chars and not isinstance(message, dict):
            fields = vars(message)  # not getattr: a field a model lacks costs it an exception
            ident, method, kind = _kind(fields.get("id"), fields.get("method"), fields)
            text = wire if isinstance(wire, str) else wire.decode("utf-8", "replace")
            stored = text if self._reach is None else self.policy.mask(text)
            with self._lock:
                if ident is not None:
                    method = self._paired(direction, kind, method, ident)
                self._append((self.recorded + 1, time.time(), direction, kind, method, ident, len(text), stored, None))
            return
        size: int | None = None
        if isinstance(wire, bytes):  # larger than kept whole, unless its characters say otherwise
            wire, size = wire_head(wire, self.max_message_chars, limits.TRACE_HEAD_CHARS, self._reach)
        if hasattr(message, "model_dump_json"):
            text = wire if wire is not None else message.model_dump_json(by_alias=True, exclude_unset=True)
            if size is None and len(text) <= self.max_message_chars:  # HTTP's sent ones, serialized here
                self.record(direction, message, text)
                return
            fields = vars(message)  # a pydantic model's fields, read once
            error: Any = fields.get("error")
            if hasattr(error, "model_dump"):
                fields = {**fields, "error": error.model_dump(by_alias=True, exclude_none=True)}
        else:
            text = json.dumps(message, ensure_ascii=False, default=str)
            fields = dict(message) if isinstance(message, dict) else {}
        self._add(direction, text, fields, size)

    def _paired(self, direction: Direction, kind: Kind, method: str | None, ident: str | int) -> str | None:
        """Remember a request's method by its id; a result or error gets its request's (under the
        lock)."""
        if kind == "notification":
            return method
        if kind == "request":
            methods = self._methods
            methods[(direction, ident)] = str(method)
            if len(methods) > limits.TRACE_PENDING_IDS:
                del methods[next(iter(methods))]  # the oldest: a dict keeps its keys in order
            return method
        return self._methods.pop(("received" if direction == "sent" else "sent", ident), None)

    def _append(self, item: _Item) -> None:
        """Add one kept item (numbered ``recorded + 1``) and let the oldest go past the bounds (under
        the lock)."""
        self.recorded += 1
        entries = self._entries
        entries.append(item)
        self._chars += len(_json_of(item))
        while len(entries) > self.max_messages or (self._chars > self.max_total_chars and len(entries) > 1):
            self._chars -= len(_json_of(entries.popleft()))
            self.dropped += 1

    def _add(self, direction: Direction, text: str, fields: dict[str, Any], size: int | None = None) -> None:
        # A message given as a dict, too large to keep whole, or without its wire JSON.
        ident, method, kind = _kind(fields.get("id"), fields.get("method"), fields)
        params = fields.get("params")
        if not isinstance(params, dict):
            params = {}
        if size is None:
            size = len(text)
        refers_to = _refers_to(method, params) if kind == "notification" else None
        target = _target(params) if kind == "request" else None
        with self._lock:
            if ident is not None:
                method = self._paired(direction, kind, method, ident)
            seq, now = self.recorded + 1, time.time()
            if size > self.max_message_chars:  # not kept whole: its summary and head now, its JSON when read
                said = self.policy.mask(_summary(kind, method, params, fields))[: limits.TRACE_SUMMARY_CHARS * 2]
                head, _ = self.policy.head(text, limits.TRACE_HEAD_CHARS)
                self.truncated += 1
                self._append((seq, now, direction, kind, method, ident, size, head, (said, refers_to, target)))
                return
            masked = self.policy.mask(text)
            self._append(TraceEntry(seq, now, direction, kind, method, ident, size, masked, False, refers_to, target))


def call_entries(entries: Sequence[TraceEntry], first: int, last: int, tool: str) -> list[TraceEntry]:
    """The messages one ``tools/call`` of ``tool`` made between entries ``first`` and ``last``
    (inclusive): its requests (each round of input_required is a request of its own), their
    progress, cancellation and answers, what the server asked of the client meanwhile, and, for a
    call that became a task, the task's polls (``tasks/get``, ``tasks/result``, ``tasks/cancel``),
    status notifications and their answers."""
    window = [e for e in entries if first <= e.seq <= last]
    asked: set[str | int] = set()
    for entry in window:
        if entry.kind != "request" or entry.id is None:
            continue
        if entry.direction == "received" or (entry.method == "tools/call" and entry.target == tool):
            asked.add(entry.id)  # the call's rounds, and the server's own requests meanwhile (elicitation)
    tasks = _task_ids(window, asked)
    for entry in window:
        polls = entry.kind == "request" and entry.direction == "sent" and (entry.method or "").startswith("tasks/")
        if polls and entry.id is not None and entry.target in tasks:
            asked.add(entry.id)
    tokens = {str(i) for i in asked} | tasks
    picked: list[TraceEntry] = []
    for entry in window:
        if (entry.id is not None and entry.id in asked) or (
            entry.refers_to is not None and str(entry.refers_to) in tokens
        ):
            picked.append(entry)
    return picked


def _task_ids(window: Sequence[TraceEntry], asked: set[str | int]) -> set[str]:
    """The ids of the tasks the call's answers made (``resultType: task``; before 2026-07-28 ``task``)."""
    found: set[str] = set()
    for entry in window:
        if entry.kind != "result" or entry.method != "tools/call" or entry.id not in asked or entry.truncated:
            continue
        try:
            message = entry.message()
        except ValueError:
            continue
        result = message.get("result") if isinstance(message, dict) else None
        task = result.get("task") if isinstance(result, dict) and isinstance(result.get("task"), dict) else result
        ident = task.get("taskId") if isinstance(task, dict) else None
        if isinstance(ident, str):
            found.add(ident[:1000])  # as a request's target keeps it
    return found


def record_safely(
    trace: ProtocolTrace, direction: Direction, message: JsonObject | WireModel, wire: str | bytes | None = None
) -> None:
    """:meth:`ProtocolTrace.record` for a transport: the trace never breaks the connection it watches."""
    try:
        trace.record(direction, message, wire)
    except Exception:
        trace.dropped += 1
