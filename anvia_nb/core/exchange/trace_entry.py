"""One message of the trace as kept, and as read: a plain tuple becomes a :class:`TraceEntry` when read.

Recording is on the path of every message and most messages are never looked at, so the trace
keeps as little as it can while the message passes (:mod:`~anvia_nb.core.exchange.trace`) and
this module makes the rest when an entry is read:

- a message kept whole with nothing to mask (the common case) is kept as it came: its number,
  time, direction, JSON and, for an answer, the method of the request it answers (paired while
  recording: the request may be gone from the buffer by the time the answer is read). Its kind,
  id, size, target and the id it refers to are read from its JSON when read (:data:`Lazy`);
- a message masked while recording (the connection has secrets), or too large to keep whole, or
  given without its wire JSON, keeps its kind, method, id and size as recorded (:data:`Kept`);
  for one too large, its head and summary too (:data:`Cut`).

Both keep their JSON at index 3 (the buffer's bound in characters reads it there).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

from anvia_nb.core.exchange.trace_summary import refers_to as _refers_to
from anvia_nb.core.exchange.trace_summary import summary as _summary
from anvia_nb.core.exchange.trace_summary import target as _target
from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.types import JsonObject
from anvia_nb.policy import ShowPolicy

__all__ = ["Cut", "Direction", "Item", "Kept", "Kind", "Lazy", "TraceEntry", "entry_of", "kind_of", "remasked"]

Direction = Literal["sent", "received"]
"""Who sent a message: ``"sent"`` by this client, ``"received"`` from the server."""
Kind = Literal["request", "notification", "result", "error"]
"""What a JSON-RPC message is: a request (it has a method and an id), a notification (a method and no
id), or the answer to a request, a result or an error."""


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


Lazy = tuple[int, float, Direction, str, "str | None"]
"""A message kept whole with nothing masked: seq, time, direction, its JSON as it came and, for an
answer, its request's method (``None`` for any other message: read from its JSON)."""
Cut = tuple[str, "str | int | None", "str | None"]
"""What is kept of a message too large to keep whole beside the head of its JSON: its summary, the
id it refers to and its target (its entry's JSON, an object holding the head, is made when read)."""
Kept = tuple[int, float, Direction, str, "str | None", Kind, "str | int | None", int, "Cut | None"]
"""A message kept as recorded: seq, time, direction, its masked JSON (for one too large to keep
whole, the head of it), method, kind, id, size and, for one too large, the rest of what is kept."""
Item = Lazy | Kept


def kind_of(
    ident: Any,  # any: a message's field as it came, JSON or a model's: checked here
    method: Any,  # any: as ident
    fields: dict[str, Any],
) -> tuple[str | int | None, str | None, Kind]:
    """A message's id and method, when they are ones, and its kind (``fields``: its fields)."""
    if ident.__class__ is not int and ident.__class__ is not str:  # a bool is not an id
        ident = None
    if method.__class__ is str:
        return ident, method, "request" if ident is not None else "notification"
    return ident, None, "error" if fields.get("error") is not None else "result"


def _fields(stored: str) -> dict[str, Any]:
    """The fields of a kept message's JSON (none when masking cut through an escape: the entry
    stays, without what its JSON would have said)."""
    try:
        found = json.loads(stored)
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def entry_of(item: Item) -> TraceEntry:
    """The entry of a kept item: what it did not keep is read from its (masked) JSON now."""
    if len(item) == 5:  # kept as it came: its kind, id and size are its JSON's
        seq, at, direction, stored, paired = item
        fields = _fields(stored)
        ident, method, kind = kind_of(fields.get("id"), fields.get("method"), fields)
        if kind == "result" or kind == "error":
            method = paired
    else:
        seq, at, direction, stored, method, kind, ident, size, cut = item
        if cut is not None:
            said, refers, about = cut
            kept: JsonObject = {"truncated": True, "size": size, "method": method, "id": ident, "head": stored}
            shown = json.dumps(kept, ensure_ascii=False)
            return TraceEntry(seq, at, direction, kind, method, ident, size, shown, True, refers, about, said)
        fields = _fields(stored) if kind == "request" or kind == "notification" else {}
    params = fields.get("params")
    params = params if isinstance(params, dict) else {}
    refers_to = _refers_to(method, params) if kind == "notification" else None
    target = _target(params) if kind == "request" else None
    size = len(stored) if len(item) == 5 else item[7]
    return TraceEntry(seq, at, direction, kind, method, ident, size, stored, False, refers_to, target)


def remasked(item: Item, policy: ShowPolicy) -> Kept:
    """A kept item masked again with ``policy`` (which knows more secrets than when it was kept).

    One kept as it came is read first, unmasked, so its kind and id are what it said (masking could
    cut through an escape of its JSON)."""
    if len(item) == 5:
        entry = entry_of(item)
        return (*item[:3], policy.mask(entry.json), entry.method, entry.kind, entry.id, entry.size, None)
    seq, at, direction, stored, method, kind, ident, size, cut = item
    if cut is not None:
        cut = (policy.mask(cut[0]), cut[1], None if cut[2] is None else policy.mask(cut[2]))
    return (seq, at, direction, policy.mask(stored), method, kind, ident, size, cut)
