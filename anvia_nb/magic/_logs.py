"""``%mcp log NAME``: a server's stderr tail and its logging notifications, bounded and masked.

A stdio server's stderr is where it explains why it failed; people need it in the notebook, but
it can echo the tokens it was given, so it is masked like every other output.
"""

from __future__ import annotations

import json
import time

from anvia_nb.core.server import McpServer
from anvia_nb.display import GENERIC_SERVER_ERROR, visible_text

__all__ = ["log_text"]


def _tail_lines(text: str, lines: int) -> list[str]:
    return text.splitlines()[-lines:] if text else []


def log_text(server: McpServer, lines: int, max_chars: int, hide_server_errors: bool = False) -> str:
    """The last ``lines`` lines of stderr (at most ``max_chars`` read) and of log messages."""
    secrets = server.secrets
    if hide_server_errors:
        return f"{server.name}: {GENERIC_SERVER_ERROR}"
    parts: list[str] = []
    if server.connection.transport == "stdio":
        stderr = _tail_lines(server.client.stderr_tail(max_chars), lines)
        parts.append(f"── {server.name}: stderr (last {len(stderr)} lines) ──")
        parts.extend(visible_text(line, secrets, limit=2000) for line in stderr)
    else:
        parts.append(f"── {server.name}: no stderr ({server.connection.transport} connection) ──")
    entries = list(server.client.log_entries)[-lines:]
    if entries:
        parts.append(f"── {server.name}: log messages (last {len(entries)}) ──")
        for stamp, level, logger, data in entries:
            text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False, default=str)
            when = time.strftime("%H:%M:%S", time.localtime(stamp))
            source = f" {logger}" if logger else ""
            parts.append(visible_text(f"{when} {level}{source}: {text}", secrets, limit=2000))
    return "\n".join(parts)
