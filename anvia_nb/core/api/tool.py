"""``Tool``: one listed tool of a connected server, adapted as Anvia adapts it.

``Tool.call(arguments)`` is Anvia's adapted tool: it returns the mapped output (docs/mapping.md)
and raises its errors. ``Tool.call_outcome(...)`` is the notebook's view of the same call: it never
raises for what the server sent, and keeps the raw result, the mapped output, the outputSchema
verdict and the timing together in a :class:`CallOutcome`.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from anvia_nb._docs import refuse_unknown, shared_keywords
from anvia_nb._passthrough import Passthrough
from anvia_nb.core.api.features import ConnectedServer
from anvia_nb.core.api.maps import MapsRows
from anvia_nb.core.api.progress_kept import ProgressKept, short
from anvia_nb.core.api.tasks import BackgroundCall
from anvia_nb.core.api.tool_schemas import ToolSchemas
from anvia_nb.core.audit.definitions import Finding
from anvia_nb.core.audit.flags import flag_line, tool_flags
from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.limits import CallBounds, Timeout
from anvia_nb.core.protocol.mapping import arguments_from_input, output_from_result
from anvia_nb.core.protocol.types import CallOutcome, JsonObject, MappedOutput, ProgressHandler, ToolInfo
from anvia_nb.core.transport.sdk.tasks import TaskWatch
from anvia_nb.errors import (
    AnviaError,
    ArgumentError,
    DefinitionChangedError,
    OutputSchemaError,
    UnrecordedCallError,
)

if TYPE_CHECKING:
    from typing_extensions import Unpack  # typing's own from Python 3.11; 3.10 is supported

__all__ = ["Tool"]


class Tool(MapsRows):
    """One listed tool of a connected server, adapted as Anvia adapts it.

    Found as ``server.tools`` or ``server.tool(name)``, not made by hand.

    Parameters
    ----------
    info : ToolInfo
        The tool as listed (name, schemas, annotations).
    server : McpServer
        The server that listed it.
    """

    name = Passthrough[str]("_info.name", "The tool's name, as listed and as calls send it.")
    title = Passthrough[str | None](
        "_info.shown_title",
        "The title shown for it (its ``title``, else its annotations' title); ``None`` without one.",
    )
    description = Passthrough[str | None](
        "_info.description", "The server's description of the tool; ``None`` without one."
    )
    input_schema = Passthrough[JsonObject](
        "_info.input_schema", "The JSON Schema its arguments are checked against (``inputSchema``)."
    )
    output_schema = Passthrough[JsonObject | None](
        "_info.output_schema", "The JSON Schema its ``structuredContent`` is checked against; ``None`` without one."
    )
    annotations = Passthrough[JsonObject | None](
        "_info.annotations",
        "Its annotations as listed (``readOnlyHint``, ``destructiveHint``...); ``None`` without any.",
    )
    task_support = Passthrough[str | None](
        "_info.task_support", '``execution.taskSupport``: ``"required"`` means the tool only runs as a task.'
    )

    def __init__(self, info: ToolInfo, server: ConnectedServer) -> None:
        self.info = info
        self._server = server
        self._flagged: tuple[ToolInfo | None, tuple[Finding, ...], str] = (None, (), "")

    @property
    def info(self) -> ToolInfo:
        """The tool as listed now: a new listing (after ``tools/list_changed``) replaces it, and the
        checks of its schemas with it, so a call is checked against the schema the server lists now."""
        return self._info

    @info.setter
    def info(self, info: ToolInfo) -> None:
        self._info = info
        self._schemas = ToolSchemas(info)

    @property
    def flags(self) -> tuple[Finding, ...]:
        """What the audit's checks of its own definition found (core/audit/flags.py), read once per listing."""
        return self._audited()[1]

    def _audited(self) -> tuple[ToolInfo | None, tuple[Finding, ...], str]:  # flags and their line, once per listing
        if self._flagged[0] is not self._info:
            self._flagged = (self._info, found := tool_flags(self._server.name, self._info), flag_line(found))
        return self._flagged

    @property
    def server(self) -> ConnectedServer:
        """The server it is listed by (an :class:`~anvia_nb.core.api.server.McpServer`)."""
        return self._server

    def __repr__(self) -> str:
        return f"<Tool {self._server.name}.{self._info.name}>"

    def _refuse_if_changed(self) -> None:
        refusal = self._server.refused.get(self.name)
        if refusal is not None:
            raise DefinitionChangedError(refusal, self._server.name, self.name)

    def check_arguments(self, arguments: Mapping[str, Any] | None) -> list[str]:
        """Problems of ``arguments`` against the inputSchema, checked here: nothing is sent.

        Parameters
        ----------
        arguments : mapping, optional
            The arguments a call would send (``None``: none).

        Returns
        -------
        list of str
            One line per problem; ``[]`` when valid.
        """
        return self._schemas.argument_problems(arguments)

    async def call(
        self,
        arguments: Mapping[str, Any] | None = None,
        *,
        timeout_seconds: Timeout = limits.DEFAULT,
        max_time_seconds: Timeout = limits.DEFAULT,
    ) -> MappedOutput:
        """Call the tool; return the mapped output or raise the mapping's error.

        What :meth:`call_outcome` does, without keeping what only an outcome shows (progress,
        times, the trace's span): the shortest path from Python to the server and back.

        Parameters
        ----------
        arguments : mapping, optional
            The tool's arguments (``None``: none).
        timeout_seconds, max_time_seconds : float or None, optional
            As for ``call_outcome``.

        Returns
        -------
        object
            The mapped output (docs/mapping.md says what each kind of result becomes).

        Raises
        ------
        ArgumentError
            ``arguments`` is not a mapping.
        ToolResultError
            The server answered ``isError: true``.
        UnsupportedContentError, OutputSchemaError
            Content the mapping does not support; ``structuredContent`` not matching the outputSchema.
        ToolTimeoutError, ConnectionClosedError, ProtocolError
            No answer in time; the connection closed; a JSON-RPC error.

        Examples
        --------
        >>> await server.tool("echo").call({"message": "hi"})
        """
        self._refuse_if_changed()
        raw = await self._server.client.call_tool(
            self.name,
            arguments_from_input(arguments),
            timeout_seconds=timeout_seconds,
            as_task=self.task_support == "required",
            max_time_seconds=max_time_seconds,
        )
        output, error, _ = self._finish(raw)
        if error is not None:
            raise error
        assert output is not None
        return output

    async def call_outcome(
        self,
        arguments: object = None,
        *,
        timeout_seconds: Timeout = limits.DEFAULT,
        on_progress: ProgressHandler | None = None,
        validate_arguments: bool = True,
        as_task: bool | None = None,
        on_task: Callable[[JsonObject], None] | None = None,
        max_time_seconds: Timeout = limits.DEFAULT,
    ) -> CallOutcome:
        """Call the tool and keep everything it produced: never raises for what the server sent.

        Parameters
        ----------
        arguments : mapping, optional
            The tool's arguments (``None``: none).
        timeout_seconds : float or None, optional
            Seconds to wait for an answer (default 60 s), counted again from each progress
            notification (a call that reports progress is alive); ``None``: no limit.
        on_progress : callable, optional
            ``await on_progress(progress, total, message)`` for each progress notification.
        validate_arguments : bool, optional
            Check ``arguments`` against the inputSchema before sending (default ``True``).
        as_task : bool, optional
            Run it as a task; ``None`` (the default): when its ``taskSupport`` is ``"required"``.
        on_task : callable, optional
            ``on_task(task)`` is told each state of a task it became (wire keys).
        max_time_seconds : float or None, optional
            Seconds the whole call may take, progress or not (default 600 s, never less than the
            timeout; with ``timeout_seconds=None`` no bound); ``None``: no bound.

        Returns
        -------
        CallOutcome
            The raw result, the mapped output, ``.error`` (tool error, unsupported content, schema
            mismatch, timeout, lost connection), the outputSchema verdict, progress and timing.

        Raises
        ------
        ArgumentError
            ``arguments`` is not a mapping.
        ArgumentValidationError
            With ``validate_arguments``, ``arguments`` do not match the inputSchema; nothing is sent.
        UnrecordedCallError
            A replayed connection's recording does not hold this call.
        DefinitionChangedError
            The tool changed since it was pinned (``%mcp pin NAME`` accepts it); nothing is sent.
        """
        self._refuse_if_changed()
        sent = (
            self._schemas.checked(arguments, self._server.name)
            if validate_arguments
            else arguments_from_input(arguments)
        )
        kept = ProgressKept(on_progress)
        trace = self._server.client.trace
        first_message = trace.recorded + 1
        started_at = datetime.now(timezone.utc)
        start = time.perf_counter()
        raw: JsonObject | None = None
        output: MappedOutput | None = None
        error: AnviaError | None = None
        schema_problems: list[str] | None = None
        try:
            raw = await self._server.client.call_tool(
                self.name,
                sent,
                timeout_seconds=timeout_seconds,
                on_progress=kept.record,
                as_task=self.task_support == "required" if as_task is None else as_task,
                watch=None if on_task is None else TaskWatch(on_task, server=self._server.name, tool=self.name),
                max_time_seconds=max_time_seconds,
            )
            output, error, schema_problems = self._finish(raw)
        except (ArgumentError, UnrecordedCallError):
            raise
        except AnviaError as exc:
            error = exc
            if raw is not None and not raw.get("isError"):
                schema_problems = self._schemas.output_problems(raw)
        # By position, in the order of CallOutcome's fields: 26k instructions against 34k by keyword
        # (benchmarks/README.md, *The per-call path, fifth pass*); tests/core/test_call_outcome_fields.py
        # holds each field to its value.
        return CallOutcome(
            self._server.name,  # server
            self.name,  # tool
            sent,  # arguments
            raw,
            output,
            error,
            schema_problems,
            time.perf_counter() - start,  # seconds
            started_at,
            self._server.secrets,  # secrets
            tuple(kept.received),  # progress
            kept.count,  # progress_count
            self._server.client.origin,  # origin
            None,  # requested_by
            self._info.output_schema,  # output_schema
            (first_message, trace.recorded) if trace.recorded >= first_message else None,  # trace_span
            self._audited()[2],  # flagged
        )

    @shared_keywords(CallBounds, dict.fromkeys(CallBounds.__annotations__, limits.DEFAULT))
    def start(
        self, arguments: Mapping[str, Any] | None = None, *, as_task: bool | None = None, **bounds: Unpack[CallBounds]
    ) -> BackgroundCall:
        """Send the call and return at once; arguments are checked first, so nothing bad is sent.

        Parameters
        ----------
        arguments : mapping, optional
            The tool's arguments (``None``: none).
        timeout_seconds, max_time_seconds, as_task : optional
            As for ``call_outcome``.

        Returns
        -------
        BackgroundCall
            Its state, progress and outcome arrive while nothing waits: ``await call.wait()`` for
            the outcome, ``call.cancel()`` to stop it.

        Raises
        ------
        ArgumentError, ArgumentValidationError
            ``arguments`` is not a mapping, or does not match the inputSchema.
        """
        refuse_unknown("tool.start", bounds, CallBounds)
        self._refuse_if_changed()
        sent = self._schemas.checked(arguments, self._server.name)
        started = BackgroundCall(self._server.name, self.name, sent, secrets=self._server.secrets)

        def run() -> Awaitable[CallOutcome]:
            return self.call_outcome(
                sent,
                on_progress=started.progress_seen,
                on_task=started.task_seen,
                as_task=as_task,
                validate_arguments=False,
                **bounds,
            )

        return started.start(self._server.client, run)

    @shared_keywords(CallBounds, dict.fromkeys(CallBounds.__annotations__, limits.DEFAULT))
    async def call_task(self, arguments: Mapping[str, Any] | None = None, **bounds: Unpack[CallBounds]) -> MappedOutput:
        """Call the tool as a task (create it, follow its status, fetch its result).

        Parameters
        ----------
        arguments, timeout_seconds, max_time_seconds
            As for ``call`` (the bounds as for ``call_outcome``).

        Returns
        -------
        object
            The mapped output, as ``call``.

        Raises
        ------
        ToolCallError
            The mapping's error, as ``call`` (``TaskCancelledError`` when the task was cancelled).
        """
        refuse_unknown("tool.call_task", bounds, CallBounds)
        outcome = await self.call_outcome(arguments, as_task=True, validate_arguments=False, **bounds)
        if outcome.error is not None:
            raise outcome.error
        assert outcome.output is not None
        return outcome.output

    def _finish(self, raw: JsonObject) -> tuple[MappedOutput | None, AnviaError | None, list[str] | None]:
        """A result's mapped output, or the error it is, and its outputSchema problems; raises only mapping errors."""
        try:
            output = output_from_result(raw, server=self._server.name, tool=self.name)
        except AnviaError:
            self._server.note_links(raw)  # a result that maps holds no resource_link (the mapping refuses one)
            raise
        schema_problems = self._schemas.output_problems(raw)
        if not schema_problems:
            return output, None, schema_problems
        error = OutputSchemaError(
            f"{self._server.name}.{self.name} returned structuredContent that does not match its "
            f"outputSchema: {short(schema_problems[0])}",
            schema_problems,
            server=self._server.name,
            tool=self.name,
            raw=raw,
        )
        return output, error, schema_problems
