"""What a ``%mcp connect`` line (or the config file it names) describes: the connections to open,
as the user wrote them; the magic then bounds their calls in flight and opens them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from anvia_nb.magic._commands import ConfigConnectCommand, ConnectCommand
from anvia_nb.magic._connect_text import kernel_env

if TYPE_CHECKING:
    from anvia_nb.core.api.connections import McpConnection

__all__ = ["described"]


def described(
    command: ConnectCommand | ConfigConnectCommand, connect_timeout_seconds: float | None
) -> list[McpConnection]:
    """The connections a connect line (or its config file) describes, as the user wrote them."""
    from anvia_nb.core.api.factories import mcp
    from anvia_nb.magic.config_files import servers_from_config_file

    if isinstance(command, ConfigConnectCommand):
        found = servers_from_config_file(command.path, command.names)
        for note in found.notes:
            print(f"note: {note}")
        return list(found.connections.values())
    if command.transport == "replay":
        return [mcp.replay(name=command.name, path=command.replay)]
    inherited = kernel_env(command.inherit_env)
    from_environ = {**command.from_environ, **inherited}  # every value from the environment: a secret
    if command.transport == "stdio":
        return [
            mcp.stdio(
                name=command.name,
                command=command.command,
                args=list(command.args),
                env={**command.env, **inherited},
                from_environ=from_environ,
                cwd=command.cwd,
                secret_env=command.secret_env,
                roots=command.roots,
                record=command.record,
                protocol=command.protocol,
            )
        ]
    timeout = command.timeout_seconds if command.timeout_seconds is not None else connect_timeout_seconds
    return [
        mcp.http(
            name=command.name, url=command.url, headers=command.headers, timeout_seconds=timeout,
            roots=command.roots,
            record=command.record,
            protocol=command.protocol,
            from_environ=from_environ,
        )
    ]  # fmt: skip

