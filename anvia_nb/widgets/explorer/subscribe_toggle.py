"""The Resources tab's Subscribe toggle: hear when the chosen resource changes, and how often it did.

Pressed, it subscribes the connection to the chosen resource's URI (``McpServer.subscribe``);
released, it unsubscribes. Beside it, a label counts the updates that arrived for that URI and
says when the last one did (plain text through the connection's show policy). Disabled when no
resource is chosen, the server's capabilities lack ``resources.subscribe``, or the connection is
replayed from a recording (which holds no updates: the tooltip says so).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from anvia_nb.core import McpServer
from anvia_nb.errors import AnviaError
from anvia_nb.policy import ShowPolicy
from anvia_nb.runtime import Runtime
from anvia_nb.widgets._chrome import plain, text_label

__all__ = ["SubscribeToggle"]


_TOOLTIP = "count this resource's updates (the server says when it changes)"


def _offers_subscriptions(server: McpServer) -> bool:
    if server.client.origin is not None:
        return False  # a recording holds no updates
    try:
        resources = server.client.capabilities.get("resources")
    except AnviaError:
        return False
    return isinstance(resources, dict) and resources.get("subscribe") is True


class SubscribeToggle:
    """A Subscribe toggle and an update count for one URI of one connection; display ``.widget``."""

    def __init__(self, runtime: Runtime, on_error: Callable[[AnviaError], None]) -> None:
        self.runtime = runtime
        self.on_error = on_error
        self.server: McpServer | None = None
        self.uri: str | None = None
        self.policy = ShowPolicy()
        self._stop: Callable[[], None] | None = None
        self._syncing = False
        self.toggle = widgets.ToggleButton(
            description="Subscribe",
            icon="bell",
            disabled=True,
            tooltip=_TOOLTIP,
        )
        self.updates = text_label("")
        self.toggle.observe(self._toggled, names="value")
        self.widget = widgets.HBox([self.toggle, self.updates])

    def show(self, server: McpServer | None, uri: str | None, policy: ShowPolicy) -> None:
        """Follow ``uri`` of ``server`` (``None``: nothing chosen)."""
        if server is not self.server:
            if self._stop is not None:
                self._stop()
            self._stop = server.subscriptions.on_update(self._updated) if server is not None else None
        self.server, self.uri, self.policy = server, uri, policy
        self._syncing = True
        try:
            on = server is not None and uri is not None and uri in server.subscriptions.subscribed
            self.toggle.value = on
            self.toggle.disabled = server is None or uri is None or not _offers_subscriptions(server)
            origin = server.client.origin if server is not None else None
            self.toggle.tooltip = f"{origin}: a recording holds no resource updates" if origin else _TOOLTIP
        finally:
            self._syncing = False
        self._count()

    def _toggled(self, change: dict[str, Any]) -> None:
        server, uri = self.server, self.uri
        if self._syncing or server is None or uri is None:
            return
        try:
            self.runtime.run(server.subscribe(uri) if change["new"] else server.unsubscribe(uri))
        except AnviaError as exc:
            self.show(server, uri, self.policy)  # back to what is true
            self.on_error(exc)
            return
        self._count()

    def _updated(self, _server: str, uri: str) -> None:
        if uri == self.uri:
            self._count()

    def _count(self) -> None:
        server, uri = self.server, self.uri
        found = server.subscriptions.updates().get(uri) if server is not None and uri is not None else None
        if found is None:
            self.updates.value = "no updates" if self.toggle.value else ""
            return
        when = time.strftime("%H:%M:%S", time.localtime(found.last))
        said = f"{found.count} update{'s' if found.count != 1 else ''}, the last at {when}"
        self.updates.value = plain(said, self.policy, self.policy.limits.line_chars)
