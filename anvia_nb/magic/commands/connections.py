"""Running ``%mcp connect``, ``%mcp servers`` and ``%mcp close``, and what a connect line (or the
config file it names) describes: the connections to open, as the user wrote them; the magic
then bounds their calls in flight and opens them (``McpMagics.connect_command``). An OAuth
connect runs in :mod:`anvia_nb.magic.commands.oauth`.
"""

from __future__ import annotations

import ast
import os
from typing import TYPE_CHECKING, Any

from anvia_nb.errors import CommandLineError
from anvia_nb.magic.output.cell import report_warnings
from anvia_nb.magic.parse.commands import CloseCommand, ConfigConnectCommand, ConnectCommand, ServersCommand

if TYPE_CHECKING:
    import pandas as pd

    from anvia_nb.core.api.connections import McpConnection
    from anvia_nb.magic.commands.host import MagicHost
    from anvia_nb.magic.parse.oauth import ConnectLine
    from anvia_nb.widgets.prompts.oauth import AuthorizationPrompt

__all__ = ["described", "kernel_env", "run_cell_body", "run_close", "run_connect", "run_servers"]


def run_connect(magics: MagicHost, command: ConnectLine) -> AuthorizationPrompt | None:
    """``%mcp connect``: an OAuth one in the background (its prompt is the cell's value), any
    other opened now, one printed line each."""
    if isinstance(command, ConnectCommand | ConfigConnectCommand):
        magics.connect_command(command, "cell" if command.cell else "kernel")
        return None
    from anvia_nb.magic.commands import oauth  # the SDK's OAuth client: loaded by an OAuth connect only

    return oauth.run_connect(magics, command)


def run_servers(magics: MagicHost, _command: ServersCommand) -> pd.DataFrame:
    from anvia_nb.magic.output.tables import servers_frame

    runtime = magics.runtime
    return servers_frame((runtime.entry(name) for name in runtime.names()), magics.show_policy())


def run_close(magics: MagicHost, command: CloseCommand) -> None:
    runtime = magics.runtime
    if command.all:
        report_warnings(runtime.close_all())
        return
    for name in command.names:
        runtime.log(name)  # every name is checked first; a failed connect (only its log is left) is one
    for name in command.names:
        report_warnings(runtime.close(name))


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


def described(
    command: ConnectCommand | ConfigConnectCommand, connect_timeout_seconds: float | None
) -> list[McpConnection]:
    """The connections a connect line (or its config file) describes, as the user wrote them."""
    from anvia_nb.core.api.factories import mcp
    from anvia_nb.magic.commands.config_files import servers_from_config_file

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
            name=command.name,
            url=command.url,
            headers=command.headers,
            timeout_seconds=timeout,
            roots=command.roots,
            record=command.record,
            protocol=command.protocol,
            from_environ=from_environ,
        )
    ]


def run_cell_body(shell: Any, cell: str) -> object:  # any: IPython's shell, untyped
    """``%%mcp connect``'s body, run in the user's namespace (magics included) while its connections
    are open; the last expression is returned."""
    assert shell is not None
    source: str = shell.transform_cell(cell)
    tree = ast.parse(source, filename="<%%mcp connect>")
    last: ast.Expression | None = None
    final = tree.body[-1] if tree.body else None
    if isinstance(final, ast.Expr):
        tree.body.pop()
        last = ast.Expression(final.value)
    namespace = shell.user_ns
    exec(compile(tree, "<%%mcp connect>", "exec"), namespace)
    if last is not None:
        return eval(compile(last, "<%%mcp connect>", "eval"), namespace)
    return None
