"""Tasks over the SDK: a ``tools/call`` the server runs as a task, followed until it ends.

Part of the border with the MCP SDK (with :mod:`anvia_nb.core.transport.sdk.connect`). SDK 2.3 knows the task
types but sends none of the task requests, so they are sent here, in the two forms the protocol
has had:

- **2025-11-25** (tasks in the core protocol): the client asks for a task by adding
  ``task: {ttl}`` to ``tools/call``; the server answers ``{task: {...}}``; the client polls
  ``tasks/get`` and fetches the result with ``tasks/result``. Only tools whose
  ``execution.taskSupport`` is ``required`` (or ``optional``, when asked) are called this way.
- **2026-07-28** (the ``io.modelcontextprotocol/tasks`` extension): the client declares the
  extension on every request (:class:`TasksExtension`); the server may then answer any
  ``tools/call`` with ``resultType: "task"``; the client polls ``tasks/get``, whose completed
  task carries the result, and answers an ``input_required`` task's requests with ``tasks/update``.
  The SDK hands such an answer to :func:`_resolve`.

Either way :func:`follow_task` polls (at the server's ``pollInterval``, bounded), reports each
state to the :class:`TaskWatch` of the call (a context variable), and when the call is cancelled
(the stop button, a timeout, ``handle.cancel()``) tells the server with ``tasks/cancel``.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Coroutine
from typing import Any, Literal, TypeVar

import anyio
import mcp_types
from mcp.client.extension import ClaimContext, ClientExtension, ResultClaim
from mcp.client.session import ClientRequestContext, ClientSession
from pydantic import ConfigDict, TypeAdapter

from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.types import JsonObject
from anvia_nb.core.transport.sdk.plain_requests import send_plain
from anvia_nb.errors import ProtocolError, TaskCancelledError

__all__ = [
    "TASKS_EXTENSION",
    "TERMINAL_STATUSES",
    "TaskWatch",
    "TasksExtension",
    "call_as_task",
    "current_watch",
    "follow_task",
    "watched",
]

T = TypeVar("T")

TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
TERMINAL_STATUSES = ("completed", "failed", "cancelled")


class TaskWatch:
    """Who is told about a task: ``on_task(task_json)`` for every state seen (wire keys)."""

    def __init__(self, on_task: Callable[[JsonObject], None], *, server: str = "", tool: str = "") -> None:
        self.on_task = on_task
        self.server = server
        self.tool = tool
        self.task_id: str | None = None


current_watch: contextvars.ContextVar[TaskWatch | None] = contextvars.ContextVar("anvia_nb_task_watch", default=None)


class _TaskParams(mcp_types.RequestParams):
    task_id: str


class _TaskRequest(mcp_types.Request[_TaskParams, str]):
    """``tasks/get``, ``tasks/result`` or ``tasks/cancel``; over HTTP the task id is the Mcp-Name."""

    name_param = "taskId"


class _UpdateParams(mcp_types.RequestParams):
    task_id: str
    input_responses: dict[str, Any]


class _UpdateRequest(mcp_types.Request[_UpdateParams, str]):
    """``tasks/update``: answers to a 2026-07-28 task's ``inputRequests``."""

    name_param = "taskId"


_INPUT_REQUEST: TypeAdapter[mcp_types.InputRequest] = TypeAdapter(mcp_types.InputRequest)


class _CreatedTask(mcp_types.Result):
    """A 2026-07-28 ``CreateTaskResult``: the task's fields at the top level, ``resultType: "task"``."""

    model_config = ConfigDict(extra="allow")
    result_type: Literal["task"]
    task_id: str
    status: str


async def _request(session: ClientSession, method: str, task_id: str, timeout: float | None = None) -> JsonObject:
    request = _TaskRequest(method=method, params=_TaskParams(task_id=task_id))
    return await send_plain(session, request, timeout or limits.TASK_REQUEST_TIMEOUT_SECONDS)


