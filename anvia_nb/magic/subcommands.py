"""The one table of ``%mcp`` subcommands: for each, how it parses, how it runs, its help lines and
its Tab completion.

Adding a subcommand is adding one entry here: ``%mcp help`` and completion are generated from
this table, and a word that is not in it is an error (never a fallback to some other command).
Parsing (pure, :mod:`anvia_nb.magic.parse`) stays apart from running
(:mod:`anvia_nb.magic.commands`), which needs the magic. An entry is a ``Subcommand[Parsed]``:
mypy checks that what its ``parse`` returns is what its ``run`` takes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

from anvia_nb.core.protocol.versions import PROTOCOL_CHOICES
from anvia_nb.magic.commands.apps import run_app
from anvia_nb.magic.commands.audit import run_audit, run_diff, run_pin
from anvia_nb.magic.commands.calls import run_call, run_form, run_map, run_panel
from anvia_nb.magic.commands.connections import run_close, run_connect, run_servers
from anvia_nb.magic.commands.exchange import run_history, run_log, run_trace
from anvia_nb.magic.commands.library import (
    run_prompt,
    run_prompts,
    run_read,
    run_resources,
    run_subscribe,
    run_templates,
    run_tools,
)
from anvia_nb.magic.commands.skills import run_skill, run_skills
from anvia_nb.magic.complete.library import complete_prompt, complete_read, complete_subscribe
from anvia_nb.magic.complete.skills import complete_skill
from anvia_nb.magic.complete.words import (
    complete_app,
    complete_call,
    complete_connect,
    complete_form,
    complete_map,
    names,
    nothing,
)
from anvia_nb.magic.output.help import TOPICS, help_page
from anvia_nb.magic.parse.audit import AUDIT_OPTIONS, DIFF_OPTIONS, PIN_OPTIONS, parse_audit, parse_diff, parse_pin
from anvia_nb.magic.parse.call import parse_app, parse_form, parse_map, read_call
from anvia_nb.magic.parse.commands import HelpCommand, ServersCommand
from anvia_nb.magic.parse.connect import parse_close
from anvia_nb.magic.parse.exchange import TRACE_OPTIONS, parse_history, parse_log, parse_trace
from anvia_nb.magic.parse.library import (
    parse_panel,
    parse_prompt,
    parse_prompts,
    parse_read,
    parse_resources,
    parse_subscribe,
    parse_templates,
    parse_tools,
    parse_unsubscribe,
)
from anvia_nb.magic.parse.skills import parse_skill, parse_skills
from anvia_nb.magic.parse.words import CommandLineError, close_words, no_arguments, split, split_first_word

if TYPE_CHECKING:
    from anvia_nb.magic.commands.host import MagicHost
    from anvia_nb.magic.parse.oauth import ConnectLine, LogoutCommand
    from anvia_nb.runtime import Runtime

__all__ = ["TABLE", "Entry", "ParsedLine", "Subcommand", "help_text", "parse_command", "parse_line"]

Parsed = TypeVar("Parsed")
"""The command value of one subcommand: what its ``parse`` returns and its ``run`` takes."""

Completer = Callable[[list[str], "Runtime"], list[str]]
"""Candidates for the last of the words after the subcommand (which may be ``""``)."""


@dataclass(frozen=True)
class ParsedLine(Generic[Parsed]):
    """A ``%mcp`` line read by its table entry: the entry and the command value it parsed."""

    entry: Subcommand[Parsed]
    command: Parsed

    def run(self, magics: MagicHost) -> object:
        """Run the command with the magic; the value is the cell's."""
        return self.entry.run(magics, self.command)


@dataclass(frozen=True)
class Subcommand(Generic[Parsed]):
    """One ``%mcp`` subcommand: parse its words, run the command value, describe and complete it."""

    name: str
    help: tuple[tuple[str, str], ...]
    """Lines of ``%mcp help``: the syntax after ``%mcp`` and what it does (one line each)."""
    parse: Callable[[str, str | None], Parsed]
    """``(rest of the line, cell body or None)`` to a command value; raises CommandLineError."""
    run: Callable[[MagicHost, Parsed], object]
    complete: Completer
    takes_cell: bool = False

    def read(self, rest: str, cell: str | None) -> ParsedLine[Parsed]:
        """The rest of the line (and the cell body) parsed: a value ``run`` takes."""
        return ParsedLine(self, self.parse(rest, cell))


class Line(Protocol):
    """A parsed line whatever its subcommand: its command value, and running it."""

    @property
    def command(self) -> object: ...

    def run(self, magics: MagicHost) -> object: ...


class Entry(Protocol):
    """A table entry whatever its command type: what the table's readers (the magic, help,
    completion) use. Every ``Subcommand[Parsed]`` is one."""

    @property
    def name(self) -> str: ...

    @property
    def help(self) -> tuple[tuple[str, str], ...]: ...

    @property
    def complete(self) -> Completer: ...

    @property
    def takes_cell(self) -> bool: ...

    def read(self, rest: str, cell: str | None) -> Line: ...


