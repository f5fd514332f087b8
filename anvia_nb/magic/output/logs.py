"""``%mcp log NAME``: a server's stderr tail and its log messages, bounded and masked.

A stdio server's stderr is where it explains why it failed; people need it in the notebook, also
for a connection that failed to open or whose server died, but it can echo the tokens it was
given, so it goes through the :class:`~anvia_nb.policy.ShowPolicy` like every other output (and, for
viewers, is said in plain words: how many lines it wrote, none of them). Log messages (``notifications/message``)
come with their level and logger, from every protocol version.
"""

from __future__ import annotations

from anvia_nb.core.exchange.logs import ServerLog
from anvia_nb.display.settings import viewer_words
from anvia_nb.policy import ShowPolicy

__all__ = ["log_text"]


def log_text(log: ServerLog, lines: int, policy: ShowPolicy | None = None) -> str:
    """The last ``lines`` lines of stderr (at most the policy's ``log_chars`` read) and of log messages."""
    shown = (policy or ShowPolicy()).with_secrets(log.policy.secrets)
    if shown.for_viewers:  # what happened in plain words: none of its text, no "error" when none
        written = sum(1 for row in log.rows(lines, shown.limits.log_chars) if row.source != "client")
        return viewer_words("log", log.name, written, shown)
    parts: list[str] = []
    if log.has_stderr:
        text = log.stderr_text(shown.limits.log_chars)
        stderr = text.splitlines()[-lines:] if text else []
        parts.append(f"── {log.name}: stderr (last {len(stderr)} lines) ──")
        parts.extend(shown.text(line) for line in stderr)
    else:
        parts.append(f"── {log.name}: no stderr ({log.transport} connection) ──")
    messages = log.message_lines(lines)
    if messages:
        parts.append(f"── {log.name}: log messages (last {len(messages)}) ──")
        parts.extend(shown.text(message) for message in messages)
    return "\n".join(parts)
