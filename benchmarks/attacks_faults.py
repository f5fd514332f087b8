"""Attacks on the kernel's time and memory: patterns, unreadable answers, dead and immortal
servers, servers that never answer, messages and floods too large to keep."""

from __future__ import annotations

import re
import subprocess
import sys
from typing import Any

from anvia_nb import connect_mcp, mcp
from anvia_nb.core import McpServer
from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.schema import argument_problems
from anvia_nb.errors import ConnectError, ConnectionClosedError, ProtocolError, ToolTimeoutError
from benchmarks.attacks_common import (
    BOUND_SECONDS,
    FAULTS,
    QUICK_TIMEOUT_SECONDS,
    REPO,
    ROGUE,
    Result,
    attack,
    finishes,
    pid_alive,
    sync,
    wait_for,
)
from tests.helpers import attack_servers as servers
from tests.helpers import rogue_http  # the test fault server, reused as it is


def stdio(path: str, *args: str, name: str = "rogue", **options: Any) -> Any:
    return mcp.stdio(name=name, command=sys.executable, args=[path, *args], **options)


def pids(server: McpServer, word: str) -> list[int]:
    return [int(p) for p in re.findall(rf"{word} pid=(\d+)", server.client.log.stderr_text())]


# -- freezes and hangs ------------------------------------------------------------------------


@attack("regex-output-schema", "freeze", "outputSchema pattern ^(a+)+$ on 40 a's and '!'", overlaps=True)
def regex_output(full: bool) -> Result:
    async def run() -> Any:
        server = await connect_mcp(mcp.memory(name="regex", server=servers.regex_output()))
        try:
            return await server.tool("match").call_outcome({})
        finally:
            await server.close()

    done, outcome = finishes(lambda: sync(run))
    problems = getattr(outcome, "schema_problems", None) or []
    return Result(
        done and not isinstance(outcome, BaseException),
        f"call ended; schema verdict: {problems[0][:70] if problems else 'none'}",
        sum(map(len, problems)),
    )


@attack("regex-input-schema", "freeze", "inputSchema ^([a-zA-Z0-9 ]+)*$ on a sentence with punctuation", overlaps=True)
def regex_input(full: bool) -> Result:
    from anvia_nb.widgets.fields.arguments_form import ArgumentsForm

    schema = {"type": "object", "properties": {"s": {"type": "string", "pattern": "^([a-zA-Z0-9 ]+)*$"}}}
    sentence = "This is an ordinary sentence written by a person, with punctuation!" * (4 if full else 1)

    def keystrokes() -> list[str]:
        form = ArgumentsForm(schema=schema)
        for end in range(len(sentence) - 10, len(sentence) + 1):  # typing its last characters
            form.field("s").input.value = sentence[:end]
        return [*argument_problems(schema, {"s": sentence}), *form.problems]

    done, problems = finishes(keystrokes)
    return Result(done and isinstance(problems, list), f"checked, {len(problems or [])} problem(s) shown")


def _protocol_error_at_once(connection: Any, what: str) -> Result:
    async def run() -> Any:
        server = await connect_mcp(connection, timeout_seconds=BOUND_SECONDS)
        try:
            outcome = await server.tool("attack").call_outcome({})
            return outcome.error, server.is_open
        finally:
            await server.close()

    error, still_open = sync(run)
    line = str(error)
    return Result(
        isinstance(error, ProtocolError) and "could not be read" in line and still_open,
        f"{type(error).__name__}, {what}; connection still usable: {still_open}",
        len(line),
    )


@attack("deep-structured-stdio", "freeze", "structuredContent nested 200 deep, over stdio", overlaps=True)
def deep_stdio(full: bool) -> Result:
    return _protocol_error_at_once(stdio(ROGUE, "deep"), "naming the server")


@attack("deep-structured-http", "freeze", "structuredContent nested 200 deep, over HTTP", overlaps=True)
def deep_http(full: bool) -> Result:
    rogue = rogue_http.RogueHttp()
    try:
        return _protocol_error_at_once(mcp.http(name="web", url=rogue.url("deep")), "naming the server")
    finally:
        rogue.stop()


