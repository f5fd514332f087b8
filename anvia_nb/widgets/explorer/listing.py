"""A list of a server's items (resources, templates, prompts) that never floods the browser.

A server may list a hundred thousand items; a ``Select`` of them all would send megabytes of
widget state and draw as many rows. :class:`BoundedList` shows the first ``Limits.choices`` of a
listing, says in one line how many it left out and how to reach them, and still lets code (or a
re-listing that keeps the choice) choose any item, which then joins the list.
"""

from __future__ import annotations

import concurrent.futures
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import ipywidgets as widgets

from anvia_nb.core import McpServer
from anvia_nb.core.protocol.limits import DEFAULT, Default
from anvia_nb.display import RenderSettings
from anvia_nb.policy import Limits, ShowPolicy
from anvia_nb.runtime import Runtime
from anvia_nb.widgets._chrome import text_label
from anvia_nb.widgets.fields.completing import CompletingFields
from anvia_nb.widgets.viewer_page import page_settings

__all__ = ["BoundedList", "ListingTab", "item_select"]

T = TypeVar("T")


class BoundedList:
    """Wraps a ``Select`` whose values are indexes into a listing; ``note`` is the line below it."""

    def __init__(
        self,
        select: Any,  # any: ipywidgets is untyped
        what: str,
        how: str,
        limit: int | None = None,
    ) -> None:
        """``what`` names the items ("resources"); ``how`` says how to reach those left out."""
        self.select = select
        self.what = what
        self.how = how
        self.limit = Limits().choices if limit is None else limit
        self.note = text_label(value="")

    def show(self, items: Sequence[T], label: Callable[[T], str]) -> None:
        """List the first items (labels made only for those), with the line when some are left out."""
        self.select.options = [(label(item), index) for index, item in enumerate(items[: self.limit])]
        left_out = len(items) - self.limit
        self.note.value = (
            f"{len(items):,} {self.what}; the first {self.limit:,} are listed{f' ({self.how})' if self.how else ''}."
            if left_out > 0
            else ""
        )

    def choose(self, index: int, label: str) -> None:
        """Choose item ``index``; one past the listed ones is added to the list first."""
        chosen = self.select.index
        if chosen is not None and not 0 <= chosen < len(self.select.options):
            options, self.select.options = self.select.options, ()  # a browser's own index and labels:
            self.select.options = options  # the list is made again from the kernel's options
        if index not in [value for _label, value in self.select.options]:
            self.select.options = (*self.select.options, (label, index))
        self.select.value = index


def item_select(description: str, rows: int) -> widgets.Select:
    """An empty ``Select`` of a listing's items, as wide as the panel lets it be."""
    return widgets.Select(
        options=[], rows=rows, description=description, layout=widgets.Layout(width="auto", max_width="100%")
    )


class ListingTab(ABC):
    """What the Prompts and Resources tabs share: the connection shown, its policy, what is offered,
    the fields of the chosen item (in ``form_box``), the listing under way, the Refresh button and the
    output; each tab makes its own lists and buttons in ``_build``."""

    def __init__(
        self,
        runtime: Runtime,
        settings: RenderSettings | None = None,
        timeout_seconds: float | Default | None = DEFAULT,
        *,
        offered: frozenset[str] | None = None,
    ) -> None:
        self.runtime = runtime
        self.settings = page_settings(settings)  # the kernel's viewer switch, however it was built
        self.offered = offered
        """What the tab offers (``None``: all the server lists); checked again at each use."""
        self.timeout_seconds = timeout_seconds
        self.server: McpServer | None = None
        self.policy = ShowPolicy()
        self.fields: CompletingFields | None = None
        self.listing: concurrent.futures.Future[None] | None = None
        self.form_box = widgets.VBox([])
        """Where the chosen item's fields show."""
        self.refresh_button = widgets.Button(description="Refresh", icon="refresh", tooltip="list them again")
        self.refresh_button.on_click(lambda _b: self.show(self.server))
        self.output = widgets.Output()
        """What a listing, get or read showed last (or its error)."""
        self._build()

    @abstractmethod
    def show(self, server: McpServer | None) -> concurrent.futures.Future[None] | None:
        """List ``server``'s items (nothing when ``None``); the Refresh button lists them again."""

    @abstractmethod
    def _build(self) -> None:
        """Make the tab's own lists, buttons and ``.widget`` (each tab says what it shows)."""

    def _layout(
        self, lists: list[widgets.Widget], action: widgets.Button, below: list[widgets.Widget] | None = None
    ) -> widgets.VBox:
        """The tab as shown: its ``lists``, the chosen item's fields, its ``action`` button beside
        Refresh, what goes ``below`` them, then the output."""
        return widgets.VBox(
            [*lists, self.form_box, widgets.HBox([action, self.refresh_button]), *(below or []), self.output]
        )
