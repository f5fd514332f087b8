"""``AppView``: a tool's interactive view (MCP Apps) in the notebook, and what it said.

The view's HTML runs in the sandboxed frame of :mod:`anvia_nb.widgets.apps.frame` (``AppFrame``);
its requests reach the kernel through an :class:`~anvia_nb.runtime.app_bridge.AppBridge`, which
carries out only what a view may ask. Around the frame this object shows, as server text, the
links the view offered (a person may follow them; nothing is opened by itself), its messages
(:attr:`AppView.app_messages`) and the context it set for a model (:attr:`AppView.model_context`).

It sends the view the call's input (``ui/notifications/tool-input``) and its result
(``ui/notifications/tool-result``, the CallToolResult as JSON, masked), or says the call ended
without one (``ui/notifications/tool-cancelled``); it is torn down (``ui/resource-teardown``) when
its connection closes or :meth:`AppView.teardown` is called. Where no kernel runs (nbconvert,
GitHub) it reads as one line: the tool has an interactive view that needs a live kernel.

A view belongs to the widget that shows it, and is held to what that widget is held to: the same
settings (:func:`~anvia_nb.widgets.viewer_page.page_settings`: on a page for viewers, no server
error text in anything the view is told), the form's fixed arguments (``fixed``), and the page's
offer (a scoped panel's; under viewer mode, its own tool).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from anvia_nb.core import McpServer, Tool
from anvia_nb.core.protocol.apps import AppHandler, AppRequestRefused, AppResource
from anvia_nb.core.protocol.limits import DEFAULT, Default
from anvia_nb.core.protocol.types import CallOutcome
from anvia_nb.display import RenderSettings, ResultView, notice_html
from anvia_nb.display.app_notes import app_links_html, app_messages_html, app_static_text
from anvia_nb.display.chrome import tool_header_html
from anvia_nb.display.model_context import model_context_from_app
from anvia_nb.errors import AnviaError, InvalidValueError
from anvia_nb.runtime import Runtime, get_runtime
from anvia_nb.runtime.app_bridge import AppBridge, PageOffer
from anvia_nb.widgets._chrome import follow_connections, text_bundle
from anvia_nb.widgets.viewer_page import page_settings

if TYPE_CHECKING:
    from anvia_nb.widgets.apps.frame import AppFrame

__all__ = ["HOST_CONTEXT", "AppShown", "AppView", "app_after_call", "open_app", "tool_to_open"]

HOST_CONTEXT: dict[str, Any] = {
    "theme": "light",
    "displayMode": "inline",
    "availableDisplayModes": ["inline"],
    "platform": "web",
}
"""What the kernel tells a view of its host in the ``ui/initialize`` answer (the frame adds its size)."""


def _frame(resource: AppResource, handler: AppHandler, host_context: Mapping[str, Any]) -> AppFrame:
    """The sandboxed frame showing ``resource``. Imported here, not above: anywidget then loads with
    the first view, not with every form (tool_form imports this module)."""
    from anvia_nb.widgets.apps.frame import AppFrame

    return AppFrame(resource, handler, host_context=host_context)


class AppView:
    """One tool's interactive view: display it, or put ``.widget`` in a layout."""

    def __init__(
        self,
        server: McpServer,
        tool: str,
        resource: AppResource,
        *,
        runtime: Runtime | None = None,
        settings: RenderSettings | None = None,
        timeout_seconds: float | Default | None = DEFAULT,
        host_context: Mapping[str, Any] | None = None,
        offer: PageOffer | None = None,
        fixed: Mapping[str, Any] | None = None,
    ) -> None:
        self.runtime = runtime or get_runtime()
        self.settings = page_settings(settings)
        if offer is None and self.settings.hide_server_errors:  # a page for viewers: this tool only
            offer = PageOffer(tools=frozenset({tool}))
        self.server_name = server.name
        self.tool_name = tool
        self.resource = resource
        self.secrets = server.secrets
        self.policy = self.settings.policy(self.secrets)
        self.bridge = AppBridge(
            self.runtime,
            server,
            tool,
            resource.uri,
            timeout_seconds=timeout_seconds,
            offer=offer,
            policy=self.policy,
            fixed={tool: fixed} if fixed else None,
        )
        """Answers the view's requests (the calls it makes are in ``%mcp history``, marked as from the app)."""
        self.bridge.on_change(lambda _what: self._show_notes())
        self.frame = _frame(resource, self.bridge, {**HOST_CONTEXT, **(host_context or {})})
        self.header = widgets.HTML(tool_header_html(server.tool(tool).info, self.secrets))
        self.links = widgets.HTML("")
        self.notes = widgets.HTML("")
        self.status = widgets.HTML("")
        self.widget = widgets.VBox([self.header, self.frame, self.links, self.notes, self.status])
        self.torn_down = False
        self.result: ResultView | None = None
        """The result view of the call the view was opened with (``anvia_nb.app(...)``), if any."""
        follow_connections(self.runtime, self._on_connection)

    # -- what the view said --------------------------------------------------------------------

    @property
    def app_messages(self) -> list[dict[str, Any]]:
        """The view's messages (``ui/message``: ``role``, ``content``), oldest first, bounded and masked."""
        return [dict(message) for message in self.bridge.messages]

    @property
    def model_context(self) -> dict[str, Any] | None:
        """The context the view last set for a model (``ui/update-model-context``), or ``None``."""
        context = self.bridge.model_context
        return None if context is None else dict(context)

    def model_context_text(self) -> str:
        """:attr:`model_context` as text for a model: fenced and marked as untrusted data, like
        ``ResultView.model_context()``."""
        return model_context_from_app(self.server_name, self.tool_name, self.model_context, self.secrets, self.settings)

    @property
    def offered_links(self) -> list[str]:
        """The links the view offered (http or https), oldest first; none was opened."""
        return list(self.bridge.links)

    # -- what the view is told -----------------------------------------------------------------

    def send_input(self, arguments: Mapping[str, Any] | None) -> None:
        """``ui/notifications/tool-input``: the arguments of the call the view shows (masked)."""
        self.frame.notify("ui/notifications/tool-input", {"arguments": self.policy.mask_json(dict(arguments or {}))})

    def send_result(self, outcome: CallOutcome) -> None:
        """``ui/notifications/tool-result`` (the CallToolResult, masked), or ``tool-cancelled`` with
        the reason when the call ended without a result (or with one too large to send)."""
        if outcome.raw is None:
            self.frame.notify("ui/notifications/tool-cancelled", {"reason": self.bridge.failure(outcome)})
            return
        try:
            result = self.bridge.for_view(outcome.raw)
        except AppRequestRefused as refused:
            self.frame.notify("ui/notifications/tool-cancelled", {"reason": refused.message})
            return
        self.frame.notify("ui/notifications/tool-result", result)

    def teardown(self) -> None:
        """Tell the view it is going (``ui/resource-teardown``) and close it; its requests are refused after."""
        if self.torn_down:
            return
        self.torn_down = True
        self.bridge.close()
        self.frame.teardown()
        self.status.value = notice_html(
            f"The interactive view of {self.policy.name(self.server_name)}.{self.policy.name(self.tool_name)} "
            "was closed."
        )

    # -- around the frame ----------------------------------------------------------------------

    def _show_notes(self) -> None:
        self.links.value = app_links_html(self.offered_links, self.secrets)
        self.notes.value = app_messages_html(self.app_messages, self.model_context, self.secrets)

    def _on_connection(self, name: str, server: McpServer | None) -> None:
        if name == self.server_name and server is not self.bridge.server:
            self.teardown()  # closed, or connected again as another session

    def text(self) -> str:
        """What the view is where no kernel runs: one line."""
        return app_static_text(self.server_name, self.tool_name, self.resource.uri, self.policy)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        bundle = text_bundle(self.widget, self.text(), **kwargs)
        bundle["text/html"] = notice_html(self.text())
        return bundle

    def __repr__(self) -> str:
        state = "torn down" if self.torn_down else "open"
        return f"<AppView {self.policy.name(self.server_name)}.{self.policy.name(self.tool_name)} {state}>"


