"""``%mcp log NAME``: a server's stderr tail and its logging notifications, bounded and masked.

A stdio server's stderr is where it explains why it failed; people need it in the notebook, but
it can echo the tokens it was given, so it goes through the :class:`~anvia_nb.policy.ShowPolicy`
like every other output (and is hidden whole when the policy hides server error text).
"""

from __future__ import annotations

import json
import time

from anvia_nb.core.server import McpServer
from anvia_nb.policy import HIDDEN_SERVER_ERROR, ShowPolicy

__all__ = ["log_text"]


def _tail_lines(text: str, lines: int) -> list[str]:
    return text.splitlines()[-lines:] if text else []


def log_text(server: McpServer, lines: int, policy: ShowPolicy | None = None) -> str:
    """The last ``lines`` lines of stderr (at most the policy's ``log_chars`` read) and of log messages."""
    shown = (policy or ShowPolicy()).with_secrets(server.secrets)
    if shown.hides():
        return f"{server.name}: {HIDDEN_SERVER_ERROR}"
    parts: list[str] = []
    if server.connection.transport == "stdio":
        stderr = _tail_lines(server.client.stderr_tail(shown.limits.log_chars), lines)
        parts.append(f"── {server.name}: stderr (last {len(stderr)} lines) ──")
        parts.extend(shown.text(line) for line in stderr)
    else:
        parts.append(f"── {server.name}: no stderr ({server.connection.transport} connection) ──")
    entries = list(server.client.log_entries)[-lines:]
    if entries:
        parts.append(f"── {server.name}: log messages (last {len(entries)}) ──")
        for stamp, level, logger, data in entries:
            text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False, default=str)
            when = time.strftime("%H:%M:%S", time.localtime(stamp))
            source = f" {logger}" if logger else ""
            parts.append(shown.text(f"{when} {level}{source}: {text}"))
    return "\n".join(parts)
