"""The words of a ``%mcp`` line: splitting, options, near misses, seconds and the one connection
name, shared by every grammar of :mod:`anvia_nb.magic.parse`.

Lines are split with :func:`shlex.split` (IPython's ``parse_argstring`` keeps quotes), except the
words of ``call``, ``map``, ``prompt`` and ``read``: their JSON (the JSON arguments, and
``key=value`` words whose value is a JSON object or list) is read raw so quotes and braces reach
the server untouched, and a double-quoted value reads Python's escapes (``key="a\\nb"`` is two
lines; :func:`anvia_nb.magic.parse.arguments.call_words`).
An option is recognised as ``--name value`` and as ``--name=value`` wherever it stands.
"""

from __future__ import annotations

import difflib
import shlex
from collections.abc import Callable, Iterable, Iterator

from anvia_nb.errors import CommandLineError

__all__ = [
    "CONNECT_FLAGS",
    "CommandLineError",
    "close_words",
    "no_arguments",
    "one_name",
    "option_value",
    "option_words",
    "seconds_value",
    "split",
    "split_first_word",
    "target",
]

CONNECT_FLAGS = ("--cell", "--soft")


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


def target(text: str, subcommand: str) -> tuple[str, str]:
    """``NAME.TOOL`` as (connection, tool); anything else is a one-line error."""
    server, dot, tool = text.partition(".")
    if not dot or not server or not tool:
        raise CommandLineError(f"{subcommand} takes NAME.TOOL (a connection and one of its tools), not {text!r}.")
    return server, tool


def option_value(option: str, eq: str, value: str, words: Iterator[str], usage: str) -> str:
    """The value of ``option``: what follows its ``=`` (``eq``, ``value`` of ``word.partition("=")``),
    else the next word of ``words``; one line ending in ``usage`` when there is none (or an option)."""
    value = value if eq else next(words, "")
    if not value or value.startswith("--"):
        raise CommandLineError(f"{option} needs a value. {usage}")
    return value


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


def one_name(word: str, name: str | None, usage: str, many: str = "one connection at a time") -> str:
    """``word`` as the line's one connection NAME (``name``: the one already read, if any); an
    option the grammar does not know, or a second name, is a one-line error with the usage."""
    if word.startswith("-"):
        raise CommandLineError(f"Unknown option {word!r}. {usage}")
    if name:
        raise CommandLineError(f"{usage} ({many}).")
    return word
