"""Person-in-the-loop: a server's elicitation request shown as a form, answered only by a person.

A server may stop in the middle of a call and ask the user for input (MCP elicitation, form or
URL mode). Whether it arrives as a legacy ``elicitation/create`` request or a 2026-07-28
``input_required`` result, core hands it to one handler per session; this module installs that
handler (:func:`enable_elicitation`). The handler runs on the background loop and waits for the
person's click without blocking that loop: it awaits an ``asyncio.Future`` that the button's
callback resolves with ``loop.call_soon_threadsafe``. Nothing is sent before a choice, and an
unanswered prompt is cancelled after ``timeout_seconds``.

Where the prompt appears: in the :class:`~anvia_nb.widgets.tool_form.ToolForm` whose call is running
(it registers itself as the *host* for its session while the call runs); otherwise, in a kernel,
in the output of the cell that is running (display from the loop thread goes to the kernel's
current parent message). Outside a notebook, or when ``callback`` is given, the callback answers.
A URL is shown as escaped text, never opened or fetched.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import inspect
import logging
import sys
import threading
import weakref
from collections.abc import Awaitable, Callable, Iterator, Mapping
from typing import Any, Protocol

import ipywidgets as widgets

from anvia_nb.core import McpServer
from anvia_nb.core.client import McpClient
from anvia_nb.errors import InvalidValueError
from anvia_nb.runtime import Runtime, get_runtime
from anvia_nb.widgets._chrome import notice_html, plain, request_header_html, server_text_html, show_in_cell
from anvia_nb.widgets.arguments_form import ArgumentsForm

__all__ = [
    "DEFAULT_PROMPT_TIMEOUT_SECONDS",
    "ElicitationCallback",
    "ElicitationPrompt",
    "ElicitationRouter",
    "enable_elicitation",
]

logger = logging.getLogger("anvia_nb.widgets.elicitation")

DEFAULT_PROMPT_TIMEOUT_SECONDS = 600.0
ACTIONS = ("accept", "decline", "cancel")
_KEPT_REQUESTS = 100

ElicitationCallback = Callable[[dict[str, Any]], Mapping[str, Any] | Awaitable[Mapping[str, Any]]]
"""``callback(request) -> {"action": ..., "content": {...}}``; may be sync (run in a thread) or async."""


def answer_from(value: object) -> dict[str, Any]:
    """Check an answer before it reaches the server; a malformed one is a programming error."""
    if not isinstance(value, Mapping):
        raise InvalidValueError(f"an elicitation answer must be a dict, not {type(value).__name__}")
    action = value.get("action")
    if action not in ACTIONS:
        raise InvalidValueError(f"an elicitation answer's action must be one of {', '.join(ACTIONS)}, not {action!r}")
    answer: dict[str, Any] = {"action": action}
    content = value.get("content")
    if action == "accept" and content is not None:
        if not isinstance(content, Mapping):
            raise InvalidValueError("an accepted elicitation's content must be a dict")
        answer["content"] = dict(content)
    return answer


class ElicitationPrompt:
    """One request shown to a person: provenance, the server's message, a form, three buttons.

    ``answer`` stays ``None`` until the person (or :meth:`accept`/:meth:`decline`/:meth:`cancel`,
    or a timeout) settles it; each settles it once, and the buttons are then disabled.
    """

    def __init__(self, request: Mapping[str, Any], *, secrets: tuple[str, ...] = (), in_cell: bool = False) -> None:
        self.request = dict(request)
        self.server = str(request.get("server", "?"))
        self.mode = "url" if request.get("mode") == "url" else "form"
        self.secrets = secrets
        self.answer: dict[str, Any] | None = None
        self._callbacks: list[Callable[[dict[str, Any]], None]] = []
        self._lock = threading.Lock()
        parts: list[Any] = [widgets.HTML(request_header_html(self.server, self.mode, secrets))]
        message = request.get("message")
        if isinstance(message, str) and message:
            parts.append(widgets.HTML(server_text_html(f"message from server {plain(self.server, secrets)}",
                                                       message, secrets)))
        self.form: ArgumentsForm | None = None
        if self.mode == "form":
            schema = request.get("requestedSchema")
            self.form = ArgumentsForm(schema=schema if isinstance(schema, dict) else {"type": "object"},
                                      secrets=secrets)
            self.form.on_change(lambda _form: self._refresh())
            parts.append(self.form.widget)
        else:
            url = request.get("url")
            parts.append(widgets.HTML(server_text_html("URL sent by the server (not opened, not fetched)",
                                                       url if isinstance(url, str) else repr(url), secrets)))
            parts.append(widgets.HTML(notice_html(
                "anvia_nb never opens this link. Copy it into a browser yourself only if you trust it, "
                "then press Accept; or Decline.")))
        self.accept_button = widgets.Button(description="Accept", button_style="success", icon="check")
        self.decline_button = widgets.Button(description="Decline", icon="times")
        self.cancel_button = widgets.Button(description="Cancel", icon="ban")
        self.accept_button.on_click(lambda _b: self.accept())
        self.decline_button.on_click(lambda _b: self.decline())
        self.cancel_button.on_click(lambda _b: self.cancel())
        self.reason = widgets.Label(value="")
        self.status = widgets.Label(value="Waiting for your choice.")
        if in_cell:
            parts.append(widgets.HTML(notice_html(
                "If the buttons do not respond, the cell is blocked in a synchronous call: "
                "call from a form or with await instead.")))
        parts += [widgets.HBox([self.accept_button, self.decline_button, self.cancel_button]), self.reason,
                  self.status]
        self.widget = widgets.VBox(parts, layout=widgets.Layout(border="2px solid #c77700", padding="4px",
                                                                margin="4px 0"))
        self._refresh()

    @property
    def answered(self) -> bool:
        return self.answer is not None

    def on_answer(self, callback: Callable[[dict[str, Any]], None]) -> None:
        """Call ``callback(answer)`` once the prompt is settled (at once if it already is)."""
        with self._lock:
            if self.answer is None:
                self._callbacks.append(callback)
                return
            answer = self.answer
        callback(answer)

    def accept(self) -> None:
        """Send what the form holds (it must be valid); in URL mode, say the person went there."""
        if self.form is not None:
            if not self.form.valid:
                self._refresh()
                return
            self._settle({"action": "accept", "content": self.form.value}, "You accepted; the answer was sent.")
        else:
            self._settle({"action": "accept"}, "You accepted.")

    def decline(self) -> None:
        self._settle({"action": "decline"}, "You declined; the server was told.")

    def cancel(self, note: str = "You cancelled; the server was told.") -> None:
        self._settle({"action": "cancel"}, note)

    def _settle(self, answer: dict[str, Any], note: str) -> None:
        with self._lock:
            if self.answer is not None:
                return
            self.answer = answer
            callbacks, self._callbacks = self._callbacks, []
        self.status.value = note
        self.reason.value = ""
        for button in (self.accept_button, self.decline_button, self.cancel_button):
            button.disabled = True
        if self.form is not None:
            self.form.widget.layout.display = "none"
        for callback in callbacks:
            callback(answer)

    def _refresh(self) -> None:
        if self.answer is not None or self.form is None:
            return
        problems = self.form.problems
        self.accept_button.disabled = bool(problems)
        self.reason.value = f"Cannot accept yet: {self.form.summary}" if problems else ""

    def _ipython_display_(self) -> None:
        show_in_cell(self.widget)


class PromptHost(Protocol):
    """Somewhere a prompt can appear: a form's result area (see ``ToolForm``)."""

    def show_prompt(self, prompt: ElicitationPrompt) -> None: ...


