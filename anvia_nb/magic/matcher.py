"""Tab completion of ``%mcp`` lines, generated from the one table of subcommands
(:data:`anvia_nb.magic.subcommands.TABLE`).

Completion reads only the runtime's open connections and their listed tools (no server round
trip), so pressing Tab never blocks the kernel.

The completer is an IPython matcher (matcher API v2) that says itself which text it replaces:
the whole word before the cursor (``language=fr``), not IPython's token (``fr``, since IPython
splits at ``=``). A kernel's ``complete_request`` answers with that word's start as
``cursor_start``, so a front-end replaces ``language=fr`` with ``language=french``. When it has
answers it suppresses IPython's other matchers (Python names, files), which mean nothing in a
``%mcp`` line.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from anvia_nb.errors import CommandLineError
from anvia_nb.magic.parse.arguments import value_words
from anvia_nb.magic.subcommands import TABLE
from anvia_nb.policy import Limits

if TYPE_CHECKING:
    from anvia_nb.runtime import Runtime

__all__ = ["MATCHER_ID", "completions_for_line", "make_matcher"]

MATCHER_ID = "anvia_nb.mcp"
"""The matcher's identifier (``%config IPCompleter.disable_matchers`` can name it)."""

_MAGIC_LINE = re.compile(r"^\s*(?:[A-Za-z_][\w., ]*=\s*)?(%{1,2}mcp(?:\s.*)?)$", re.DOTALL)
"""A line that is a ``%mcp`` line, also when its value is assigned (``r = %mcp call ...``)."""


def _words(line: str) -> list[str]:
    """The line's words, the last one still being typed (a quote it opened counts as closed)."""
    for closing in ("", '"', "'"):
        try:
            words = shlex.split(line + closing)
            break
        except ValueError:
            continue
    else:
        words = line.split()
    if line[-1:].isspace() or not words:
        words.append("")
    return words


def _read(word: str) -> str:
    """A word as the line's reader gives it back (``location='New Y`` is ``location=New Y``)."""
    for closing in ("", '"', "'"):
        try:
            return "".join(value_words(word + closing))
        except CommandLineError:
            continue
    return word


def _offered(candidate: str, typed: str) -> bool:
    """Whether Tab offers ``candidate`` for the word typed so far: as typed, or as read
    (``location=New`` offers ``location='New York'``)."""
    return candidate.startswith(typed) or _read(candidate).startswith(_read(typed))


def completions_for_line(line: str, runtime: Runtime) -> list[str]:
    """Candidates for the last word of ``line`` (which starts with ``%mcp`` or ``%%mcp``)."""
    words = _words(line)
    if len(words) <= 2:
        current = words[1] if len(words) == 2 else ""
        return [name for name in TABLE if name.startswith(current)]
    entry = TABLE.get(words[1])
    if entry is None:
        return []
    typed = _typed_word(line)
    return [c for c in entry.complete(words[2:], runtime) if _offered(c, typed)]


def _typed_word(line: str) -> str:
    """The text Tab replaces: the word before the cursor, from the last blank outside quotes."""
    start, quote, index = 0, "", 0
    while index < len(line):
        char = line[index]
        if char == "\\" and quote != "'":
            index += 2
            continue
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char.isspace():
            start = index + 1
        index += 1
    return line[start:]


def _variables(typed: str, namespace: Callable[[], dict[str, Any]] | None) -> list[str]:
    """``key=$name`` for the kernel's variables whose name starts as typed after ``$``."""
    key, _eq, value = typed.partition("=")
    if namespace is None or not value.startswith("$"):
        return []
    start = value[1:]
    names = sorted(n for n in namespace() if n.startswith(start) and n.isidentifier() and not n.startswith("_"))
    return [f"{key}=${name}" for name in names[: Limits.variable_names]]


def make_matcher(
    runtime_factory: Callable[[], Runtime], namespace: Callable[[], dict[str, Any]] | None = None
) -> Callable[[Any], dict[str, Any]]:
    """An IPython matcher (API v2) for ``%mcp`` lines; append it to ``shell.Completer.custom_matchers``.
    ``namespace`` gives the kernel's variables, offered after ``key=$``."""
    from IPython.core.completer import SimpleCompletion, completion_matcher

    def match_mcp_line(context: Any) -> dict[str, Any]:
        found = _MAGIC_LINE.match(context.text_until_cursor)
        if found is None:
            return {"completions": [], "suppress": False}
        line = found.group(1)
        typed = _typed_word(line)
        offered = completions_for_line(line, runtime_factory())
        if not offered and "=" in typed:
            offered = _variables(typed, namespace)
        if not offered and "=" in typed:
            # Nothing to suggest for this value: offer the word as typed (no change), which keeps
            # IPython's Python names (frozenset...) out of a key=value word.
            offered = [typed]
        return {
            "completions": [SimpleCompletion(text, type="mcp") for text in offered],
            "matched_fragment": typed,
            "suppress": bool(offered),
            "ordered": True,
        }

    marked: Callable[[Any], dict[str, Any]] = completion_matcher(identifier=MATCHER_ID, priority=100, api_version=2)(
        match_mcp_line
    )
    return marked
