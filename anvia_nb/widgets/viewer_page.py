"""The one switch that makes a page a page for viewers, read by every widget.

``%config McpMagics.hide_server_errors = True`` says "this notebook is served to viewers" (viewer
mode, see :mod:`anvia_nb.display.settings`). A widget built from Python with ``settings=`` left out,
or with settings that do not say so (``form(..., readonly_arguments=...)`` in a dashboard), is on
that same page: :func:`page_settings` gives every widget the settings it shows with, so whichever
way a form, a panel or a view was built, the kernel's switch makes it a viewer's. Settings that say
``hide_server_errors=True`` keep it, switch or not: nothing here turns viewer mode off.
"""

from __future__ import annotations

import dataclasses
import sys

from anvia_nb.display import RenderSettings

__all__ = ["kernel_for_viewers", "kernel_lock_file", "page_settings"]


def _kernel_magics() -> object | None:
    """The ``%mcp`` magic of this kernel, when the extension is loaded (widgets read its settings
    without importing the magic layer above them)."""
    if "IPython" not in sys.modules:  # no IPython: no kernel, no magic, no switch
        return None
    from IPython import get_ipython

    shell = get_ipython()
    registry = getattr(getattr(shell, "magics_manager", None), "registry", None)
    return registry.get("McpMagics") if isinstance(registry, dict) else None


def _kernel_settings() -> RenderSettings | None:
    """The ``%mcp`` magic's settings in this kernel, when the extension is loaded."""
    settings = getattr(_kernel_magics(), "render_settings", None)
    found = settings() if callable(settings) else None
    return found if isinstance(found, RenderSettings) else None


def kernel_for_viewers() -> bool:
    """Whether this kernel's notebook is served to viewers (``%config McpMagics.hide_server_errors = True``).

    Returns
    -------
    bool
        ``False`` where the ``%mcp`` extension is not loaded.
    """
    settings = _kernel_settings()
    return settings is not None and settings.hide_server_errors


def kernel_lock_file(default: str) -> str:
    """The lock file ``%config McpMagics.lock_file`` names in this kernel, else ``default``.

    Parameters
    ----------
    default : str
        The lock file where the extension is not loaded.

    Returns
    -------
    str
    """
    chosen = getattr(_kernel_magics(), "lock_file", None)
    return chosen if isinstance(chosen, str) and chosen else default


def page_settings(settings: RenderSettings | None = None) -> RenderSettings:
    """The settings a widget shows with: ``settings`` (``None``: the kernel's ``%mcp`` settings,
    else the defaults), in viewer mode whenever the kernel's switch is on.

    Parameters
    ----------
    settings : RenderSettings, optional
        What the widget was given.

    Returns
    -------
    RenderSettings
    """
    kernel = _kernel_settings()
    chosen = settings if settings is not None else kernel if kernel is not None else RenderSettings()
    if chosen.hide_server_errors or kernel is None or not kernel.hide_server_errors:
        return chosen
    return dataclasses.replace(chosen, hide_server_errors=True)