_current_host: contextvars.ContextVar[PromptHost | None] = contextvars.ContextVar("anvia_prompt_host", default=None)
_hosts: dict[int, list[PromptHost]] = {}
_hosts_lock = threading.Lock()


@contextlib.contextmanager
def hosting(client: McpClient, host: PromptHost) -> Iterator[None]:
    """While the block runs, prompts from ``client``'s server appear in ``host``.

    The context variable routes requests the SDK delivers in the caller's task; the per-session
    list routes those it delivers from its receive loop (legacy ``elicitation/create``).
    """
    token = _current_host.set(host)
    with _hosts_lock:
        _hosts.setdefault(id(client), []).append(host)
    try:
        yield
    finally:
        _current_host.reset(token)
        with _hosts_lock:
            stack = _hosts.get(id(client), [])
            if host in stack:
                stack.remove(host)
            if not stack:
                _hosts.pop(id(client), None)


def _host_for(client: McpClient) -> PromptHost | None:
    host = _current_host.get()
    if host is not None:
        return host
    with _hosts_lock:
        stack = _hosts.get(id(client))
        return stack[-1] if stack else None


def in_notebook() -> bool:
    """True inside a Jupyter kernel (IPython is already imported there; never imported here)."""
    ipython_module = sys.modules.get("IPython")
    shell = ipython_module.get_ipython() if ipython_module is not None else None
    return getattr(shell, "kernel", None) is not None