# -- parsing ---------------------------------------------------------------------------------


def _bare(name: str, value: Parsed) -> Callable[[str, str | None], Parsed]:
    check = no_arguments(name)

    def parse(rest: str, cell: str | None) -> Parsed:
        check(rest, cell)
        return value

    return parse


def parse_line(line: str, cell: str | None = None) -> Line:
    """A ``%mcp`` line (and the body of ``%%mcp``, if any) read by its table entry."""
    word, rest = split_first_word(line)
    if word in ("", "--help", "-h"):
        word = "help"
    entry = TABLE.get(word)
    if entry is None:
        raise CommandLineError(f"Unknown subcommand {word!r}. {close_words(word, TABLE)}Type %mcp help for the list.")
    if cell is not None and cell.strip() and not entry.takes_cell:
        with_cell = " and ".join(f"%%mcp {e.name}" for e in TABLE.values() if e.takes_cell)
        raise CommandLineError(f"%%mcp {word} takes no cell body; only {with_cell} do.")
    return entry.read(rest, cell)


def parse_command(line: str, cell: str | None = None) -> object:
    """One ``%mcp`` line (and the body of ``%%mcp``, if any) as a command value."""
    return parse_line(line, cell).command


# -- the subcommands that read the table, and the ones whose parse needs the SDK --------------
# The imports inside these functions load the SDK (OAuth): %load_ext and %mcp help need none of
# it (tests/package/test_import_cost.py). None of them is there to dodge an import cycle.


def help_text(topic: str = "") -> str:
    """``%mcp help [TOPIC]``: every subcommand's lines, from the table, with the notes and settings."""
    return help_page({name: entry.help for name, entry in TABLE.items()}, topic)


def _help(_magics: MagicHost, command: HelpCommand) -> None:
    print(help_text(command.topic), end="")


def _parse_help(rest: str, cell: str | None) -> HelpCommand:
    words = split(rest)
    if len(words) > 1:
        raise CommandLineError(f"%mcp help takes at most one topic, got {' '.join(words)!r}.")
    topic = words[0] if words else ""
    if topic and topic not in TOPICS and topic not in TABLE:
        known = sorted({*TOPICS, *TABLE})
        raise CommandLineError(f"No help on {topic!r}. {close_words(topic, known)}Topics: {', '.join(known)}.")
    return HelpCommand(topic)


def _help_topics(words: list[str], _runtime: Runtime) -> list[str]:
    return [*TOPICS, *TABLE] if len(words) <= 1 else []


def _parse_connect(rest: str, cell: str | None) -> ConnectLine:
    from anvia_nb.magic.parse import oauth

    return oauth.parse_connect(rest, cell)


def _parse_logout(rest: str, cell: str | None) -> LogoutCommand:
    from anvia_nb.magic.parse import oauth

    return oauth.parse_logout(rest, cell)


def _logout(magics: MagicHost, command: LogoutCommand) -> None:
    from anvia_nb.magic.commands import oauth

    oauth.run_logout(magics, command)


# -- the table -------------------------------------------------------------------------------

