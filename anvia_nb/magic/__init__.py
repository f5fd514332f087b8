"""The ``%mcp`` magic: ``%load_ext anvia_nb`` registers it.

Loading also registers the tab completer and a ``post_run_cell`` hook that closes connections
opened with ``--cell`` when their cell ends (also when it raised or was interrupted). Unloading
removes both and closes every connection the runtime holds; interpreter exit closes the rest.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from anvia_nb.magic.magics import McpMagics
from anvia_nb.magic.matcher import MATCHER_ID, make_matcher
from anvia_nb.magic.output.cell import report_warnings

if TYPE_CHECKING:
    from anvia_nb.runtime import Runtime

__all__ = ["McpMagics", "load_ipython_extension", "unload_ipython_extension"]


def _runtime() -> Runtime:
    from anvia_nb.runtime import get_runtime

    return get_runtime()


def _close_cell_connections(*_result: Any) -> None:
    """After every cell: close what that cell opened with ``--cell``; warn there, never raise."""
    if "anvia_nb.runtime.sessions" not in sys.modules:
        return  # nothing was ever connected: do not load the runtime (and the SDK) for nothing
    runtime = _runtime()
    if not any(runtime.entry(name).scope == "cell" for name in runtime.names() if name in runtime.sessions):
        return
    try:
        report_warnings(runtime.close_scope("cell"))
    except Exception as exc:  # a hook that raises would be reported in every later cell
        report_warnings([f"closing cell connections: {type(exc).__name__}: {exc}"])


def load_ipython_extension(ipython: Any) -> None:  # any: IPython's shell, untyped
    """``%load_ext anvia_nb``: register ``%mcp``/``%%mcp``, its completer and the end-of-cell close
    hook (idempotent). ``anvia_nb`` imports this module only then.

    Parameters
    ----------
    ipython : InteractiveShell
        The shell IPython passes when the extension is loaded.
    """
    ipython.register_magics(McpMagics)
    if _close_cell_connections not in ipython.events.callbacks["post_run_cell"]:
        ipython.events.register("post_run_cell", _close_cell_connections)
    _remove_completer(ipython)
    ipython.Completer.custom_matchers.append(make_matcher(_runtime, lambda: ipython.user_ns))


def _remove_completer(ipython: Any) -> None:
    matchers = ipython.Completer.custom_matchers
    matchers[:] = [m for m in matchers if getattr(m, "matcher_identifier", None) != MATCHER_ID]


def unload_ipython_extension(ipython: Any) -> None:  # any: IPython's shell, untyped
    """``%unload_ext anvia_nb``: close every connection the magic opened and remove the hooks;
    ``%load_ext`` again brings it all back.

    Parameters
    ----------
    ipython : InteractiveShell
        The shell IPython passes when the extension is unloaded.
    """
    if _close_cell_connections in ipython.events.callbacks["post_run_cell"]:
        ipython.events.unregister("post_run_cell", _close_cell_connections)
    _remove_completer(ipython)
    if "anvia_nb.runtime.sessions" in sys.modules:
        report_warnings(_runtime().close_all())
    ipython.magics_manager.magics["line"].pop("mcp", None)
    ipython.magics_manager.magics["cell"].pop("mcp", None)
