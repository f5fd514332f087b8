"""Parsing the lines that call a tool: ``%mcp call``, ``%mcp app``, ``%mcp map`` and ``%mcp form``.

Pure: no IPython, no connections, no I/O. ``key=value`` and ``key=$var`` words follow one rule
(:mod:`anvia_nb.magic.parse.arguments`, :mod:`anvia_nb.magic.parse.variables`); a ``$var`` is
resolved only when the command runs.
"""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass, field, replace
from typing import Any

from anvia_nb.core.api.batch import MapOptions
from anvia_nb.magic.parse.arguments import arguments_from_json, call_words, value_from_text
from anvia_nb.magic.parse.commands import CallCommand, FormCommand
from anvia_nb.magic.parse.variables import VariableWord, variable_name
from anvia_nb.magic.parse.words import CommandLineError, close_words, option_words, seconds_value, split, target

__all__ = [
    "CALL_FLAGS",
    "CALL_OPTIONS",
    "MAP_OPTIONS",
    "MAP_VALUED",
    "MapCommand",
    "parse_app",
    "parse_call",
    "parse_form",
    "parse_map",
    "read_call",
]

CALL_OPTIONS = ("--timeout", "--max-time", "--args")
CALL_FLAGS = ("--background",)
_APP_USAGE = "Usage: %mcp app NAME.TOOL [{json} | key=value ...] [--timeout S] [--args DICT]"


_JSON_HERE = "\0json"  # where the JSON object stood among the words
_CALL_USAGE = (
    "Usage: %mcp call NAME.TOOL {json} or %mcp call NAME.TOOL [--args DICT] key=value|key=$var ... "
    "[--timeout S] [--max-time S] [--background]"
)


def parse_call(rest: str, cell: str | None = None) -> CallCommand:
    """``call [--timeout S] NAME.TOOL [{json} | key=value ...] [--timeout S] [--max-time S]``;
    options in either spelling anywhere, and never taken for arguments."""
    command = read_call(rest, cell)
    if cell is not None or command.arguments is None:
        return command
    arguments = command.arguments  # a copy each time: the cached command's values are never shared
    flat = all(isinstance(v, _FLAT) for v in arguments.values())
    return replace(command, arguments=dict(arguments) if flat else copy.deepcopy(arguments))


_FLAT = (str, int, float, bool, type(None))  # a $var word is a str too


def read_call(rest: str, cell: str | None = None) -> CallCommand:
    """:func:`parse_call` for the magic, which only reads the arguments (the call copies what it
    sends, ``core/protocol/mapping.arguments_from_input``): a line run again (a loop, a re-run
    cell) is read once and gives the command read then, its arguments shared (issue 41)."""
    return _parse_call(rest, cell) if cell is not None else _parsed_line(rest)


@functools.lru_cache(maxsize=64)
def _parsed_line(rest: str) -> CallCommand:
    return _parse_call(rest, None)


def _parse_call(rest: str, cell: str | None) -> CallCommand:
    words, arguments, index = call_words(rest)
    before, after = (words[:index], words[index:]) if index >= 0 else (words, [])
    if arguments is not None and any(_is_pair(w) for w in before):
        raise CommandLineError("Give the arguments either as one JSON object or as key=value pairs, not both.")
    timeout: float | None = None
    has_timeout = False
    max_time: dict[str, float | None] = {}
    background = False
    args_variable: str | None = None
    called = ""
    pairs: dict[str, Any] = {}
    texts: list[tuple[str, str]] = []
    items = iter([*option_words(before, CALL_OPTIONS), _JSON_HERE, *option_words(after, CALL_OPTIONS)])
    for word in items:
        if word == _JSON_HERE:
            if arguments is not None and not called:
                raise CommandLineError(f"Put the JSON arguments after NAME.TOOL. {_CALL_USAGE}")
        elif word == "--timeout":
            value = next(items, "")
            if value in ("", _JSON_HERE):
                raise CommandLineError(f"--timeout needs a number of seconds. {_CALL_USAGE}")
            timeout, has_timeout = seconds_value(value, "--timeout"), True
        elif word == "--max-time":
            value = next(items, "")
            if value in ("", _JSON_HERE):
                raise CommandLineError(f"--max-time needs a number of seconds. {_CALL_USAGE}")
            max_time["given"] = seconds_value(value, "--max-time")
        elif word in CALL_FLAGS:
            background = True
        elif word == "--args":
            args_variable = variable_name(next(items, ""), "--args")
        elif word.startswith("-"):
            raise CommandLineError(
                f"Unknown option {word.partition('=')[0]!r}; %mcp call takes --timeout S, --max-time S, "
                f"--args DICT and --background. {close_words(word.partition('=')[0], (*CALL_OPTIONS, *CALL_FLAGS))}"
            )
        elif not called and not _is_pair(word):
            called = word
        elif _is_pair(word):
            if not called:
                break
            _add_pair(word, pairs, texts)
        elif word[:1] in ("{", "["):
            raise CommandLineError("Put the JSON arguments right after NAME.TOOL, or use key=value pairs, not both.")
        else:
            raise CommandLineError(f"Expected key=value or a JSON object, got {word!r}. {_CALL_USAGE}")
    if not called:
        raise CommandLineError(_CALL_USAGE)
    server, tool = target(called, "call")
    from_json = arguments is not None or (cell is not None and cell.lstrip().startswith("{"))
    if pairs:
        if arguments is not None:
            raise CommandLineError("Give the arguments either as one JSON object or as key=value pairs, not both.")
        arguments = pairs
    if cell is not None and cell.strip():
        if arguments is not None:
            raise CommandLineError("Give the arguments either on the %%mcp line or in the cell body, not both.")
        arguments, texts = _body_arguments(cell)
    if args_variable is not None and from_json:
        raise CommandLineError("Give --args DICT (with key=value pairs if you like) or JSON arguments, not both.")
    return CallCommand(
        server,
        tool,
        arguments,
        timeout,
        has_timeout,
        tuple(texts),
        background=background,
        args_variable=args_variable,
        max_time_seconds=max_time.get("given"),
        has_max_time=bool(max_time),
    )


