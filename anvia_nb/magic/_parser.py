"""Parsing ``%mcp`` lines into command values, apart from running them (as JupySQL does).

Pure: no IPython, no connections, no I/O. Each subcommand's words become a frozen dataclass
(:mod:`anvia_nb.magic._commands`), so the grammar is testable without a kernel and the executor
only ever sees well-formed commands.
Which parser handles which word is decided by the one table in :mod:`anvia_nb.magic.subcommands`.
Lines are split with :func:`shlex.split` (IPython's ``parse_argstring`` keeps quotes), except the
words of ``call``, ``map``, ``prompt`` and ``read``: their JSON (the JSON arguments, and
``key=value`` words whose value is a JSON object or list) is read raw so quotes and braces reach
the server untouched, and a double-quoted value reads Python's escapes (``key="a\\nb"`` is two
lines; :func:`anvia_nb.magic._arguments.call_words`).
An option is recognised as ``--name value`` and as ``--name=value`` wherever it stands.
"""

from __future__ import annotations

import difflib
import shlex
from collections.abc import Callable, Iterable
from typing import Any

from anvia_nb.magic._arguments import CommandLineError, arguments_from_json, call_words, value_from_text
from anvia_nb.magic._commands import (
    DEFAULT_LOG_LINES,
    CallCommand,
    CloseCommand,
    Command,
    FormCommand,
    HelpCommand,
    HistoryCommand,
    LogCommand,
    PanelCommand,
    ServersCommand,
    ToolsCommand,
)
from anvia_nb.magic._variables import VariableWord, variable_name

__all__ = [
    "CALL_OPTIONS",
    "CallCommand",
    "CloseCommand",
    "Command",
    "CommandLineError",
    "FormCommand",
    "HelpCommand",
    "HistoryCommand",
    "LogCommand",
    "PanelCommand",
    "ServersCommand",
    "ToolsCommand",
    "arguments_from_json",
    "close_words",
    "no_arguments",
    "parse_call",
    "parse_close",
    "parse_form",
    "parse_log",
    "parse_panel",
    "parse_tools",
    "split",
    "split_first_word",
]

CONNECT_FLAGS = ("--cell", "--soft")
CALL_OPTIONS = ("--timeout", "--max-time", "--args")
CALL_FLAGS = ("--background",)


def split(text: str) -> list[str]:
    """Shell-like words; an unclosed quote is a one-line error."""
    try:
        return shlex.split(text)
    except ValueError as exc:  # "No closing quotation"
        raise CommandLineError(f"Cannot split the line: {exc}; check your quotes.") from exc


def split_first_word(text: str) -> tuple[str, str]:
    """The first word and the rest, split at any white space (a tab as well as a space)."""
    parts = text.strip().split(None, 1)
    if not parts:
        return "", ""
    return parts[0], parts[1] if len(parts) > 1 else ""


def close_words(word: str, known: Iterable[str]) -> str:
    """``Did you mean x?`` for a near miss, else nothing."""
    close = difflib.get_close_matches(word, list(known), n=2, cutoff=0.5)
    return f"Did you mean {' or '.join(close)}? " if close else ""


def seconds_value(value: str, option: str) -> float | None:
    if value.lower() in ("none", "inf", "off"):
        return None
    try:
        seconds = float(value)
    except ValueError:
        raise CommandLineError(f"{option} takes a number of seconds (or none), not {value!r}.") from None
    if seconds <= 0:
        raise CommandLineError(f"{option} must be more than 0 seconds, got {value}.")
    return seconds


def _target(text: str, subcommand: str) -> tuple[str, str]:
    server, dot, tool = text.partition(".")
    if not dot or not server or not tool:
        raise CommandLineError(f"{subcommand} takes NAME.TOOL (a connection and one of its tools), not {text!r}.")
    return server, tool


def option_words(words: list[str], valued: Iterable[str], stop: str = "") -> list[str]:
    """``--name=value`` as ``--name value`` for options that take a value (up to ``stop``)."""
    valued = tuple(valued)
    out: list[str] = []
    for index, word in enumerate(words):
        if stop and word == stop:
            return out + words[index:]
        name, eq, value = word.partition("=")
        if eq and name.startswith("-") and name in valued:
            out += [name, value]
            if stop and name == stop:
                return out + words[index + 1 :]
        elif eq and name in CONNECT_FLAGS:
            raise CommandLineError(f"{name} takes no value, got {word!r}.")
        else:
            out.append(word)
    return out


def no_arguments(word: str) -> Callable[[str, str | None], None]:
    """A parser for a subcommand that takes nothing after its name."""

    def parse(rest: str, _cell: str | None) -> None:
        words = split(rest)
        if words:
            raise CommandLineError(f"%mcp {word} takes no arguments, got {' '.join(words)!r}.")

    return parse


def parse_tools(rest: str, _cell: str | None = None) -> ToolsCommand:
    words = split(rest)
    options = [w for w in words if w.startswith("-")]
    if options:
        raise CommandLineError(f"Unknown option {options[0]!r}. Usage: %mcp tools [NAME ...]")
    return ToolsCommand(tuple(words))


def parse_form(rest: str, _cell: str | None = None) -> FormCommand:
    words = split(rest)
    if len(words) != 1:
        raise CommandLineError("Usage: %mcp form NAME.TOOL")
    return FormCommand(*_target(words[0], "form"))


