"""Running the lines that call a tool: ``%mcp call`` (the magic's own ``call_command``), ``%mcp
map NAME.TOOL --frame DF ...``, ``%mcp form NAME.TOOL`` and ``%mcp panel``.

``map`` makes one call per row of the DataFrame variable ``DF``, concurrently on the connection's
one session (see :mod:`anvia_nb.frames`); ``key=value`` and ``key=$var`` words are constants for
the arguments no column gives (the ``$`` rule is :mod:`anvia_nb.magic.parse.variables`'). It
returns the DataFrame of results; the stop button returns the rows done so far, marked.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from anvia_nb.core.api.batch import is_rows
from anvia_nb.core.protocol import limits
from anvia_nb.magic.commands.apps import tool_for_cells
from anvia_nb.magic.parse.arguments import typed_for_schema, unknown_names
from anvia_nb.magic.parse.call import MapCommand
from anvia_nb.magic.parse.commands import CallCommand, FormCommand, PanelCommand
from anvia_nb.magic.parse.variables import resolve_arguments
from anvia_nb.magic.parse.words import CommandLineError

if TYPE_CHECKING:
    import pandas as pd

    from anvia_nb.magic.commands.host import MagicHost
    from anvia_nb.widgets import Panel, ToolForm, UnavailableForm

__all__ = ["run_call", "run_form", "run_map", "run_panel"]


def run_call(magics: MagicHost, command: CallCommand) -> object:
    return magics.call_command(command)


def run_form(magics: MagicHost, command: FormCommand) -> ToolForm | UnavailableForm:
    from anvia_nb.widgets import form

    settings, timeout = magics.render_settings(), magics.timeout_seconds
    return form(
        command.server,
        command.tool,
        settings=settings,
        timeout_seconds=timeout,
        max_time_seconds=magics.call_max_time(timeout),
    )  # unknown names: one line


def run_panel(magics: MagicHost, command: PanelCommand) -> Panel:
    from anvia_nb.widgets import panel

    settings, timeout = magics.render_settings(), magics.timeout_seconds
    return panel(
        connection=command.name,
        tools=command.tools,
        resources=command.resources,
        prompts=command.prompts,
        settings=settings,
        timeout_seconds=timeout,
        max_time_seconds=magics.call_max_time(timeout),
    )


def run_map(magics: MagicHost, command: MapCommand) -> pd.DataFrame:
    """Check everything first (names, constants, every row); then map, interruptibly."""
    server, tool = tool_for_cells(magics.runtime, command.server, command.tool)
    target = f"{command.server}.{command.tool}"
    namespace = magics.user_namespace()
    if command.frame not in namespace:
        raise CommandLineError(
            f"{target} was not mapped: there is no variable {command.frame!r} in the kernel; --frame takes a "
            "DataFrame variable."
        )
    data = namespace[command.frame]
    from anvia_nb.frames import map_sync

    if is_rows(data):
        import pandas as pd

        data = pd.DataFrame(list(data))
    constants = resolve_arguments(command.constants, None, namespace, target) or {}
    constants = typed_for_schema(constants, dict(command.texts), tool.input_schema)
    unknown = unknown_names(constants, tool.input_schema)
    if unknown:
        takes = ", ".join(tool.info.argument_names) or "no arguments"
        names = ", ".join(unknown)
        raise CommandLineError(f"{target} was not mapped: it takes no argument {names}. It takes: {takes}.")
    given = command.options.timeout_seconds
    timeout = magics.timeout_seconds if given is limits.DEFAULT else given
    given_max = command.options.max_time_seconds
    max_time = magics.call_max_time(timeout) if given_max is limits.DEFAULT else given_max
    policy = magics.show_policy(server.secrets)
    options = replace(
        command.options, constants=constants, timeout_seconds=timeout, max_time_seconds=max_time, policy=policy
    )
    frame: pd.DataFrame = map_sync(tool, data, options)  # data: a DataFrame (rows were made one above)
    return frame
