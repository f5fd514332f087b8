"""The measurements that are not a warm call: first connect in a fresh process, memory kept per
dropped result, the tools DataFrame, the SDK's own parse of a large answer, and the map."""

from __future__ import annotations

import asyncio
import functools
import gc
import json
import os
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

from benchmarks.contenders import SERVER, Contender
from benchmarks.forks import server_command
from benchmarks.measure import Stats, interleave

HERE = Path(__file__).parent

__all__ = [
    "answer_bytes",
    "dataframe_rows",
    "first_calls",
    "kept_per_result",
    "map_rows",
    "peak_per_result",
    "sdk_parse",
    "sdk_parse_peak",
]


def _fresh(who: str) -> dict[str, Any]:
    # Bytecode caches on, as an installed package has them: pip writes the SDK's, but some images
    # set PYTHONDONTWRITEBYTECODE, which would compile this repository's modules (an editable
    # install) again in every fresh process and the SDK's never.
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run(
        [sys.executable, str(HERE / "first_call.py"), who],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=environment,
    )
    if done.returncode != 0:
        raise RuntimeError(f"first_call.py {who} failed: {done.stderr.strip()[-300:]}")
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def first_calls(rounds: int) -> dict[str, dict[str, Any]]:
    """Per contender: Stats of connect and first call, the median peak RSS, the heavy modules loaded."""
    runs: dict[str, list[dict[str, Any]]] = {"sdk": [], "anvia": [], "magic": []}

    def batch(who: str) -> float:
        runs[who].append(_fresh(who))
        return 0.0

    for who in runs:
        _fresh(who)  # unmeasured: writes the bytecode caches a fresh install would have
    interleave({who: functools.partial(batch, who) for who in runs}, rounds)
    return {
        who: {
            "connect": Stats([r["connect"] for r in found]),
            "first_call": Stats([r["first_call"] for r in found]),
            "import": Stats([r["import"] for r in found]),
            "peak_mib": statistics.median(r["peak_mib"] for r in found),
            "loaded": sorted({name for r in found for name in r["loaded"]}),
        }
        for who, found in runs.items()
    }


def kept_per_result(contenders: dict[str, Contender], size_chars: int, calls: int = 3) -> dict[str, float]:
    """MiB still allocated per dropped result of ``size_chars``: traced after one call (whatever a
    client keeps of its last answer is counted once, there), then after ``calls`` more."""
    kept: dict[str, float] = {}
    for name, contender in contenders.items():
        contender.timed("payload", {"size_chars": size_chars}, 1)  # warm: caches filled before counting
        tracemalloc.start()
        try:
            contender.timed("payload", {"size_chars": size_chars}, 1)
            gc.collect()
            before = tracemalloc.get_traced_memory()[0]
            contender.timed("payload", {"size_chars": size_chars}, calls)
            gc.collect()
            kept[name] = max(0, tracemalloc.get_traced_memory()[0] - before) / calls / 2**20
        finally:
            tracemalloc.stop()
    return kept


def peak_per_result(
    contenders: dict[str, Contender], size_chars: int, transport: str
) -> dict[str, tuple[float, float, float]]:
    """Per contender, the tracemalloc peak of one call returning ``size_chars`` characters: MiB,
    and as a multiple of the result's text in memory and of the answer's bytes on the wire
    (allocations outside Python's allocator, such as pydantic-core's own buffers, are not seen)."""
    in_memory, on_wire = text_in_memory(size_chars), len(answer_bytes(size_chars, transport))
    found: dict[str, tuple[float, float, float]] = {}
    for name, contender in contenders.items():
        contender.timed("payload", {"size_chars": size_chars}, 1)  # warm: caches filled before counting
        gc.collect()
        tracemalloc.start()
        try:
            base = tracemalloc.get_traced_memory()[0]
            contender.timed("payload", {"size_chars": size_chars}, 1)
            peak = tracemalloc.get_traced_memory()[1] - base
        finally:
            tracemalloc.stop()
        found[name] = (peak / 2**20, peak / in_memory, peak / on_wire)
    return found


def text_in_memory(size_chars: int) -> int:
    """The payload text's size as a str of its own: ``sys.getsizeof`` of the cached text also counts
    the UTF-8 copy CPython keeps inside a str once a serializer has encoded it (23 MB more at 20 MB)."""
    from benchmarks.bench_server import payload_text

    text = payload_text(size_chars)
    return sys.getsizeof(text[:-1] + text[-1:])


def answer_bytes(size_chars: int, transport: str) -> bytes:
    """The bytes of the SDK server's answer carrying the bench server's payload of ``size_chars``,
    as it writes them: over stdio ``model_dump_json`` (UTF-8) and a newline; over streamable HTTP on
    the default protocol ``json.dumps`` with its ASCII escapes (``mcp/server/_streamable_http_modern.py``),
    a quarter larger at 20 MB (31.2 MB, against 25.3 MB over stdio) and slower to parse."""
    from mcp_types import CallToolResult, JSONRPCResponse, TextContent

    from benchmarks.bench_server import payload_text

    result = CallToolResult(content=[TextContent(type="text", text=payload_text(size_chars))])
    message = JSONRPCResponse(jsonrpc="2.0", id=7, result=result.model_dump(by_alias=True, exclude_none=True))
    if transport == "http":
        return json.dumps(
            message.model_dump(mode="json", by_alias=True, exclude_none=True), separators=(",", ":")
        ).encode()
    return message.model_dump_json(by_alias=True, exclude_unset=True).encode() + b"\n"


