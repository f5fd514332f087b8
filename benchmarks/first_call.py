"""First connect and first call in a fresh process: ``python benchmarks/first_call.py sdk|anvia|magic``.

Prints one JSON object: seconds to import, to connect (start the server, handshake, list tools;
for the magic, ``%mcp connect`` with its printed line), to make the first call, the process's peak
RSS in MiB, and which heavy modules were loaded by then. "first connect" is import + connect: what a
person waits for between deciding to connect and having a connection (for the magic, the shell
exists already: ``%load_ext`` and ``%mcp connect`` are counted).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import resource
import sys
import time
from typing import Any

from forks import server_command  # type: ignore[import-not-found]  # run as a script: benchmarks/ on the path

SERVER = server_command()
HEAVY = ("pandas", "numpy", "jsonschema", "ipywidgets", "rfc3987_syntax")


async def sdk() -> dict[str, float]:
    start = time.perf_counter()
    from mcp import Client, StdioServerParameters

    imported = time.perf_counter()
    async with Client(StdioServerParameters(command=SERVER[0], args=SERVER[1:])) as client:
        await client.list_tools()
        connected = time.perf_counter()
        await client.call_tool("echo", {"message": "hi"})
        called = time.perf_counter()
    return {"import": imported - start, "connect": connected - start, "first_call": called - connected}


async def anvia() -> dict[str, float]:
    start = time.perf_counter()
    from anvia_nb import connect_mcp, mcp

    imported = time.perf_counter()
    server = await connect_mcp(mcp.stdio(name="bench", command=SERVER[0], args=SERVER[1:]))
    try:
        connected = time.perf_counter()
        await server.tool("echo").call({"message": "hi"})
        called = time.perf_counter()
    finally:
        await server.close()
    return {"import": imported - start, "connect": connected - start, "first_call": called - connected}


def magic() -> dict[str, float]:
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    start = time.perf_counter()
    shell.run_line_magic("load_ext", "anvia_nb")
    imported = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        shell.run_line_magic("mcp", f"connect bench --stdio {' '.join(SERVER)}")
    connected = time.perf_counter()
    try:
        formatter: Any = shell.display_formatter  # IPython's formatter is untyped
        formatter.format(shell.run_line_magic("mcp", "call bench.echo message=hi"))
        called = time.perf_counter()
    finally:
        shell.run_line_magic("mcp", "close bench")
    return {"import": imported - start, "connect": connected - start, "first_call": called - connected}


def main() -> None:
    who = sys.argv[1]
    found: dict[str, Any] = magic() if who == "magic" else asyncio.run(sdk() if who == "sdk" else anvia())
    found["peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    found["loaded"] = [name for name in HEAVY if name in sys.modules]
    print(json.dumps(found))


if __name__ == "__main__":
    main()
