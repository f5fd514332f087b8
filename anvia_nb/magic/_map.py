"""``%mcp map NAME.TOOL --frame DF [--concurrency N] [--stop-on-error] [--timeout S] [key=value ...]``.

One call per row of the DataFrame variable ``DF``, concurrently on the connection's one session
(see :mod:`anvia_nb.frames`); ``key=value`` and ``key=$var`` words are constants for the
arguments no column gives (the ``$`` rule is :mod:`anvia_nb.magic._variables`'). Returns the
DataFrame of results; the stop button returns the rows done so far, marked.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from anvia_nb.core.api.batch import MapOptions, is_rows
from anvia_nb.core.protocol import limits
from anvia_nb.magic._apps import app_only_error
from anvia_nb.magic._arguments import call_words, typed_for_schema, unknown_names, value_from_text
from anvia_nb.magic._parser import CommandLineError, close_words, seconds_value
from anvia_nb.magic._variables import VariableWord, resolve_arguments, variable_name

if TYPE_CHECKING:
    from anvia_nb.magic._host import MagicHost

__all__ = ["MAP_OPTIONS", "MapCommand", "complete_map", "parse_map", "run_map"]

MAP_OPTIONS = ("--frame", "--concurrency", "--stop-on-error", "--timeout")
_VALUED = ("--frame", "--concurrency", "--timeout")
MAP_USAGE = (
    "Usage: %mcp map NAME.TOOL --frame DF [--concurrency N] [--stop-on-error] [--timeout S] "
    "[key=value|key=$var ...]"
)


@dataclass(frozen=True)
class MapCommand:
    """``map NAME.TOOL --frame DF ...``: the frame variable's name, constants and options.

    ``constants`` are the words as written (``$var`` resolved only when it runs); ``options`` the
    map's other options, its ``timeout_seconds`` left ``DEFAULT`` when ``--timeout`` was not given.
    """

    server: str
    tool: str
    frame: str
    constants: dict[str, Any] = field(default_factory=dict)
    options: MapOptions = field(default_factory=MapOptions)
    texts: tuple[tuple[str, str], ...] = field(default=(), compare=False)


def _count(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise CommandLineError(f"--concurrency takes a whole number of at least 1, not {text!r}.")
    return int(text)


def _seconds(text: str) -> float | None:
    return seconds_value(text, "--timeout")


def parse_map(rest: str, _cell: str | None = None) -> MapCommand:
    words, json_arguments, _index = call_words(rest)
    if json_arguments is not None:
        raise CommandLineError(f"%mcp map takes constants as key=value words, not a JSON object. {MAP_USAGE}")
    target = frame = ""
    options = MapOptions()
    constants: dict[str, Any] = {}
    texts: list[tuple[str, str]] = []
    items = iter(words)
    for word in items:
        name, eq, inline = word.partition("=")
        if word.startswith("-"):
            if name not in MAP_OPTIONS:
                raise CommandLineError(f"Unknown option {name!r}. {close_words(name, MAP_OPTIONS)}{MAP_USAGE}")
            if name == "--stop-on-error":
                if eq:
                    raise CommandLineError(f"--stop-on-error takes no value, got {word!r}.")
                options = replace(options, stop_on_error=True)
                continue
            value = inline if eq else next(items, "")
            if not value:
                raise CommandLineError(f"{name} needs a value. {MAP_USAGE}")
            if name == "--frame":
                frame = variable_name(value, "--frame")
            elif name == "--concurrency":
                options = replace(options, concurrency=_count(value))
            else:
                options = replace(options, timeout_seconds=_seconds(value))
        elif not target and not eq:
            target = word
        elif eq and name and target:
            if isinstance(word, VariableWord):
                constants[name] = word.variable
            else:
                constants[name] = value_from_text(inline)
                texts.append((name, inline))
        else:
            raise CommandLineError(f"Expected key=value or an option, got {word!r}. {MAP_USAGE}")
    server, dot, tool = target.partition(".")
    if not (server and dot and tool):
        raise CommandLineError(MAP_USAGE)
    if not frame:
        raise CommandLineError(f"Say which DataFrame to map: --frame DF (a variable of the kernel). {MAP_USAGE}")
    return MapCommand(server, tool, frame, constants, options, texts=tuple(texts))


def run_map(magics: MagicHost, command: MapCommand) -> Any:
    """Check everything first (names, constants, every row); then map, interruptibly."""
    runtime = magics.runtime
    server = runtime.server(command.server)
    tool = server.tool(command.tool)
    target = f"{command.server}.{command.tool}"
    refused = app_only_error(server.tools, tool.info)  # a tool for its interactive view only
    if refused is not None:
        raise refused
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
    policy = magics.show_policy(server.secrets)
    options = replace(command.options, constants=constants, timeout_seconds=timeout, policy=policy)
    return map_sync(tool, data, options)


def complete_map(words: list[str], targets: list[str]) -> list[str]:
    """Candidates for the last word of a ``map`` line."""
    if len(words) > 1 and words[-2] in _VALUED:
        return []
    if not [w for w in words[:-1] if not w.startswith("-")]:
        return [*targets, *MAP_OPTIONS]
    return list(MAP_OPTIONS)
