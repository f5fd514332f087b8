"""The one table of ``%mcp`` subcommands: for each, how it parses, how it runs, its help lines and
its Tab completion.

Adding a subcommand is adding one entry here: ``%mcp help`` and completion are generated from
this table, and a word that is not in it is an error (never a fallback to some other command).
Parsing (pure, :mod:`anvia_nb.magic._parser`) stays apart from running, which needs the magic.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from anvia_nb.core.protocol.versions import PROTOCOL_CHOICES
from anvia_nb.errors import UnknownConnectionError
from anvia_nb.magic import _map, library
from anvia_nb.magic import _parse_library as pl
from anvia_nb.magic import _parser as p
from anvia_nb.magic import _subscribe as sub
from anvia_nb.magic import _word_completions as complete
from anvia_nb.magic._apps import parse_app, run_app
from anvia_nb.magic._cell_output import report_warnings
from anvia_nb.magic._connect_text import NOTHING_CONNECTED
from anvia_nb.magic._help import TOPICS, help_page
from anvia_nb.magic._history import parse_history, run_history
from anvia_nb.magic._parser import CommandLineError, close_words, split_first_word
from anvia_nb.magic._trace_command import TRACE_OPTIONS, TraceCommand, parse_trace, run_trace

if TYPE_CHECKING:
    from anvia_nb.magic._host import MagicHost
    from anvia_nb.runtime import Runtime

__all__ = ["TABLE", "Subcommand", "help_text", "parse_command", "parse_line"]


@dataclass(frozen=True)
class Subcommand:
    """One ``%mcp`` subcommand: parse its words, run the command value, describe and complete it."""

    name: str
    help: tuple[tuple[str, str], ...]
    """Lines of ``%mcp help``: the syntax after ``%mcp`` and what it does (one line each)."""
    parse: Callable[[str, str | None], Any]
    """``(rest of the line, cell body or None)`` to a command value; raises CommandLineError."""
    run: Callable[[MagicHost, Any], Any]
    complete: Callable[[list[str], Runtime], list[str]]
    """Candidates for the last of the words after the subcommand (which may be ``""``)."""
    takes_cell: bool = False


# -- parsing ---------------------------------------------------------------------------------


def _bare(name: str, value: Any) -> Callable[[str, str | None], Any]:
    check = p.no_arguments(name)

    def parse(rest: str, cell: str | None) -> Any:
        check(rest, cell)
        return value

    return parse


def parse_line(line: str, cell: str | None = None) -> tuple[Subcommand, p.Command]:
    """The table entry of a ``%mcp`` line and its command value."""
    word, rest = split_first_word(line)
    if word in ("", "--help", "-h"):
        word = "help"
    entry = TABLE.get(word)
    if entry is None:
        raise CommandLineError(f"Unknown subcommand {word!r}. {close_words(word, TABLE)}Type %mcp help for the list.")
    if cell is not None and cell.strip() and not entry.takes_cell:
        with_cell = " and ".join(f"%%mcp {e.name}" for e in TABLE.values() if e.takes_cell)
        raise CommandLineError(f"%%mcp {word} takes no cell body; only {with_cell} do.")
    return entry, entry.parse(rest, cell)


def parse_command(line: str, cell: str | None = None) -> p.Command:
    """One ``%mcp`` line (and the body of ``%%mcp``, if any) as a command value."""
    return parse_line(line, cell)[1]


# -- running ---------------------------------------------------------------------------------
# The imports inside these functions load the SDK (oauth, the runtime), pandas (the tables) or
# ipywidgets (forms, panels) on first use: %load_ext and %mcp help need none of them
# (tests/package/test_import_cost.py). None of them is there to dodge an import cycle.


def help_text(topic: str = "") -> str:
    """``%mcp help [TOPIC]``: every subcommand's lines, from the table, with the notes and settings."""
    return help_page({name: entry.help for name, entry in TABLE.items()}, topic)


def _help(_magics: MagicHost, command: p.HelpCommand) -> None:
    print(help_text(command.topic), end="")


def _parse_help(rest: str, cell: str | None) -> p.HelpCommand:
    words = p.split(rest)
    if len(words) > 1:
        raise CommandLineError(f"%mcp help takes at most one topic, got {' '.join(words)!r}.")
    topic = words[0] if words else ""
    if topic and topic not in TOPICS and topic not in TABLE:
        known = sorted({*TOPICS, *TABLE})
        raise CommandLineError(f"No help on {topic!r}. {close_words(topic, known)}Topics: {', '.join(known)}.")
    return p.HelpCommand(topic)


def _help_topics(words: list[str], _runtime: Runtime) -> list[str]:
    return [*TOPICS, *TABLE] if len(words) <= 1 else []


