"""Tiny misbehaving MCP servers for the fault tests, started as ``python fault_servers.py MODE``.

``mute`` reads stdin and never answers anything (a server hung before its handshake). The other
modes are a line proxy in front of ``lite_server.py`` (a child in the same process group that
speaks MCP with the demo server's echo and slow, and starts in milliseconds), so the handshake and
the tools are a working server's and only the fault is made up here:

- ``swallow-calls``: drops every ``tools/call`` request, so calls never get an answer; it also
  ignores SIGTERM and the end of its stdin, so only SIGKILL ends it;
- ``garbage``: writes a line that is not JSON before and after every message;
- ``exit-after-tools``: exits as soon as it has passed on the last page of ``tools/list``.

Every mode writes ``ready pid=<pid>`` to stderr once started.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO

LITE_SERVER = str(Path(__file__).resolve().parents[1] / "helpers" / "lite_server.py")
GARBAGE = b"this is not JSON {{{ \x1b[31m and not MCP either\n"


def _is_tools_call(line: bytes) -> bool:
    try:
        message = json.loads(line)
    except ValueError:
        return False
    return isinstance(message, dict) and message.get("method") == "tools/call"


def _is_last_tools_page(line: bytes) -> bool:
    try:
        message = json.loads(line)
    except ValueError:
        return False
    result = message.get("result") if isinstance(message, dict) else None
    return isinstance(result, dict) and "tools" in result and not result.get("nextCursor")


def _pump_out(child_stdout: IO[bytes], mode: str) -> None:
    out = sys.stdout.buffer
    for line in child_stdout:
        if mode == "garbage":
            out.write(GARBAGE)
        out.write(line)
        if mode == "garbage":
            out.write(GARBAGE)
        out.flush()
        if mode == "exit-after-tools" and _is_last_tools_page(line):
            sys.stderr.write("exiting after the handshake, as asked\n")
            sys.stderr.flush()
            os._exit(3)


def _proxy(mode: str) -> None:
    # After "exit-after-tools" the orphaned server may still write and print a broken-pipe
    # traceback; this server's last words are its own line.
    quiet_child = subprocess.DEVNULL if mode == "exit-after-tools" else None
    child = subprocess.Popen(
        [sys.executable, LITE_SERVER],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=quiet_child,
    )
    assert child.stdin is not None and child.stdout is not None
    threading.Thread(target=_pump_out, args=(child.stdout, mode), daemon=True).start()
    for line in sys.stdin.buffer:
        if mode == "swallow-calls" and _is_tools_call(line):
            continue
        child.stdin.write(line)
        child.stdin.flush()
    if mode == "swallow-calls":
        threading.Event().wait()  # ignore the end of stdin: only a signal ends this process
    child.stdin.close()
    child.wait()


def main() -> None:
    mode = sys.argv[1]
    if mode == "swallow-calls":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    sys.stderr.write(f"ready pid={os.getpid()}\n")
    sys.stderr.flush()
    if mode == "mute":
        for _ in sys.stdin.buffer:
            pass
    else:
        _proxy(mode)


if __name__ == "__main__":
    main()
