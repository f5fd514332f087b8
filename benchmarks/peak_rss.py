"""Peak memory under one large message: the process's peak RSS while it takes one message, as a
multiple of the message, each case in a fresh process, beside the SDK's own parse of the same bytes.

    python -m benchmarks.peak_rss                 # the table: 200 MB results, a 250 MB log message...
    python -m benchmarks.peak_rss --chars 5000000 # smaller messages
    python benchmarks/peak_rss.py CASE SIZE       # one case, one JSON line (the tests run this by path)

A case connects (or builds what it needs), warms up with a small message, collects garbage, takes
the process's resident size, resets its peak (Linux: ``/proc/self/clear_refs``; elsewhere the peak
since the start, ``ru_maxrss``, is used) and then takes one message of SIZE characters from the
bench server (``bench_server.py``: ``payload`` and ``shout``, text full of what JSON escapes, CJK
in it). The peak's growth over the resident size before is divided by the message: its text as
Python holds it (``sys.getsizeof``, two bytes a character here) and its bytes on the wire (the
JSON-RPC line, a quarter smaller). A recording case reads a recording whose one call line holds
SIZE progress steps, and divides by that line's bytes.

Cases: ``stdio-result``, ``stdio-log``, ``http-result``, ``http-log``, ``sse-result`` (protocol
2025-11-25), ``magic-call`` (``%mcp call`` in an IPython shell, the result rendered), ``view`` (a
view's ``tools/call`` whose answer is refused for size, twice), ``recording`` (``read_recording``:
a line of more steps than anvia_nb records is refused before it is parsed; one of at most
``RECORDED_PROGRESS_KEPT`` is read and its call answered),
and the floors: ``sdk-parse`` (the SDK's ``validate_json`` of the result's line and the
``CallToolResult``), ``json-parse`` (pydantic-core's ``from_json`` of it and the same models, what
anvia_nb parses with) and ``recording-parse`` (``from_json`` of the recording's line).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import resource
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

__all__ = ["CASES", "measure"]

HERE = Path(__file__).resolve().parent
SERVER = str(HERE / "bench_server.py")
CASES = (
    "sdk-parse",
    "json-parse",
    "stdio-result",
    "stdio-log",
    "http-result",
    "http-log",
    "sse-result",
    "magic-call",
    "view",
    "recording-parse",
    "recording",
)
MB = 1_000_000


def _status(key: str) -> int:
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith(key):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 if key == "VmHWM:" else 0


def _start() -> int:
    """The resident size now, with the peak reset to it where the system allows."""
    gc.collect()
    try:
        with open("/proc/self/clear_refs", "w") as refs:
            refs.write("5")
    except OSError:
        pass
    return _status("VmRSS:")


def _growth(base: int) -> int:
    return _status("VmHWM:") - base


def _text_size(chars: int) -> int:
    """What Python holds for a text of ``chars`` characters with CJK in it (two bytes each)."""
    return sys.getsizeof("日" * chars)


def _line(chars: int) -> tuple[bytes, int]:
    """The result's JSON-RPC line as the stdio server writes it, and the size of its text."""
    sys.path.insert(0, str(HERE))
    from bench_server import payload_text  # type: ignore[import-not-found]  # run by path, beside it

    text = payload_text(chars)
    message = {"jsonrpc": "2.0", "id": 7, "result": {"content": [{"type": "text", "text": text}]}}
    line = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()
    size = sys.getsizeof(text)
    payload_text.cache_clear()
    return line, size


def _floor(chars: int, parse: Callable[[bytes], Any]) -> dict[str, int]:
    import mcp_types

    line, size = _line(chars)
    warm = json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"content": []}}).encode()
    mcp_types.CallToolResult.model_validate(parse(warm).result)
    base = _start() - len(line)  # the line is counted: a client holds it too while it parses
    result = mcp_types.CallToolResult.model_validate(parse(line).result)
    del line
    peak = _growth(base)
    assert result.content
    return {"peak": peak, "text": size, "wire": 0}


