"""The lines ``%mcp connect`` prints: the one line of an open connection, the one line of a failed
one, and the kernel's own values of the environment variables a connection names."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from anvia_nb.errors import ConnectError
from anvia_nb.magic._arguments import CommandLineError
from anvia_nb.policy import ShowPolicy

if TYPE_CHECKING:
    from anvia_nb.core.api.connections import McpConnection
    from anvia_nb.runtime import Runtime

__all__ = ["connect_error_line", "connect_line", "kernel_env"]


def kernel_env(names: tuple[str, ...]) -> dict[str, str]:
    """The kernel's own values of ``--secret-env NAME`` / ``--env NAME``; a missing one is an error."""
    missing = [name for name in names if name not in os.environ]
    if missing:
        raise CommandLineError(
            f"The kernel has no environment variable {missing[0]}: export it before starting Jupyter "
            "(or add it to the kernel's environment some other way that keeps it out of the notebook), "
            "then connect again."
        )
    return {name: os.environ[name] for name in names}


def connect_error_line(error: ConnectError, policy: ShowPolicy) -> str:
    """A failed connect in one line: anvia_nb's words, then the server's stderr tail, masked (a
    viewer's sentence instead when server errors are hidden)."""
    return policy.error_line(error, policy.limits.text_chars)


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
    record = getattr(connection, "record", None)
    if record:
        text += f" · recording to {record}"
    return policy.mask(" ".join(text.split()))
