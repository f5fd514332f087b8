"""Tools with an interactive view (MCP Apps) in ``%mcp``: ``%mcp app NAME.TOOL ...``, the view shown
beside ``%mcp call``'s result, and the one-line refusal of a tool its server shows only to its view.

``%mcp call`` of a tool that has a view returns the result view as always and shows the app above
it; ``%mcp app`` does the same the other way round (the app is the cell's value: ``v = %mcp app ...``
keeps ``v.app_messages`` and ``v.model_context``, and the result is shown above it). A view that
cannot be shown (its resource is not a view) is one note on stderr; the call's result is still shown.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Literal

from anvia_nb.errors import AnviaError, CommandLineError
from anvia_nb.magic.output.cell import show_in_cell
from anvia_nb.magic.parse.commands import CallCommand

if TYPE_CHECKING:
    from anvia_nb.core.api.server import McpServer
    from anvia_nb.core.api.tool import Tool
    from anvia_nb.core.protocol.types import CallOutcome, ToolInfo
    from anvia_nb.display import ResultView
    from anvia_nb.magic.commands.host import MagicHost
    from anvia_nb.runtime import Runtime
    from anvia_nb.widgets.apps.view import AppView

__all__ = ["app_only_error", "opener_of", "run_app", "tool_for_cells", "with_app"]


def opener_of(tools: list[Tool], info: ToolInfo) -> str | None:
    """The tool a cell calls to open the view ``info`` belongs to: one that names the same view, or,
    for a tool that names none, the server's only tool with a view; ``None`` when there is none."""
    uri = info.app.resource_uri if info.app is not None else None
    openers = [
        tool.name
        for tool in tools
        if tool.info.app is not None and tool.info.for_cells and uri in (None, tool.info.app.resource_uri)
    ]
    return openers[0] if openers and (uri is not None or len(openers) == 1) else None


def app_only_error(server: McpServer, info: ToolInfo) -> CommandLineError | None:
    """The one line that refuses a cell a tool its server shows only to its view; ``None`` otherwise
    (the server's tools are read only then, for the tool that opens the view)."""
    if info.for_cells:
        return None
    target = f"{info.server}.{info.name}"
    opener = opener_of(server.tools, info)
    how = f": open the view with %mcp app {info.server}.{opener}" if opener else ""
    return CommandLineError(f"{target} is for its interactive view only (the server shows it to no cell){how}.")


def tool_for_cells(runtime: Runtime, server_name: str, tool_name: str) -> tuple[McpServer, Tool]:
    """The connection and tool a cell names, checked: an unknown name, or a tool its server shows
    only to its interactive view, is a one-line error before anything is sent."""
    server = runtime.server(server_name)
    tool = server.tool(tool_name)
    refused = app_only_error(server, tool.info)
    if refused is not None:
        raise refused
    return server, tool


def run_app(magics: MagicHost, command: CallCommand) -> object:
    """``%mcp app``: a tool without a view is refused before anything is sent."""
    tool = magics.runtime.server(command.server).tool(command.tool)
    if tool.info.app is None:
        raise CommandLineError(
            f"{command.server}.{command.tool} has no interactive view: call it with %mcp call (%mcp tools: column app)."
        )
    return magics.call_command(command)


def with_app(
    magics: MagicHost,
    tool: Tool,
    arguments: dict[str, Any] | None,
    outcome: CallOutcome,
    result: ResultView,
    *,
    value: Literal["result", "app"],
) -> ResultView | AppView:
    """Show the app of ``tool`` (when it has one) with the call's input and outcome, beside ``result``;
    ``value`` says which of them is the cell's value: ``"result"`` (``%mcp call``) or ``"app"``."""
    if tool.info.app is None:
        return result
    from anvia_nb.widgets.apps.view import open_app

    try:
        view = open_app(
            tool,
            arguments,
            outcome,
            runtime=magics.runtime,
            settings=magics.render_settings(),
            timeout_seconds=magics.timeout_seconds,
        )
    except AnviaError as error:
        said = magics.show_policy(tool.server.secrets).text(str(error))
        print(f"note: the interactive view of {tool.server.name}.{tool.name} is not shown: {said}", file=sys.stderr)
        return result
    if value == "app":
        show_in_cell(result)
        return view
    show_in_cell(view)
    return result
