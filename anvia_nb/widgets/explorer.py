"""``Panel``: an MCP explorer in one widget: connections, tools, the form, results and history.

A person picks a connection, narrows the tool list with a filter, reads what the selected tool
is (provenance, title, description, hints, the destructive warning: the :class:`ToolForm`'s own
header), fills the form and calls. Calls made from this panel are listed in its history; an
entry can be run again with the same arguments. Every string a server chose reaches the screen
as plain text (Select options, Labels) or through the display layer's escaping.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from anvia_nb.core import McpServer, Tool
from anvia_nb.core.types import CallOutcome
from anvia_nb.display import RenderSettings
from anvia_nb.errors import AnviaError
from anvia_nb.runtime import Runtime, get_runtime
from anvia_nb.widgets._chrome import OPTION_CHARS, history_label, notice_html, plain, show_in_cell
from anvia_nb.widgets.tool_form import ToolForm

__all__ = ["Panel", "panel"]

HOW_TO_CONNECT = (
    "No open connections. Connect one with %mcp connect NAME --stdio COMMAND ARGS… (after %load_ext anvia_nb), "
    "or from Python with get_runtime().connect(mcp.stdio(name=…, command=…, args=[…])); then press Refresh."
)
_HISTORY_LIMIT = 200


def _tool_label(tool: Tool, secrets: tuple[str, ...]) -> str:
    title = tool.info.shown_title
    label = plain(tool.name, secrets, OPTION_CHARS)
    if isinstance(title, str) and title and title != tool.name:
        label += f" — {plain(title, secrets, OPTION_CHARS)}"
    return label


class Panel:
    """The explorer; display it, or put ``.widget`` in a layout."""

    def __init__(
        self,
        *,
        runtime: Runtime | None = None,
        settings: RenderSettings | None = None,
        timeout_seconds: float | None = None,
    ) -> None:
        self.runtime = runtime or get_runtime()
        self.settings = settings
        self.timeout_seconds = timeout_seconds
        self.history: list[CallOutcome] = []
        self.form: ToolForm | None = None
        self._forms: dict[tuple[int, str], ToolForm] = {}
        self._updating = False
        self.connection = widgets.Dropdown(options=[], description="Connection")
        self.refresh_button = widgets.Button(description="Refresh", icon="refresh",
                                             tooltip="read the open connections and their tools again")
        self.filter = widgets.Text(value="", placeholder="filter tools by name, title or description",
                                   description="Filter", continuous_update=True)
        self.tools = widgets.Select(options=[], rows=8, description="Tools",
                                    layout=widgets.Layout(width="100%"))
        self.count = widgets.Label(value="")
        self.notice = widgets.HTML(value="")
        self.form_box = widgets.VBox([])
        self.history_select = widgets.Select(options=[], rows=5, description="History",
                                             layout=widgets.Layout(width="100%"))
        self.rerun_button = widgets.Button(description="Run again", icon="repeat", disabled=True,
                                           tooltip="refill the form with these arguments and call")
        self.connection.observe(lambda _c: self._on_connection(), names="value")
        self.filter.observe(lambda _c: self._show_tools(), names="value")
        self.tools.observe(lambda _c: self._on_tool(), names="value")
        self.history_select.observe(lambda _c: self._on_history(), names="value")
        self.refresh_button.on_click(lambda _b: self.refresh())
        self.rerun_button.on_click(lambda _b: self.rerun())
        self.widget = widgets.VBox([
            widgets.HBox([self.connection, self.refresh_button]),
            self.notice,
            widgets.HBox([self.filter, self.count]),
            self.tools,
            self.form_box,
            widgets.HBox([self.history_select, self.rerun_button]),
        ], layout=widgets.Layout(border="1px solid #c8c8c8", padding="6px"))
        self.refresh()

    # -- what a caller reads -------------------------------------------------------------------

    @property
    def server(self) -> McpServer | None:
        """The chosen connection, or ``None`` when there is none (or it closed)."""
        name = self.connection.value
        if not name:
            return None
        try:
            return self.runtime.server(name)
        except AnviaError:
            return None

    def tool_names(self) -> list[str]:
        """The tool names the list shows now (after the filter)."""
        return [value for _label, value in self.tools.options]

    # -- actions -------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Read the open connections again; keep the chosen one when it is still open."""
        names = self.runtime.names()
        current = self.connection.value
        self._updating = True
        try:
            self.connection.options = [(plain(n), n) for n in names]
            self.connection.value = current if current in names else (names[0] if names else None)
        finally:
            self._updating = False
        self.notice.value = notice_html(HOW_TO_CONNECT) if not names else ""
        self._on_connection()

    def select(self, connection: str | None = None, tool: str | None = None) -> ToolForm | None:
        """Choose a connection and/or a tool, as a person would with the controls; returns the form."""
        if connection is not None and connection != self.connection.value:
            self.connection.value = connection
        if tool is not None:
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
        form.arguments.set_value(dict(entry.arguments or {}))
        return form.call()

    # -- internals -----------------------------------------------------------------------------

    def _on_connection(self) -> None:
        if self._updating:
            return
        self._show_tools()

    def _show_tools(self) -> None:
        server = self.server
        tools = server.tools if server is not None else []
        words = self.filter.value.strip().lower()
        secrets = server.secrets if server is not None else ()

        def matches(tool: Tool) -> bool:
            text = " ".join(str(t) for t in (tool.name, tool.info.shown_title or "", tool.info.description or ""))
            return words in text.lower()

        shown = [t for t in tools if not words or matches(t)]
        previous = self.tools.value
        self._updating = True
        try:
            self.tools.options = [(_tool_label(t, secrets), t.name) for t in shown]
            names = [t.name for t in shown]
            self.tools.value = previous if previous in names else None
        finally:
            self._updating = False
        self.count.value = f"{len(shown)} of {len(tools)} tools" if server is not None else ""
        self._on_tool()

    def _on_tool(self) -> None:
        if self._updating:
            return
        server, name = self.server, self.tools.value
        if server is None or name is None:
            self.form = None
            self.form_box.children = ()
            return
        key = (id(server), name)
        form = self._forms.get(key)
        if form is None:
            form = ToolForm(
                server.tool(name),
                runtime=self.runtime,
                settings=self.settings,
                timeout_seconds=self.timeout_seconds,
                lookup=self._lookup(server.name, name),
            )
            form.on_outcome(self._on_outcome)
            self._forms[key] = form
        self.form = form
        self.form_box.children = (form.widget,)

    def _lookup(self, connection: str, tool: str) -> Any:
        def lookup() -> Tool:
            return self.runtime.server(connection).tool(tool)

        return lookup

    def _on_outcome(self, form: ToolForm, outcome: CallOutcome | None) -> None:
        if outcome is None:
            return
        self.history = [*self.history[-(_HISTORY_LIMIT - 1):], outcome]
        self.history_select.options = [
            (history_label(o, o.secrets), index) for index, o in reversed(list(enumerate(self.history)))
        ]
        self.history_select.value = len(self.history) - 1

    def _on_history(self) -> None:
        self.rerun_button.disabled = self.history_select.value is None

    # -- display -------------------------------------------------------------------------------

    def _ipython_display_(self) -> None:
        show_in_cell(self.widget)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        return f"<Panel {len(self.runtime.names())} connections, {len(self.history)} calls>"


def panel(
    *, runtime: Runtime | None = None, settings: RenderSettings | None = None, timeout_seconds: float | None = None
) -> Panel:
    """The explorer over the kernel's runtime (or ``runtime``): works with zero connections too.

    ``settings`` and ``timeout_seconds`` apply to every call made from it (``%mcp panel`` passes
    the ``%config McpMagics`` values)."""
    return Panel(runtime=runtime, settings=settings, timeout_seconds=timeout_seconds)
