"""Demo tools that need something of the client: ``ask_model`` (sampling) and ``long_job`` (a task).

``ask_model`` asks the client's model to answer a question (``sampling/createMessage``: a request
before 2026-07-28, an ``input_required`` round from then on) and returns the reply as text; a
client that declines makes the call fail with the client's words.

``long_job`` only runs as a task (``execution.taskSupport: "required"``), in the 2026-07-28 form
(the ``io.modelcontextprotocol/tasks`` extension): the call answers at once with
``resultType: "task"``; the work goes on in the background, step by step, its status message
saying which step; ``tasks/get`` reports it (with the result once completed) and
``tasks/cancel`` stops it. With ``ask: true`` it stops after step 1 in ``input_required``, its
``inputRequests`` holding a form elicitation, and goes on once ``tasks/update`` answers it. A
client that does not declare the extension gets error -32021.
2026-07-28 dropped ``Tool.execution`` from the listing; the demo sends it anyway (the
:func:`listing_middleware`), so clients can show which tool only runs as a task.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from datetime import datetime, timezone
from typing import Any

import mcp_types as types
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from pydantic import Field

from anvia_nb.core.protocol.versions import MODERN, has_input_rounds, has_tasks_extension

__all__ = [
    "CAPABILITY_TOOLS",
    "SAMPLING_INPUT_KEY",
    "TASKS_EXTENSION",
    "ToolAnswer",
    "call_capability_tool",
    "install",
]

logger = logging.getLogger("anvia_nb.demo_server")

TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
SAMPLING_INPUT_KEY = "sample"
MISSING_CAPABILITY = -32021
_TTL_MS = 600_000
_POLL_MS = 100
_KEPT_TASKS = 100
_ASK_KEY = "go_on"

_Context = ServerRequestContext[Any]
ToolAnswer = types.CallToolResult | types.InputRequiredResult | dict[str, Any]
"""What a ``tools/call`` answers: a result, a request for input (2026-07-28), or a task (the wire
dict of a ``CreateTaskResult``, which the SDK's runner sends as it is)."""
_OBJECT = {"type": "object", "additionalProperties": False}

CAPABILITY_TOOLS: list[dict[str, Any]] = [
    {
        "name": "ask_model",
        "title": "Ask the client's model",
        "description": "Asks the client's model (sampling) to answer the question; declined unless the notebook "
        "allows sampling.",
        "inputSchema": {**_OBJECT, "properties": {"question": {"type": "string"}}, "required": ["question"]},
        "annotations": {"title": "Ask the client's model", "readOnlyHint": True, "openWorldHint": True},
    },
    {
        "name": "long_job",
        "title": "Long job (task)",
        "description": "Runs only as a task: works in steps (its status message says which), then returns "
        "how many it did; cancellable with tasks/cancel.",
        "inputSchema": {
            **_OBJECT,
            "properties": {
                "steps": {"type": "integer", "minimum": 1, "maximum": 10_000, "default": 5},
                "delay_seconds": {"type": "number", "minimum": 0, "maximum": 60, "default": 0.2},
                "label": {"type": "string", "description": "Shown in every status message"},
                "ask": {"type": "boolean", "default": False, "description": "Ask you to go on after step 1"},
            },
        },
        "annotations": {"title": "Long job (task)", "readOnlyHint": True, "openWorldHint": False},
        "execution": {"taskSupport": "required"},
    },
]
_TASK_SUPPORT = {t["name"]: t["execution"]["taskSupport"] for t in CAPABILITY_TOOLS if "execution" in t}


def _now() -> str:
    return datetime.now(timezone.utc).isoformat()


class _Job:
    def __init__(self, steps: int, delay_seconds: float, label: str) -> None:
        self.task_id = str(uuid.uuid4())
        self.status = "working"
        self.message = f"{label}starting: 0 of {steps} steps"
        self.created_at = self.updated_at = _now()
        self.result: dict[str, Any] | None = None
        self.runner: asyncio.Task[None] | None = None
        self.steps, self.delay_seconds, self.label = steps, delay_seconds, label
        self.ask = False
        self.answer: dict[str, Any] | None = None
        self.answered = asyncio.Event()

    def set(self, status: str, message: str) -> None:
        self.status, self.message, self.updated_at = status, message, _now()

    def wire(self) -> dict[str, Any]:
        task: dict[str, Any] = {
            "taskId": self.task_id,
            "status": self.status,
            "statusMessage": self.message,
            "createdAt": self.created_at,
            "lastUpdatedAt": self.updated_at,
            "ttlMs": _TTL_MS,
            "pollIntervalMs": _POLL_MS,
        }
        if self.status == "completed" and self.result is not None:
            task["result"] = self.result
        if self.status == "input_required":
            message = f"{self.label}go on after step 1 of {self.steps}?"
            schema = {"type": "object", "properties": {"go_on": {"type": "boolean"}}, "required": ["go_on"]}
            request = {"mode": "form", "message": message, "requestedSchema": schema}
            task["inputRequests"] = {_ASK_KEY: {"method": "elicitation/create", "params": request}}
        return task

    async def run(self) -> None:
        try:
            for step in range(1, self.steps + 1):
                await asyncio.sleep(self.delay_seconds)
                self.set("working", f"{self.label}step {step} of {self.steps}")
                if step == 1 and self.ask:
                    self.set("input_required", f"{self.label}waiting for your answer")
                    await self.answered.wait()
                    content = (self.answer or {}).get("content") or {}
                    if (self.answer or {}).get("action") != "accept" or content.get("go_on") is not True:
                        self.result = {"content": [{"type": "text", "text": f"{self.label}stopped after step 1"}]}
                        self.set("completed", f"{self.label}stopped after step 1")
                        return
                    self.set("working", f"{self.label}going on")
        except asyncio.CancelledError:
            self.set("cancelled", f"{self.label}cancelled by the client")
            logger.info("long_job task %s cancelled by the client", self.task_id)
            raise
        done = f"{self.label}done after {self.steps} steps"
        self.result = {"content": [{"type": "text", "text": done}], "isError": False}
        self.set("completed", done)


_JOBS: dict[str, _Job] = {}


def _declares_tasks(ctx: _Context) -> bool:
    capabilities = (ctx.meta or {}).get(types.CLIENT_CAPABILITIES_META_KEY)
    extensions = capabilities.get("extensions") if isinstance(capabilities, dict) else None
    return isinstance(extensions, dict) and TASKS_EXTENSION in extensions


def _start_job(ctx: _Context, arguments: dict[str, Any]) -> dict[str, Any]:
    if not has_tasks_extension(ctx.protocol_version) or not _declares_tasks(ctx):
        raise MCPError(
            code=MISSING_CAPABILITY,
            message="long_job only runs as a task: declare the io.modelcontextprotocol/tasks extension "
            f"(protocol {MODERN})",
            data={"requiredCapabilities": {"extensions": {TASKS_EXTENSION: {}}}},
        )
    label = f"{arguments['label']}: " if arguments.get("label") else ""
    job = _Job(int(arguments.get("steps", 5)), float(arguments.get("delay_seconds", 0.2)), label)
    job.ask = arguments.get("ask") is True
    while len(_JOBS) >= _KEPT_TASKS:
        _JOBS.pop(next(iter(_JOBS)))
    _JOBS[job.task_id] = job
    job.runner = asyncio.get_running_loop().create_task(job.run())
    logger.info("long_job task %s started: %d steps", job.task_id, job.steps)
    return {"resultType": "task", **job.wire()}


async def _ask_model(
    ctx: _Context, params: types.CallToolRequestParams, question: str
) -> types.CallToolResult | types.InputRequiredResult:
    message = types.SamplingMessage(role="user", content=types.TextContent(type="text", text=question))
    if has_input_rounds(ctx.protocol_version):
        answer = (params.input_responses or {}).get(SAMPLING_INPUT_KEY)
        if answer is None:
            request = types.CreateMessageRequest(
                params=types.CreateMessageRequestParams(messages=[message], max_tokens=200)
            )
            return types.InputRequiredResult(input_requests={SAMPLING_INPUT_KEY: request})
    else:
        try:
            answer = await ctx.session.create_message([message], max_tokens=200, related_request_id=ctx.request_id)
        except MCPError as error:
            return _text(f"the client did not answer: {error.message}", is_error=True)
    content = getattr(answer, "content", None)
    text = getattr(content, "text", None)
    model = getattr(answer, "model", "?")
    if not isinstance(text, str):
        return _text("the client's model answered with no text", is_error=True)
    return _text(f"{model} says: {text}")


def _text(text: str, *, is_error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=is_error)


async def call_capability_tool(
    ctx: _Context, params: types.CallToolRequestParams, arguments: dict[str, Any]
) -> ToolAnswer:
    """Run ``ask_model`` or ``long_job`` (the caller checked the name and the arguments)."""
    if params.name == "ask_model":
        return await _ask_model(ctx, params, str(arguments["question"]))
    return _start_job(ctx, arguments)


def _job(params: Any) -> _Job:
    job = _JOBS.get(str(getattr(params, "task_id", "")))
    if job is None:
        raise MCPError(code=types.INVALID_PARAMS, message="Failed to retrieve task: Task not found")
    return job


class _TaskParams(types.RequestParams):
    task_id: str


async def _tasks_get(ctx: _Context, params: _TaskParams) -> dict[str, Any]:
    return _job(params).wire()


async def _tasks_cancel(ctx: _Context, params: _TaskParams) -> dict[str, Any]:
    job = _job(params)
    if job.runner is not None and not job.runner.done():
        job.runner.cancel()
        job.set("cancelled", f"{job.label}cancelled by the client")
    return {}


class _UpdateParams(types.RequestParams):
    task_id: str
    input_responses: dict[str, Any] = Field(default_factory=dict)


async def _tasks_update(ctx: _Context, params: _UpdateParams) -> dict[str, Any]:
    job = _job(params)
    answer = params.input_responses.get(_ASK_KEY)
    if job.status == "input_required" and isinstance(answer, dict) and not job.answered.is_set():
        job.answer = answer
        job.answered.set()
    return {}


async def listing_middleware(ctx: _Context, call_next: CallNext) -> HandlerResult:
    """Puts ``execution.taskSupport`` back into the listing (the 2026-07-28 surface drops it)."""
    result = await call_next(ctx)
    if ctx.method == "tools/list" and isinstance(result, dict) and isinstance(result.get("tools"), list):
        for tool in result["tools"]:
            support = _TASK_SUPPORT.get(tool.get("name")) if isinstance(tool, dict) else None
            if support is not None:
                tool["execution"] = {"taskSupport": support}
    return result


def install(server: Server[Any]) -> None:
    """Serve ``tasks/get``, ``tasks/update`` and ``tasks/cancel``, declare the extension, keep
    ``execution`` listed."""
    server.add_request_handler("tasks/get", _TaskParams, _tasks_get)
    server.add_request_handler("tasks/cancel", _TaskParams, _tasks_cancel)
    server.add_request_handler("tasks/update", _UpdateParams, _tasks_update)
    server.extensions[TASKS_EXTENSION] = {}
    server.middleware.append(listing_middleware)
