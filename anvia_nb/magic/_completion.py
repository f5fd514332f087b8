"""Tab completion of ``%mcp`` lines, generated from the one table of subcommands
(:data:`anvia_nb.magic.subcommands.TABLE`).

Completion reads only the runtime's open connections and their listed tools (no server round
trip), so pressing Tab never blocks the kernel.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from anvia_nb.magic.subcommands import TABLE

if TYPE_CHECKING:
    from anvia_nb.runtime import Runtime

__all__ = ["completions_for_line", "make_completer"]


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
