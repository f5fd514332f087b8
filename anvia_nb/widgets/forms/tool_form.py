"""``ToolForm``: one tool as a form with a Call button, progress, Cancel and a result area.

A person fills the arguments (the :class:`ArgumentsForm` built from the tool's inputSchema) and
presses Call. The call runs on the runtime's background loop, so the button's handler returns at
once and the kernel stays free: widget messages (Cancel, an elicitation prompt's buttons) keep
arriving while the server works. Progress notifications, the result and every state change are
pushed to the widgets from the loop thread, which ipywidgets sends fine.

Before anything is sent, the form says what the tool is (server · tool, in anvia_nb's chrome), what the
server claims about it (annotation hints), and warns visibly when it declares itself destructive.
"""

from __future__ import annotations

import concurrent.futures
import threading
from collections.abc import Callable, Coroutine
from typing import Any

import ipywidgets as widgets

from anvia_nb.core import McpServer, Tool
from anvia_nb.core.api.features import ConnectedServer
from anvia_nb.core.protocol.limits import DEFAULT, Default
from anvia_nb.core.protocol.types import CallOutcome, ToolInfo
from anvia_nb.display import RenderSettings, ResultView, bundle_from_error
from anvia_nb.display.app_notes import app_note_html
from anvia_nb.display.chrome import destructive_warning_html, is_destructive, notice_html, tool_header_html
from anvia_nb.errors import AnviaError, InvalidValueError, UnknownToolError, WaitTimeoutError
from anvia_nb.runtime import Runtime, get_runtime
from anvia_nb.runtime.app_bridge import PageOffer
from anvia_nb.widgets._chrome import (
    closed_note,
    follow_connections,
    form_text,
    plain,
    required_but_empty,
    result_area,
    text_bundle,
    text_label,
)
from anvia_nb.widgets.apps.view import AppShown, app_after_call
from anvia_nb.widgets.fields.arguments_form import ArgumentsForm
from anvia_nb.widgets.fields.fixed import checked_fixed
from anvia_nb.widgets.fields.leaf import wrapping_view
from anvia_nb.widgets.forms.argument_memory import forget_arguments, remember_arguments, remembered_arguments
from anvia_nb.widgets.forms.call_progress import CallProgress
from anvia_nb.widgets.forms.link_reads import LinkReads
from anvia_nb.widgets.forms.previous_result import PreviousResult
from anvia_nb.widgets.prompts.elicitation import ElicitationPrompt, ensure_elicitation, hosting
from anvia_nb.widgets.prompts.in_form import FormPrompts
from anvia_nb.widgets.viewer_page import page_settings

__all__ = ["ToolForm", "forget_arguments", "remembered_arguments"]


def _display_data(bundle: dict[str, Any]) -> dict[str, Any]:
    return {"output_type": "display_data", "data": bundle, "metadata": {}}


def _note_output(message: str) -> dict[str, Any]:
    return _display_data({"text/plain": message, "text/html": notice_html(message)})