def parse_panel(rest: str, _cell: str | None = None) -> PanelCommand:
    usage = "Usage: %mcp panel [NAME] [--tools TOOL,TOOL...] [--resources URI,URI...] [--prompts NAME,NAME...]"
    name: str | None = None
    named: dict[str, tuple[str, ...]] = {}
    options = ("--tools", "--resources", "--prompts")
    items = iter(option_words(split(rest), options))
    for item in items:
        if item in options:
            values = tuple(t.strip() for t in next(items, "").split(",") if t.strip())
            if not values:
                what = {"--tools": "tool names", "--resources": "URIs", "--prompts": "prompt names"}[item]
                example = {"--tools": "echo,add", "--resources": "demo://readme", "--prompts": "summarize"}[item]
                raise CommandLineError(f"{item} takes {what} separated by commas, e.g. {item} {example}. {usage}")
            named[item[2:]] = values
        elif item.startswith("-"):
            raise CommandLineError(f"Unknown option {item!r}. {usage}")
        elif name is not None:
            raise CommandLineError(f"{usage} (one connection, or none for all of them).")
        else:
            name = item
    return PanelCommand(name, named.get("tools"), named.get("resources"), named.get("prompts"))


def parse_log(rest: str, _cell: str | None = None) -> LogCommand:
    usage = "Usage: %mcp log NAME [--lines N]"
    name = ""
    lines = DEFAULT_LOG_LINES
    items = iter(option_words(split(rest), ("--lines", "-n")))
    for item in items:
        if item in ("--lines", "-n"):
            value = next(items, "")
            if not value.isdigit() or int(value) <= 0:
                raise CommandLineError(f"--lines takes a positive whole number, not {value!r}.")
            lines = int(value)
        elif item.startswith("-"):
            raise CommandLineError(f"Unknown option {item!r}. {usage}")
        elif name:
            raise CommandLineError(f"{usage} (one connection at a time).")
        else:
            name = item
    if not name:
        raise CommandLineError(usage)
    return LogCommand(name, lines)


def parse_close(rest: str, _cell: str | None = None) -> CloseCommand:
    usage = "Usage: %mcp close NAME ... or %mcp close --all"
    words = split(rest)
    close_all = "--all" in words
    names = tuple(w for w in words if w != "--all")
    unknown = [n for n in names if n.startswith("-")]
    if unknown:
        raise CommandLineError(f"Unknown option {unknown[0]!r}. {usage}")
    if close_all and names:
        raise CommandLineError("Give either connection names or --all, not both.")
    if not close_all and not names:
        raise CommandLineError(usage)
    return CloseCommand(names, close_all)


_JSON_HERE = "\0json"  # where the JSON object stood among the words
_CALL_USAGE = (
    "Usage: %mcp call NAME.TOOL {json} or %mcp call NAME.TOOL [--args DICT] key=value|key=$var ... "
    "[--timeout S] [--max-time S] [--background]"
)


def parse_call(rest: str, cell: str | None = None) -> CallCommand:
    """``call [--timeout S] NAME.TOOL [{json} | key=value ...] [--timeout S] [--max-time S]``;
    options in either spelling anywhere, and never taken for arguments."""
    words, arguments, index = call_words(rest)
    before, after = (words[:index], words[index:]) if index >= 0 else (words, [])
    if arguments is not None and any(_is_pair(w) for w in before):
        raise CommandLineError("Give the arguments either as one JSON object or as key=value pairs, not both.")
    timeout: float | None = None
    has_timeout = False
    max_time: dict[str, float | None] = {}
    background = False
    args_variable: str | None = None
    target = ""
    pairs: dict[str, Any] = {}
    texts: list[tuple[str, str]] = []
    items = iter([*option_words(before, CALL_OPTIONS), _JSON_HERE, *option_words(after, CALL_OPTIONS)])
    for word in items:
        if word == _JSON_HERE:
            if arguments is not None and not target:
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
        elif not target and not _is_pair(word):
            target = word
        elif _is_pair(word):
            if not target:
                break
            key, _, value = word.partition("=")
            if isinstance(word, VariableWord):
                pairs[key] = word.variable
                continue
            pairs[key] = value_from_text(value)
            texts.append((key, value))
        elif word[:1] in ("{", "["):
            raise CommandLineError("Put the JSON arguments right after NAME.TOOL, or use key=value pairs, not both.")
        else:
            raise CommandLineError(f"Expected key=value or a JSON object, got {word!r}. {_CALL_USAGE}")
    if not target:
        raise CommandLineError(_CALL_USAGE)
    server, tool = _target(target, "call")
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
        server, tool, arguments, timeout, has_timeout, tuple(texts), background=background, args_variable=args_variable,
        max_time_seconds=max_time.get("given"), has_max_time=bool(max_time),
    )  # fmt: skip


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
        key, _, value = word.partition("=")
        if isinstance(word, VariableWord):
            pairs[key] = word.variable
        else:
            pairs[key] = value_from_text(value)
            texts.append((key, value))
    return pairs, texts


def _is_pair(word: str) -> bool:
    return "=" in word and not word.startswith(("=", "-"))
