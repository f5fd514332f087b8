"""The one screen ``%mcp help`` prints, and the tab completion of ``%mcp`` lines.

Completion reads only the runtime's open connections and their listed tools (no server round
trip), so pressing Tab never blocks the kernel.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from anvia_nb.magic._parser import CONNECT_OPTIONS, SUBCOMMANDS

if TYPE_CHECKING:
    from anvia_nb.runtime import Runtime

__all__ = ["HELP_TEXT", "completions_for_line"]

HELP_TEXT = """\
%mcp: connect to MCP servers, list their tools and call them from this notebook.

  %mcp connect NAME [--env K=V]... [--secret-env K]... [--cwd DIR] [--cell] --stdio COMMAND [ARGS...]
  %mcp connect NAME [--header "K: V"]... [--timeout S] [--cell] --http URL
  %mcp connect --config FILE [NAME ...]   servers of a Claude / Cursor / VS Code mcpServers file
  %%mcp connect NAME ...                  the cell body runs with NAME open; closed when it ends
  %mcp servers                            DataFrame of connections (secrets masked)
  %mcp tools [NAME ...]                   DataFrame of tools:  df = %mcp tools
  %mcp call NAME.TOOL {"key": "value"}    or  key=value ...  [--timeout S];  %%mcp call NAME.TOOL: body is JSON
  %mcp form NAME.TOOL                     a form built from the tool's inputSchema
  %mcp panel                              explorer of servers, tools, results and history
  %mcp history                            DataFrame of the calls made in this kernel
  %mcp log NAME [--lines N]               the server's stderr tail and log messages (masked)
  %mcp close NAME ...  |  %mcp close --all
  %mcp help                               this text

--cell closes the connection when the cell ends (also on errors and interrupts).
Values of --env names containing TOKEN, KEY, SECRET, PASS, AUTH or CREDENTIAL, --secret-env names,
and header values are secrets: masked in every output.

Settings (%config McpMagics.NAME = VALUE):
  timeout_seconds = 60.0           per call; None = no limit
  connect_timeout_seconds = 30.0   per connect (and the HTTP timeout); None = no limit
  max_output_chars = 20000         text rendered per result; the rest stays in .output / .raw
  hide_server_errors = False       True for notebooks served to others: generic error text only
  show_tracebacks = False          True shows full tracebacks instead of one-line errors
  history_limit = 1000             calls kept for %mcp history
  log_chars = 20000                at most this much stderr is read by %mcp log
"""

_NAME_OPTIONS = ("tools", "log", "close")
_TARGET_SUBCOMMANDS = ("call", "form")


def _words(line: str) -> list[str]:
    try:
        words = shlex.split(line)
    except ValueError:
        words = line.split()
    if line[-1:].isspace():
        words.append("")
    return words


def _targets(runtime: Runtime) -> list[str]:
    targets: list[str] = []
    for name in runtime.names():
        try:
            server = runtime.server(name)
        except KeyError:
            continue
        targets.extend(f"{name}.{tool.name}" for tool in server.tools)
    return targets


def _argument_names(runtime: Runtime, target: str) -> list[str]:
    server_name, _, tool_name = target.partition(".")
    try:
        tool = runtime.server(server_name).tool(tool_name)
    except KeyError:
        return []
    return [f"{name}=" for name in tool.info.argument_names]


def completions_for_line(line: str, runtime: Runtime) -> list[str]:
    """Candidates for the last word of ``line`` (which starts with ``%mcp`` or ``%%mcp``)."""
    words = _words(line)
    if len(words) <= 1:
        return list(SUBCOMMANDS)
    if len(words) == 2:
        return [s for s in SUBCOMMANDS if s.startswith(words[1])]
    subcommand, current = words[1], words[-1]
    candidates: list[str] = []
    if subcommand in _NAME_OPTIONS:
        extra = {"close": ["--all"], "log": ["--lines"]}.get(subcommand, [])
        candidates = runtime.names() + extra
    elif subcommand in _TARGET_SUBCOMMANDS:
        candidates = _targets(runtime) if len(words) == 3 else [*_argument_names(runtime, words[2]), "--timeout"]
    elif subcommand == "connect" and "--stdio" not in words[:-1]:
        candidates = list(CONNECT_OPTIONS)
    return [c for c in candidates if c.startswith(current)]


def make_completer(runtime_factory: Callable[[], Runtime]) -> Callable[[Any, Any], list[str]]:
    """An IPython ``complete_command`` hook (IPython binds hooks to the shell, hence ``_shell``)."""

    def complete(_shell: Any, event: Any) -> list[str]:
        line = getattr(event, "text_until_cursor", None) or event.line
        start = line.find("%mcp")
        return completions_for_line(line[start:] if start >= 0 else line, runtime_factory())

    return complete