class ToolForm:
    """The form of one tool; display it, or put ``.widget`` in a layout."""

    def __init__(
        self,
        tool: Tool,
        *,
        runtime: Runtime | None = None,
        settings: RenderSettings | None = None,
        timeout_seconds: float | Default | None = DEFAULT,
        max_time_seconds: float | Default | None = DEFAULT,
        elicitation: bool = True,
        initial: dict[str, Any] | None = None,
        lookup: Callable[[], Tool] | None = None,
        readonly_arguments: dict[str, Any] | None = None,
        app_offer: PageOffer | None = None,
    ) -> None:
        if not tool.info.for_cells:  # MCP Apps: a tool its server shows only to its view
            target = f"{tool.server.name}.{tool.name}"
            raise InvalidValueError(f"{target} is for its interactive view only: no form calls it.")
        self.runtime = runtime or get_runtime()
        self.settings = page_settings(settings)  # the kernel's viewer switch, however the form was built
        self.timeout_seconds = timeout_seconds
        """Bounds each call: by default ``DEFAULT_CALL_TIMEOUT_SECONDS`` (see ``core.limits``),
        as every call in the package; ``None`` only when given: no limit."""
        self.max_time_seconds = max_time_seconds
        """Bounds each call as a whole, progress or not (``core.limits.DEFAULT_CALL_MAX_SECONDS``)."""
        self.elicitation = elicitation
        self.app_offer = app_offer
        """What the tool's interactive view may reach on a page for viewers (a scoped panel's)."""
        self._tool = tool
        self._lookup = lookup
        info = tool.info
        self.server_name = tool.server.name
        self.tool_name = info.name
        self.secrets = tool.server.secrets
        self.policy = self.settings.policy(self.secrets)
        self.readonly_arguments = checked_fixed(info, readonly_arguments, self.policy)
        """Arguments a viewer may not change: shown disabled, always sent as given."""
        self.closed = False
        """Whether the connection this form calls is closed (it says so in place, Call disabled)."""
        self.status = widgets.HTML("", layout=widgets.Layout(display="none"))
        self.header = widgets.HTML()
        self.warning = widgets.HTML()
        self._show_tool(info)
        start = initial if initial is not None else remembered_arguments(self.server_name, self.tool_name)
        self.arguments = self._arguments_form(info, start)
        destructive = is_destructive(info)
        self.call_button = widgets.Button(
            description="Call (destructive)" if destructive else "Call",
            button_style="danger" if destructive else "primary",
            icon="play",
            tooltip=f"call {plain(self.server_name, self.secrets)} · {plain(self.tool_name, self.secrets)}",
        )
        self.cancel_button = widgets.Button(
            description="Cancel", icon="stop", disabled=True, tooltip="cancel the running call (the server is told)"
        )
        self.call_button.on_click(lambda _b: self.call())
        self.cancel_button.on_click(lambda _b: self.cancel())
        self.reason = text_label(value="")
        self.call_progress = CallProgress()
        self.progress, self.progress_message = self.call_progress.bar, self.call_progress.message
        self.prompts = FormPrompts(self.policy.limits.prompts)
        self.prompt_area, self.prompt_note = self.prompts.box, self.prompts.note
        self.output = widgets.Output()
        self.links = LinkReads(self.runtime, timeout_seconds)  # a result's resource links, read on request
        self.previous = PreviousResult(self)  # a note over the last result once the values differ
        self.result_area = result_area([self.prompt_area, self.prompt_note, self.output, self.links.box])
        self.widget = widgets.VBox(
            [
                self.status,
                self.header,
                self.warning,
                self.arguments.widget,
                widgets.HBox([self.call_button, self.cancel_button]),
                wrapping_view(self.reason),
                self.call_progress.widget,
                self.previous.note,
                self.result_area,
            ]
        )
        self.last_outcome: CallOutcome | None = None
        self.result: ResultView | None = None
        self.app = AppShown()
        """The tool's interactive view after the last call (``.view``: the AppView), if it has one."""
        self.last_error: BaseException | None = None
        self._call: Coroutine[Any, Any, CallOutcome] | None = None
        self._running = False
        self._settled = threading.Event()
        """Set once a call has ended *and* everything showing it (widgets, on_outcome callbacks,
        the panel's history) is up to date: what :meth:`wait` waits for."""
        self._settled.set()
        self._state_lock = threading.Lock()
        self._callbacks: list[Callable[[ToolForm, CallOutcome | None], None]] = []
        self._follows = self._is_runtime_session(tool.server)
        """Whether the tool's session is the runtime's under its name (a server opened with
        ``connect_mcp`` outside the runtime is not followed across the runtime's reconnects)."""
        follow_connections(self.runtime, self._on_connection)
        self._refresh()

    # -- what a caller reads -------------------------------------------------------------------

    @property
    def info(self) -> ToolInfo:
        return self._tool.info

    @property
    def running(self) -> bool:
        return self._running

    def problems(self) -> list[str]:
        """Why Call is disabled now: a closed connection, the arguments' problems, then empty
        required fields."""
        if self.closed:
            if self.policy.for_viewers:
                return [self.policy.viewer_line(None, self.server_name)]
            return [f"the connection {plain(self.server_name, self.secrets)} is closed"]
        problems = self.arguments.problems
        if problems or self.arguments.json_mode:  # JSON mode is the way to send an explicit ""
            return problems
        return required_but_empty(self.arguments.value, self.info.required, self.secrets)

    def on_outcome(self, callback: Callable[[ToolForm, CallOutcome | None], None]) -> None:
        """Call ``callback(form, outcome)`` after each call ends (``outcome`` is None when none arrived)."""
        self._callbacks.append(callback)

    # -- actions -------------------------------------------------------------------------------

    def call(self) -> bool:
        """What the Call button does: start the call in the background; False when it cannot start."""
        with self._state_lock:
            if self.running or self.problems():
                self._refresh()
                return False
            self._running = True
            self._settled.clear()
        arguments = self.arguments.value
        try:
            tool = self._lookup() if self._lookup is not None else self._tool
        except AnviaError as error:
            self._show_error(error)
            self._running = False
            self._refresh()
            self._settled.set()
            return False
        self._tool = tool
        remember_arguments(self.server_name, self.tool_name, arguments)
        self.output.outputs = ()
        self.prompts.clear()
        self.call_progress.start()
        self._refresh()
        self._call = self._run(tool, arguments)
        self.runtime.loop.submit(self._call).add_done_callback(self._finished)
        return True

    def cancel(self) -> None:
        """Cancel the running call: the request is cancelled on the server, and the form is usable
        again once the call has wound down (prompts it hosted withdrawn), which :meth:`wait` waits for."""
        call, self._call = self._call, None  # once: a second cancel would cut its cleanup short
        if call is not None:
            self.runtime.loop.cancel(call)  # the call's future ends after its task has

    def wait(self, timeout_seconds: float = 30.0) -> CallOutcome | None:
        """Block until the running call ends and the widgets show it (for tests and scripts)."""
        if not self._settled.wait(timeout_seconds):
            raise WaitTimeoutError(f"{self.server_name}.{self.tool_name} is still running after {timeout_seconds} s")
        return self.last_outcome

    # -- the call, on the background loop ------------------------------------------------------

    async def _run(self, tool: Tool, arguments: dict[str, Any]) -> CallOutcome:
        if self.elicitation:
            ensure_elicitation(tool.server)
        with hosting(tool.server.client, self):
            outcome = await tool.call_outcome(
                arguments,
                timeout_seconds=self.timeout_seconds,
                max_time_seconds=self.max_time_seconds,
                on_progress=self._on_progress,
            )
        self.runtime.record(outcome)
        self.app = await app_after_call(
            tool,
            arguments,
            outcome,
            runtime=self.runtime,
            settings=self.settings,
            timeout_seconds=self.timeout_seconds,
            offer=self.app_offer,
            fixed=self.readonly_arguments,
        )  # its view, held to the same fixed arguments
        return outcome

    async def _on_progress(self, progress: float, total: float | None, message: str | None) -> None:
        if self.running:
            self.call_progress.show(progress, total, message, self.secrets)

    @property
    def refused_prompts(self) -> int:
        """Requests for input cancelled in this call because the form showed as many as it may."""
        return self.prompts.refused

    def make_room(self) -> bool:
        """Whether a server's next request for input may be shown here (see :class:`FormPrompts`)."""
        return self.prompts.make_room()

    def show_prompt(self, prompt: ElicitationPrompt) -> None:
        """Where a server's request for input appears while this form's call runs."""
        self.prompts.show(prompt)

    def _finished(self, future: concurrent.futures.Future[CallOutcome]) -> None:
        outcome: CallOutcome | None = None
        try:
            if future.cancelled():
                self.output.outputs = (
                    _note_output(
                        f"Cancelled: the call to {plain(self.server_name, self.secrets)} · "
                        f"{plain(self.tool_name, self.secrets)} was cancelled on the server."
                    ),
                )
                self.progress.bar_style = "warning"
            elif future.exception() is not None:
                self._show_error(future.exception())
            else:
                outcome = future.result()
                self.last_outcome, self.last_error = outcome, None
                self.result = ResultView(outcome, self.settings, reader=self.links.reader(self._tool.server))
                self.output.outputs = (*self.app.outputs, _display_data(self.result._repr_mimebundle_()))
                self.progress.bar_style = "danger" if outcome.is_error else "success"
            self.prompts.cancel_waiting("The call ended before an answer; nothing was sent.")
            self.progress_message.value = ""
            self.links.show(self.result if outcome is not None else None)
        finally:
            self._running = False
            self._refresh()
        try:
            for callback in list(self._callbacks):  # before wait() returns: the panel's history too
                callback(self, outcome)
        finally:
            self._settled.set()

    def _show_error(self, error: BaseException | None) -> None:
        self.last_error = error
        if error is not None:
            bundle = bundle_from_error(self.server_name, self.tool_name, error, self.secrets, self.settings)
            self.output.outputs = (_display_data(bundle),)

    # -- the connection closing and coming back ------------------------------------------------

    def _on_connection(self, name: str, server: McpServer | None) -> None:
        """The runtime's event for ``name``: closed (``server`` is None) or connected again."""
        if name != self.server_name or not self._follows:
            return
        if server is None:
            self._say(closed_note(name, self.policy))
        else:
            try:
                tool = server.tool(self.tool_name)
            except UnknownToolError:
                self._say(
                    f"{self.policy.line(name, self.policy.limits.name_chars)} is connected again, but has no "
                    f"tool {self.policy.line(self.tool_name, self.policy.limits.name_chars)}."
                )
            else:
                self._attach(tool)
        self._refresh()

    def _is_runtime_session(self, server: ConnectedServer) -> bool:
        try:
            return self.runtime.server(self.server_name) is server
        except AnviaError:
            return False

    def _say(self, message: str) -> None:
        self.closed = True
        self.status.value = notice_html(message)
        self.status.layout.display = None

    def _attach(self, tool: Tool) -> None:
        """Use the new session's tool: its header, and its schema when that changed."""
        old = self._tool.info
        self._tool = tool
        self.secrets = tool.server.secrets
        self.policy = self.settings.policy(self.secrets)
        self._show_tool(tool.info)
        if tool.info.input_schema != old.input_schema:
            kept = self.arguments.value if self.arguments.valid else None
            self.arguments = self._arguments_form(tool.info, kept)
            children = list(self.widget.children)
            children[3] = self.arguments.widget
            self.widget.children = tuple(children)
        self.closed = False
        self.status.value = ""
        self.status.layout.display = "none"

    def _show_tool(self, info: ToolInfo) -> None:
        self.header.value = tool_header_html(info, self.secrets) + app_note_html(
            self.server_name, info.name, info.app is not None, self.secrets
        )
        warning = destructive_warning_html(info, self.secrets)
        self.warning.value = warning
        self.warning.layout.display = None if warning else "none"

    def _arguments_form(self, info: ToolInfo, initial: dict[str, Any] | None) -> ArgumentsForm:
        arguments = ArgumentsForm(info, initial=initial, secrets=self.secrets, fixed=self.readonly_arguments)
        arguments.on_change(lambda _form: self._refresh())
        return arguments

    def _refresh(self) -> None:
        self.previous.update()
        if self.running:
            self.call_button.disabled, self.cancel_button.disabled = True, False
            self.reason.value = "A call is running…"
            return
        problems = self.problems()
        self.call_button.disabled, self.cancel_button.disabled = bool(problems), True
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        if problems:  # the form shows its own problems: here only where the first is, each shown once
            self.reason.value = f"Cannot call yet: {self.arguments.summary or problems[0] + more}"
        else:
            self.reason.value = ""

    # -- display -------------------------------------------------------------------------------

    def text(self) -> str:
        """What the form is, as plain text (shown where widgets are not: GitHub, nbconvert, a terminal)."""
        return form_text(self.info, self.server_name, self.policy, closed=self.closed)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return text_bundle(self.widget, self.text(), **kwargs)

    def __repr__(self) -> str:
        state = "closed" if self.closed else "running" if self.running else "idle"
        return f"<ToolForm {plain(self.server_name, self.secrets)}.{plain(self.tool_name, self.secrets)} {state}>"
