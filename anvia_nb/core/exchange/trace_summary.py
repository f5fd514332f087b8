"""The one line a person reads first about a JSON-RPC message of the trace, and what it refers to.

``tools/call echo {"message":"hi"}``, ``progress 3/5``, ``result: 21 tools (more pages)``: made
from the message's fields (wire keys) by :class:`anvia_nb.core.exchange.trace.TraceEntry` when first read.
Only the start of each value is read (:func:`_clipped`): a 250 MB log message or argument costs the
line its first characters, never a copy of itself.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

from anvia_nb.core.protocol import limits

__all__ = ["refers_to", "summary", "target"]


def _clipped(value: Any, budget: int, depth: int = 0) -> Any:
    """As much of a JSON value as a line of ``budget`` characters can show: strings cut, at most
    ``budget`` items of a list or object, nesting cut, so what follows costs the line, not the value."""
    if isinstance(value, str):
        return value[:budget]
    if depth >= budget // 4 or not isinstance(value, list | tuple | dict):
        return value if isinstance(value, int | float | bool) or value is None else str(value)[:budget]
    if isinstance(value, dict):
        return {str(k)[:budget]: _clipped(v, budget, depth + 1) for k, v in itertools.islice(value.items(), budget)}
    return [_clipped(item, budget, depth + 1) for item in value[:budget]]


def _compact(value: Any, limit: int = 100) -> str:
    text = json.dumps(_clipped(value, limit), ensure_ascii=False, default=str, separators=(",", ":"))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _text(value: Any) -> str:
    """A string field (a log message, a progress message, a reason) as the line shows it: its start."""
    if isinstance(value, str):
        return value[: limits.TRACE_SUMMARY_CHARS * 2]  # what the line keeps (see trace.py)
    return str(value) if isinstance(value, int | float | bool) or value is None else _compact(value)


def summary(kind: str, method: str | None, params: dict[str, Any], fields: dict[str, Any]) -> str:
    """One line saying what the message is: ``tools/call echo {"message":"hi"}``, ``progress 3/5``."""
    if kind == "result":  # first: a large answer's is made while it is recorded
        return _result_summary(method, fields.get("result"))
    if kind == "request":
        if method == "tools/call":
            extra = " (with input responses)" if params.get("inputResponses") else ""
            return f"tools/call {_text(params.get('name'))} {_compact(params.get('arguments') or {})}{extra}"
        shown = {k: v for k, v in params.items() if k != "_meta"}
        return f"{method} {_compact(shown)}" if shown else str(method)
    if kind == "notification":
        if method == "notifications/progress":
            total = params.get("total")
            said = f" {_text(params['message'])}" if isinstance(params.get("message"), str) else ""
            total_said = "" if total is None else f"/{_text(total)}"
            return f"progress {_text(params.get('progress'))}{total_said}{said}"
        if method == "notifications/message":
            logger = f" {_text(params['logger'])}" if isinstance(params.get("logger"), str) else ""
            data = params.get("data")
            return f"log {_text(params.get('level'))}{logger}: {_text(data)}"
        if method == "notifications/cancelled":
            reason = f": {_text(params['reason'])}" if isinstance(params.get("reason"), str) else ""
            return f"cancelled request {params.get('requestId')}{reason}"
        if method == "notifications/tasks/status":
            return _task_summary(params)
        shown = {k: v for k, v in params.items() if k != "_meta"}
        return f"{method} {_compact(shown)}" if shown else str(method)
    error = fields.get("error")  # an error: the kinds are four
    error = error if isinstance(error, dict) else {}
    return f"error {_text(error.get('code'))}: {_text(error.get('message'))}"


def _result_summary(method: str | None, result: Any) -> str:
    if not isinstance(result, dict):
        return "result"
    shape = result.get("resultType")
    if shape == "input_required" or "inputRequests" in result:
        asks = result.get("inputRequests")
        return f"input required: {', '.join(map(str, asks)) if isinstance(asks, dict) else '?'}"
    # Asked only of what may be a task: this runs for every large result kept (issue 41).
    task = _task_of(result) if shape == "task" or "task" in result or "taskId" in result else None
    if task is not None:
        done = task.get("result")  # a finished task's result, given with its status (2026-07-28)
        return f"result: {_task_summary(task)}" + (f"; {_result_summary('tools/call', done)}" if done else "")
    if method in ("tools/call", "tasks/result"):  # a task's result is the call's
        found = result.get("content")
        content: list[Any] = found if isinstance(found, list) else []
        kinds: dict[str, int] = {}  # a plain dict, not a Counter: this runs for every large result kept
        for item in content:
            if isinstance(item, dict):
                kind = str(item.get("type"))
                kinds[kind] = kinds.get(kind, 0) + 1
        parts: list[str] = []  # a loop, not a comprehension: it costs a function call (Python 3.11)
        for kind, count in kinds.items():
            parts.append(f"{count} {kind}" if count > 1 else kind)
        error = " isError" if result.get("isError") is True else ""
        structured = " +structuredContent" if "structuredContent" in result else ""
        return f"result{error}: {', '.join(parts) or 'no content'}{structured}"
    for key in ("tools", "resources", "resourceTemplates", "prompts"):
        if isinstance(result.get(key), list):
            more = " (more pages)" if result.get("nextCursor") else ""
            return f"result: {len(result[key])} {key}{more}"
    if "protocolVersion" in result or "serverInfo" in result:
        said = result.get("serverInfo")
        info: dict[str, Any] = said if isinstance(said, dict) else {}
        version = result.get("protocolVersion", "?")
        return f"result: {info.get('name', '?')} {info.get('version', '')} protocol {version}"
    keys = [k for k in result if k != "_meta"]
    return f"result: {', '.join(keys)}" if keys else "result (empty)"


def _task_of(result: dict[str, Any]) -> dict[str, Any] | None:
    """The task a result is about: a call that became one (``resultType: task``, or ``task`` before
    2026-07-28), or a task's status (``tasks/get``, ``tasks/cancel``)."""
    if isinstance(result.get("task"), dict):
        found: dict[str, Any] = result["task"]
        return found
    if result.get("resultType") == "task" or ("taskId" in result and "status" in result):
        return result
    return None


def _task_summary(task: dict[str, Any]) -> str:
    said = f": {_text(task['statusMessage'])}" if isinstance(task.get("statusMessage"), str) else ""
    return f"task {_text(task.get('taskId'))} {_text(task.get('status'))}{said}"


def target(params: dict[str, Any]) -> str | None:
    """What a request is about: a tool or prompt name, a resource URI, a task's id."""
    for key in ("name", "uri", "taskId"):
        if isinstance(params.get(key), str):
            return str(params[key])[:1000]
    return None


def refers_to(method: str | None, params: dict[str, Any]) -> str | int | None:
    if method == "notifications/progress":
        found = params.get("progressToken")
    elif method == "notifications/cancelled":
        found = params.get("requestId")
    elif method == "notifications/tasks/status":
        found = params.get("taskId")
    else:
        return None
    return found if isinstance(found, str | int) and not isinstance(found, bool) else None