def tool_to_open(target: str | Tool, runtime: Runtime) -> Tool:
    """The tool ``target`` names (``"NAME.TOOL"`` of the runtime, or a :class:`Tool`), checked to
    have a view that cells may open; one-line errors otherwise."""
    if isinstance(target, Tool):
        tool = target
    elif isinstance(target, str) and "." in target:
        name, _, tool_name = target.partition(".")
        tool = runtime.server(name).tool(tool_name)
    else:
        raise InvalidValueError(f"Name the tool as NAME.TOOL (e.g. demo.counter_app) or give a Tool, not {target!r}.")
    where = f"{tool.server.name}.{tool.name}"
    if tool.info.app is None:
        raise InvalidValueError(f"{where} has no interactive view: call it as any tool.")
    if not tool.info.for_cells:
        raise InvalidValueError(f"{where} is for its interactive view only: its server shows it to no cell.")
    return tool


def open_app(
    tool: Tool,
    arguments: Mapping[str, Any] | None = None,
    outcome: CallOutcome | None = None,
    *,
    runtime: Runtime | None = None,
    settings: RenderSettings | None = None,
    timeout_seconds: float | Default | None = DEFAULT,
) -> AppView:
    """The view of ``tool``, fetched from its server (blocking: not on the runtime's loop), shown
    the call's ``arguments`` and, when given, its ``outcome``. A tool without a view, or a view
    that is not one, is a one-line :class:`~anvia_nb.errors.InvalidValueError`."""
    runtime = runtime or get_runtime()
    server = tool.server
    if not isinstance(server, McpServer):
        raise InvalidValueError(f"{tool!r} is not a tool of a connected server.")
    resource = runtime.run(server.app(tool.name, timeout_seconds=timeout_seconds))
    view = AppView(server, tool.name, resource, runtime=runtime, settings=settings, timeout_seconds=timeout_seconds)
    view.send_input(arguments)
    if outcome is not None:
        view.send_result(outcome)
        view.result = ResultView(outcome, view.settings)
    return view


