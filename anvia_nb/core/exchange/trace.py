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
kept as a plain tuple, and becomes a :class:`TraceEntry` only when read. A small one with nothing to
mask keeps only what reading cannot recover (its JSON as it came, number, time, direction and, for
an answer, its request's method); its kind, id and size are read from its JSON when read
(:mod:`~anvia_nb.core.exchange.trace_entry`). A large line's bytes are decoded only as far as its
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
from typing import Any, Protocol

from anvia_nb.core.exchange.trace_entry import Direction, Item, TraceEntry, entry_of, kind_of, remasked
from anvia_nb.core.exchange.trace_summary import refers_to as _refers_to
from anvia_nb.core.exchange.trace_summary import summary as _summary
from anvia_nb.core.exchange.trace_summary import target as _target
from anvia_nb.core.exchange.trace_wire import secret_reach, wire_head
from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.types import JsonObject
from anvia_nb.policy import ShowPolicy

__all__ = ["Direction", "ProtocolTrace", "TraceEntry", "WireModel", "call_entries", "record_safely"]


class WireModel(Protocol):
    """A JSON-RPC message as the SDK's pydantic model, as the transports record it: its JSON and its
    fields (read with ``vars``) are what the trace reads of it."""

    def model_dump_json(self, *, by_alias: bool = False, exclude_unset: bool = False) -> str: ...


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
        self._entries: collections.deque[Item] = collections.deque()
        self._chars = 0
        self._methods: dict[tuple[Direction, str | int], str] = {}
        self._reach = secret_reach(self.policy)
        self._lock = threading.Lock()
        self.recorded = 0
        """Messages seen in all, kept or not (the last one's number: see :attr:`TraceEntry.seq`)."""
        self._failed = 0
        self.truncated = 0
        """Messages larger than ``max_message_chars``, kept as a summary."""

    @property
    def dropped(self) -> int:
        """Entries let go from the front of the buffer (too many, or too many characters, or cleared),
        and messages the trace failed to record."""
        return self._failed + self.recorded - len(self._entries)

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
        return [entry_of(item) for item in chosen]

    def entry(self, seq: int) -> TraceEntry | None:
        """The entry numbered ``seq``, or ``None`` when it was dropped (or never was); only that one
        is made an entry."""
        with self._lock:
            kept = list(self._entries)
        for item in kept:
            if item[0] == seq:
                return entry_of(item)
        return None

    @property
    def last_seq(self) -> int:
        with self._lock:
            return self._entries[-1][0] if self._entries else 0

    def add_secrets(self, secrets: Iterable[str]) -> None:
        """Mask ``secrets`` too, from now on and in the entries already kept (a token found while
        connected, a refreshed one: it never sits in the buffer, whenever it became known)."""
        policy = self.policy.with_secrets(secrets)
        if policy is self.policy:
            return
        with self._lock:
            self.policy = policy
            self._reach = secret_reach(policy)
            kept: list[Item] = [remasked(item, policy) for item in self._entries]
            self._entries = collections.deque(kept)
            self._chars = sum(len(item[3]) for item in kept)

    def clear(self) -> None:
        """Forget every entry (the counts stay)."""
        with self._lock:
            self._entries.clear()
            self._chars = 0

    # -- recording ---------------------------------------------------------------------------

    def record(self, direction: Direction, message: JsonObject | WireModel, wire: str | bytes | None = None) -> None:
        """Add one message (a JSON-RPC model of the SDK, or its JSON as a dict); ``wire``, when the
        transport has it, is the model's JSON as it went over the wire (not serialized again).

        A small message with nothing to mask is kept as it came: its number, time, direction, JSON
        and, for an answer, its request's method (the common case: a few dict reads; what else its
        entry says is read from its JSON when read, see :mod:`~anvia_nb.core.exchange.trace_entry`).
        A line's bytes too large to keep whole are not decoded: only the head kept of them is
        (:func:`~anvia_nb.core.exchange.trace_wire.wire_head`), and the size of such a message is
        its bytes."""
        if wire is None and not isinstance(message, dict):  # HTTP's sent ones: serialized here, once
            wire = message.model_dump_json(by_alias=True, exclude_unset=True)
        if wire is not None and len(wire) <= self.max_message_chars and not isinstance(message, dict):
            fields = message.__dict__  # not getattr: a field a model lacks costs it an exception
            text = wire if wire.__class__ is str else wire.decode("utf-8", "replace")  # type: ignore[union-attr]  # bytes: not str
            if self._reach is not None:  # masked now: its kind and id kept as its model says them
                self._add(direction, text, fields)
                return
            ident = fields.get("id")
            lock = self._lock
            lock.acquire()  # not ``with``: it costs this, the most frequent path, twice the time
            try:
                method = None if ident is None else self._paired(direction, fields.get("method"), ident)
                self._append((self.recorded + 1, time.time(), direction, text, method))
            finally:
                lock.release()
            return
        size: int | None = None
        if isinstance(wire, bytes):  # larger than kept whole, unless its characters say otherwise
            wire, size = wire_head(wire, self.max_message_chars, limits.TRACE_HEAD_CHARS, self._reach)
        if isinstance(message, dict):
            text = json.dumps(message, ensure_ascii=False, default=str)
            self._add(direction, text, dict(message), size)
            return
        text = str(wire)  # the model's JSON (above)
        if size is None and len(text) <= self.max_message_chars:  # its characters fit after all
            self.record(direction, message, text)
            return
        fields = message.__dict__  # a pydantic model's fields, read once
        error: Any = fields.get("error")
        if error is not None and not isinstance(error, dict):  # the SDK's ErrorData: its wire keys
            fields = {**fields, "error": error.model_dump(by_alias=True, exclude_none=True)}
        self._add(direction, text, fields, size)

    def _paired(self, direction: Direction, method: str | None, ident: str | int) -> str | None:
        """Remember a request's method by its id and give it back; an answer (no method) gets its
        request's (under the lock; ``method`` and ``ident`` as the message's fields hold them)."""
        if method is None:
            return self._methods.pop(("received" if direction == "sent" else "sent", ident), None)
        methods = self._methods
        methods[(direction, ident)] = method
        if len(methods) > limits.TRACE_PENDING_IDS:
            del methods[next(iter(methods))]  # the oldest: a dict keeps its keys in order
        return method

    def _append(self, item: Item) -> None:
        """Add one kept item (numbered ``recorded + 1``) and let the oldest go past the bounds (under
        the lock)."""
        self.recorded += 1
        entries = self._entries
        entries.append(item)
        self._chars += len(item[3])
        if len(entries) > self.max_messages:  # one came: at most one goes for the count
            self._chars -= len(entries.popleft()[3])
        while self._chars > self.max_total_chars and len(entries) > 1:
            self._chars -= len(entries.popleft()[3])

    def _add(self, direction: Direction, text: str, fields: dict[str, Any], size: int | None = None) -> None:
        # A message masked, given as a dict, too large to keep whole, or without its wire JSON.
        ident, method, kind = kind_of(fields.get("id"), fields.get("method"), fields)
        if size is None:
            size = len(text)
        self._lock.acquire()  # as in record; masked under the lock, with the policy add_secrets sets
        try:
            if ident is not None:
                method = self._paired(direction, method, ident)
            seq, now = self.recorded + 1, time.time()
            if size <= self.max_message_chars:  # its target and the id it refers to: read when read
                self._append((seq, now, direction, self.policy.mask(text), method, kind, ident, size, None))
                return
            # Not kept whole: its summary and head now, its JSON when read.
            params: dict[str, Any] = {}  # an answer's summary reads its result, not params
            refers_to, target = None, None
            if kind == "request" or kind == "notification":
                found = fields.get("params")
                params = found if isinstance(found, dict) else {}
                refers_to = _refers_to(method, params) if kind == "notification" else None
                target = _target(params) if kind == "request" else None
            said = self.policy.mask(_summary(kind, method, params, fields))[: limits.TRACE_SUMMARY_CHARS * 2]
            head, _ = self.policy.head(text, limits.TRACE_HEAD_CHARS)
            self.truncated += 1
            self._append((seq, now, direction, head, method, kind, ident, size, (said, refers_to, target)))
        finally:
            self._lock.release()


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
        trace._failed += 1  # counted in its ``dropped``
