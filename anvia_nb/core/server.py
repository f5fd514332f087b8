"""``connect_mcp``, ``McpServer`` and ``Tool``: the adapter's API over :class:`McpClient`.

``Tool.call(arguments)`` is Anvia's adapted tool: it returns the mapped output (docs/mapping.md)
and raises its errors. ``Tool.call_outcome(...)`` is the notebook's view of the same call: it never
raises for what the server sent, and keeps the raw result, the mapped output, the outputSchema
verdict and the timing together in a :class:`CallOutcome`.
"""

from __future__ import annotations

import asyncio
import collections
import difflib
import importlib
import time
from collections.abc import Callable, Mapping
from datetime import datetime, timezone
from typing import Any

from anvia_nb.core import features, limits
from anvia_nb.core._sdk_tasks import TaskWatch
from anvia_nb.core.changes import ListWatch
from anvia_nb.core.client import McpClient
from anvia_nb.core.connections import McpConnection
from anvia_nb.core.logs import ServerLog
from anvia_nb.core.mapping import arguments_from_input, output_from_result
from anvia_nb.core.readings import PromptResult, ResourceRead
from anvia_nb.core.schema import argument_problems, output_problems
from anvia_nb.core.subscriptions import ResourceSubscriptions, ResourceUpdates
from anvia_nb.core.tasks import BackgroundCall, start_call
from anvia_nb.core.trace import ProtocolTrace
from anvia_nb.core.types import CallOutcome, JsonObject, MappedOutput, ProgressHandler, ToolInfo
from anvia_nb.errors import (
    AnviaError,
    ArgumentError,
    ArgumentValidationError,
    ConnectError,
    InvalidTypeError,
    OutputSchemaError,
    UnknownToolError,
    UnrecordedCallError,
)

__all__ = ["McpServer", "Tool", "connect_mcp"]

_PROGRESS_CHARS = 2000


def _short(text: str, limit: int = 200) -> str:
    """Server data quoted in an error message, cut: the whole of it stays on the error object."""
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text) - limit} more characters)"


