"""``%mcp help`` and the Tab completion of ``%mcp`` lines, both generated from the one table
of subcommands (:data:`anvia_nb.magic.subcommands.TABLE`).

Completion reads only the runtime's open connections and their listed tools (no server round
trip), so pressing Tab never blocks the kernel.
"""

from __future__ import annotations

import shlex
import textwrap
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from anvia_nb.magic.subcommands import TABLE

if TYPE_CHECKING:
    from anvia_nb.runtime import Runtime

__all__ = ["completions_for_line", "help_text", "make_completer"]

_INTRO = "%mcp: connect to MCP servers, list their tools and call them from this notebook.\n\n"

_SECRETS = """Secrets: pass a token with --secret-env NAME (or --env NAME without a value), never in the line:
the server gets the kernel's own NAME variable, and its value is masked in every output.
Values of --env names containing TOKEN, KEY, SECRET, PASS, AUTH or CREDENTIAL, --secret-env
names, credential headers (Authorization, Cookie, X-Api-Key...), URL user names, passwords and
query values, and --api-key VALUE are masked too; values under 6 characters are not (connect says).
"""

_ARGUMENTS = """Arguments: key=value is JSON when that fits the inputSchema, else the text typed; key={"a": 1} and
key=[1, 2] send that JSON as typed; key=$var sends a kernel variable ('$var' quoted is the text);
--args DICT sends a dict variable; names the tool does not take are refused before anything is sent.
"""

_SETTINGS = """Settings (%config McpMagics.NAME = VALUE):
  timeout_seconds = 60.0           per call; None = no limit
  connect_timeout_seconds = 30.0   per connect (and the HTTP timeout); None = no limit
  max_output_chars = 20000         text rendered per result; the rest stays in .output / .raw
  hide_server_errors = False       True for pages served to viewers: their words, connects soft
  show_tracebacks = False          True shows full tracebacks instead of one-line errors
  history_limit = 1000             calls kept for %mcp history
  log_chars = 20000                at most this much stderr is read by %mcp log
  log_level = 'info'               least severe server log message asked for; None = none
  max_calls_in_flight = 16         calls sent at once per connection (maps, forms, cells)
"""

_NOTES = """
--cell closes the connection when the cell ends (also on errors and interrupts).
A failed connect shows the server's last stderr lines (%mcp log NAME: all; stop button: stops it);
with --soft (and for viewers: hide_server_errors) it is a notice and the notebook goes on.
Tokens: --secret-env NAME passes the kernel's own NAME variable, masked everywhere (%mcp help secrets).
"""

TOPICS: dict[str, str] = {"secrets": _SECRETS, "arguments": _ARGUMENTS, "settings": _SETTINGS}
"""``%mcp help TOPIC`` for what is not a subcommand (``%mcp help SUBCOMMAND`` shows its lines)."""

_COLUMN = 38


def help_text(topic: str = "") -> str:
    """One screen: a line per use of every subcommand in the table, short notes and the settings;
    or one topic: a subcommand's lines, or the secrets, arguments or settings in full."""
    if topic in TOPICS:
        return TOPICS[topic]
    entries = [TABLE[topic]] if topic else list(TABLE.values())
    lines: list[str] = []
    for entry in entries:
        for syntax, what in entry.help:
            command = syntax if syntax.startswith("%%") else f"%mcp {syntax}"
            if not what:
                lines.append(f"  {command}")
            elif len(command) < _COLUMN:
                lines.append(f"  {command:<{_COLUMN}} {what}")
            else:
                lines.append(f"  {command}   {what}")
    if topic:
        return "\n".join(lines) + "\n"
    return _INTRO + "\n".join(lines) + "\n" + _NOTES + "\n" + _settings_in_short()


def _settings_in_short() -> str:
    """The settings' names, wrapped: their values and meanings are ``%mcp help settings``."""
    names = [line.split()[0] for line in _SETTINGS.splitlines()[1:] if line.strip()]
    return textwrap.fill(
        "Settings (%config McpMagics.NAME = VALUE; %mcp help settings): " + ", ".join(names) + ".", width=100
    ) + "\n"


def _words(line: str) -> list[str]:
    try:
        words = shlex.split(line)
    except ValueError:
        words = line.split()
    if line[-1:].isspace() or not words:
        words.append("")
    return words


def completions_for_line(line: str, runtime: Runtime) -> list[str]:
    """Candidates for the last word of ``line`` (which starts with ``%mcp`` or ``%%mcp``)."""
    words = _words(line)
    if len(words) <= 2:
        current = words[1] if len(words) == 2 else ""
        return [name for name in TABLE if name.startswith(current)]
    entry = TABLE.get(words[1])
    if entry is None:
        return []
    current = words[-1]
    return [c for c in entry.complete(words[2:], runtime) if c.startswith(current)]


def make_completer(runtime_factory: Callable[[], Runtime]) -> Callable[[Any, Any], list[str]]:
    """An IPython ``complete_command`` hook (IPython binds hooks to the shell, hence ``_shell``)."""

    def complete(_shell: Any, event: Any) -> list[str]:
        line = getattr(event, "text_until_cursor", None) or event.line
        start = line.find("%mcp")
        return completions_for_line(line[start:] if start >= 0 else line, runtime_factory())

    return complete
