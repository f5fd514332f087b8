"""Parsing the lines about what a server offers: ``%mcp tools``, ``resources``, ``templates``,
``prompts``, ``panel``, ``read``, ``prompt``, ``subscribe`` and ``unsubscribe``. Pure: no
IPython, no connections, no I/O.

Prompt arguments and template variables are strings on the wire, so ``key=value`` values are
kept as typed (``id=1`` sends ``"1"``); quote a value with spaces (``name="Ada Lovelace"``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from anvia_nb.magic.parse.arguments import value_words
from anvia_nb.magic.parse.commands import PanelCommand, ToolsCommand
from anvia_nb.magic.parse.words import CommandLineError, option_words, split

__all__ = [
    "LibraryCommand",
    "PromptCommand",
    "ReadCommand",
    "SubscribeCommand",
    "pairs",
    "parse_panel",
    "parse_prompt",
    "parse_prompts",
    "parse_read",
    "parse_resources",
    "parse_subscribe",
    "parse_templates",
    "parse_tools",
    "parse_unsubscribe",
]


Listing = Literal["resources", "resourceTemplates", "prompts"]


@dataclass(frozen=True)
class LibraryCommand:
    """``resources``, ``templates`` or ``prompts [NAME ...]``: one listing of the named
    connections (of all of them when none is named)."""

    listing: Listing
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


def _names(rest: str, word: str) -> tuple[str, ...]:
    """The connection names of a listing line (``%mcp tools``, ``resources`` ...); no option."""
    words = split(rest)
    options = [w for w in words if w.startswith("-")]
    if options:
        raise CommandLineError(f"Unknown option {options[0]!r}. Usage: %mcp {word} [NAME ...]")
    return tuple(words)


def parse_tools(rest: str, _cell: str | None = None) -> ToolsCommand:
    return ToolsCommand(_names(rest, "tools"))


def parse_resources(rest: str, _cell: str | None = None) -> LibraryCommand:
    return LibraryCommand("resources", _names(rest, "resources"))


def parse_templates(rest: str, _cell: str | None = None) -> LibraryCommand:
    return LibraryCommand("resourceTemplates", _names(rest, "templates"))


def parse_prompts(rest: str, _cell: str | None = None) -> LibraryCommand:
    return LibraryCommand("prompts", _names(rest, "prompts"))


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


@dataclass(frozen=True)
class SubscribeCommand:
    server: str
    uri: str
    on: bool
    """``True``: subscribe; ``False``: unsubscribe."""


def _subscription(rest: str, on: bool) -> SubscribeCommand:
    word = "subscribe" if on else "unsubscribe"
    words = split(rest)
    if len(words) != 2 or words[0].startswith("-"):
        raise CommandLineError(f"Usage: %mcp {word} NAME URI (a connection and a resource URI, e.g. demo://counter).")
    return SubscribeCommand(words[0], words[1], on)


def parse_subscribe(rest: str, _cell: str | None = None) -> SubscribeCommand:
    return _subscription(rest, True)


def parse_unsubscribe(rest: str, _cell: str | None = None) -> SubscribeCommand:
    return _subscription(rest, False)