def _body_arguments(cell: str) -> tuple[dict[str, Any] | None, list[tuple[str, str]]]:
    """A ``%%mcp call`` body: one JSON object, or ``key=value`` / ``key=$var`` words (lines too)."""
    if cell.lstrip().startswith("{"):
        return arguments_from_json(cell), []
    words, arguments, _index = call_words(cell)
    if arguments is not None:
        raise CommandLineError("The cell body is either one JSON object or key=value words, not both.")
    pairs: dict[str, Any] = {}
    texts: list[tuple[str, str]] = []
    for word in words:
        if not _is_pair(word):
            raise CommandLineError(f"Expected key=value in the cell body, got {word!r}. {_CALL_USAGE}")
        _add_pair(word, pairs, texts)
    return pairs, texts


def _add_pair(word: str, pairs: dict[str, Any], texts: list[tuple[str, str]]) -> None:
    """One ``key=value`` word into ``pairs`` (JSON when it parses, else the text; ``key=$var`` a
    :class:`~anvia_nb.magic.parse.variables.Variable`), and its text as typed into ``texts``."""
    key, _, value = word.partition("=")
    if isinstance(word, VariableWord):
        pairs[key] = word.variable
        return
    pairs[key] = value_from_text(value)
    texts.append((key, value))


def _is_pair(word: str) -> bool:
    return "=" in word and not word.startswith(("=", "-"))


def parse_app(rest: str, cell: str | None = None) -> CallCommand:
    command = parse_call(rest, cell)
    if command.background:
        raise CommandLineError(f"%mcp app waits for the result to show it in the view: no --background. {_APP_USAGE}")
    return replace(command, app=True)


def parse_form(rest: str, _cell: str | None = None) -> FormCommand:
    words = split(rest)
    if len(words) != 1:
        raise CommandLineError("Usage: %mcp form NAME.TOOL")
    return FormCommand(*target(words[0], "form"))


MAP_OPTIONS = ("--frame", "--concurrency", "--stop-on-error", "--timeout", "--max-time")
MAP_VALUED = ("--frame", "--concurrency", "--timeout", "--max-time")
MAP_USAGE = (
    "Usage: %mcp map NAME.TOOL --frame DF [--concurrency N] [--stop-on-error] [--timeout S] [--max-time S] "
    "[key=value|key=$var ...]"
)


@dataclass(frozen=True)
class MapCommand:
    """``map NAME.TOOL --frame DF ...``: the frame variable's name, constants and options.

    ``constants`` are the words as written (``$var`` resolved only when it runs); ``options`` the
    map's other options, its ``timeout_seconds`` (``max_time_seconds``) left ``DEFAULT`` when
    ``--timeout`` (``--max-time``) was not given.
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


def parse_map(rest: str, _cell: str | None = None) -> MapCommand:
    words, json_arguments, _index = call_words(rest)
    if json_arguments is not None:
        raise CommandLineError(f"%mcp map takes constants as key=value words, not a JSON object. {MAP_USAGE}")
    called = frame = ""
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
            elif name == "--timeout":
                options = replace(options, timeout_seconds=seconds_value(value, name))
            else:
                options = replace(options, max_time_seconds=seconds_value(value, name))
        elif not called and not eq:
            called = word
        elif eq and name and called:
            _add_pair(word, constants, texts)
        else:
            raise CommandLineError(f"Expected key=value or an option, got {word!r}. {MAP_USAGE}")
    server, dot, tool = called.partition(".")
    if not (server and dot and tool):
        raise CommandLineError(MAP_USAGE)
    if not frame:
        raise CommandLineError(f"Say which DataFrame to map: --frame DF (a variable of the kernel). {MAP_USAGE}")
    return MapCommand(server, tool, frame, constants, options, texts=tuple(texts))
