"""Buttons that read a result's resource links, one per link, only when pressed.

A ``resource_link`` in a result is never fetched by itself: the form (and the panel, through its
form) shows a "Read link i" button for each, and pressing one reads it over the same connection
and shows it below, marked "read on request from server NAME". ``last_read`` keeps the
:class:`~anvia_nb.display.ReadView` for Python.
"""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as widgets

from anvia_nb.core.api.features import ConnectedServer
from anvia_nb.core.protocol.limits import DEFAULT, Default
from anvia_nb.core.protocol.readings import ResourceRead
from anvia_nb.core.protocol.types import CallOutcome
from anvia_nb.display import ReadView, ResultView
from anvia_nb.display.chrome import OPTION_CHARS
from anvia_nb.errors import AnviaError
from anvia_nb.policy import ShowPolicy
from anvia_nb.runtime import Runtime
from anvia_nb.widgets._chrome import error_output, plain, shown_output

__all__ = ["LinkReads"]


class LinkReads:
    """A row of Read buttons for the links of the last result, and where the reads show."""

    def __init__(self, runtime: Runtime, timeout_seconds: float | Default | None = DEFAULT) -> None:
        self.runtime = runtime
        self.timeout_seconds = timeout_seconds
        self.result: ResultView | None = None
        self.last_read: ReadView | None = None
        self.buttons = widgets.HBox([], layout=widgets.Layout(flex_flow="row wrap"))
        self.output = widgets.Output()
        self.box = widgets.VBox([self.buttons, self.output])

    def reader(self, server: ConnectedServer) -> Callable[[CallOutcome, int], ResourceRead]:
        """A ``ResultView``'s reader over ``server`` (the session that made the result)."""

        def read(outcome: CallOutcome, index: int) -> ResourceRead:
            return self.runtime.run(server.read_link(outcome, index, timeout_seconds=self.timeout_seconds))

        return read

    def show(self, result: ResultView | None) -> None:
        """One button per resource link of ``result``; none (and no old read) without one."""
        self.result = result
        self.output.outputs = ()
        links = result.links if result is not None else []
        policy = ShowPolicy().with_secrets(result.outcome.secrets) if result is not None else ShowPolicy()
        buttons = []
        for index, link in enumerate(links):
            name = plain(link.get("title") or link.get("name") or link["uri"], policy, OPTION_CHARS)
            button = widgets.Button(
                description=f"Read link {index}",
                icon="book",
                tooltip=f"read {name} ({plain(link['uri'], policy, OPTION_CHARS)}) from the server",
            )
            button.on_click(lambda _b, i=index: self.read(i))
            buttons.append(button)
        self.buttons.children = tuple(buttons)

    def read(self, index: int) -> ReadView | None:
        """Read link ``index`` of the shown result, because the person asked."""
        result = self.result
        if result is None:
            return None
        try:
            self.last_read = result.read_link(index)
        except AnviaError as exc:
            self.output.outputs = (error_output(exc, ShowPolicy().with_secrets(result.outcome.secrets)),)
            return None
        self.output.outputs = (shown_output(self.last_read),)
        return self.last_read