class Tool:
    """One listed tool of a connected server, adapted as Anvia adapts it."""

    def __init__(self, info: ToolInfo, server: McpServer) -> None:
        self.info = info
        self._server = server

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def title(self) -> str | None:
        return self.info.shown_title

    @property
    def description(self) -> str | None:
        return self.info.description

    @property
    def input_schema(self) -> JsonObject:
        return self.info.input_schema

    @property
    def output_schema(self) -> JsonObject | None:
        return self.info.output_schema

    @property
    def annotations(self) -> JsonObject | None:
        return self.info.annotations

    @property
    def task_support(self) -> str | None:
        """``execution.taskSupport``: ``"required"`` means the tool only runs as a task."""
        return self.info.task_support

    @property
    def server(self) -> McpServer:
        return self._server

    def __repr__(self) -> str:
        return f"<Tool {self._server.name}.{self.info.name}>"

    def check_arguments(self, arguments: Mapping[str, Any] | None) -> list[str]:
        """Problems of ``arguments`` against the inputSchema, one line each; ``[]`` when valid."""
        return argument_problems(self.info.input_schema, dict(arguments or {}))

    async def call(self, arguments: Mapping[str, Any] | None = None) -> MappedOutput:
        """Call the tool; return the mapped output or raise the mapping's error."""
        outcome = await self.call_outcome(arguments, validate_arguments=False)
        if outcome.error is not None:
            raise outcome.error
        assert outcome.output is not None
        return outcome.output

    async def call_outcome(
        self,
        arguments: object = None,
        *,
        timeout_seconds: float | limits.Default | None = limits.DEFAULT,
        on_progress: ProgressHandler | None = None,
        validate_arguments: bool = True,
        as_task: bool | None = None,
        on_task: Callable[[JsonObject], None] | None = None,
    ) -> CallOutcome:
        """Call the tool and keep everything it produced.

        ``timeout_seconds`` bounds the call (default
        :data:`~anvia_nb.core.limits.DEFAULT_CALL_TIMEOUT_SECONDS`; ``None``: no limit).
        ``as_task`` asks the server to run it as a task (by default when its ``taskSupport`` is
        ``required``); ``on_task(task)`` is told each state of a task it became (wire keys).

        Raises :class:`ArgumentError` (not a mapping) and, with ``validate_arguments``,
        :class:`ArgumentValidationError` before anything is sent, and a replayed connection
        :class:`UnrecordedCallError` for a call its recording does not hold. Every later failure (tool
        error, unsupported content, schema mismatch, timeout, lost connection) is in ``.error``.
        """
        sent = arguments_from_input(arguments)
        if validate_arguments:
            problems = self.check_arguments(sent)
            if problems:
                raise ArgumentValidationError(
                    f"Arguments for {self._server.name}.{self.name} do not match its inputSchema: "
                    + "; ".join(problems),
                    problems,
                )
        received: collections.deque[tuple[float, float | None, str | None]] = collections.deque(
            maxlen=limits.PROGRESS_KEPT
        )
        count = 0

        async def record_progress(progress: float, total: float | None, message: str | None) -> None:
            nonlocal count
            count += 1
            received.append((progress, total, _short(message, _PROGRESS_CHARS) if message is not None else None))
            if on_progress is not None:
                await on_progress(progress, total, message)

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
                timeout_seconds=limits.timeout_or_default(timeout_seconds, limits.DEFAULT_CALL_TIMEOUT_SECONDS),
                on_progress=record_progress,
                as_task=self.task_support == "required" if as_task is None else as_task,
                watch=None if on_task is None else TaskWatch(on_task, server=self._server.name, tool=self.name),
            )
            features.note_links(self._server, raw)
            output = output_from_result(raw, server=self._server.name, tool=self.name)
            schema_problems = self._schema_problems(raw)
            if schema_problems:
                error = OutputSchemaError(
                    f"{self._server.name}.{self.name} returned structuredContent that does not match its "
                    f"outputSchema: {_short(schema_problems[0])}",
                    schema_problems,
                    server=self._server.name,
                    tool=self.name,
                    raw=raw,
                )
        except (ArgumentError, UnrecordedCallError):
            raise
        except AnviaError as exc:
            error = exc
            if raw is not None and not raw.get("isError"):
                schema_problems = self._schema_problems(raw)
        return CallOutcome(
            output_schema=self.info.output_schema,
            server=self._server.name,
            tool=self.name,
            arguments=sent,
            raw=raw,
            output=output,
            error=error,
            schema_problems=schema_problems,
            seconds=time.perf_counter() - start,
            started_at=started_at,
            secrets=self._server.secrets,
            progress=tuple(received),
            progress_count=count,
            origin=self._server.client.origin,
            trace_span=(first_message, trace.recorded) if trace.recorded >= first_message else None,
        )

    def start(
        self,
        arguments: Mapping[str, Any] | None = None,
        *,
        timeout_seconds: float | None = None,
        as_task: bool | None = None,
    ) -> BackgroundCall:
        """Send the call and return at once: a :class:`~anvia_nb.core.tasks.BackgroundCall` whose
        state, progress and outcome arrive while nothing waits (``await call.wait()`` for the
        outcome, ``call.cancel()`` to stop it). Arguments are checked first; nothing bad is sent."""
        sent = arguments_from_input(arguments)
        problems = self.check_arguments(sent)
        if problems:
            raise ArgumentValidationError(
                f"Arguments for {self._server.name}.{self.name} do not match its inputSchema: " + "; ".join(problems),
                problems,
            )
        return start_call(self, sent, timeout_seconds=timeout_seconds, as_task=as_task)

    async def call_task(
        self, arguments: Mapping[str, Any] | None = None, *, timeout_seconds: float | None = None
    ) -> MappedOutput:
        """Call the tool as a task (create it, follow its status, fetch its result); the mapped
        output, or the mapping's error, as :meth:`call`."""
        outcome = await self.call_outcome(
            arguments, timeout_seconds=timeout_seconds, as_task=True, validate_arguments=False
        )
        if outcome.error is not None:
            raise outcome.error
        assert outcome.output is not None
        return outcome.output

    async def map(self, rows: Any, **options: Any) -> Any:
        """Call the tool once per row, concurrently on this session; results in row order.

        ``rows`` is a sequence of argument dicts (the outcomes come back as
        :class:`~anvia_nb.core.batch.RowOutcome`), a pandas DataFrame (a DataFrame comes back) or a
        Dask DataFrame (mapped on its cluster's workers). Options: ``constants``, ``concurrency``,
        ``stop_on_error``, ``timeout_seconds``, ``progress``; see docs/dataframes.md.
        """
        from anvia_nb.core.batch import is_rows, map_rows

        if is_rows(rows):
            return await map_rows(self, rows, **options)
        return await _frames().map_frame(self, rows, **options)

    def map_sync(self, rows: Any, **options: Any) -> Any:
        """:meth:`map` for synchronous code; the stop button returns the rows done so far, marked."""
        return _frames().map_sync(self, rows, **options)

    def _schema_problems(self, raw: JsonObject) -> list[str] | None:
        schema = self.info.output_schema
        if schema is None:
            return None
        if raw.get("isError"):
            return None
        if "structuredContent" not in raw:
            return ["the tool declares an outputSchema but sent no structuredContent"]
        return output_problems(schema, raw["structuredContent"])


