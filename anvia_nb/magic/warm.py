"""The first ``%mcp call``'s one-time work, done while ``%mcp connect`` waits for its server.

The first call in a kernel used to pay for things built once: IPython's display formatters (made
on the first output the shell formats), the modules and cached start tags of a rendered result,
the library of sync doors the result view reads links with. ``%mcp connect`` spends seconds
waiting for a server to start and answer; this work is done in the magic's thread during that
wait, once per kernel, so the connect takes no longer and the first call costs what the next do.

It imports nothing heavy (no pandas, no jsonschema, no ipywidgets), and a failure here is never
the connect's: it is logged and the first call simply pays as before.
"""

from __future__ import annotations

import logging
from datetime import datetime, timezone
from typing import Any

from anvia_nb.magic.subcommands import parse_line

__all__ = ["warm_first_call"]

logger = logging.getLogger("anvia_nb.magic")

_warmed = False


# Kept (issue 27): the first %mcp call takes 5.2 ms with it, 7.3 without (fresh kernels, 9 rounds interleaved)
def warm_first_call(shell: Any) -> None:  # any: IPython's shell, untyped
    """Build what the first call and its rendering need (once per process)."""
    global _warmed
    if _warmed:
        return
    _warmed = True
    try:
        import anvia_nb.runtime.library  # noqa: F401  (the result view's link reader)
        from anvia_nb.core.protocol.types import CallOutcome
        from anvia_nb.display import ResultView

        parse_line("call warm.up text=warm")
        raw: dict[str, Any] = {"content": [{"type": "text", "text": "warm"}]}
        outcome = CallOutcome(
            server="warm",
            tool="up",
            arguments={"text": "warm"},
            raw=raw,
            output="warm",
            error=None,
            schema_problems=None,
            seconds=0.0,
            started_at=datetime.now(timezone.utc),
        )
        view = ResultView(outcome)
        formatter = getattr(shell, "display_formatter", None)
        if formatter is not None:
            formatter.format(view)  # builds the shell's formatters; nothing is displayed
        else:
            view._repr_mimebundle_()
    except Exception:  # a warm-up must never break a connect
        logger.debug("warming up the first call failed", exc_info=True)
