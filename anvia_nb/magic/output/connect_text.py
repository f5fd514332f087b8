"""The lines ``%mcp connect`` prints: the one line of an open connection, the one line of a failed
one, the note of a connect that replaces one, and what ``%mcp tools`` says before any connect."""

from __future__ import annotations

from typing import TYPE_CHECKING

from anvia_nb.errors import ConnectError
from anvia_nb.policy import ShowPolicy

if TYPE_CHECKING:
    from anvia_nb.core.api.connections import McpConnection
    from anvia_nb.runtime import Runtime

__all__ = [
    "NOTHING_CONNECTED",
    "connect_error_line",
    "connect_error_text",
    "connect_line",
    "in_magic_words",
    "restart_line",
]

_MAGIC_TIMEOUT_ADVICE = (
    "allow more time with --timeout S on the connect line, or %config McpMagics.connect_timeout_seconds = S "
    "for every connect (None: no limit)"
)

NOTHING_CONNECTED = "Nothing is connected: connect first (%mcp connect NAME --stdio COMMAND ... or --http URL)."
"""What ``%mcp tools`` says before any connection: one line, not an empty table."""


def in_magic_words(error: ConnectError) -> ConnectError:
    """``error`` (changed in place) naming the magic's settings where the core names the Python
    API's: a connect that ran past its limit says ``--timeout S`` and ``connect_timeout_seconds``."""
    from anvia_nb.core.transport.client import CONNECT_TIMEOUT_ADVICE  # the SDK's side: loaded when connecting

    message = str(error)
    if CONNECT_TIMEOUT_ADVICE in message:
        error.args = (message.replace(CONNECT_TIMEOUT_ADVICE, _MAGIC_TIMEOUT_ADVICE), *error.args[1:])
    return error


def connect_error_line(error: ConnectError, policy: ShowPolicy) -> str:
    """A failed connect in one line: anvia_nb's words, then the server's stderr tail, masked (a
    viewer's sentence instead when server errors are hidden)."""
    return policy.error_line(error, policy.limits.text_chars)


def connect_error_text(error: ConnectError, policy: ShowPolicy) -> str:
    """A failed connect as its lines: a server's traceback in its stderr tail keeps its lines (and
    their indentation), each masked, its specials made visible and cut to ``line_chars``; at most
    ``error_lines`` lines (the last ones) and ``text_chars`` characters. A viewer's sentence
    when server errors are hidden, as :func:`connect_error_line`."""
    if policy.hides(error) or "\n" not in str(error):
        return connect_error_line(error, policy)
    lines = [line.rstrip() for line in str(error).splitlines() if line.strip()]
    shown = [policy.line(" ".join(lines[0].split()), policy.limits.line_chars)]
    budget = policy.limits.text_chars - len(shown[0])
    tail: list[str] = []
    for line in reversed(lines[1:][-policy.limits.error_lines :]):
        kept = policy.line(line, policy.limits.line_chars)
        budget -= len(kept) + 1
        if budget < 0:
            break
        tail.append(kept)
    return "\n".join(shown + tail[::-1])


def connect_line(connection: McpConnection, runtime: Runtime, *, for_viewers: bool = False) -> str:
    """``demo: stdio · anvia-demo 0.1.0 · protocol 2026-07-28 · 21 tools``, secrets masked; for
    viewers without the server's own name and version (its words): ``demo: stdio · 21 tools``."""
    server = runtime.server(connection.name)
    info = server.client.server_info
    # The name and version are the server's own words: made visible, masked and bounded.
    # (Not through magic.tables: that imports pandas, which this one line does not need.)
    policy = ShowPolicy().with_secrets(server.secrets)
    label = policy.name(f"{info.get('name', '?')} {info.get('version', '')}".strip())
    count = len(server.tools)
    how = connection.target() if connection.transport == "replay" else connection.transport
    text = (
        f"{connection.name}: {how} · {label} · protocol {server.client.protocol_version} · "
        f"{count} tool{'s' if count != 1 else ''}"
    )
    if for_viewers:
        return policy.mask(f"{connection.name}: {connection.transport} · {count} tool{'s' if count != 1 else ''}")
    if "tools" in server.client.listing_notes:  # the server refused tools/list (-32601): said, not an error
        text += " (it has no tools/list: -32601 Method not found)"
    record = getattr(connection, "record", None)
    if record:
        text += f" · recording to {record}"
    return policy.mask(" ".join(text.split()))


def restart_line(connection: McpConnection) -> str:
    """The note of a connect that replaces an open connection of the same name (a second run of the cell)."""
    again = "its server is stopped and started again" if connection.transport == "stdio" else "it is opened again"
    return f"note: {connection.name} was already connected: {again}."