def _parse_answer(answer: bytes) -> Any:
    from mcp_types import CallToolResult, jsonrpc_message_adapter

    parsed: Any = jsonrpc_message_adapter.validate_json(answer, by_name=False)
    return CallToolResult.model_validate(parsed.result)


def sdk_parse(size_chars: int, rounds: int, transport: str) -> Stats:
    """What the SDK does with the bytes of one large answer, in memory: parse the JSON-RPC message
    and validate the result (the least any client over this SDK can spend on it), for the bytes
    ``transport`` carries."""
    answer = answer_bytes(size_chars, transport)

    def parse() -> float:  # CPU time: all of it is CPU, and a busy machine's pauses are not counted
        start = time.process_time()
        _parse_answer(answer)
        return time.process_time() - start

    parse()
    return interleave({"parse": parse}, rounds)["parse"]


def sdk_parse_peak(size_chars: int, transport: str) -> tuple[float, float, float]:
    """The floor of :func:`peak_per_result`: the tracemalloc peak of the SDK's parse of one answer's
    bytes, counting the bytes themselves (a client holds them while it parses), in the same units."""
    in_memory = text_in_memory(size_chars)
    answer = answer_bytes(size_chars, transport)
    _parse_answer(answer)
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        _parse_answer(answer)
        peak = tracemalloc.get_traced_memory()[1] - base + len(answer)
    finally:
        tracemalloc.stop()
    return peak / 2**20, peak / in_memory, peak / len(answer)


def dataframe_rows(rounds: int, repeat: int) -> dict[str, Stats]:
    """``%mcp tools``'s DataFrame of the demo server's tools beside a plain DataFrame of the same rows."""
    import pandas as pd

    from anvia_nb.core.api.factories import mcp
    from anvia_nb.core.api.server import McpServer
    from anvia_nb.core.protocol.types import ToolInfo
    from anvia_nb.demo_server.catalog import TOOLS
    from anvia_nb.magic.output.tables import TOOL_COLUMNS, tools_frame

    infos = [
        ToolInfo(
            server="demo",
            name=t["name"],
            title=t.get("title"),
            description=t.get("description"),
            input_schema=t["inputSchema"],
            output_schema=t.get("outputSchema"),
            annotations=t.get("annotations"),
        )
        for t in TOOLS
    ]
    connection = mcp.stdio(name="demo", command=sys.executable, args=[SERVER])
    client = connection.client()  # never opened: the frame reads only the listed tools
    server = McpServer(connection, client, infos)
    rows = tools_frame([server]).to_dict("records")
    client.log.remove()

    def timed(work: Any) -> float:
        start = time.perf_counter()
        for _ in range(repeat):
            work()
        return (time.perf_counter() - start) / repeat

    return interleave(
        {
            "plain pandas DataFrame": lambda: timed(lambda: pd.DataFrame(rows, columns=TOOL_COLUMNS)),
            "anvia_nb %mcp tools DataFrame": lambda: timed(lambda: tools_frame([server])),
        },
        rounds,
    )


def map_rows(rows: int, ms: float, rounds: int) -> dict[str, Stats] | str:
    """``tool.map`` at concurrency 1, 8 and 64 beside ``asyncio.gather`` of the async API (8 and
    64 at a time). The map's connection keeps the default ``max_calls_in_flight`` (16); gather at
    64 runs on a connection that allows 64."""
    from anvia_nb.core.api.server import Tool

    if not hasattr(Tool, "map"):
        return "tool.map is not in this version of anvia_nb"
    import pandas as pd

    from anvia_nb import connect_mcp, mcp

    async def measure() -> dict[str, Stats]:
        command = server_command()
        server = await connect_mcp(mcp.stdio(name="bench_map", command=command[0], args=command[1:]))
        tool = server.tool("sleep")
        # gather at 64 on a connection that lets 64 through (the default lets 16): the map's own
        # connection keeps the default, which a map's calls are not held to
        wide = await connect_mcp(
            mcp.stdio(name="bench_map_wide", command=command[0], args=command[1:], max_calls_in_flight=64)
        )
        wide_tool = wide.tool("sleep")
        frame = pd.DataFrame({"ms": [ms] * rows})
        gates = {8: asyncio.Semaphore(8), 64: asyncio.Semaphore(64)}

        async def one(at_once: int) -> None:
            async with gates[at_once]:
                await (tool if at_once == 8 else wide_tool).call({"ms": ms})

        async def timed(work: Any) -> float:
            start = time.perf_counter()
            await work()
            return time.perf_counter() - start

        works = {
            "async API, asyncio.gather, 8 at a time": lambda: asyncio.gather(*(one(8) for _ in range(rows))),
            "tool.map, concurrency 1": lambda: tool.map(frame, concurrency=1),
            "tool.map, concurrency 8": lambda: tool.map(frame, concurrency=8),
            "async API, asyncio.gather, 64 at a time": lambda: asyncio.gather(*(one(64) for _ in range(rows))),
            "tool.map, concurrency 64": lambda: tool.map(frame, concurrency=64),
        }
        samples: dict[str, list[float]] = {name: [] for name in works}
        try:
            for round_ in range(rounds):
                names = list(works)[round_ % len(works) :] + list(works)[: round_ % len(works)]
                for name in names:
                    samples[name].append(await timed(works[name]))
        finally:
            await server.close()
            await wide.close()
        return {name: Stats(found) for name, found in samples.items()}

    try:
        return asyncio.run(measure())
    except Exception as exc:
        return f"failed: {type(exc).__name__}: {exc}"[:160]