def _sdk_parse(data: bytes) -> Any:  # any: the SDK's message model
    from mcp_types import jsonrpc_message_adapter

    return jsonrpc_message_adapter.validate_json(data, by_name=False)


def _json_parse(data: bytes) -> Any:  # any: the SDK's message model
    from anvia_nb.core.transport.sdk.messages import parse_message

    return parse_message(data)


async def _client(case: str, chars: int) -> dict[str, int]:
    from anvia_nb import connect_mcp, mcp

    over_http = case.startswith(("http", "sse"))
    with _http_url() if over_http else contextlib.nullcontext(None) as url:
        if url is None:
            connection: Any = mcp.stdio(name="big", command=sys.executable, args=[SERVER])
        else:
            protocol = "2025-11-25" if case.startswith("sse") else None
            connection = mcp.http(name="big", url=url, protocol=protocol)
        server = await connect_mcp(connection, log_level="info")
        try:
            tool = "shout" if case.endswith("log") else "payload"
            await server.tool(tool).call({"size_chars": 1000})
            base = _start()
            answer = await server.tool(tool).call({"size_chars": chars})
            peak = _growth(base)
            assert tool == "shout" or len(answer) == chars
            del answer
        finally:
            await server.close()
    return {"peak": peak, "text": _text_size(chars), "wire": 0}