_ENTRIES = (
    Subcommand(
        "connect",
        (
            ("connect NAME [--secret-env K]... [--env K=V]... [--cwd DIR] [--timeout S] [--cell] --stdio CMD ...", ""),
            ("connect NAME --root PATH ... --stdio|--http ...", "directories offered to the server (roots)"),
            ('connect NAME [--header "K: V"]... [--timeout S] [--cell] --http URL', ""),
            ("connect NAME --record FILE ... | connect NAME --replay FILE", "save a live connection / answer from it"),
            (f"connect NAME --protocol {PROTOCOL_CHOICES} --stdio|--http ...", "speak only that protocol generation"),
            ("connect --config FILE [NAME ...]", "servers of a Claude / Cursor / VS Code mcpServers file"),
            ("%%mcp connect NAME ...", "the cell body runs with NAME open; closed when it ends, as --cell does"),
            ("connect NAME --oauth [--client-id ID] [--scope S]... --http URL", "sign in (OAuth), see docs/oauth.md"),
            ("connect NAME --oauth-client-credentials --client-id ID --secret-env K|--key-file F --http URL",
             "a service account (OAuth client credentials)"),
            ("connect NAME --oauth-workload-identity --client-id ID --token-file F|--token-env K --http URL",
             "a workload's platform token (OAuth jwt-bearer)"),
        ),
        _parse_connect, run_connect, complete_connect, takes_cell=True,
    ),
    Subcommand(
        "servers",
        (("servers", "DataFrame of connections and their servers' instructions (masked)"),),
        _bare("servers", ServersCommand()), run_servers, nothing,
    ),
    Subcommand(
        "tools",
        (("tools [NAME ...]", "DataFrame of tools:  df = %mcp tools"),),
        parse_tools, run_tools, names(),
    ),
    Subcommand(
        "call",
        (
            ('call NAME.TOOL {"key": "value"}', "or key=value, key=$var, --args DICT, --timeout S, --max-time S; "
             "or in a %%mcp cell"),
            ("call --background NAME.TOOL ...", "returns at once a view that updates; it has a Cancel button"),
        ),
        read_call, run_call, complete_call, takes_cell=True,
    ),
    Subcommand(
        "app",
        (("app NAME.TOOL [k=v ...]", "call a tool with an interactive view and show it (MCP Apps, docs/apps.md)"),),
        parse_app, run_app, complete_app, takes_cell=True,
    ),
    Subcommand(
        "resources",
        (("resources | %mcp templates | %mcp prompts | %mcp skills [NAME ...]", "DataFrames of each"),),
        parse_resources, run_resources, names(),
    ),
    Subcommand("templates", (), parse_templates, run_templates, names()),  # help: see resources
    Subcommand("prompts", (), parse_prompts, run_prompts, names()),  # help: see resources
    Subcommand(
        "read",
        (("read NAME URI|TEMPLATE [k=v ...]  ·  %mcp prompt NAME.PROMPT [k=v ...]  ·  %mcp skill NAME.SKILL [FILE]",
          "a resource's contents, a prompt's messages, a skill (checked against its listing)"),),
        parse_read, run_read, complete_read,
    ),
    Subcommand("prompt", (), parse_prompt, run_prompt, complete_prompt),  # help: see read
    Subcommand("skills", (), parse_skills, run_skills, names()),  # help: see resources
    Subcommand("skill", (), parse_skill, run_skill, complete_skill),  # help: see read
    Subcommand(
        "subscribe",
        (("subscribe NAME URI  ·  %mcp unsubscribe NAME URI", "count a resource's updates (see %mcp resources)"),),
        parse_subscribe, run_subscribe, complete_subscribe,
    ),
    Subcommand("unsubscribe", (), parse_unsubscribe, run_subscribe, complete_subscribe),  # help: above
    Subcommand(
        "map",
        (("map NAME.TOOL --frame DF [k=v ...]", "a call per row: --concurrency N, --stop-on-error"),),
        parse_map, run_map, complete_map,
    ),
    Subcommand(
        "form",
        (("form NAME.TOOL", "a form built from the tool's inputSchema"),),
        parse_form, run_form, complete_form,
    ),
    Subcommand(
        "panel",
        (("panel [NAME] [--tools a,b] [--resources u,v] [--prompts p,q]",
          "explorer of servers, tools, results and history; for a dashboard only what is named"),),
        parse_panel, run_panel, names("--tools", "--resources", "--prompts"),
    ),
    Subcommand(
        "audit",
        (
            ('audit [NAME ...] [--sarif FILE] [--json FILE] [--accept ROW ... --reason "..."]',
             "DataFrame of findings in definitions; accepted until their item changes (docs/audit.md)"),
        ),
        parse_audit, run_audit, names(*AUDIT_OPTIONS),
    ),
    Subcommand(
        "pin",
        (("pin NAME ... [--lock FILE]", "keep every definition and its hash in mcp-lock.json; changes are refused"),),
        parse_pin, run_pin, names(*PIN_OPTIONS),
    ),
    Subcommand(
        "diff",
        (("diff A B  |  diff NAME --lock [FILE]  |  diff NAME --recording FILE",
          "DataFrame of items added, removed and changed, with the difference"),),
        parse_diff, run_diff, names(*DIFF_OPTIONS),
    ),
    Subcommand(
        "history",
        (
            ("history [--to-pytest FILE [NAME ...] [--loose K,...]]",
             "DataFrame of the calls made in this kernel; or a pytest file checking their results"),
        ),
        parse_history, run_history, names("--to-pytest", "--loose"),
    ),
    Subcommand(
        "log",
        (("log NAME [--lines N]", "DataFrame of the server's stderr, log messages and anvia_nb's notes (masked)"),),
        parse_log, run_log, names("--lines"),
    ),
    Subcommand(
        "trace",
        (("trace NAME [--last N | --call N]", "DataFrame of JSON-RPC messages; t.message(n); --call -1: last call's"),),
        parse_trace, run_trace, names(*TRACE_OPTIONS),
    ),
    Subcommand(
        "close",
        (("close NAME ...  |  close --all", "close connections (their servers are stopped)"),),
        parse_close, run_close, names("--all"),
    ),
    Subcommand(
        "logout",
        (("logout NAME  |  logout --http URL [--client-id ID]", "forget the OAuth tokens cached for a server"),),
        _parse_logout, _logout, names("--http", "--client-id"),
    ),
    Subcommand(
        "help",
        (("help [TOPIC]", "this text; a subcommand, secrets, arguments or settings in full"),),
        _parse_help, _help, _help_topics,
    ),
)  # fmt: skip


def _by_name(entries: Iterable[Entry]) -> dict[str, Entry]:
    return {entry.name: entry for entry in entries}


TABLE = _by_name(_ENTRIES)
