"""Whether the SDK ``Client`` built by :func:`~benchmarks.contenders.declared_as_anvia_nb` sends a
server what anvia_nb sends: one ``tools/call`` from each, as the bench server read it (``tee`` in
front of the server writes its input to a file), compared byte for byte but for the request's id
and progress token, which count each client's own requests.

The map benchmark prints the verdict beside the gather that is meant to send the same requests, so
that the row cannot quietly stop being what its name says (when anvia_nb declares something new).
"""

from __future__ import annotations

import asyncio
import re
import shlex
import shutil
import tempfile
from pathlib import Path

from benchmarks.contenders import declared_as_anvia_nb, no_progress
from benchmarks.forks import server_command

__all__ = ["SAME", "same_requests"]

SAME = "its tools/call request is anvia_nb's byte for byte (read through tee in front of the server)"
_COUNTERS = re.compile(r'"(id|progressToken)":\d+')


def _teed(copy: Path) -> list[str]:
    """The bench server's command behind ``tee``, which copies what the client writes to ``copy``."""
    return ["sh", "-c", f"tee {shlex.quote(str(copy))} | {shlex.join(server_command())}"]


def _last_call(copy: Path) -> str:
    """The last ``tools/call`` line in ``copy``, its id and progress token written as ``N``."""
    lines = [line for line in copy.read_text(encoding="utf-8").splitlines() if '"method":"tools/call"' in line]
    return _COUNTERS.sub(r'"\1":N', lines[-1]) if lines else ""


async def _sent(folder: Path) -> tuple[str, str]:
    """One ``sleep`` call from the declaring ``Client`` and one from anvia_nb, each over its own
    teed server; the two ``tools/call`` lines the servers read."""
    from mcp import Client, StdioServerParameters

    from anvia_nb import connect_mcp, mcp

    sdk = _teed(folder / "sdk.jsonl")
    async with Client(StdioServerParameters(command=sdk[0], args=sdk[1:]), **declared_as_anvia_nb()) as client:
        await client.call_tool("sleep", {"ms": 0}, progress_callback=no_progress)
    mine = _teed(folder / "anvia_nb.jsonl")
    server = await connect_mcp(mcp.stdio(name="same_requests", command=mine[0], args=mine[1:]))
    try:
        await server.tool("sleep").call({"ms": 0})
    finally:
        await server.close()
    return _last_call(folder / "sdk.jsonl"), _last_call(folder / "anvia_nb.jsonl")


def same_requests(loop: asyncio.AbstractEventLoop) -> str:
    """:data:`SAME` when both send the same ``tools/call``, else what each sent (or why it was not
    checked); runs on ``loop``, the benchmark's."""
    if shutil.which("sh") is None or shutil.which("tee") is None:
        return "not checked: needs sh and tee"
    with tempfile.TemporaryDirectory(prefix="anvia-same-requests-") as folder:
        sdk, mine = loop.run_until_complete(_sent(Path(folder)))
    if sdk and sdk == mine:
        return SAME
    return f"its tools/call request is NOT anvia_nb's: the Client sent {sdk[:300]!r}, anvia_nb {mine[:300]!r}"