@attack("crash-child-holds-stdout", "freeze", "server exits; its child keeps the stdout pipe open", overlaps=True)
def crash(full: bool) -> Result:
    found: dict[str, Any] = {}

    async def run() -> None:
        server = await connect_mcp(stdio(ROGUE, "crash"), timeout_seconds=BOUND_SECONDS)
        try:
            found["error"] = (await server.tool("attack").call_outcome({})).error
            found["children"] = pids(server, "child")
        finally:
            await server.close()

    sync(run)
    children = found.get("children") or []
    stopped = bool(children) and wait_for(lambda: not pid_alive(children[0]))
    return Result(
        isinstance(found.get("error"), ConnectionClosedError) and stopped,
        f"{type(found.get('error')).__name__}; orphaned child stopped at close: {stopped}",
    )


@attack("setsid-escapee", "freeze", "server starts a child in a session of its own (setsid)", overlaps=True)
def setsid(full: bool) -> Result:
    found: list[int] = []

    async def run() -> None:
        server = await connect_mcp(stdio(ROGUE, "setsid"), timeout_seconds=BOUND_SECONDS)
        try:
            wait_for(lambda: bool(pids(server, "escapee")))
            found.extend(pids(server, "escapee"))
        finally:
            await server.close()

    sync(run)
    stopped = bool(found) and wait_for(lambda: not pid_alive(found[0]))
    return Result(stopped, f"escapee stopped at close: {stopped}")


def _connect_bounded(connection: Any, seconds: float) -> Result:
    async def run() -> BaseException | None:
        try:
            server = await connect_mcp(connection, timeout_seconds=seconds)
        except Exception as exc:
            return exc
        await server.close()
        return None

    error = sync(run)
    return Result(
        isinstance(error, ConnectError), f"{type(error).__name__} after the {seconds:g} s asked", len(str(error))
    )


@attack("mute-stdio-server", "freeze", "stdio server that never answers the handshake", overlaps=True)
def mute(full: bool) -> Result:
    return _connect_bounded(stdio(FAULTS, "mute"), 3.0 if full else QUICK_TIMEOUT_SECONDS)


def _dripping(event_stream: bool, name: str, full: bool) -> Result:
    # the quick mode's bound still lets two drips arrive first: only the whole wait is bounded
    seconds = 3.0 if full else 2.4 * servers.DRIP_SECONDS
    raw = servers.RawHttp(servers.drip(event_stream=event_stream))
    try:
        return _connect_bounded(mcp.http(name=name, url=raw.url, timeout_seconds=seconds), seconds)
    finally:
        raw.stop()


@attack("slow-drip-http", "freeze", "HTTP answer whose body comes one byte every half second", overlaps=True)
def slow_drip(full: bool) -> Result:
    return _dripping(False, "drip", full)


@attack("endless-keepalive-stream", "freeze", "SSE stream of keep-alive comments, never an answer", overlaps=True)
def keepalive(full: bool) -> Result:
    return _dripping(True, "stream", full)


@attack("silent-call", "freeze", "server never answers tools/call", overlaps=True)
def silent(full: bool) -> Result:
    seconds = 2.0 if full else QUICK_TIMEOUT_SECONDS

    async def run() -> Any:
        server = await connect_mcp(stdio(ROGUE, "silent"), timeout_seconds=BOUND_SECONDS)
        try:
            return (await server.tool("attack").call_outcome({}, timeout_seconds=seconds)).error
        finally:
            await server.close()

    error = sync(run)
    return Result(isinstance(error, ToolTimeoutError), f"{type(error).__name__} after the {seconds:g} s asked")


@attack("ignores-sigterm", "freeze", "server swallows calls and ignores SIGTERM and end of stdin", full_only=True)
def immortal(full: bool) -> Result:
    found: list[int] = []

    async def run() -> Any:
        server = await connect_mcp(stdio(FAULTS, "swallow-calls"), timeout_seconds=BOUND_SECONDS)
        try:
            found.extend(pids(server, "ready"))
            return (await server.tool("echo").call_outcome({"message": "x"}, timeout_seconds=2.0)).error
        finally:
            await server.close()

    error = sync(run)
    stopped = bool(found) and wait_for(lambda: not pid_alive(found[0]))
    return Result(isinstance(error, ToolTimeoutError) and stopped, f"call timed out; server ended at close: {stopped}")


