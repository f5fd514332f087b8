"""How the explorer panel lays itself out so that it fits a narrow notebook: rows that wrap, lists
that take the room their row has, and tabs that wrap instead of cutting their labels. Our own CSS
only: no server text reaches it."""

from __future__ import annotations

from typing import Any, TypeVar

import ipywidgets as widgets

from anvia_nb.errors import InvalidValueError

__all__ = ["TABS_CLASS", "TABS_STYLE", "fill_layout", "list_rows", "offered_tab", "panel_pages", "row_layout"]


def row_layout() -> widgets.Layout:
    """A row that wraps rather than grow past its container."""
    return widgets.Layout(flex_flow="row wrap", width="100%", max_width="100%")


def fill_layout() -> widgets.Layout:
    """A list that takes the room its row has, and no more."""
    return widgets.Layout(width="auto", max_width="100%", flex="1 1 auto", min_width="0")


def list_rows(items: int) -> int:
    """Rows of a list: as many as it holds, from 2 to 8, so a panel of two tools is not a tall,
    mostly empty box, and a long list scrolls."""
    return min(8, max(2, items))


TABS_CLASS = "anvia-panel-tabs"
TABS_STYLE = (
    "<style>"
    f".{TABS_CLASS} > .lm-TabBar {{ height: auto; min-height: var(--jp-widgets-horizontal-tab-height); }}"
    f".{TABS_CLASS} > .lm-TabBar .lm-TabBar-content {{ flex-wrap: wrap; }}"
    f".{TABS_CLASS} > .lm-TabBar .lm-TabBar-tab {{ flex: 0 0 auto; }}"
    "</style>"
)
"""Six tabs do not fit a narrow notebook at Lumino's fixed tab width: each tab takes its label's
width and the row wraps, so no label is cut."""


def panel_pages(*, tools: Any, resources: Any, prompts: Any) -> list[tuple[str, Any]]:  # any: ipywidgets is untyped
    """The panel's first tabs, titled, leaving out those it does not offer (``None``)."""
    pages = (("Tools", tools), ("Resources", resources), ("Prompts", prompts))
    return [(title, page) for title, page in pages if page is not None]


T = TypeVar("T")


def offered_tab(tab: T | None, what: str) -> T:
    """A tab the panel made, or a one-line error when its scope does not offer ``what``."""
    if tab is None:
        raise InvalidValueError(f"This panel does not offer {what}: name them, e.g. panel(..., {what}=[...]).")
    return tab
