"""Parsing ``%mcp`` lines into command values, apart from running them (as JupySQL does).

Pure: no IPython, no connections, no I/O. Each subcommand becomes a frozen dataclass, so the
grammar is testable without a kernel and the executor only ever sees well-formed commands.
Lines are split with :func:`shlex.split` (IPython's ``parse_argstring`` keeps quotes), except the
JSON arguments of ``call``, which are read raw so quotes and braces reach the server untouched.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import Any, Literal

from anvia_nb.magic._arguments import CommandLineError, arguments_from_json, json_prefix, value_from_text

__all__ = [
    "SUBCOMMANDS",
    "CallCommand",
    "CloseCommand",
    "Command",
    "CommandLineError",
    "ConfigConnectCommand",
    "ConnectCommand",
    "FormCommand",
    "HelpCommand",
    "HistoryCommand",
    "LogCommand",
    "PanelCommand",
    "ServersCommand",
    "ToolsCommand",
    "arguments_from_json",
    "parse_command",
]

SUBCOMMANDS = ("connect", "servers", "tools", "call", "form", "panel", "history", "log", "close", "help")
CONNECT_OPTIONS = ("--stdio", "--http", "--config", "--env", "--secret-env", "--cwd", "--header", "--timeout", "--cell")
DEFAULT_LOG_LINES = 50


@dataclass(frozen=True)
class HelpCommand:
    pass


@dataclass(frozen=True)
class ConnectCommand:
    """``connect NAME ... --stdio COMMAND ARGS...`` or ``connect NAME ... --http URL``."""

    name: str
    transport: Literal["stdio", "http"]
    command: str = ""
    args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    secret_env: frozenset[str] = frozenset()
    cwd: str | None = None
    url: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    timeout_seconds: float | None = None
    cell: bool = False


@dataclass(frozen=True)
class ConfigConnectCommand:
    """``connect --config FILE [NAME ...]``: servers from an ``mcpServers`` file."""

    path: str
    names: tuple[str, ...] = ()
    cell: bool = False


@dataclass(frozen=True)
class ServersCommand:
    pass


@dataclass(frozen=True)
class ToolsCommand:
    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class CallCommand:
    """``call NAME.TOOL`` with arguments (``None``: none given) and an optional timeout."""

    server: str
    tool: str
    arguments: dict[str, Any] | None = None
    timeout_seconds: float | None = None
    has_timeout: bool = False
    texts: tuple[tuple[str, str], ...] = field(default=(), compare=False)
    """``key=value`` pairs as typed, so a value can stay text where the tool wants a string."""


@dataclass(frozen=True)
class FormCommand:
    server: str
    tool: str


@dataclass(frozen=True)
class PanelCommand:
    pass


@dataclass(frozen=True)
class HistoryCommand:
    pass


@dataclass(frozen=True)
class LogCommand:
    name: str
    lines: int = DEFAULT_LOG_LINES


@dataclass(frozen=True)
class CloseCommand:
    names: tuple[str, ...] = ()
    all: bool = False


Command = (
    HelpCommand
    | ConnectCommand
    | ConfigConnectCommand
    | ServersCommand
    | ToolsCommand
    | CallCommand
    | FormCommand
    | PanelCommand
    | HistoryCommand
    | LogCommand
    | CloseCommand
)


def _split(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError as exc:  # "No closing quotation"
        raise CommandLineError(f"Cannot split the line: {exc}; check your quotes.") from exc


def _seconds(value: str, option: str) -> float | None:
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


def parse_command(line: str, cell: str | None = None) -> Command:
    """One ``%mcp`` line (and the body of ``%%mcp``, if any) as a command value."""
    stripped = line.strip()
    if not stripped:
        return HelpCommand()
    word, rest = _first_word(stripped)
    if word in ("help", "--help", "-h"):
        return HelpCommand()
    if word == "call":
        return _parse_call(rest, cell)
    if word == "connect":
        return _parse_connect(_split(rest))
    if cell is not None and cell.strip():
        raise CommandLineError(f"%%mcp {word} takes no cell body; only %%mcp call and %%mcp connect do.")
    words = _split(rest)
    if word == "servers":
        _no_arguments(word, words)
        return ServersCommand()
    if word == "tools":
        return ToolsCommand(tuple(words))
    if word == "history":
        _no_arguments(word, words)
        return HistoryCommand()
    if word == "panel":
        _no_arguments(word, words)
        return PanelCommand()
    if word == "form":
        if len(words) != 1:
            raise CommandLineError("Usage: %mcp form NAME.TOOL")
        return FormCommand(*_target(words[0], "form"))
    if word == "log":
        return _parse_log(words)
    if word == "close":
        return _parse_close(words)
    raise CommandLineError(f"Unknown subcommand {word!r}. {_close_subcommands(word)}Type %mcp help for the list.")


def _close_subcommands(word: str) -> str:
    import difflib

    close = difflib.get_close_matches(word, SUBCOMMANDS, n=2, cutoff=0.5)
    return f"Did you mean {' or '.join(close)}? " if close else ""


def _no_arguments(word: str, words: list[str]) -> None:
    if words:
        raise CommandLineError(f"%mcp {word} takes no arguments, got {' '.join(words)!r}.")


def _parse_log(words: list[str]) -> LogCommand:
    name = ""
    lines = DEFAULT_LOG_LINES
    items = iter(words)
    for item in items:
        if item in ("--lines", "-n"):
            value = next(items, "")
            if not value.isdigit() or int(value) <= 0:
                raise CommandLineError(f"--lines takes a positive whole number, not {value!r}.")
            lines = int(value)
        elif item.startswith("-"):
            raise CommandLineError(f"Unknown option {item!r}. Usage: %mcp log NAME [--lines N]")
        elif name:
            raise CommandLineError("Usage: %mcp log NAME [--lines N] (one connection at a time).")
        else:
            name = item
    if not name:
        raise CommandLineError("Usage: %mcp log NAME [--lines N]")
    return LogCommand(name, lines)


def _parse_close(words: list[str]) -> CloseCommand:
    close_all = "--all" in words
    names = tuple(w for w in words if w != "--all")
    unknown = [n for n in names if n.startswith("-")]
    if unknown:
        raise CommandLineError(f"Unknown option {unknown[0]!r}. Usage: %mcp close NAME ... or %mcp close --all")
    if close_all and names:
        raise CommandLineError("Give either connection names or --all, not both.")
    if not close_all and not names:
        raise CommandLineError("Usage: %mcp close NAME ... or %mcp close --all")
    return CloseCommand(names, close_all)


def _parse_connect(words: list[str]) -> ConnectCommand | ConfigConnectCommand:
    usage = (
        "Usage: %mcp connect NAME [--env K=V] [--secret-env K] [--cwd DIR] [--cell] --stdio COMMAND [ARGS...], "
        '%mcp connect NAME [--header "K: V"] [--timeout S] [--cell] --http URL, '
        "or %mcp connect --config FILE [NAME ...]"
    )
    positional: list[str] = []
    env: dict[str, str] = {}
    secret_env: set[str] = set()
    headers: dict[str, str] = {}
    options: dict[str, Any] = {}
    i = 0
    while i < len(words):
        word = words[i]
        if word == "--stdio":
            command = words[i + 1 :]
            if not command:
                raise CommandLineError("--stdio needs the server's command line after it, e.g. --stdio uvx my-server")
            options["stdio"] = command
            break
        if word == "--cell":
            options["cell"] = True
            i += 1
            continue
        if word not in CONNECT_OPTIONS:
            if word.startswith("--"):
                raise CommandLineError(f"Unknown option {word!r}. {usage}")
            positional.append(word)
            i += 1
            continue
        if i + 1 >= len(words):
            raise CommandLineError(f"{word} needs a value. {usage}")
        value = words[i + 1]
        i += 2
        if word == "--env":
            key, eq, env_value = value.partition("=")
            if not eq or not key:
                raise CommandLineError(f"--env takes KEY=VALUE, not {value!r}.")
            env[key] = env_value
        elif word == "--secret-env":
            key, eq, env_value = value.partition("=")
            secret_env.add(key)
            if eq:
                env[key] = env_value
        elif word == "--header":
            key, colon, header_value = value.partition(":")
            if not colon or not key.strip():
                raise CommandLineError(f'--header takes "Name: value", not {value!r}.')
            headers[key.strip()] = header_value.strip()
        elif word == "--timeout":
            options["timeout"] = _seconds(value, "--timeout")
        else:
            options[word[2:]] = value
    cell = bool(options.get("cell"))
    if "config" in options:
        if "stdio" in options or "http" in options or env or headers or "cwd" in options:
            raise CommandLineError("--config takes only a file and server names; other options go in the file.")
        return ConfigConnectCommand(options["config"], tuple(positional), cell)
    if len(positional) != 1:
        raise CommandLineError(f"connect takes one connection NAME before the options. {usage}")
    name = positional[0]
    if "stdio" in options and "http" in options:
        raise CommandLineError("Choose one transport: --stdio or --http, not both.")
    if "stdio" in options:
        if headers or "timeout" in options:
            raise CommandLineError("--header and --timeout are for --http connections; stdio servers take --env.")
        command, *args = options["stdio"]
        return ConnectCommand(
            name, "stdio", command=command, args=tuple(args), env=env,
            secret_env=frozenset(secret_env), cwd=options.get("cwd"), cell=cell,
        )  # fmt: skip
    if "http" in options:
        if env or secret_env or "cwd" in options:
            raise CommandLineError("--env, --secret-env and --cwd are for --stdio servers; HTTP servers take --header.")
        return ConnectCommand(
            name, "http", url=options["http"], headers=headers,
            timeout_seconds=options.get("timeout"), cell=cell,
        )  # fmt: skip
    raise CommandLineError(f"Say how to reach {name!r}: --stdio COMMAND ... or --http URL. {usage}")


def _parse_call(rest: str, cell: str | None) -> CallCommand:
    usage = "Usage: %mcp call NAME.TOOL {json} or %mcp call NAME.TOOL key=value ..."
    target_text, text = _first_word(rest.strip())
    timeout: float | None = None
    has_timeout = False
    while target_text == "--timeout":  # options may come before the target too
        value, text = _first_word(text)
        timeout, has_timeout = _seconds(value, "--timeout"), True
        target_text, text = _first_word(text)
    if not target_text:
        raise CommandLineError(usage)
    server, tool = _target(target_text, "call")
    text = text.strip()
    arguments: dict[str, Any] | None = None
    words: list[str]
    if text[:1] in ("{", "["):
        arguments, end = json_prefix(text)
        words = _split(text[end:])
    else:
        words = _split(text)
    pairs: dict[str, Any] = {}
    texts: list[tuple[str, str]] = []
    items = iter(words)
    for word in items:
        if word == "--timeout":
            timeout, has_timeout = _seconds(next(items, ""), "--timeout"), True
        elif "=" in word and not word.startswith("="):
            key, _, value = word.partition("=")
            pairs[key] = value_from_text(value)
            texts.append((key, value))
        elif word[:1] in ("{", "["):
            raise CommandLineError("Put the JSON arguments right after NAME.TOOL, or use key=value pairs, not both.")
        else:
            raise CommandLineError(f"Expected key=value or a JSON object, got {word!r}. {usage}")
    if pairs:
        if arguments is not None:
            raise CommandLineError("Give the arguments either as one JSON object or as key=value pairs, not both.")
        arguments = pairs
    if cell is not None and cell.strip():
        if arguments is not None:
            raise CommandLineError("Give the arguments either on the %%mcp line or in the cell body, not both.")
        arguments = arguments_from_json(cell)
    return CallCommand(server, tool, arguments, timeout, has_timeout, tuple(texts) if pairs else ())


def _first_word(text: str) -> tuple[str, str]:
    """The first word and the rest, split at any white space (a tab as well as a space)."""
    parts = text.strip().split(None, 1)
    if not parts:
        return "", ""
    return parts[0], parts[1] if len(parts) > 1 else ""