@attack("garbage-lines", "freeze", "non-JSON lines before and after every message", full_only=True)
def garbage(full: bool) -> Result:
    async def run() -> Any:
        server = await connect_mcp(stdio(FAULTS, "garbage"), timeout_seconds=BOUND_SECONDS)
        try:
            return await server.tool("echo").call_outcome({"message": "still here"})
        finally:
            await server.close()

    outcome = sync(run)
    return Result(outcome.status == "ok", f"call {outcome.status}: garbage lines skipped, logged")


@attack("exits-after-handshake", "freeze", "server exits right after listing its tools", full_only=True)
def exits(full: bool) -> Result:
    async def run() -> Any:
        server = await connect_mcp(stdio(FAULTS, "exit-after-tools"), timeout_seconds=BOUND_SECONDS)
        try:
            return (await server.tool("echo").call_outcome({"message": "x"})).error
        finally:
            await server.close()

    error = sync(run)
    return Result(isinstance(error, ConnectionClosedError), f"{type(error).__name__}, reported at once")


# -- memory -----------------------------------------------------------------------------------


def _too_large(connection: Any, limit: int | None) -> Result:
    """A call whose answer is over the maximum message size (``limit``; ``None``: the default).
    Sending gigabytes takes a loaded machine minutes: the bound here is not a freeze test."""
    saved = limits.MAX_MESSAGE_BYTES
    if limit is not None:
        limits.MAX_MESSAGE_BYTES = limit

    async def run() -> Any:
        server = await connect_mcp(connection, timeout_seconds=BOUND_SECONDS)
        try:
            return (await server.tool("attack").call_outcome({}, timeout_seconds=10 * BOUND_SECONDS)).error
        finally:
            await server.close()

    try:
        error = sync(run, 10 * BOUND_SECONDS)
    finally:
        limits.MAX_MESSAGE_BYTES = saved
    return Result(
        isinstance(error, ProtocolError) and "larger than the limit" in str(error),
        f"{type(error).__name__}: over the limit of {limit or saved:,} bytes",
        len(str(error)),
    )


@attack("huge-stdio-line", "memory", "stdio line with no newline (3 GB full, 5 MB quick)")
def huge_line(full: bool) -> Result:
    size = 3_000_000_000 if full else 5_000_000
    return _too_large(stdio(ROGUE, "huge", str(size), name="huge"), None if full else 1_000_000)


@attack("huge-http-json", "memory", "plain JSON HTTP body (1.5 GB full, 5 MB quick)")
def huge_http(full: bool) -> Result:
    if not full:
        rogue = rogue_http.RogueHttp()
        try:
            return _too_large(mcp.http(name="web", url=rogue.url("huge")), 1_000_000)
        finally:
            rogue.stop()
    code = (
        "import sys, threading; sys.path.insert(0, sys.argv[1]); from tests.helpers import rogue_http\n"
        "rogue_http.HUGE_BYTES = 1_500_000_000\nserver = rogue_http.RogueHttp()\n"
        "print(server.url('huge'), flush=True)\nthreading.Event().wait()\n"
    )
    process = subprocess.Popen([sys.executable, "-c", code, str(REPO)], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip()
        return _too_large(mcp.http(name="web", url=url), None)
    finally:
        process.kill()
        process.wait(30)


@attack(
    "progress-flood", "memory", "progress notifications of 1,000 characters (20,000 full, 2,000 quick)", overlaps=True
)
def progress(full: bool) -> Result:
    count = 20_000 if full else 2_000

    async def run() -> Any:
        server = await connect_mcp(stdio(ROGUE, "progress", str(count)), timeout_seconds=BOUND_SECONDS)
        try:
            return await server.tool("attack").call_outcome({}, timeout_seconds=BOUND_SECONDS)
        finally:
            await server.close()

    outcome = sync(run)
    kept = len(outcome.progress)
    return Result(
        outcome.status == "ok" and kept <= limits.PROGRESS_KEPT, f"{outcome.progress_count:,} received, {kept} kept"
    )