class ElicitationRouter:
    """The elicitation handler of one session: a callback, a prompt, or a cancel."""

    def __init__(self, client: McpClient, *, ui: bool, callback: ElicitationCallback | None,
                 timeout_seconds: float, secrets: tuple[str, ...]) -> None:
        self.client = client
        self.ui = ui
        self.callback = callback
        self.timeout_seconds = timeout_seconds
        self.secrets = secrets
        self.prompts: list[ElicitationPrompt] = []
        self.answers: list[tuple[dict[str, Any], dict[str, Any]]] = []
        """(request, answer) of every request answered, most recent last (bounded)."""

    async def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        """Answer one request: by the callback, else by a person, else cancel."""
        if self.callback is not None:
            answer = await self._ask_callback(request)
        elif self.ui:
            answer = await self._ask_person(request)
        else:
            answer = {"action": "cancel"}
        self.answers = [*self.answers[-(_KEPT_REQUESTS - 1):], (request, answer)]
        return answer

    async def _ask_callback(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.callback is not None
        if inspect.iscoroutinefunction(self.callback):
            value: Any = await self.callback(dict(request))
        else:  # a sync callback may block (input(), a GUI): keep the loop free
            value = await asyncio.to_thread(self.callback, dict(request))
            if inspect.isawaitable(value):
                value = await value
        return answer_from(value)

    async def _ask_person(self, request: dict[str, Any]) -> dict[str, Any]:
        host = _host_for(self.client)
        if host is None and not in_notebook():
            logger.warning("elicitation from %r cancelled: no notebook and no callback to ask",
                           request.get("server"))
            self.client.record_unanswered_elicitation("no notebook and no callback to ask")
            return {"action": "cancel"}
        if host is None and get_runtime().loop.caller_blocked:
            # A synchronous caller (%mcp call) holds the kernel: a prompt could never get its click.
            self.client.record_unanswered_elicitation("the call was made from a cell that blocks the kernel")
            return {"action": "cancel"}
        prompt = ElicitationPrompt(request, secrets=self.secrets, in_cell=host is None)
        self.prompts = [*self.prompts[-(_KEPT_REQUESTS - 1):], prompt]
        loop = asyncio.get_running_loop()
        answered: asyncio.Future[dict[str, Any]] = loop.create_future()

        def settle(answer: dict[str, Any]) -> None:
            def resolve() -> None:
                if not answered.done():
                    answered.set_result(answer)

            loop.call_soon_threadsafe(resolve)

        prompt.on_answer(settle)
        if host is not None:
            host.show_prompt(prompt)
        else:
            show_in_cell(prompt.widget)
        try:
            return await asyncio.wait_for(answered, self.timeout_seconds)
        except asyncio.TimeoutError:
            prompt.cancel(f"No answer within {self.timeout_seconds:g} s: cancelled; the server was told.")
            return {"action": "cancel"}
        except asyncio.CancelledError:
            prompt.cancel("The call ended before an answer; nothing was sent.")
            raise


_routers: weakref.WeakKeyDictionary[McpClient, ElicitationRouter] = weakref.WeakKeyDictionary()


def _server_of(target: str | McpServer, runtime: Runtime | None) -> McpServer:
    if isinstance(target, McpServer):
        return target
    return (runtime or get_runtime()).server(target)


def enable_elicitation(
    target: str | McpServer,
    *,
    runtime: Runtime | None = None,
    ui: bool = True,
    callback: ElicitationCallback | None = None,
    timeout_seconds: float = DEFAULT_PROMPT_TIMEOUT_SECONDS,
) -> ElicitationRouter:
    """Answer the elicitation requests of one session (a connection name or an ``McpServer``).

    With ``callback``, it answers every request (``callback(request) -> {"action", "content"}``).
    Otherwise, with ``ui=True``, a prompt asks the person (in the running form, or the running
    cell) and an unanswered one is cancelled after ``timeout_seconds``; outside a notebook the
    request is cancelled. ``ui=False`` without a callback cancels every request.
    """
    server = _server_of(target, runtime)
    router = ElicitationRouter(server.client, ui=ui, callback=callback, timeout_seconds=timeout_seconds,
                               secrets=server.secrets)
    server.client.set_elicitation_handler(router.handle)
    _routers[server.client] = router
    return router


def router_for(server: McpServer) -> ElicitationRouter | None:
    """The router :func:`enable_elicitation` installed on this session, if any."""
    return _routers.get(server.client)


def ensure_elicitation(server: McpServer) -> ElicitationRouter | None:
    """Install the person-asking handler unless the session already has a handler of any kind."""
    router = _routers.get(server.client)
    if router is not None:
        return router
    if getattr(getattr(server.client, "_handlers", None), "elicitation", None) is not None:
        return None  # someone set their own handler on the client: leave it alone
    return enable_elicitation(server)