def _connect(magics: MagicHost, command: Any) -> Any:
    from anvia_nb.magic import oauth

    if isinstance(command, oauth.OAuthConnectCommand | oauth.OAuthRedirectCommand):
        return oauth.run_connect(magics, command)
    magics.connect_command(command, "cell" if command.cell else "kernel")
    return None


def _parse_connect(rest: str, cell: str | None) -> Any:
    from anvia_nb.magic import oauth

    return oauth.parse_connect(rest, cell)


def _parse_logout(rest: str, cell: str | None) -> Any:
    from anvia_nb.magic import oauth

    return oauth.parse_logout(rest, cell)


def _logout(magics: MagicHost, command: Any) -> None:
    from anvia_nb.magic import oauth

    oauth.run_logout(magics, command)


def _servers(magics: MagicHost, _command: p.ServersCommand) -> Any:
    from anvia_nb.magic.tables import servers_frame

    runtime = magics.runtime
    return servers_frame((runtime.entry(name) for name in runtime.names()), magics.show_policy())


def _tools(magics: MagicHost, command: p.ToolsCommand) -> Any:
    from anvia_nb.magic._changes import note_tool_changes
    from anvia_nb.magic.tables import note_refused_listings, tools_frame

    runtime = magics.runtime
    if not command.names and not runtime.names():
        raise UnknownConnectionError(NOTHING_CONNECTED)  # one line, not an empty table
    servers = [runtime.server(name) for name in command.names or runtime.names()]
    note_tool_changes(runtime, servers, magics.show_policy())
    note_refused_listings(servers, "tools", magics.show_policy())
    return tools_frame(servers, magics.show_policy())


def _call(magics: MagicHost, command: p.CallCommand) -> Any:
    return magics.call_command(command)


def _form(magics: MagicHost, command: p.FormCommand) -> Any:
    from anvia_nb.widgets import form

    settings, timeout = magics.render_settings(), magics.timeout_seconds
    return form(command.server, command.tool, settings=settings, timeout_seconds=timeout,
                max_time_seconds=magics.call_max_time(timeout))  # unknown names: one line


def _panel(magics: MagicHost, command: p.PanelCommand) -> Any:
    from anvia_nb.widgets import panel

    settings, timeout = magics.render_settings(), magics.timeout_seconds
    return panel(connection=command.name, tools=command.tools, resources=command.resources, prompts=command.prompts,
                 settings=settings, timeout_seconds=timeout, max_time_seconds=magics.call_max_time(timeout))


def _history(magics: MagicHost, command: p.HistoryCommand) -> Any:
    return run_history(magics, command)


def _log(magics: MagicHost, command: p.LogCommand) -> Any:
    from anvia_nb.magic.exchange import log_frame

    log = magics.runtime.log(command.name)
    if log.transport == "replay":
        origin = magics.runtime.server(command.name).client.origin
        print(f"note: {command.name} is {origin}: a recording holds no server log, only anvia_nb's own notes.")
    return log_frame(log, command.lines, magics.show_policy())


def _trace(magics: MagicHost, command: TraceCommand) -> Any:
    return run_trace(magics, command)


def _close(magics: MagicHost, command: p.CloseCommand) -> None:
    runtime = magics.runtime
    if command.all:
        report_warnings(runtime.close_all())
        return
    for name in command.names:
        runtime.log(name)  # every name is checked first; a failed connect (only its log is left) is one
    for name in command.names:
        report_warnings(runtime.close(name))


# -- the table -------------------------------------------------------------------------------