@dataclass(frozen=True)
class AppShown:
    """What a form shows of a tool's view after a call: the view (``None`` when there is none, or
    it could not be shown) and its outputs (the view, or one note saying why it is not shown)."""

    view: AppView | None = None
    outputs: tuple[dict[str, Any], ...] = ()


async def app_after_call(
    tool: Tool,
    arguments: Mapping[str, Any] | None,
    outcome: CallOutcome,
    *,
    runtime: Runtime,
    settings: RenderSettings | None = None,
    timeout_seconds: float | Default | None = DEFAULT,
    offer: PageOffer | None = None,
    fixed: Mapping[str, Any] | None = None,
) -> AppShown:
    """On the runtime's loop, after a form's call: the view of ``tool`` (when it has one), shown the
    call's ``arguments`` and ``outcome``, its calls of ``tool`` held to the form's ``fixed`` arguments."""
    server = tool.server
    if tool.info.app is None or not isinstance(server, McpServer):
        return AppShown()
    try:
        resource = await server.app(tool.name, timeout_seconds=timeout_seconds)
    except AnviaError as error:
        policy = page_settings(settings).policy(server.secrets)
        note = f"The interactive view of {policy.name(server.name)}.{policy.name(tool.name)} is not shown: "
        note += policy.error_line(error, policy.limits.text_chars)
        return AppShown(
            outputs=(
                {
                    "output_type": "display_data",
                    "metadata": {},
                    "data": {"text/plain": note, "text/html": notice_html(note, warn=True)},
                },
            )
        )
    view = AppView(
        server,
        tool.name,
        resource,
        runtime=runtime,
        settings=settings,
        timeout_seconds=timeout_seconds,
        offer=offer,
        fixed=fixed,
    )
    view.send_input(arguments)
    view.send_result(outcome)
    return AppShown(view, ({"output_type": "display_data", "metadata": {}, "data": view._repr_mimebundle_()},))
