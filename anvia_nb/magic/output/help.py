"""The words of ``%mcp help``: the topics that are not subcommands (secrets, arguments, settings)
and the page made from the subcommands' help lines.

Pure text: it imports nothing of the magic. The lines come from the one table of subcommands
(:data:`anvia_nb.magic.subcommands.TABLE`), which hands them in (``subcommands.help_text``);
Tab completion, which reads the table too, is :mod:`anvia_nb.magic.matcher`.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence

__all__ = ["TOPICS", "help_page"]

_INTRO = "%mcp: connect to MCP servers, list their tools and call them from this notebook.\n\n"

_SECRETS = """Secrets: pass a token with --secret-env NAME (or --env NAME without a value), never in the line:
the server gets the kernel's own NAME variable, and its value is masked in every output.
Values of --env names containing TOKEN, KEY, SECRET, PASS, AUTH or CREDENTIAL, --secret-env
names, credential headers (Authorization, Cookie, X-Api-Key...), URL user names, passwords and
query values, and --api-key VALUE are masked too; values under 6 characters are not (connect says).
$NAME or ${NAME} anywhere in a connect line is the kernel's NAME variable, masked like the rest, as is
${NAME} in any field of a --config file; well-known token formats (ghp_..., sk-..., AKIA...) are masked
under any name.
"""

_ARGUMENTS = """Arguments: key=value is JSON when that fits the inputSchema, else the text typed; key={"a": 1} and
key=[1, 2] send that JSON as typed; key=$var sends a kernel variable ('$var' quoted is the text);
--args DICT sends a dict variable; names the tool does not take are refused before anything is sent.
"""

_SETTINGS = """Settings (%config McpMagics.NAME = VALUE):
  timeout_seconds = 60.0           per call, counted again from each progress; None = no limit
  max_time_seconds = 600.0         per call in all, progress or not; None = no limit
  connect_timeout_seconds = 30.0   per connect (and the HTTP timeout); None = no limit
  max_output_chars = 20000         text rendered per result; the rest stays in .output / .raw
  hide_server_errors = False       True for pages served to viewers: their words, connects soft
  show_tracebacks = False          True shows full tracebacks instead of one-line errors
  history_limit = 1000             calls kept for %mcp history
  log_chars = 20000                at most this much stderr is read by %mcp log
  log_level = 'info'               least severe server log message asked for; None = none
  max_calls_in_flight = 16         calls sent at once per connection (forms, cells)
  lock_file = 'mcp-lock.json'      pins and accepted findings (%mcp pin, %mcp audit --accept)
"""

_NOTES = """
A failed connect shows the server's last stderr lines (%mcp log NAME: all; stop button: stops it);
with --soft (and for viewers: hide_server_errors) it is a notice and the notebook goes on.
Tokens: --secret-env NAME passes the kernel's own NAME variable, masked everywhere (%mcp help secrets).
"""

TOPICS: dict[str, str] = {"secrets": _SECRETS, "arguments": _ARGUMENTS, "settings": _SETTINGS}
"""``%mcp help TOPIC`` for what is not a subcommand (``%mcp help SUBCOMMAND`` shows its lines)."""

_COLUMN = 38


def help_page(lines: Mapping[str, Sequence[tuple[str, str]]], topic: str = "") -> str:
    """One screen: a line per use of every subcommand (``lines``: each one's syntax and what it does),
    short notes and the settings; or one topic: a subcommand's lines, or a topic of :data:`TOPICS`."""
    if topic in TOPICS:
        return TOPICS[topic]
    uses = [lines[topic]] if topic else list(lines.values())
    shown: list[str] = []
    for entry in uses:
        for syntax, what in entry:
            command = syntax if syntax.startswith("%%") else f"%mcp {syntax}"
            if not what:
                shown.append(f"  {command}")
            elif len(command) < _COLUMN:
                shown.append(f"  {command:<{_COLUMN}} {what}")
            else:
                shown.append(f"  {command}   {what}")
    if topic:
        return "\n".join(shown) + "\n"
    return _INTRO + "\n".join(shown) + "\n" + _NOTES + "\n" + _settings_in_short()


def _settings_in_short() -> str:
    """The settings' names, wrapped: their values and meanings are ``%mcp help settings``."""
    names = [line.split()[0] for line in _SETTINGS.splitlines()[1:] if line.strip()]
    return (
        textwrap.fill(
            "Settings (%config McpMagics.NAME = VALUE; %mcp help settings): " + ", ".join(names) + ".", width=100
        )
        + "\n"
    )