def _frames() -> Any:
    """The DataFrame side of maps, loaded by name on first use: core never imports pandas."""
    return importlib.import_module("anvia_nb.frames")


class McpServer:
    """A connected server: its name, its adapted tools, and ``close()``."""

    def __init__(self, connection: McpConnection, client: McpClient, tools: list[ToolInfo]) -> None:
        self.connection = connection
        self._secrets: tuple[McpConnection, tuple[str, ...]] | None = None
        self.client = client
        self.tools: list[Tool] = [Tool(info, self) for info in tools]
        self.listings: dict[str, list[JsonObject]] = {}
        """The last ``resources``, ``resourceTemplates`` and ``prompts`` listings read."""
        self.offered_links: set[str] = set()
        """URIs of the resource links its results offered (reading one is on request)."""
        self.changes = ListWatch(self)
        """Re-lists the tools when the server says they changed, and keeps what changed (core/changes.py)."""
        self.subscriptions = ResourceSubscriptions(self)
        """The resources subscribed to and their counted updates (core/subscriptions.py)."""

    @property
    def name(self) -> str:
        return self.connection.name

    @property
    def secrets(self) -> tuple[str, ...]:
        """The connection's secret values (found once per connection: every call's outcome carries them)."""
        found = self._secrets
        if found is None or found[0] is not self.connection:
            found = self._secrets = (self.connection, self.connection.secrets())
        return found[1]

    @property
    def is_open(self) -> bool:
        return self.client.is_open

    def __repr__(self) -> str:
        state = "open" if self.is_open else "closed"
        return f"<McpServer {self.name!r} {self.connection.transport} {state}, {len(self.tools)} tools>"

    @property
    def trace(self) -> ProtocolTrace:
        """The JSON-RPC messages of this connection, bounded and masked: ``server.trace.entries()``."""
        return self.client.trace

    @property
    def log(self) -> ServerLog:
        """The server's log messages and stderr, with anvia_nb's own notes: ``server.log.rows()``."""
        return self.client.log

    def replace_tools(self, tools: list[ToolInfo]) -> None:
        """Adopt a new listing (after ``tools/list_changed``); a tool listed before keeps its object."""
        known = {tool.name: tool for tool in self.tools}
        adopted = []
        for info in tools:
            tool = known.get(info.name)
            if tool is None:
                tool = Tool(info, self)
            else:
                tool.info = info
            adopted.append(tool)
        self.tools = adopted

    def tool(self, name: str) -> Tool:
        """The tool called ``name``; the error lists the closest names."""
        for tool in self.tools:
            if tool.name == name:
                return tool
        names = [t.name for t in self.tools]
        close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
        hint = f" Did you mean {', '.join(close)}?" if close else f" It has: {', '.join(names[:20])}."
        raise UnknownToolError(f"{self.name!r} has no tool {name!r}.{hint}", close)

    # Resources, templates, prompts and completion: see anvia_nb.core.features.

    async def resources(self) -> list[JsonObject]:
        """Every listed resource (wire keys: ``uri``, ``name``, ``title``, ``mimeType``, ``size``...)."""
        return await features.list_resources(self)

    async def resource_templates(self) -> list[JsonObject]:
        """Every listed resource template (``uriTemplate``, ``name``...)."""
        return await features.list_resource_templates(self)

    async def read_resource(
        self, uri: str, *, timeout_seconds: float | limits.Default | None = limits.DEFAULT
    ) -> ResourceRead:
        """resources/read of ``uri``: ``.contents`` as sent, ``.text``, ``.data(i)``, ``.save(i, path)``."""
        return await features.read_resource(self, uri, timeout_seconds=timeout_seconds)

    async def read_template(
        self,
        template: str,
        variables: Mapping[str, str] | None = None,
        *,
        timeout_seconds: float | limits.Default | None = limits.DEFAULT,
    ) -> ResourceRead:
        """Read a listed template (its ``uriTemplate`` or name) expanded with ``variables``."""
        return await features.read_template(self, template, variables, timeout_seconds=timeout_seconds)

    async def read_link(
        self,
        outcome: CallOutcome | JsonObject,
        index: int = 0,
        *,
        timeout_seconds: float | limits.Default | None = limits.DEFAULT,
    ) -> ResourceRead:
        """Read the ``index``-th ``resource_link`` of a result, because you ask (never by itself)."""
        return await features.read_link(self, outcome, index, timeout_seconds=timeout_seconds)

    async def prompts(self) -> list[JsonObject]:
        """Every listed prompt (``name``, ``title``, ``description``, ``arguments``)."""
        return await features.list_prompts(self)

    async def get_prompt(
        self,
        name: str,
        arguments: Mapping[str, str] | None = None,
        *,
        timeout_seconds: float | limits.Default | None = limits.DEFAULT,
    ) -> PromptResult:
        """prompts/get, its name and arguments checked first: ``.messages`` as sent."""
        return await features.get_prompt(self, name, arguments, timeout_seconds=timeout_seconds)

    async def complete(
        self,
        ref: tuple[str, str],
        argument: str,
        value: str = "",
        context: Mapping[str, str] | None = None,
    ) -> list[str]:
        """completion/complete: ``ref`` is ``("prompt", NAME)`` or ``("template", URI_TEMPLATE)``."""
        return await features.complete(self, ref, argument, value, context)

    async def subscribe(self, uri: str) -> None:
        """Hear when the resource ``uri`` changes (see ``resource_updates()``)."""
        await self.subscriptions.subscribe(uri)

    async def unsubscribe(self, uri: str) -> None:
        await self.subscriptions.unsubscribe(uri)

    def resource_updates(self) -> dict[str, ResourceUpdates]:
        """Updates counted per URI (``count``, ``last``) since connecting."""
        return self.subscriptions.updates()

    async def close(self) -> None:
        """Close the session and stop a stdio server with its whole process group."""
        await self.client.close()

    async def __aenter__(self) -> McpServer:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


