"""Parsing the lines about what went on with a server: ``%mcp log NAME [--lines N]``, ``%mcp trace
NAME [--last N | --call N]`` and ``%mcp history [--to-pytest FILE [NAME ...] [--loose KEY,...]]``.

Pure: no IPython, no connections, no I/O; the commands run in :mod:`anvia_nb.magic.commands.exchange`.
"""

from __future__ import annotations

from dataclasses import dataclass

from anvia_nb.magic.parse.commands import DEFAULT_LOG_LINES, HistoryCommand, LogCommand
from anvia_nb.magic.parse.words import CommandLineError, one_name, option_words, split

__all__ = ["TRACE_OPTIONS", "TraceCommand", "parse_history", "parse_log", "parse_trace"]

TRACE_OPTIONS = ("--last", "--call")
_LOG_OPTIONS = ("--lines", "-n")
_LOG_USAGE = "Usage: %mcp log NAME [--lines N]"
_TRACE_USAGE = "Usage: %mcp trace NAME [--last N] [--call N]"
_HISTORY_USAGE = "Usage: %mcp history, or %mcp history --to-pytest FILE [NAME ...] [--loose KEY,...]"


@dataclass(frozen=True)
class TraceCommand:
    name: str
    last: int | None = None
    call: int | None = None
    """A row of ``%mcp history`` (negative counts from the end)."""


def parse_log(rest: str, _cell: str | None = None) -> LogCommand:
    name = ""
    lines = DEFAULT_LOG_LINES
    items = iter(option_words(split(rest), _LOG_OPTIONS))
    for item in items:
        if item in _LOG_OPTIONS:
            value = next(items, "")
            if not value.isdigit() or int(value) <= 0:
                raise CommandLineError(f"--lines takes a positive whole number, not {value!r}.")
            lines = int(value)
        else:
            name = one_name(item, name, _LOG_USAGE)
    if not name:
        raise CommandLineError(_LOG_USAGE)
    return LogCommand(name, lines)


def _number(option: str, value: str, *, positive: bool) -> int:
    number: int | None
    try:
        number = int(value)
    except ValueError:
        number = None
    if number is None or (positive and number <= 0):
        kind = "a positive whole number" if positive else "a whole number (a row of %mcp history; -1: the last)"
        raise CommandLineError(f"{option} takes {kind}, not {value!r}.")
    return number


def parse_trace(rest: str, _cell: str | None = None) -> TraceCommand:
    words = split(rest)
    name = ""
    last: int | None = None
    call: int | None = None
    index = 0
    while index < len(words):
        word = words[index]
        option, equals, value = word.partition("=")
        if option in TRACE_OPTIONS:
            if not equals:
                index += 1
                value = words[index] if index < len(words) else ""
            if option == "--last":
                last = _number(option, value, positive=True)
            else:
                call = _number(option, value, positive=False)
        else:
            name = one_name(word, name, _TRACE_USAGE)
        index += 1
    if not name:
        raise CommandLineError(_TRACE_USAGE)
    return TraceCommand(name, last, call)


def parse_history(rest: str, _cell: str | None = None) -> HistoryCommand:
    words = split(rest)
    path: str | None = None
    loose: tuple[str, ...] = ()
    names: list[str] = []
    items = iter(words)
    for word in items:
        option, eq, value = word.partition("=")
        if option in ("--to-pytest", "--loose"):
            value = value if eq else next(items, "")
            if not value or value.startswith("-"):
                raise CommandLineError(f"{option} needs a value. {_HISTORY_USAGE}")
            if option == "--to-pytest":
                path = value
            else:
                loose = tuple(k.strip() for k in value.split(",") if k.strip())
        elif word.startswith("-"):
            raise CommandLineError(f"Unknown option {word!r}. {_HISTORY_USAGE}")
        else:
            names.append(word)
    if path is None and (names or loose):
        raise CommandLineError(f"Connection names and --loose go with --to-pytest FILE. {_HISTORY_USAGE}")
    return HistoryCommand(to_pytest=path, names=tuple(names), loose=loose)
