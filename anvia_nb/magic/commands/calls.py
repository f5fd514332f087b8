"""Running the lines that call a tool: ``%mcp call`` (the magic's own ``call_command``), ``%mcp
map NAME.TOOL --frame DF ...``, ``%mcp form NAME.TOOL`` and ``%mcp panel``.

``map`` makes one call per row of the DataFrame variable ``DF``, concurrently on the connection's
one session (see :mod:`anvia_nb.frames`); ``key=value`` and ``key=$var`` words are constants for
the arguments no column gives (the ``$`` rule is :mod:`anvia_nb.magic.parse.variables`'). It
returns the DataFrame of results; the stop button returns the rows done so far, marked.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from anvia_nb.core.api.batch import is_rows
from anvia_nb.core.protocol import limits
from anvia_nb.magic.commands.apps import tool_for_cells
from anvia_nb.magic.parse.arguments import typed_for_schema, unknown_names
from anvia_nb.magic.parse.call import MapCommand
from anvia_nb.magic.parse.commands import CallCommand, FormCommand, PanelCommand
from anvia_nb.magic.parse.variables import resolve_arguments
from anvia_nb.magic.parse.words import CommandLineError

if TYPE_CHECKING:
    from collections.abc import Callable

    import pandas as pd

    from anvia_nb.core.api.tool import Tool
    from anvia_nb.core.protocol.types import ToolInfo
    from anvia_nb.magic.commands.host import MagicHost
    from anvia_nb.widgets import Panel, ToolForm, UnavailableForm

__all__ = ["CheckedArguments", "run_call", "run_form", "run_map", "run_panel"]


def run_call(magics: MagicHost, command: CallCommand) -> object:
    return magics.call_command(command)


_PLAIN = frozenset({str, int, float, bool, type(None)})
"""Classes of a value nothing can change: exactly these (a ``$var`` word is none of them)."""


class CheckedArguments:
    """What a ``%mcp call`` line sends, checked against the tool's inputSchema before anything is
    sent: ``$var`` values read, ``key=value`` typed for it, every name one it takes, the schema's
    check. A line of plain values only (no ``$var``, no ``--args``, nothing nested) is kept with
    its tool's listing, and the same line run again (a loop, a re-run cell) on the same listing is
    not checked again (issue 41): one entry, so it holds one line's values at most."""

    __slots__ = ("_last",)

    def __init__(self) -> None:
        self._last: tuple[CallCommand, Tool, ToolInfo, dict[str, Any] | None] | None = None

    def of(self, command: CallCommand, tool: Tool, namespace: Callable[[], dict[str, Any]]) -> dict[str, Any] | None:
        """The arguments to send (a new dict, or ``None``); a one-line error when they are bad.
        ``namespace`` gives the kernel's variables, where a ``$var`` is read."""
        last, info = self._last, tool.info
        if last is not None and last[0] is command and last[1] is tool and last[2] is info:  # the same line, listing
            return None if last[3] is None else dict(last[3])
        target = f"{command.server}.{command.tool}"
        arguments = resolve_arguments(command.arguments, command.args_variable, namespace(), target)
        if arguments is not None and command.texts:
            arguments = typed_for_schema(arguments, dict(command.texts), tool.input_schema)
        unknown = unknown_names(arguments or {}, tool.input_schema)
        if unknown:
            takes = ", ".join(tool.info.argument_names) or "no arguments"
            raise CommandLineError(
                f"{target} was not called: it takes no argument {', '.join(unknown)}. It takes: {takes}."
            )
        problems = tool.check_arguments(arguments)
        if problems:
            raise CommandLineError(
                f"{target} was not called: its arguments do not match the inputSchema: "
                f"{'; '.join(problems)}. Fix them and run again."
            )
        values = [*(command.arguments or {}).values(), *(arguments or {}).values()]
        if command.args_variable is None and all(value.__class__ in _PLAIN for value in values):
            self._last = (command, tool, info, None if arguments is None else dict(arguments))
        return arguments


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
