"""What ``form()`` gives for a name, and the form of a tool whose connection never opened.

On a dashboard a connect may fail softly (``%mcp connect … --soft``, or any connect with
``hide_server_errors``) and the notebook goes on to its forms. A form of that connection cannot
be built (the tool's schema is unknown), but it must not stop the page either: ``form()`` then
gives an :class:`UnavailableForm`, which says the server is not available (in a viewer's words
when server errors are hidden) and becomes the tool's form as soon as the name connects. A name
that was never connected at all is still a one-line error for the author (a typo).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from anvia_nb.core import McpServer, Tool
from anvia_nb.display import RenderSettings
from anvia_nb.display.chrome import notice_html
from anvia_nb.errors import AnviaError, InvalidTypeError, UnknownToolError
from anvia_nb.runtime import Runtime
from anvia_nb.widgets._chrome import follow_connections, never_opened_note, text_bundle
from anvia_nb.widgets.forms.tool_form import ToolForm
from anvia_nb.widgets.viewer_page import page_settings

__all__ = ["FormMaker", "UnavailableForm", "form_for", "never_opened"]

FormMaker = Callable[[Tool, Callable[[], Tool] | None], ToolForm]
"""``make(tool, lookup)``: the :class:`ToolForm` of ``tool`` with the options ``form()`` was given."""


def never_opened(runtime: Runtime, name: str) -> bool:
    """Whether ``name`` is a connection that failed to open (its log is all that is left of it)."""
    if name in runtime.names():
        return False
    try:
        runtime.log(name)
    except AnviaError:
        return False
    return True


class UnavailableForm:
    """Stands where a tool's form would be while its connection is not open; display it, or put
    ``.widget`` in a layout. ``form`` is the real :class:`ToolForm` once the name connects."""

    def __init__(
        self,
        server_name: str,
        tool_name: str,
        *,
        runtime: Runtime,
        settings: RenderSettings | None = None,
        make: FormMaker | None = None,
    ) -> None:
        self.runtime = runtime
        self.server_name, self.tool_name = server_name, tool_name
        self.settings = page_settings(settings)  # the kernel's viewer switch, however it was built
        self._make = make
        """Makes the real form (``form()`` passes its options this way); without it, a plain one."""
        self.policy = self.settings.policy()
        self.message = never_opened_note(server_name, self.policy)
        self.notice = widgets.HTML(notice_html(self.message, warn=True))
        self.widget = widgets.VBox([self.notice])
        self.form: ToolForm | None = None
        follow_connections(runtime, self._on_connection)

    @property
    def closed(self) -> bool:
        """True until the connection opens and the real form stands here."""
        return self.form is None

    def _on_connection(self, name: str, server: McpServer | None) -> None:
        if name != self.server_name or server is None or self.form is not None:
            return
        try:
            tool = server.tool(self.tool_name)
        except UnknownToolError:
            return  # the notice stays: this server has no such tool
        runtime, tool_name = self.runtime, self.tool_name

        def lookup() -> Tool:  # a reconnected name gets the new session's tool
            return runtime.server(name).tool(tool_name)

        if self._make is not None:
            self.form = self._make(tool, lookup)
        else:
            self.form = ToolForm(tool, runtime=runtime, settings=self.settings, lookup=lookup)
        self.widget.children = (self.form.widget,)

    def text(self) -> str:
        return self.form.text() if self.form is not None else self.message

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return text_bundle(self.widget, self.text(), **kwargs)

    def __repr__(self) -> str:
        return f"<UnavailableForm {self.policy.name(self.server_name)}.{self.policy.name(self.tool_name)}>"


def _split_target(target: str, runtime: Runtime) -> tuple[str, str]:
    """``"NAME.TOOL"``: prefer the split whose NAME is an open connection (tool names may hold dots)."""
    if "." not in target:
        raise UnknownToolError(f"Name the tool as NAME.TOOL, not {target!r}.")
    names = set(runtime.names())
    for index, char in enumerate(target):
        if char == "." and target[:index] in names:
            return target[:index], target[index + 1 :]
    name, _, tool = target.partition(".")
    return name, tool


def form_for(
    target: str | tuple[str, str] | Tool,
    tool: str | None,
    *,
    runtime: Runtime,
    settings: RenderSettings | None,
    make: FormMaker,
) -> ToolForm | UnavailableForm:
    """What :func:`anvia_nb.widgets.form` gives for ``target``: ``make(tool, lookup)``, or an
    :class:`UnavailableForm` (that makes it later) when the connection failed to open.

    Unknown names raise :class:`UnknownConnectionError` / :class:`UnknownToolError` (one line,
    with close names); a connection that failed to open gives an :class:`UnavailableForm`.
    """
    if isinstance(target, Tool):
        return make(target, None)
    if isinstance(target, tuple):
        if len(target) != 2 or tool is not None:
            raise InvalidTypeError("form() takes ('NAME', 'TOOL') as one pair")
        name, tool_name = target
    elif tool is not None:
        name, tool_name = target, tool
    else:
        name, tool_name = _split_target(target, runtime)
    if never_opened(runtime, name):
        return UnavailableForm(name, tool_name, runtime=runtime, settings=settings, make=make)
    found = runtime.server(name).tool(tool_name)

    def lookup() -> Tool:
        server: McpServer = runtime.server(name)  # a reconnected name gets the new session's tool
        return server.tool(tool_name)

    return make(found, lookup)