@contextlib.contextmanager
def _http_url() -> Iterator[str]:
    """The bench server over streamable HTTP, stopped on leaving."""
    process = subprocess.Popen([sys.executable, SERVER, "--http"], stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        for line in process.stderr:
            if line.startswith("listening on "):
                yield line[len("listening on ") :].strip()
                return
        raise RuntimeError("the HTTP bench server did not start")
    finally:
        process.terminate()
        process.wait(timeout=30)


def _magic(chars: int) -> dict[str, int]:
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    formatter: Any = shell.display_formatter  # IPython's formatter is untyped
    shell.run_line_magic("load_ext", "anvia_nb")
    with contextlib.redirect_stdout(None):  # its line would come before this process's JSON
        shell.run_line_magic("mcp", f"connect big --stdio {sys.executable} {SERVER}")
    formatter.format(shell.run_line_magic("mcp", "call big.payload size_chars=1000"))
    base = _start()
    view = shell.run_line_magic("mcp", f"call big.payload size_chars={chars}")
    formatter.format(view)
    peak = _growth(base)
    assert len(view.output) == chars
    del view
    shell.run_line_magic("mcp", "close big")
    return {"peak": peak, "text": _text_size(chars), "wire": 0}


def _view(chars: int) -> dict[str, int]:
    from anvia_nb import mcp
    from anvia_nb.errors import AppRequestRefused
    from anvia_nb.runtime import Runtime
    from anvia_nb.runtime.app_bridge import AppBridge

    runtime = Runtime()
    try:
        runtime.connect(mcp.stdio(name="big", command=sys.executable, args=[SERVER]))
        bridge = AppBridge(runtime, runtime.server("big"), "payload", "ui://big/view")
        bridge.handle("tools/call", {"name": "payload", "arguments": {"size_chars": 1000}})
        base = _start()
        for _ in range(2):  # a view may ask again: each request costs one answer, none is kept
            said = "sent"
            try:
                bridge.handle("tools/call", {"name": "payload", "arguments": {"size_chars": chars}})
            except AppRequestRefused as refused:
                said = str(refused)
            assert "larger than a view is sent" in said, said
        peak = _growth(base)
    finally:
        runtime.shutdown()
    return {"peak": peak, "text": _text_size(chars), "wire": 0}


def _recording_file(steps: int) -> Path:
    """A recording whose one call line holds ``steps`` progress steps (the issue's 4.2 million: 95 MB)."""
    path = Path(tempfile.mkdtemp()) / "steps.jsonl"
    head = [
        {"type": "recording", "format": 1, "name": "steps", "transport": "stdio"},
        {"type": "server", "protocolVersion": "2025-11-25", "serverInfo": {"name": "s", "version": "1"}},
        {"type": "listing", "kind": "tools", "items": [{"name": "t", "inputSchema": {"type": "object"}}]},
    ]
    with path.open("w") as file:
        file.writelines(json.dumps(record) + "\n" for record in head)
        file.write('{"type":"call","tool":"t","arguments":{},"progress":[')
        file.write(",".join(f"[{i},{steps},null]" for i in range(steps)))
        file.write('],"result":{"content":[{"type":"text","text":"done"}]}}\n')
    return path


def _recording(steps: int, parse_only: bool) -> dict[str, int]:
    from anvia_nb.core.protocol import limits
    from anvia_nb.core.recording.reading import read_answer, read_recording
    from anvia_nb.core.transport.sdk.messages import json_value
    from anvia_nb.errors import RecordingFileError

    path = _recording_file(steps)
    try:
        line = path.read_bytes().splitlines()[-1]
        size = len(line)
        if parse_only:
            base = _start() - size
            value = json_value(line)
            del line
            peak = _growth(base)
            assert len(value["progress"]) == steps
        elif steps <= limits.RECORDED_PROGRESS_KEPT:  # a line anvia_nb writes: read, and its call answered
            del line
            base = _start()
            recording = read_recording(path)  # the connect of a replay
            answer = read_answer(recording, recording.calls[0])  # and its one call
            peak = _growth(base)
            assert len(answer["progress"]) == steps
        else:  # more than anvia_nb records: refused when the replay connects
            del line
            base = _start()
            said = f"a line of {steps:,} steps was read"
            try:
                read_recording(path)
            except RecordingFileError as refused:
                said = str(refused)
            peak = _growth(base)
            assert "RECORDED_PROGRESS_KEPT" in said, said
    finally:
        path.unlink()
        path.parent.rmdir()
    return {"peak": peak, "text": 0, "wire": size}


def measure(case: str, size: int) -> dict[str, int]:
    """One case in this process: ``peak`` (bytes the resident size grew by), ``text`` and ``wire``
    (the message's text in memory and its bytes; 0 where not measured)."""
    if case == "sdk-parse":
        return _floor(size, _sdk_parse)
    if case == "json-parse":
        return _floor(size, _json_parse)
    if case == "magic-call":
        return _magic(size)
    if case == "view":
        return _view(size)
    if case.startswith("recording"):
        return _recording(size, case == "recording-parse")
    return asyncio.run(_client(case, size))


def _in_a_fresh_process(case: str, size: int) -> dict[str, int]:
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), case, str(size)], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"{case} failed: {done.stderr[-2000:]}")
    found: dict[str, int] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def _table(chars: int, log_chars: int, steps: int) -> None:
    line, text = _line(chars)
    wire = len(line)
    del line
    print("| case | message | peak RSS growth | × its text | × its bytes |\n|---|---:|---:|---:|---:|")
    for case in CASES:
        size = steps if case.startswith("recording") else log_chars if case.endswith("log") else chars
        found = _in_a_fresh_process(case, size)
        if case.startswith("recording"):
            said = f"{found['wire'] / MB:,.0f} MB line, {steps:,} steps"
            ratios = f" | | {found['peak'] / found['wire']:.2f}"
        else:
            scale = size / chars
            case_text, case_wire = found["text"] or text * scale, wire * scale
            said = f"{case_text / MB:,.0f} MB text, {case_wire / MB:,.0f} MB JSON"
            ratios = f" | {found['peak'] / case_text:.2f} | {found['peak'] / case_wire:.2f}"
        print(f"| {case} | {said} | {found['peak'] / MB:,.0f} MB{ratios} |", flush=True)


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] in CASES:
        print(json.dumps(measure(sys.argv[1], int(sys.argv[2]))))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chars", type=int, default=100_000_000, help="characters of a result (200 MB of text)")
    parser.add_argument("--log-chars", type=int, default=125_000_000, help="characters of a log message")
    parser.add_argument("--steps", type=int, default=4_200_000, help="progress steps of the recording's line")
    args = parser.parse_args()
    _table(args.chars, args.log_chars, args.steps)


if __name__ == "__main__":
    main()
