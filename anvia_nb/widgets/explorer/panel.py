"""``Panel``: an MCP explorer in one widget: connections, tools, the form, results and history.

A person picks a connection, narrows the tool list with a filter, reads what the selected tool
is (provenance, title, description, hints, the destructive warning: the :class:`ToolForm`'s own
header), fills the form and calls. Calls made from this panel are listed in its history; an
entry can be run again with the same arguments. Every string a server chose reaches the screen
as plain text (Select options, Labels) or through the display layer's escaping.

The panel follows the runtime's connections as they open and close (events, not polling): a
chosen connection that closes stays listed as closed and says so, and when the name connects
again the panel lists the new session's tools and its forms call the new session.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any

import ipywidgets as widgets

from anvia_nb.core import McpServer, Tool
from anvia_nb.core.protocol.limits import DEFAULT, PANEL_CALLS_KEPT, Default
from anvia_nb.core.protocol.types import CallOutcome, CallRecord
from anvia_nb.display import RenderSettings
from anvia_nb.display.chrome import notice_html, server_text_html
from anvia_nb.errors import AnviaError, UnknownToolError
from anvia_nb.policy import ShowPolicy
from anvia_nb.runtime import Runtime, get_runtime
from anvia_nb.widgets._chrome import closed_note, follow_connections, history_label, plain, text_bundle, text_label
from anvia_nb.widgets.explorer import layout
from anvia_nb.widgets.explorer.audit_tab import AuditTab, tool_label
from anvia_nb.widgets.explorer.exchange_tabs import TAB_TITLES as EXCHANGE_TITLES
from anvia_nb.widgets.explorer.exchange_tabs import ExchangeTabs, follow_changes
from anvia_nb.widgets.explorer.history_export import HistoryExport
from anvia_nb.widgets.explorer.layout import TABS_CLASS, TABS_STYLE, fill_layout, offered_tab, panel_pages, row_layout
from anvia_nb.widgets.explorer.panel_text import HOW_TO_CONNECT, history_tip, panel_text
from anvia_nb.widgets.explorer.prompts_tab import PromptsTab
from anvia_nb.widgets.explorer.resources_tab import ResourcesTab
from anvia_nb.widgets.explorer.scope import panel_scope
from anvia_nb.widgets.forms.tool_form import ToolForm
from anvia_nb.widgets.viewer_page import page_settings

__all__ = ["Panel"]


class Panel:
    """The explorer; display it, or put ``.widget`` in a layout."""

    def __init__(
        self,
        *,
        runtime: Runtime | None = None,
        settings: RenderSettings | None = None,
        timeout_seconds: float | Default | None = DEFAULT,
        connection: str | None = None,
        tools: Iterable[str] | None = None,
        resources: Iterable[str] | None = None,
        prompts: Iterable[str] | None = None,
        max_time_seconds: float | Default | None = DEFAULT,
    ) -> None:
        self.runtime = runtime or get_runtime()
        self.settings = settings = page_settings(settings)  # the kernel's viewer switch, however it was built
        self.policy = settings.policy()
        self.scope = panel_scope(self.runtime, connection, tools, resources, prompts)
        """Which connection, tools, resources and prompts it offers (see :mod:`anvia_nb.widgets.explorer.scope`)."""
        self.timeout_seconds = timeout_seconds
        self.max_time_seconds = max_time_seconds
        self.history: list[CallRecord] = []
        """Calls made from this panel, oldest first: their summaries (as the runtime's history
        keeps them), never their results, so a result the person dropped is freed."""
        self._sent: list[dict[str, Any]] = []
        """The arguments each history entry sent, whole (a summary's are cut): what Run again sends."""
        self.form: ToolForm | None = None
        self._forms: dict[tuple[str, str], ToolForm] = {}
        self._updating = False
        self._sync_lock = threading.RLock()
        self.closed_name: str | None = None
        """The chosen connection when it closed: kept listed (as closed) until it is connected
        again, another is chosen, or Refresh is pressed."""
        self.connection = widgets.Dropdown(options=[], description="Connection")
        self.refresh_button = widgets.Button(
            description="Refresh", icon="refresh", tooltip="read the open connections and their tools again"
        )
        self.filter = widgets.Text(
            value="",
            placeholder="filter tools by name, title or description",
            description="Filter",
            continuous_update=True,
        )
        self.tools = widgets.Select(options=[], rows=8, description="Tools", layout=fill_layout())
        self.count = text_label(value="")
        self.notice = widgets.HTML(value="")
        self.instructions = widgets.HTML(value="", layout=widgets.Layout(display="none"))
        self.form_box = widgets.VBox([])
        self.history_select = widgets.Select(options=[], rows=5, description="Panel calls", layout=fill_layout())
        self.history_select.tooltip = history_tip(self.policy.for_viewers)
        self.rerun_button = widgets.Button(
            description="Run again",
            icon="repeat",
            disabled=True,
            tooltip="refill the form with these arguments and call",
        )
        self.exchange = ExchangeTabs(settings.policy(()))
        """The Server, Log and Trace tabs of the chosen connection (widgets/explorer/exchange_tabs.py)."""
        self.audit = AuditTab(self.runtime, self.scope, self.policy)
        """The Audit tab and the marks on flagged tools, read once per listing (widgets/explorer/audit_tab.py)."""
        self._stop_following: Any = None
        self.connection.observe(lambda _c: self._on_connection(), names="value")
        self.filter.observe(lambda _c: self._show_tools(), names="value")
        self.tools.observe(lambda _c: self._on_tool(), names="value")
        self.history_select.observe(lambda _c: self._on_history(), names="value")
        self.refresh_button.on_click(lambda _b: self.refresh())
        self.rerun_button.on_click(lambda _b: self.rerun())
        self.export = HistoryExport(self.runtime, lambda: list(self.history), self.policy.for_viewers)
        """"Save as pytest": not offered to viewers (no widget they can reach writes a file)."""
        # Rows wrap and lists shrink instead of pushing past the notebook's width (a width of 100%
        # beside a button, plus the border and padding, made a horizontal scrollbar). A tab the
        # scope does not offer is not made at all: no widget of it exists for a browser to reach.
        scope = self.scope
        self._resources = (
            ResourcesTab(self.runtime, settings, timeout_seconds, offered=scope.resources)
            if scope.offers_resources
            else None
        )
        self._prompts = (
            PromptsTab(self.runtime, settings, timeout_seconds, offered=scope.prompts) if scope.offers_prompts else None
        )
        pages = panel_pages(
            tools=widgets.VBox(
                [
                    widgets.HBox([self.filter, self.count], layout=row_layout()),
                    self.tools,
                    self.audit.lines,
                    self.form_box,
                    widgets.HBox([self.history_select, self.rerun_button], layout=row_layout()),
                    self.export.widget,
                ]
            )
            if scope.offers_tools
            else None,
            resources=self._resources.widget if self._resources is not None else None,
            prompts=self._prompts.widget if self._prompts is not None else None,
        )
        pages += [("Audit", self.audit.widget)] if scope.offers_tools else []  # findings on tools it offers
        self.tabs = widgets.Tab(
            children=[page for _title, page in pages] + self.exchange.pages,
            titles=(*(title for title, _page in pages), *EXCHANGE_TITLES),
        )
        self.tabs.add_class(TABS_CLASS)
        self.widget = widgets.VBox(
            [
                widgets.HTML(TABS_STYLE),  # our own CSS, no server text: tabs wrap in a narrow notebook
                widgets.HBox([self.connection, self.refresh_button], layout=row_layout()),
                self.notice,
                self.instructions,
                self.tabs,
            ],
            layout=widgets.Layout(border="1px solid #c8c8c8", padding="6px", width="auto", max_width="100%"),
        )
        follow_connections(self.runtime, self._on_connection_event)
        self.refresh()

    # -- what a caller reads -------------------------------------------------------------------

    @property
    def server(self) -> McpServer | None:
        """The chosen connection, or ``None`` when there is none (or it closed)."""
        name = self.connection.value
        if not self.scope.allows_connection(name):
            return None  # checked in the kernel, whatever a browser sent
        try:
            return self.runtime.server(name)
        except AnviaError:
            return None

    @property
    def resources_tab(self) -> ResourcesTab:
        """The Resources tab; a panel that does not offer resources has none (an error)."""
        return offered_tab(self._resources, "resources")

    @property
    def prompts_tab(self) -> PromptsTab:
        """The Prompts tab; a panel that does not offer prompts has none (an error)."""
        return offered_tab(self._prompts, "prompts")

    def tool_names(self) -> list[str]:
        """The tool names the list shows now (after the filter)."""
        return [value for _label, value in self.tools.options]

    # -- actions -------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Read the open connections again; keep the chosen one when it is still open."""
        with self._sync_lock:
            self.closed_name = None
            self._sync()

    def _sync(self) -> None:
        with self._sync_lock:
            names = self.scope.names(self.runtime.names())
            current = self.connection.value
            options = [(plain(n), n) for n in names]
            if self.closed_name is not None and self.closed_name not in names:
                options.append((f"{plain(self.closed_name)} (closed)", self.closed_name))
            values = [value for _label, value in options]
            self._updating = True
            try:
                self.connection.options = options
                self.connection.value = current if current in values else (values[0] if values else None)
            finally:
                self._updating = False
            if self.closed_name is not None and self.connection.value == self.closed_name:
                self.notice.value = notice_html(closed_note(self.closed_name, self.policy))
            else:
                empty = self.scope.empty_note(self.runtime, self.policy, HOW_TO_CONNECT)
                self.notice.value = notice_html(empty, warn=self.policy.for_viewers) if not names else ""
            self._on_connection()

    def _on_connection_event(self, name: str, server: McpServer | None) -> None:
        """The runtime's event: ``name`` closed (``server`` None) or connected."""
        with self._sync_lock:
            if server is None and name == self.connection.value:
                self.closed_name = name
            elif server is not None and name == self.closed_name:
                self.closed_name = None
            self._sync()

    def select(self, connection: str | None = None, tool: str | None = None) -> ToolForm | None:
        """Choose a connection and/or a tool, as a person would with the controls; returns the form."""
        if connection is not None and connection != self.connection.value:
            self.connection.value = connection
        if tool is not None:
            if not self.scope.allows(tool):
                raise UnknownToolError(f"This panel does not offer the tool {tool!r}.", [])
            if tool not in self.tool_names():
                self.filter.value = ""
            self.tools.value = tool
        return self.form

    def rerun(self, index: int | None = None) -> bool:
        """Refill the form with a history entry's arguments and call (the selected entry by default)."""
        if index is None:
            index = self.history_select.value
        if index is None or not 0 <= index < len(self.history):
            return False
        entry = self.history[index]
        form = self.select(entry.server, entry.tool)
        if form is None or form.tool_name != entry.tool:
            return False
        form.arguments.set_value(dict(self._sent[index]))
        return form.call()

    # -- internals -----------------------------------------------------------------------------

    def _on_connection(self) -> None:
        if self._updating:
            return
        if self.closed_name is not None and self.connection.value != self.closed_name:
            self.closed_name = None  # the person chose another connection: forget the closed one
            self._sync()
            return
        self._show_instructions()
        self._show_tools()
        for tab in (self._resources, self._prompts):
            if tab is not None:
                tab.show(self.server)
        self._follow(self.server)

    def _follow(self, server: McpServer | None) -> None:
        """Show ``server`` in the tabs and re-list its tools when it says they changed."""
        if self.exchange.server is server:
            return
        if self._stop_following is not None:
            self._stop_following()
        self._stop_following = follow_changes(server, self._on_list_changed) if server is not None else None
        self.exchange.show(server)

    def _on_list_changed(self, name: str, what: str) -> None:
        """The server re-listed (``what``: tools, resources, prompts): show the new lists."""
        with self._sync_lock:
            if name == self.connection.value and what == "tools":
                self._show_tools()
            elif name == self.connection.value and what in ("resources", "resource") and self._resources is not None:
                self._resources.show(self.server)
            elif name == self.connection.value and what == "prompts" and self._prompts is not None:
                self._prompts.show(self.server)
            self.exchange.refresh()

    def _show_instructions(self) -> None:
        server, text = self.server, None
        if server is not None and not self.policy.for_viewers:  # written for the model and the author
            try:
                text = server.client.instructions
            except AnviaError:
                text = None
        if not isinstance(text, str) or not text.strip():
            self.instructions.value = ""
            self.instructions.layout.display = "none"
            return
        assert server is not None
        policy = ShowPolicy().with_secrets(server.secrets)
        label = f"instructions from server {policy.line(server.name, policy.limits.name_chars)}"
        self.instructions.value = server_text_html(
            label, policy.mask(text), tuple(policy.secrets), policy.limits.preview_chars
        )
        self.instructions.layout.display = None

    def _show_tools(self) -> None:
        if self.closed_name is not None and self.connection.value == self.closed_name:
            self.tools.disabled = True  # the list and the form stay, and say the connection closed
            self.count.value = "closed"
            return
        self.tools.disabled = False
        server = self.server
        offered = server is not None and self.scope.offers_tools
        tools = [t for t in server.tools if self.scope.allows(t.name)] if server is not None and offered else []
        views_only = sum(1 for t in tools if not t.info.for_cells)  # only its interactive view may call it
        tools = [t for t in tools if t.info.for_cells]
        words = self.filter.value.strip().lower()
        secrets = server.secrets if server is not None else ()
        self.audit.show(server)  # computed again only when a listing changed

        def matches(tool: Tool) -> bool:
            text = " ".join(str(t) for t in (tool.name, tool.info.shown_title or "", tool.info.description or ""))
            return words in text.lower()

        matching = [t for t in tools if not words or matches(t)]
        shown = matching[: self.policy.limits.choices]  # the list holds what a person can scroll
        previous = self.tools.value
        self._updating = True
        try:
            self.tools.options = [(tool_label(t, secrets, self.audit.mark(t.name)), t.name) for t in shown]
            self.audit.show_marks([t.name for t in shown])
            self.tools.rows = layout.list_rows(len(shown))
            names = [t.name for t in shown]
            self.tools.value = previous if previous in names else None
        finally:
            self._updating = False
        hidden = f" ({views_only} only a view may call: hidden)" if views_only else ""
        count = f"{len(matching)} of {len(tools)} tools{hidden}"
        if len(shown) < len(matching):
            count += f"; the first {len(shown)} listed, type in the filter to find the others"
        self.count.value = count if server is not None else ""
        self._on_tool()

    def _on_tool(self) -> None:
        if self._updating:
            return
        server, name = self.server, self.tools.value
        self.audit.show_note(name)
        if server is None or name is None or not self.scope.allows(name) or not self.scope.offers_tools:
            self.form = None
            self.form_box.children = ()
            return
        key = (server.name, name)  # a form follows its name across reconnects
        form = self._forms.get(key)
        if form is None:
            form = ToolForm(
                server.tool(name),
                runtime=self.runtime,
                settings=self.settings,
                timeout_seconds=self.timeout_seconds,
                max_time_seconds=self.max_time_seconds,
                app_offer=self.scope.page_offer(),
            )
            form.on_outcome(self._on_outcome)
            self._forms[key] = form
        self.form = form
        self.form_box.children = (form.widget,)

    def _on_outcome(self, form: ToolForm, outcome: CallOutcome | None) -> None:
        if outcome is None:
            return
        self.history = [*self.history[-(PANEL_CALLS_KEPT - 1) :], outcome.summary()]
        self._sent = [*self._sent[-(PANEL_CALLS_KEPT - 1) :], dict(outcome.arguments or {})]
        self.history_select.options = [
            (history_label(o, o.secrets), index) for index, o in reversed(list(enumerate(self.history)))
        ]
        self.history_select.value = len(self.history) - 1
        self.exchange.refresh()

    def _on_history(self) -> None:
        self.rerun_button.disabled = self.history_select.value is None

    # -- display -------------------------------------------------------------------------------

    def text(self) -> str:
        """What the panel is, as plain text (shown where widgets are not: GitHub, nbconvert, a terminal)."""
        return panel_text(
            self.runtime, self.scope, self.policy, closed_name=self.closed_name, form=self.form, calls=len(self.history)
        )

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return text_bundle(self.widget, self.text(), **kwargs)

    def __repr__(self) -> str:
        return f"<Panel {len(self.runtime.names())} connections, {len(self.history)} calls>"