async def connect_mcp(
    connection: McpConnection,
    *,
    timeout_seconds: float | limits.Default | None = limits.DEFAULT,
    log_level: str | None = None,
) -> McpServer:
    """Connect, handshake, list every tool, and adapt them (Anvia's ``connectMcp``).

    ``timeout_seconds`` bounds all of it: by default the connection's own timeout (``mcp.http``'s
    ``timeout_seconds``), else :data:`~anvia_nb.core.limits.DEFAULT_CONNECT_TIMEOUT_SECONDS`;
    ``None``: no limit. ``log_level`` asks the server for
    its log messages from that level up (``"info"``...; see :data:`anvia_nb.core.logs.LOG_LEVELS`).
    Raises :class:`ConnectError` naming the server and what failed, with the last lines it wrote to
    stderr; a half-open session is closed before the error propagates, and its log kept on the
    error (``.log``) so it can still be read.
    """
    if not hasattr(connection, "connect") or not hasattr(connection, "name"):
        raise InvalidTypeError("connect_mcp takes a connection from mcp.stdio(...) or mcp.http(...).")
    if isinstance(timeout_seconds, limits.Default):
        own = getattr(connection, "timeout_seconds", None)
        timeout_seconds = own if isinstance(own, int | float) else limits.DEFAULT_CONNECT_TIMEOUT_SECONDS
    loop = asyncio.get_running_loop()
    deadline = None if timeout_seconds is None else loop.time() + timeout_seconds
    client = await connection.connect(timeout_seconds=timeout_seconds, log_level=log_level)
    try:
        left = None if deadline is None else max(0.0, deadline - loop.time())
        tools = await asyncio.wait_for(client.list_tools(), left)
    except BaseException as exc:
        await client.close(keep_log=True)
        if isinstance(exc, asyncio.TimeoutError):
            raise client.explained(
                ConnectError(
                    f"Connected to {connection.name!r} but it did not list its tools within {timeout_seconds:g} s.",
                    connection.name,
                )
            ) from None
        if isinstance(exc, AnviaError):
            raise client.explained(
                ConnectError(f"Connected to {connection.name!r} but listing its tools failed: {exc}", connection.name)
            ) from exc
        client.log.remove()
        raise
    return McpServer(connection, client, tools)