def _task_part(raw: JsonObject) -> JsonObject:
    """The task of a ``tasks/get`` answer or a create result, in either protocol's shape."""
    inner = raw.get("task")
    return dict(inner) if isinstance(inner, dict) else dict(raw)


def _poll_seconds(task: JsonObject) -> float:
    millis = task.get("pollIntervalMs", task.get("pollInterval"))
    if not isinstance(millis, int | float) or isinstance(millis, bool):
        return limits.TASK_POLL_SECONDS
    return min(max(millis / 1000, limits.TASK_POLL_MIN_SECONDS), limits.TASK_POLL_MAX_SECONDS)


def _report(task: JsonObject) -> None:
    watch = current_watch.get()
    if watch is not None:
        watch.task_id = str(task.get("taskId", watch.task_id or ""))
        watch.on_task(task)


async def _tell_cancelled(session: ClientSession, task_id: str) -> None:
    """``tasks/cancel``, shielded from the cancellation that asked for it, bounded."""
    with anyio.CancelScope(shield=True), anyio.move_on_after(limits.TASK_CANCEL_TIMEOUT_SECONDS):
        try:
            answer = _task_part(await _request(session, "tasks/cancel", task_id, limits.TASK_CANCEL_TIMEOUT_SECONDS))
            if "status" in answer:  # 2025-11-25 answers with the task; 2026-07-28 with an empty ack
                _report(answer)
        except Exception:  # the server may have finished or forgotten it: nothing more to tell
            return


async def _answer_inputs(
    session: ClientSession, task: JsonObject, answered: set[str], *, server: str, tool: str
) -> None:
    """Answer a 2026-07-28 task's new ``inputRequests`` through the session's own callbacks
    (elicitation, sampling, roots: the same rules as during a call), then ``tasks/update``."""
    task_id = str(task.get("taskId", ""))
    found = task.get("inputRequests")
    responses: JsonObject = {}
    for key, request in found.items() if isinstance(found, dict) else ():
        if key in answered:
            continue  # the server repeats outstanding requests on every poll
        answered.add(key)
        context = ClientRequestContext(session=session, request_id=f"{task_id}/{key}")
        answer = await session.dispatch_input_request(context, _INPUT_REQUEST.validate_python(request))
        if isinstance(answer, mcp_types.ErrorData):
            raise ProtocolError(
                f"{server}.{tool}: the task {task_id} asked for input that was not given: {answer.message}",
                code=answer.code,
                server=server,
            )
        responses[str(key)] = answer.model_dump(by_alias=True, mode="json", exclude_none=True)
    if responses:
        update = _UpdateRequest(method="tasks/update", params=_UpdateParams(task_id=task_id, input_responses=responses))
        await send_plain(session, update, limits.TASK_REQUEST_TIMEOUT_SECONDS)


