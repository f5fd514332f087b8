"""Plain data that crosses the layers: what a tool is, what one call produced, and what a history keeps of it.

These types hold JSON as plain ``dict``/``list`` values with the wire's camelCase keys
(``structuredContent``, ``mimeType``, ``isError``), never SDK models, so the display layer,
the widgets and the tests can build and read them without the MCP SDK.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, TypeAlias

from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.apps import ToolApp, tool_app, tool_visibility
from anvia_nb.core.protocol.bounded import bounded_error, bounded_json, json_fits
from anvia_nb.core.protocol.content import UNSUPPORTED_KINDS
from anvia_nb.errors import (
    AnviaError,
    OutputSchemaError,
    TaskCancelledError,
    ToolResultError,
    ToolTimeoutError,
    UnsupportedContentError,
)

__all__ = [
    "ANNOTATION_HINTS",
    "BackgroundState",
    "CallOutcome",
    "CallRecord",
    "CallStatus",
    "JsonObject",
    "JsonValue",
    "MappedOutput",
    "MappedPart",
    "ProgressHandler",
    "ToolInfo",
    "status_of",
]

JsonValue: TypeAlias = bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"] | None
"""A JSON value as :func:`json.loads` gives it: what a server sends where the protocol says "any JSON"
(``structuredContent`` as sent, a log message's data). Narrow it (``isinstance``) before indexing."""
JsonObject = dict[str, Any]
MappedPart = dict[str, Any]
MappedOutput = str | list[MappedPart]
"""The mapped output (docs/mapping.md): one ``str`` for text-only results, else a list of parts."""

ProgressHandler = Callable[[float, float | None, str | None], Awaitable[None]]
"""``await on_progress(progress, total, message)`` for each progress notification of a call."""


CallStatus = Literal["ok", "tool error", "unsupported content", "schema mismatch", "timeout", "cancelled", "failed"]


def status_of(error: BaseException | None) -> CallStatus:
    """How a call that raised ``error`` ended (``None``: ``"ok"``), as :attr:`CallOutcome.status`
    and a view of a failure with no outcome say it."""
    if error is None:
        return "ok"
    if isinstance(error, ToolResultError):
        return "tool error"
    if isinstance(error, UnsupportedContentError):
        return "unsupported content"
    if isinstance(error, OutputSchemaError):
        return "schema mismatch"
    if isinstance(error, ToolTimeoutError):
        return "timeout"
    if isinstance(error, TaskCancelledError):
        return "cancelled"
    return "failed"


ANNOTATION_HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")


@dataclass(frozen=True)
class ToolInfo:
    """A listed tool, as its server described it (all of it untrusted text).

    Attributes
    ----------
    server : str
        The connection's name.
    name, title, description : str or None
        As listed (only ``name`` is required).
    input_schema, output_schema : dict or None
        ``inputSchema`` and ``outputSchema`` (JSON Schema); ``output_schema`` ``None`` without one.
    annotations : dict or None
        Wire keys: ``title``, ``readOnlyHint``, ``destructiveHint``, ``idempotentHint``, ``openWorldHint``.
    icons : tuple of dict
        Icon metadata as sent; never fetched or hot-linked by anvia_nb.
    task_support : str or None
        ``execution.taskSupport``: ``"required"`` (runs only as a task), ``"optional"``, ``"forbidden"`` or ``None``.
    meta : dict or None
        The tool's ``_meta`` as sent (MCP Apps read ``_meta.ui`` from it: ``app``).
    """

    server: str
    name: str
    title: str | None = None
    description: str | None = None
    input_schema: JsonObject = field(default_factory=lambda: {"type": "object"})
    output_schema: JsonObject | None = None
    annotations: JsonObject | None = None
    icons: tuple[JsonObject, ...] = ()
    task_support: str | None = None
    meta: JsonObject | None = field(default=None, repr=False, compare=False)

    @property
    def app(self) -> ToolApp | None:
        """The interactive view the tool names (MCP Apps), or ``None``."""
        return tool_app(self.meta)

    @property
    def for_cells(self) -> bool:
        """Whether cells, forms and the model may call it (``"model"`` in ``_meta.ui.visibility``,
        the default): not a tool its server shows only to views."""
        return "model" in tool_visibility(self.meta)

    @property
    def for_app(self) -> bool:
        """Whether a view of its server may call it (``"app"`` in ``_meta.ui.visibility``, the default)."""
        return "app" in tool_visibility(self.meta)

    @property
    def required(self) -> list[str]:
        """Names of the required arguments, in the schema's order."""
        req = self.input_schema.get("required")
        return [r for r in req if isinstance(r, str)] if isinstance(req, list) else []

    @property
    def argument_names(self) -> list[str]:
        """Names of the arguments its inputSchema declares, in the schema's order."""
        props = self.input_schema.get("properties")
        return list(props) if isinstance(props, Mapping) else []

    @property
    def shown_title(self) -> str | None:
        """The title to show: ``title``, else the annotations' ``title``; ``None`` when neither is set."""
        for title in (self.title, (self.annotations or {}).get("title")):
            if isinstance(title, str) and title:
                return title
        return None

    def hint(self, name: str) -> bool | None:
        """One annotation hint.

        Parameters
        ----------
        name : str
            ``"readOnlyHint"``, ``"destructiveHint"``, ``"idempotentHint"`` or ``"openWorldHint"``.

        Returns
        -------
        bool or None
            ``None`` when the server said nothing (or not a bool).
        """
        value = (self.annotations or {}).get(name)
        return value if isinstance(value, bool) else None


@dataclass(frozen=True)
class CallOutcome:
    """Everything one ``tools/call`` produced, for display beside the mapped output.

    Attributes
    ----------
    server, tool : str
        The connection's and the tool's names.
    arguments : dict or None
        The arguments sent.
    raw : dict or None
        The result as JSON (wire keys); ``None`` when no result arrived (timeout, crash...).
    output : object or None
        The mapped output; ``None`` when ``error`` is set.
    error : AnviaError or None
        What went wrong (tool error, unsupported content, schema mismatch, timeout...).
    schema_problems : list of str or None
        ``None`` without an outputSchema, ``[]`` when structuredContent validated, else one line each.
    seconds : float
    started_at : datetime
        How long it took, and when it started (UTC).
    secrets : tuple of str
        The connection's secret values, masked in everything rendered; never shown.
    progress : tuple of (progress, total, message)
        The last progress notifications (at most ``PROGRESS_KEPT``, messages cut).
    progress_count : int
        How many progress notifications the call received in all.
    origin : str or None
        Where the answer came from when not from a live server (``"replayed from FILE"``).
    requested_by : str or None
        ``"app ui://..."`` when a tool's interactive view (MCP Apps) asked for the call.
    output_schema : dict or None
        The tool's outputSchema when it was called (columns and types of ``ResultView.frame()``).
    trace_span : tuple of (int, int) or None
        The protocol trace's first and last message numbers during the call (``None``: no trace).
    flagged : str
        The audit's flags on the tool's definition at ``medium`` or above, as check ids and
        severities (``core/audit/flags.py``); empty when none. ``model_context()`` warns of them.
    """

    server: str
    tool: str
    arguments: JsonObject | None
    raw: JsonObject | None
    output: MappedOutput | None
    error: AnviaError | None
    schema_problems: list[str] | None
    seconds: float
    started_at: datetime
    secrets: tuple[str, ...] = field(default=(), repr=False)
    progress: tuple[tuple[float, float | None, str | None], ...] = ()
    progress_count: int = 0
    origin: str | None = None
    requested_by: str | None = None
    output_schema: JsonObject | None = field(default=None, repr=False, compare=False)
    trace_span: tuple[int, int] | None = None
    flagged: str = ""

    @property
    def output_chars(self) -> int | None:
        """Characters of the mapped output (a list of parts counts as its JSON); ``None`` without one."""
        output = self.output
        if output is None:
            return None
        if isinstance(output, str):
            return len(output)
        return len(json.dumps(output, ensure_ascii=False, default=str))

    def summary(self) -> CallRecord:
        """What a history keeps of this call: never its result.

        Returns
        -------
        CallRecord
        """
        status = status_of(self.error)
        problems = self.schema_problems
        return CallRecord(  # by position, in the order of CallRecord's fields (a fifth cheaper than by keyword)
            self.server,
            self.tool,
            bounded_json(self.arguments) if self.arguments is not None else None,  # arguments
            status,
            self._shown(status),  # shown_status
            bounded_error(self.error) if self.error is not None else None,  # error
            None if problems is None else [p[:500] for p in problems[:20]],  # schema_problems
            self.seconds,
            self.started_at,
            self.output_chars,
            self._seen(),  # seen
            self.secrets,
            self.progress_count,
            self.origin,
            self.trace_span,
            self.requested_by,
        )

    def _seen(self) -> JsonObject:
        kept: JsonObject = {}
        output, raw = self.output, self.raw
        if output is not None and json_fits(output, limits.RECORD_SEEN_CHARS):
            kept["output"] = output
        if raw is not None and "structuredContent" in raw:
            structured = raw["structuredContent"]
            if json_fits(structured, limits.RECORD_SEEN_CHARS):
                kept["structured"] = structured
        return kept

    @property
    def is_error(self) -> bool:
        """Whether the call failed (``error`` is set)."""
        return self.error is not None

    @property
    def structured(self) -> JsonValue:
        """``structuredContent`` as sent, or ``None``."""
        return None if self.raw is None else self.raw.get("structuredContent")

    @property
    def status(self) -> CallStatus:
        """How it ended: ``"ok"``, ``"tool error"``, ``"schema mismatch"``, ``"timeout"``, ``"failed"``..."""
        return status_of(self.error)

    @property
    def shown_status(self) -> CallStatus:
        """The status a view shows: :attr:`status`, except that a result flagged ``isError`` or holding
        content anvia_nb cannot show is never shown as ``"ok"``."""
        return self._shown(status_of(self.error))

    def _shown(self, status: CallStatus) -> CallStatus:
        """:attr:`shown_status` of a call whose :attr:`status` is ``status``."""
        raw = self.raw
        if status == "ok" and raw is not None:
            if raw.get("isError") is True:
                return "tool error"
            content = raw.get("content")
            if isinstance(content, list):
                for item in content:
                    if isinstance(item, dict) and item.get("type") in UNSUPPORTED_KINDS:
                        return "unsupported content"
        return status


@dataclass(frozen=True)
class CallRecord:
    """One entry of a call history (:meth:`CallOutcome.summary`): what the call was and how it
    ended, never what it returned, so keeping a thousand of them frees every result.

    Attributes
    ----------
    server, tool, seconds, started_at, secrets, progress_count, origin, trace_span, requested_by
        As in ``CallOutcome``.
    arguments, schema_problems : dict, list of str, or None
        Bounded copies of the outcome's.
    status, shown_status : str
        The outcome's ``status`` and ``shown_status`` (the status column of ``%mcp history``).
    error : AnviaError or None
        A copy with its message cut and no result or server data.
    output_chars : int or None
        The size of the mapped output (``None`` without one).
    seen : dict
        ``output`` and ``structured``, each kept when its JSON fits ``RECORD_SEEN_CHARS`` (for tests).
    """

    server: str
    tool: str
    arguments: JsonObject | None
    status: CallStatus
    shown_status: CallStatus
    error: AnviaError | None
    schema_problems: list[str] | None
    seconds: float
    started_at: datetime
    output_chars: int | None
    seen: JsonObject = field(repr=False)
    secrets: tuple[str, ...] = field(default=(), repr=False)
    progress_count: int = 0
    origin: str | None = None
    trace_span: tuple[int, int] | None = None
    requested_by: str | None = None

    @property
    def is_error(self) -> bool:
        """Whether the call failed (``error`` is set)."""
        return self.error is not None


@dataclass(frozen=True)
class BackgroundState:
    """What a view shows of a background call (:mod:`anvia_nb.core.api.tasks`) at one moment; server text
    as sent: untrusted."""

    server: str
    tool: str
    status: str
    task_id: str | None
    status_message: str | None
    progress: tuple[float, float | None, str | None] | None
    seconds: float
    done: bool
    secrets: tuple[str, ...] = ()
