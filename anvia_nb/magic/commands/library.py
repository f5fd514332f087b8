"""Running the lines about what a server offers: ``%mcp tools``, ``resources``, ``templates``,
``prompts``, ``read``, ``prompt``, ``subscribe`` and ``unsubscribe`` (their entries in the one
table, :mod:`anvia_nb.magic.subcommands`, point here; their Tab completion is
:mod:`anvia_nb.magic.complete.library`).

``%mcp read`` refuses a URI that no listing or offered link knows, and ``%mcp prompt`` a prompt
that is not listed or a required argument left out, before anything is sent. ``%mcp subscribe``
counts a resource's updates (``%mcp resources`` shows them); a server whose capabilities lack
``resources.subscribe`` is refused before anything is sent (core/api/subscriptions.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from anvia_nb.core.protocol.types import JsonObject
from anvia_nb.errors import UnknownConnectionError
from anvia_nb.magic.output.connect_text import NOTHING_CONNECTED
from anvia_nb.magic.parse.commands import ToolsCommand
from anvia_nb.magic.parse.library import LibraryCommand, PromptCommand, ReadCommand, SubscribeCommand

if TYPE_CHECKING:
    import pandas as pd

    from anvia_nb.display import PromptView, ReadView
    from anvia_nb.magic.commands.host import MagicHost
    from anvia_nb.runtime import Runtime

__all__ = [
    "run_prompt",
    "run_prompts",
    "run_read",
    "run_resources",
    "run_subscribe",
    "run_templates",
    "run_tools",
]


def run_tools(magics: MagicHost, command: ToolsCommand) -> pd.DataFrame:
    from anvia_nb.magic.output.changes import note_tool_changes
    from anvia_nb.magic.output.tables import note_refused_listings, tools_frame

    runtime = magics.runtime
    if not command.names and not runtime.names():
        raise UnknownConnectionError(NOTHING_CONNECTED)  # one line, not an empty table
    servers = [runtime.server(name) for name in command.names or runtime.names()]
    note_tool_changes(runtime, servers, magics.show_policy())
    note_refused_listings(servers, "tools", magics.show_policy())
    return tools_frame(servers, magics.show_policy())


def _listings(magics: MagicHost, command: LibraryCommand) -> list[tuple[str, tuple[str, ...], list[JsonObject]]]:
    from anvia_nb.runtime import library

    runtime = magics.runtime
    chosen, key = command.names or tuple(runtime.names()), command.listing
    for name in chosen:
        runtime.server(name)  # every name is checked before anything is asked
    from anvia_nb.magic.output.tables import note_refused_listings

    read = {
        "resources": library.resources,
        "resourceTemplates": library.resource_templates,
        "prompts": library.prompts,
    }[key]
    listings = [(name, runtime.server(name).secrets, read(runtime, name)) for name in chosen]
    note_refused_listings([runtime.server(name) for name in chosen], key, magics.show_policy())
    return listings


def run_resources(magics: MagicHost, command: LibraryCommand) -> pd.DataFrame:
    from anvia_nb.magic.output.library_tables import resources_frame

    listings = _listings(magics, command)
    subscribed: dict[tuple[str, str], tuple[bool, int]] = {}
    for name, _secrets, _items in listings:
        subscriptions = magics.runtime.server(name).subscriptions
        for uri, updates in subscriptions.updates().items():
            subscribed[(name, uri)] = (False, updates.count)
        for uri in subscriptions.subscribed:
            subscribed[(name, uri)] = (True, subscribed.get((name, uri), (True, 0))[1])
    return resources_frame(listings, magics.show_policy(), subscribed)


def run_templates(magics: MagicHost, command: LibraryCommand) -> pd.DataFrame:
    from anvia_nb.magic.output.library_tables import templates_frame

    return templates_frame(_listings(magics, command), magics.show_policy())


def run_prompts(magics: MagicHost, command: LibraryCommand) -> pd.DataFrame:
    from anvia_nb.magic.output.library_tables import prompts_frame

    return prompts_frame(_listings(magics, command), magics.show_policy())


def _template(runtime: Runtime, server: str, target: str) -> dict[str, Any] | None:
    from anvia_nb.runtime import library

    for found in library.resource_templates(runtime, server):
        if target in (found.get("uriTemplate"), found.get("name")):
            return found
    return None


def run_read(magics: MagicHost, command: ReadCommand) -> ReadView:
    """A URI known to a listing or a link, or a template with its variables; nothing else is sent."""
    from anvia_nb.display import ReadView
    from anvia_nb.runtime import library

    runtime = magics.runtime
    runtime.server(command.server)
    timeout = magics.timeout_seconds
    if command.variables or _template(runtime, command.server, command.target) is not None:
        read = library.read_template(
            runtime, command.server, command.target, dict(command.variables), timeout_seconds=timeout
        )
    else:
        library.check_uri(runtime, command.server, command.target)
        read = library.read(runtime, command.server, command.target, timeout_seconds=timeout)
    return ReadView(read, magics.render_settings())


def run_prompt(magics: MagicHost, command: PromptCommand) -> PromptView:
    from anvia_nb.display import PromptView
    from anvia_nb.runtime import library

    runtime = magics.runtime
    result = library.get_prompt(
        runtime, command.server, command.prompt, dict(command.arguments), timeout_seconds=magics.timeout_seconds
    )
    return PromptView(result, magics.render_settings())


def run_subscribe(magics: MagicHost, command: SubscribeCommand) -> None:
    runtime = magics.runtime
    server = runtime.server(command.server)
    if command.on:
        runtime.run(server.subscribe(command.uri))
        said = f"subscribed to {command.uri} on {command.server}: %mcp resources {command.server} counts its updates"
    else:
        runtime.run(server.unsubscribe(command.uri))
        said = f"unsubscribed from {command.uri} on {command.server}"
    print(magics.show_policy(server.secrets).line(said))