async def follow_task(
    session: ClientSession, created: JsonObject, *, modern: bool, server: str, tool: str
) -> JsonObject:
    """Poll a created task until it ends; the raw ``CallToolResult`` (wire keys) it produced.

    Raises :class:`TaskCancelledError` when the server cancelled it, :class:`ProtocolError`
    when it failed; a cancelled caller sends ``tasks/cancel`` before the cancellation goes on.
    """
    task = _task_part(created)
    task_id = str(task.get("taskId", ""))
    if not task_id:
        raise ProtocolError(f"{server}.{tool} answered with a task that has no taskId.", server=server)
    _report(task)
    answered: set[str] = set()
    try:
        while task.get("status") not in TERMINAL_STATUSES:
            if not modern and task.get("status") == "input_required":
                break  # 2025-11-25: tasks/result delivers the server's questions, then the result
            if task.get("status") == "input_required":
                try:
                    await _answer_inputs(session, task, answered, server=server, tool=tool)
                except ProtocolError:
                    await _tell_cancelled(session, task_id)
                    raise
            await anyio.sleep(_poll_seconds(task))
            task = _task_part(await _request(session, "tasks/get", task_id))
            _report(task)
        status = task.get("status")
        if status == "cancelled":
            said = task.get("statusMessage")
            raise TaskCancelledError(
                f"{server}.{tool}: the task {task_id} was cancelled" + (f": {said}" if isinstance(said, str) else "."),
                server=server,
                tool=tool,
                task_id=task_id,
            )
        if modern and status == "failed":
            found = task.get("error")
            error: JsonObject = found if isinstance(found, dict) else {}
            code = error["code"] if isinstance(error.get("code"), int) else 0
            text = str(error.get("message") or task.get("statusMessage") or "no reason given")
            raise ProtocolError(
                f"{server}.{tool}: the task {task_id} failed (MCP error {code}): {text}",
                code=code,
                server=server,
                server_text=text,
                data=error.get("data"),
            )
        if modern:
            result = task.get("result")
            if not isinstance(result, dict):
                raise ProtocolError(f"{server}.{tool}: the completed task {task_id} carries no result.", server=server)
            return dict(result)
        # 2025-11-25: tasks/result waits for the end itself (and carries the server's questions)
        return await _request(session, "tasks/result", task_id, timeout=None)
    except anyio.get_cancelled_exc_class():
        await _tell_cancelled(session, task_id)
        raise


def _wants_task(capabilities: JsonObject) -> bool:
    """Whether the server's ``capabilities`` (wire keys) leave tool calls as tasks open."""
    tasks = capabilities.get("tasks")
    requests = tasks.get("requests") if isinstance(tasks, dict) else None
    return not isinstance(requests, dict) or requests.get("tools") is not None


async def call_as_task(
    session: ClientSession,
    name: str,
    arguments: JsonObject | None,
    capabilities: JsonObject,
    *,
    server: str,
    ttl_ms: int = limits.TASK_TTL_MS,
) -> JsonObject:
    """A 2025-11-25 task-augmented ``tools/call``, followed to its end; the raw result.

    Sent without the SDK's result check: a create-task answer is not a ``CallToolResult``. A
    server that answers with a plain result (it ran the call at once) is taken at its word; one
    whose ``capabilities`` (wire keys) say tool calls are not tasks is not asked for one.
    """
    params: JsonObject = {"name": name, "task": {"ttl": ttl_ms}}
    if arguments is not None:
        params["arguments"] = arguments
    if not _wants_task(capabilities):
        params.pop("task")
    data: JsonObject = {"method": "tools/call", "params": params}
    options: Any = {}
    session._stamp(data, options)
    raw: JsonObject = await session._dispatcher.send_raw_request("tools/call", data["params"], options)
    if "task" not in raw:
        return raw
    return await follow_task(session, raw, modern=False, server=server, tool=name)


async def _resolve(created: _CreatedTask, context: ClaimContext) -> mcp_types.CallToolResult:
    watch = current_watch.get()
    raw = created.model_dump(by_alias=True, mode="json", exclude_none=True)
    server = watch.server if watch is not None else ""
    result = await follow_task(context.session, raw, modern=True, server=server, tool=context.tool_name)
    return mcp_types.CallToolResult.model_validate(result)


class TasksExtension(ClientExtension):
    """Declares ``io.modelcontextprotocol/tasks`` and resolves ``resultType: "task"`` answers."""

    identifier = TASKS_EXTENSION

    def claims(self) -> list[ResultClaim[Any]]:
        return [ResultClaim(result_type="task", model=_CreatedTask, resolve=_resolve)]


async def watched(call: Coroutine[Any, Any, T], watch: TaskWatch | None) -> T:
    """Await ``call`` with ``watch`` as the task watch of the task that runs it (on the owner's loop)."""
    if watch is None:
        return await call
    token = current_watch.set(watch)
    try:
        return await call
    finally:
        current_watch.reset(token)
