"""A server's lists changing under the notebook: re-list on ``list_changed``, and say what changed.

When a server sends ``notifications/tools/list_changed`` (or, on 2026-07-28, the same event on its
``subscriptions/listen`` stream), :class:`ListWatch` lists the tools again in a task of the
session's loop, replaces the server's adapted tools, and keeps a :class:`ToolListChange` (added,
removed and redefined names) until someone notes it: ``%mcp tools`` prints it in the cell that next
lists the tools, the panel shows it. The resource and prompt notifications are passed on to the
listeners (the panel, listings) that re-list those themselves.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from anvia_nb.core.api.listeners import Listener, Listeners
from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.types import ToolInfo
from anvia_nb.core.transport.client import McpClient
from anvia_nb.errors import AnviaError

__all__ = ["LIST_CHANGED", "ChangeListener", "ListWatch", "ToolListChange", "tool_list_change"]

LIST_CHANGED = {
    "notifications/tools/list_changed": "tools",
    "notifications/resources/list_changed": "resources",
    "notifications/prompts/list_changed": "prompts",
    "notifications/resources/updated": "resource",
}
"""The notifications that say a list (or a subscribed resource) changed, and what changed."""

ChangeListener = Listener
"""``listener(server_name, what)``: ``what`` is ``"tools"`` (already re-listed), ``"resources"``,
``"prompts"`` or ``"resource"``; called on the session's loop, must not block."""


logger = logging.getLogger("anvia_nb.core.api.changes")


@dataclass(frozen=True)
class ToolListChange:
    """How one re-listing differed from the list before it."""

    time: float
    since: float
    """When the list before it was listed."""
    added: tuple[str, ...]
    removed: tuple[str, ...]
    redefined: tuple[str, ...]
    """Same name, another description, schema, title or annotations."""

    def text(self, server: str) -> str:
        """``the tool list of demo changed since 12:00:01: added x; removed y`` (names unmasked)."""
        parts = [
            f"{label} {_names(names)}"
            for label, names in (("added", self.added), ("removed", self.removed), ("redefined", self.redefined))
            if names
        ]
        said = "; ".join(parts) or "the same tools"
        since = time.strftime("%H:%M:%S", time.localtime(self.since))
        return f"the tool list of {server} changed since {since}: {said}"


def _names(names: Sequence[str]) -> str:
    most = limits.CHANGE_NAMES_SHOWN
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")


def tool_list_change(before: Sequence[ToolInfo], after: Sequence[ToolInfo], since: float) -> ToolListChange:
    old = {t.name: t for t in before}
    new = {t.name: t for t in after}
    return ToolListChange(
        time=time.time(),
        since=since,
        added=tuple(n for n in new if n not in old),
        removed=tuple(n for n in old if n not in new),
        redefined=tuple(n for n in new if n in old and new[n] != old[n]),
    )


class ListWatch:
    """Re-lists a server's tools when told they changed; keeps the changes until noted.

    ``listed()`` gives the tools held now, ``adopt(tools)`` replaces them with a new listing."""

    def __init__(
        self, client: McpClient, listed: Callable[[], list[ToolInfo]], adopt: Callable[[list[ToolInfo]], None]
    ) -> None:
        self._client = client
        self._listed = listed
        self._adopt = adopt
        self.listed_at = time.time()
        """When the tools the server holds now were listed."""
        self._pending: list[ToolListChange] = []
        self._lock = threading.Lock()
        self._listeners = Listeners("change", logger)
        self._refresh: asyncio.Task[None] | None = None
        self._again = False
        self.counts: dict[str, int] = {}
        """How many change notifications arrived, by what changed."""
        client.on_notification(self.on_notification)

    def on_change(self, listener: ChangeListener) -> Callable[[], None]:
        """Call ``listener(server_name, what)`` after each change; returns the function that stops it."""
        return self._listeners.add(listener)

    def on_notification(self, method: str) -> None:
        what = LIST_CHANGED.get(method)
        if what is None:
            return
        self.counts[what] = self.counts.get(what, 0) + 1
        if what != "tools":
            self._tell(what)
            return
        if self._refresh is not None and not self._refresh.done():
            self._again = True  # one more listing after the running one: the news may postdate it
            return
        name = f"anvia_nb relist {self._client.name}"
        self._refresh = asyncio.get_running_loop().create_task(self._relist(), name=name)

    async def _relist(self) -> None:
        while True:
            self._again = False
            before = self._listed()
            try:
                after = await self._client.list_tools()
            except AnviaError as exc:
                self._client.log.note("warning", f"re-listing the changed tools failed: {exc}")
                return
            self._adopt(after)
            change = tool_list_change(before, after, self.listed_at)
            if change.added or change.removed or change.redefined:  # some servers say so at every start
                self.listed_at = change.time
                with self._lock:
                    self._pending = [*self._pending, change][-limits.CHANGES_KEPT :]
            self._tell("tools")
            if not self._again:
                return

    def _tell(self, what: str) -> None:
        self._listeners.tell(self._client.name, what)

    async def settled(self, timeout_seconds: float = 30.0) -> None:
        """Wait (bounded) for a re-listing under way, from any loop."""
        task = self._refresh
        if task is None or task.done():
            return
        loop = task.get_loop()
        if loop is asyncio.get_running_loop():
            await asyncio.wait({task}, timeout=timeout_seconds)
        else:
            done = threading.Event()
            loop.call_soon_threadsafe(lambda: task.add_done_callback(lambda _t: done.set()))
            await asyncio.to_thread(done.wait, timeout_seconds)

    def take_changes(self) -> list[ToolListChange]:
        """The changes not yet noted, oldest first; they count as noted now."""
        with self._lock:
            pending, self._pending = self._pending, []
        return pending

    @property
    def pending(self) -> list[ToolListChange]:
        with self._lock:
            return list(self._pending)
