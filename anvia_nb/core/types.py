"""Plain data that crosses the layers: what a tool is, and what one call produced.

These types hold JSON as plain ``dict``/``list`` values with the wire's camelCase keys
(``structuredContent``, ``mimeType``, ``isError``), never SDK models, so the display layer,
the widgets and the tests can build and read them without the MCP SDK.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from anvia_nb.errors import (
    AnviaError,
    OutputSchemaError,
    ToolResultError,
    ToolTimeoutError,
    UnsupportedContentError,
)

JsonObject = dict[str, Any]
MappedPart = dict[str, Any]
MappedOutput = str | list[MappedPart]
"""The seed's mapped output: one ``str`` for text-only results, else a list of parts."""

ProgressHandler = Callable[[float, float | None, str | None], Awaitable[None]]
"""``await on_progress(progress, total, message)`` for each progress notification of a call."""

CallStatus = Literal["ok", "tool error", "unsupported content", "schema mismatch", "timeout", "failed"]

ANNOTATION_HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")


@dataclass(frozen=True)
class ToolInfo:
    """A listed tool, as its server described it (all of it untrusted text)."""

    server: str
    name: str
    title: str | None = None
    description: str | None = None
    input_schema: JsonObject = field(default_factory=lambda: {"type": "object"})
    output_schema: JsonObject | None = None
    annotations: JsonObject | None = None
    """Wire keys: ``title``, ``readOnlyHint``, ``destructiveHint``, ``idempotentHint``, ``openWorldHint``."""
    icons: tuple[JsonObject, ...] = ()
    """Icon metadata as sent; never fetched or hot-linked by anvia_nb."""

    @property
    def required(self) -> list[str]:
        """Names of the required arguments, in the schema's order."""
        req = self.input_schema.get("required")
        return [r for r in req if isinstance(r, str)] if isinstance(req, list) else []

    @property
    def argument_names(self) -> list[str]:
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
        """One annotation hint (``"destructiveHint"``...), or ``None`` when the server said nothing."""
        value = (self.annotations or {}).get(name)
        return value if isinstance(value, bool) else None


@dataclass(frozen=True)
class CallOutcome:
    """Everything one ``tools/call`` produced, for display beside the seed's mapped output.

    ``raw`` is the result as JSON (wire keys), or ``None`` when no result arrived (timeout,
    protocol error, crashed server). ``output`` is the mapped output, or ``None`` when ``error``
    is set. ``schema_problems`` is ``None`` when the tool declares no outputSchema, ``[]`` when
    structuredContent validated, else one line per violation.
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
    """Secret strings of the connection, masked in everything rendered; never shown."""
    progress: tuple[tuple[float, float | None, str | None], ...] = ()
    """Progress notifications received during the call: (progress, total, message)."""

    @property
    def is_error(self) -> bool:
        return self.error is not None

    @property
    def structured(self) -> Any:
        """``structuredContent`` as sent, or ``None``."""
        return None if self.raw is None else self.raw.get("structuredContent")

    @property
    def status(self) -> CallStatus:
        err = self.error
        if err is None:
            return "ok"
        if isinstance(err, ToolResultError):
            return "tool error"
        if isinstance(err, UnsupportedContentError):
            return "unsupported content"
        if isinstance(err, OutputSchemaError):
            return "schema mismatch"
        if isinstance(err, ToolTimeoutError):
            return "timeout"
        return "failed"
