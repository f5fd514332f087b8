"""Parsing ``%mcp resources``, ``templates``, ``read``, ``prompts`` and ``prompt`` lines into
command values. Pure: no IPython, no connections, no I/O (see :mod:`anvia_nb.magic._parser`).

Prompt arguments and template variables are strings on the wire, so ``key=value`` values are
kept as typed (``id=1`` sends ``"1"``); quote a value with spaces (``name="Ada Lovelace"``).
"""

from __future__ import annotations

from dataclasses import dataclass

from anvia_nb.magic._arguments import value_words
from anvia_nb.magic._parser import CommandLineError, split

__all__ = [
    "PromptCommand",
    "PromptsCommand",
    "ReadCommand",
    "ResourcesCommand",
    "TemplatesCommand",
    "pairs",
    "parse_prompt",
    "parse_prompts",
    "parse_read",
    "parse_resources",
    "parse_templates",
]


@dataclass(frozen=True)
class ResourcesCommand:
    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class TemplatesCommand:
    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class PromptsCommand:
    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class ReadCommand:
    """``read NAME URI`` or ``read NAME TEMPLATE key=value ...`` (a template's name or uriTemplate)."""

    server: str
    target: str
    variables: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class PromptCommand:
    server: str
    prompt: str
    arguments: tuple[tuple[str, str], ...] = ()


def _listing(rest: str, word: str) -> ResourcesCommand | TemplatesCommand | PromptsCommand:
    words = split(rest)
    options = [w for w in words if w.startswith("-")]
    if options:
        raise CommandLineError(f"Unknown option {options[0]!r}. Usage: %mcp {word} [NAME ...]")
    if word == "resources":
        return ResourcesCommand(tuple(words))
    if word == "templates":
        return TemplatesCommand(tuple(words))
    return PromptsCommand(tuple(words))


def parse_resources(rest: str, _cell: str | None = None) -> ResourcesCommand | TemplatesCommand | PromptsCommand:
    return _listing(rest, "resources")


def parse_templates(rest: str, _cell: str | None = None) -> ResourcesCommand | TemplatesCommand | PromptsCommand:
    return _listing(rest, "templates")


def parse_prompts(rest: str, _cell: str | None = None) -> ResourcesCommand | TemplatesCommand | PromptsCommand:
    return _listing(rest, "prompts")


def pairs(words: list[str], usage: str) -> tuple[tuple[str, str], ...]:
    """``key=value`` words as pairs, values kept as typed; a repeated key or a bare word is an error."""
    found: dict[str, str] = {}
    for word in words:
        key, eq, value = word.partition("=")
        if not eq or not key:
            raise CommandLineError(f"Expected key=value, got {word!r}. {usage}")
        if key in found:
            raise CommandLineError(f"{key} is given twice.")
        found[key] = value
    return tuple(found.items())


_READ_USAGE = "Usage: %mcp read NAME URI, or %mcp read NAME TEMPLATE key=value ..."


def parse_read(rest: str, _cell: str | None = None) -> ReadCommand:
    words = value_words(rest)  # key="a\nb": the rule of a call's values
    if len(words) < 2 or words[0].startswith("-"):
        raise CommandLineError(_READ_USAGE)
    return ReadCommand(words[0], words[1], pairs(words[2:], _READ_USAGE))


_PROMPT_USAGE = "Usage: %mcp prompt NAME.PROMPT key=value ..."


def parse_prompt(rest: str, _cell: str | None = None) -> PromptCommand:
    words = value_words(rest)  # key="a\nb": the rule of a call's values
    if not words or words[0].startswith("-"):
        raise CommandLineError(_PROMPT_USAGE)
    server, dot, prompt = words[0].partition(".")
    if not dot or not server or not prompt:
        raise CommandLineError(f"prompt takes NAME.PROMPT (a connection and one of its prompts), not {words[0]!r}.")
    return PromptCommand(server, prompt, pairs(words[1:], _PROMPT_USAGE))
