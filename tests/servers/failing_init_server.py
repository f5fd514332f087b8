"""A stdio "server" that refuses the MCP handshake with an error quoting its own secrets.

It answers ``initialize`` with a JSON-RPC error whose text names a database password and an
internal address, as a misconfigured server might, then exits; with ``--stderr`` it writes that
text to stderr and exits without answering. Plain JSON lines, no SDK: the refusal is the point.
"""

from __future__ import annotations

import json
import sys

SERVER_TEXT = "cannot start: db password=hunter2 at 10.0.0.5 \x1b[31m"


def main() -> None:
    if "--stderr" in sys.argv:
        sys.stderr.write(SERVER_TEXT + "\n")
        sys.stderr.flush()
        return
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if "id" not in message:
            continue
        # A server of the older protocol says it does not know the newer ``server/discover``
        # (silence would cost the client its ten-second probe timeout), then refuses to start.
        refused = message.get("method") == "initialize"
        error = {"code": -32603, "message": SERVER_TEXT} if refused else {"code": -32601, "message": "Method not found"}
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": message.get("id"), "error": error}) + "\n")
        sys.stdout.flush()
        if refused:
            return


if __name__ == "__main__":
    main()