_ENTRIES = (
    Subcommand(
        "connect",
        (
            ("connect NAME [--secret-env K]... [--env K=V]... [--cwd DIR] [--cell] --stdio COMMAND [ARGS...]", ""),
            ("connect NAME --root PATH ... --stdio|--http ...", "directories offered to the server (roots)"),
            ('connect NAME [--header "K: V"]... [--timeout S] [--cell] --http URL', ""),
            ("connect NAME --record FILE ... | connect NAME --replay FILE", "save a live connection / answer from it"),
            (f"connect NAME --protocol {PROTOCOL_CHOICES} --stdio|--http ...", "speak only that protocol generation"),
            ("connect --config FILE [NAME ...]", "servers of a Claude / Cursor / VS Code mcpServers file"),
            ("%%mcp connect NAME ...", "the cell body runs with NAME open; closed when it ends"),
            ("connect NAME --oauth [--client-id ID] [--scope S]... --http URL", "sign in (OAuth), see docs/oauth.md"),
            ("connect NAME --oauth-client-credentials --client-id ID --secret-env K|--key-file F --http URL",
             "a service account (OAuth client credentials)"),
            ("connect NAME --oauth-workload-identity --client-id ID --token-file F|--token-env K --http URL",
             "a workload's platform token (OAuth jwt-bearer)"),
        ),
        _parse_connect, _connect, complete.complete_connect, takes_cell=True,
    ),
    Subcommand(
        "servers",
        (("servers", "DataFrame of connections and their servers' instructions (masked)"),),
        _bare("servers", p.ServersCommand()), _servers, complete.nothing,
    ),
    Subcommand(
        "tools",
        (("tools [NAME ...]", "DataFrame of tools:  df = %mcp tools"),),
        p.parse_tools, _tools, complete.names(),
    ),
    Subcommand(
        "call",
        (
            ('call NAME.TOOL {"key": "value"}', "or key=value, key=$var, --args DICT, --timeout S, --max-time S; "
             "or in a %%mcp cell"),
            ("call --background NAME.TOOL ...", "returns at once a view that updates; it has a Cancel button"),
        ),
        p.parse_call, _call, complete.complete_call, takes_cell=True,
    ),
    Subcommand(
        "app",
        (("app NAME.TOOL [k=v ...]", "call a tool with an interactive view and show it (MCP Apps, docs/apps.md)"),),
        parse_app, run_app, complete.complete_app, takes_cell=True,
    ),
    Subcommand(
        "resources",
        (("resources | %mcp templates | %mcp prompts [NAME ...]", "DataFrames of each"),),
        pl.parse_resources, library.run_resources, complete.names(),
    ),
    Subcommand("templates", (), pl.parse_templates, library.run_templates, complete.names()),  # help: see resources
    Subcommand("prompts", (), pl.parse_prompts, library.run_prompts, complete.names()),  # help: see resources
    Subcommand(
        "read",
        (("read NAME URI|TEMPLATE [k=v ...]  ·  %mcp prompt NAME.PROMPT [k=v ...]",
          "a resource's contents, a prompt's messages"),),
        pl.parse_read, library.run_read, library.complete_read,
    ),
    Subcommand("prompt", (), pl.parse_prompt, library.run_prompt, library.complete_prompt),  # help: see read
    Subcommand(
        "subscribe",
        (("subscribe NAME URI  ·  %mcp unsubscribe NAME URI", "count a resource's updates (see %mcp resources)"),),
        sub.parse_subscribe, sub.run_subscribe, sub.complete_subscribe,
    ),
    Subcommand("unsubscribe", (), sub.parse_unsubscribe, sub.run_subscribe, sub.complete_subscribe),  # help: above
    Subcommand(
        "map",
        (("map NAME.TOOL --frame DF [k=v ...]", "a call per row: --concurrency N, --stop-on-error"),),
        _map.parse_map, _map.run_map, complete.complete_map,
    ),
    Subcommand(
        "form",
        (("form NAME.TOOL", "a form built from the tool's inputSchema"),),
        p.parse_form, _form, complete.complete_form,
    ),
    Subcommand(
        "panel",
        (("panel [NAME] [--tools a,b] [--resources u,v] [--prompts p,q]",
          "explorer of servers, tools, results and history; for a dashboard only what is named"),),
        p.parse_panel, _panel, complete.names("--tools", "--resources", "--prompts"),
    ),
    Subcommand(
        "history",
        (
            ("history", "DataFrame of the calls made in this kernel"),
            ("history --to-pytest FILE [NAME ...] [--loose K,...]", "the calls as a pytest file checking the results"),
        ),
        parse_history, _history, complete.names("--to-pytest", "--loose"),
    ),
    Subcommand(
        "log",
        (("log NAME [--lines N]", "DataFrame of the server's stderr, log messages and anvia_nb's notes (masked)"),),
        p.parse_log, _log, complete.names("--lines"),
    ),
    Subcommand(
        "trace",
        (("trace NAME [--last N | --call N]", "DataFrame of JSON-RPC messages; t.message(n); --call -1: last call's"),),
        parse_trace, _trace, complete.names(*TRACE_OPTIONS),
    ),
    Subcommand(
        "close",
        (("close NAME ...  |  close --all", "close connections (their servers are stopped)"),),
        p.parse_close, _close, complete.names("--all"),
    ),
    Subcommand(
        "logout",
        (("logout NAME  |  logout --http URL [--client-id ID]", "forget the OAuth tokens cached for a server"),),
        _parse_logout, _logout, complete.names("--http", "--client-id"),
    ),
    Subcommand(
        "help",
        (("help [TOPIC]", "this text; a subcommand, secrets, arguments or settings in full"),),
        _parse_help, _help, _help_topics,
    ),
)  # fmt: skip

TABLE: dict[str, Subcommand] = {entry.name: entry for entry in _ENTRIES}
