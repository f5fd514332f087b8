"""Person-in-the-loop: a server's elicitation request shown as a form, answered only by a person.

A server may stop in the middle of a call and ask the user for input (MCP elicitation, form or
URL mode). Whether it arrives as a legacy ``elicitation/create`` request or a 2026-07-28
``input_required`` result, core hands it to one handler per session; this module installs that
handler (:func:`enable_elicitation`). The handler runs on the background loop and waits for the
person's click without blocking that loop: it awaits an ``asyncio.Future`` that the button's
callback resolves with ``loop.call_soon_threadsafe``. Nothing is sent before a choice, and an
unanswered prompt is cancelled after ``timeout_seconds``.

Where the prompt appears: in the :class:`~anvia_nb.widgets.forms.tool_form.ToolForm` whose call is running
(it registers itself as the *host* for its session while the call runs); otherwise, in a kernel,
in the output of the cell that is running (display from the loop thread goes to the kernel's
current parent message). A request that comes in the task of a call whose caller blocks the kernel
(``%mcp call``) is cancelled and counted instead, since nobody could click; a 2026-07-28 server's
requests come in their call's task, so this holds even while a form calls the same server. An older
server's ``elicitation/create`` comes from no call's task and goes to the newest running form.
Either way at most ``Limits.prompts`` wait at once; more requests are cancelled before any widget
is made, and counted in one visible line. Outside a notebook, or when
``callback`` is given, the callback answers.
A URL is shown as escaped text, never opened or fetched.

One registry, keyed by the session's client, holds both the handlers installed on a session
(newest last: :meth:`ElicitationRouter.remove`, or leaving its ``with`` block, restores the one
before) and the forms whose calls run on it. The prompt itself is
:class:`~anvia_nb.widgets.prompts.elicitation_prompt.ElicitationPrompt`.
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
from dataclasses import dataclass, field
from typing import Any, Protocol

from anvia_nb.core.api.features import ConnectedServer
from anvia_nb.core.protocol.limits import DEFAULT_PROMPT_TIMEOUT_SECONDS, PROMPTS_KEPT
from anvia_nb.core.transport.client import McpClient
from anvia_nb.errors import InvalidValueError
from anvia_nb.policy import Limits
from anvia_nb.runtime import Runtime, for_a_blocked_caller, get_runtime
from anvia_nb.widgets.prompts.elicitation_prompt import ElicitationPrompt
from anvia_nb.widgets.prompts.in_cell import CellPrompts

__all__ = [
    "ElicitationCallback",
    "ElicitationPrompt",
    "ElicitationRouter",
    "enable_elicitation",
]

logger = logging.getLogger("anvia_nb.widgets.elicitation")

ACTIONS = ("accept", "decline", "cancel")
_BLOCKED = "the call was made from a cell that blocks the kernel"
"""Why a request for input was cancelled while a synchronous caller held the kernel (``%mcp log``)."""

ElicitationCallback = Callable[[dict[str, Any]], Mapping[str, Any] | Awaitable[Mapping[str, Any]]]
"""``callback(request) -> {"action": ..., "content": {...}}``; may be sync (run in a thread) or async."""
ElicitationHandler = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]
"""What a session calls to answer a request (``McpClient.elicitation_handler``)."""


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


class PromptHost(Protocol):
    """Somewhere a prompt can appear: a form's result area (see ``ToolForm``)."""

    def make_room(self) -> bool:
        """Whether one more prompt may be shown; when not, the host counts the refused request
        (which is then cancelled before any widget is made for it)."""
        ...

    def show_prompt(self, prompt: ElicitationPrompt) -> None: ...


_current_host: contextvars.ContextVar[PromptHost | None] = contextvars.ContextVar("anvia_prompt_host", default=None)


@dataclass
class _SessionPrompts:
    """What this module knows of one session: routers installed on it (newest last) and the
    forms whose calls run on it now (newest last)."""

    routers: list[ElicitationRouter] = field(default_factory=list)
    hosts: list[PromptHost] = field(default_factory=list)


_sessions: weakref.WeakKeyDictionary[McpClient, _SessionPrompts] = weakref.WeakKeyDictionary()
"""The one registry, keyed by the session's client (forgotten with it)."""
_sessions_lock = threading.Lock()


def _session(client: McpClient) -> _SessionPrompts:
    """The registry entry of ``client`` (call with ``_sessions_lock`` held)."""
    found = _sessions.get(client)
    if found is None:
        found = _sessions[client] = _SessionPrompts()
    return found


@contextlib.contextmanager
def hosting(client: McpClient, host: PromptHost) -> Iterator[None]:
    """While the block runs, prompts from ``client``'s server appear in ``host``.

    The context variable routes requests the SDK delivers in the caller's task; the session's
    list of hosts routes those it delivers from its receive loop (legacy ``elicitation/create``).
    """
    token = _current_host.set(host)
    with _sessions_lock:
        _session(client).hosts.append(host)
    try:
        yield
    finally:
        _current_host.reset(token)
        with _sessions_lock:
            hosts = _session(client).hosts
            if host in hosts:
                hosts.remove(host)


def _own_host(client: McpClient) -> PromptHost | None:
    """The form whose call the running task belongs to, while that call runs. A request of a
    2026-07-28 server arrives in its call's own task, so this is exact for it. The context variable
    only counts while its form still hosts: a task started during a form's call keeps the variable
    after the call ended, and its requests must not wait in a form nobody is looking at."""
    host = _current_host.get()
    if host is None:
        return None
    with _sessions_lock:
        found = _sessions.get(client)
        return host if found is not None and host in found.hosts else None


def _newest_host(client: McpClient) -> PromptHost | None:
    """The form whose call on ``client``'s session started last and still runs, if any."""
    with _sessions_lock:
        found = _sessions.get(client)
        return found.hosts[-1] if found is not None and found.hosts else None


def _host_for(client: McpClient) -> PromptHost | None:
    """Where a prompt for a request of ``client``'s server goes: the form of the running task's
    call, else the newest running form (an older server's ``elicitation/create`` arrives outside
    any call's task), if any."""
    own = _own_host(client)
    return own if own is not None else _newest_host(client)


def in_notebook() -> bool:
    """True inside a Jupyter kernel (IPython is already imported there; never imported here)."""
    ipython_module = sys.modules.get("IPython")
    shell = ipython_module.get_ipython() if ipython_module is not None else None
    return getattr(shell, "kernel", None) is not None


class ElicitationRouter:
    """The elicitation handler of one session: a callback, a prompt, or a cancel."""

    def __init__(
        self,
        client: McpClient,
        *,
        ui: bool,
        callback: ElicitationCallback | None,
        timeout_seconds: float,
        secrets: tuple[str, ...],
    ) -> None:
        self.client = client
        self.ui = ui
        self.callback = callback
        self.timeout_seconds = timeout_seconds
        self.secrets = secrets
        self.prompts: list[ElicitationPrompt] = []
        self.answers: list[tuple[dict[str, Any], dict[str, Any]]] = []
        """(request, answer) of every request answered, most recent last (bounded): the answer as
        given; the transport then completes an accepted one with the request's defaults (SEP-1034)."""
        self.previous: ElicitationHandler | None = None
        """The handler this one replaced: restored by :meth:`remove`."""
        self.in_cells = CellPrompts(Limits().prompts)
        """Prompts shown in cells (no form hosts the call): at most ``Limits.prompts`` at once."""

    def remove(self) -> None:
        """Stop answering: the handler this router replaced answers again (idempotent)."""
        _remove(self)

    def __enter__(self) -> ElicitationRouter:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.remove()

    async def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        """Answer one request: by the callback, else by a person, else cancel."""
        if self.callback is not None:
            answer = await self._ask_callback(request)
        elif self.ui:
            answer = await self._prompt_person(request, [])
        else:
            answer = {"action": "cancel"}
        self.answers = [*self.answers[-(PROMPTS_KEPT - 1) :], (request, answer)]
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

    async def _prompt_person(self, request: dict[str, Any], shown: list[ElicitationPrompt]) -> dict[str, Any]:
        own = _own_host(self.client)
        if own is None and for_a_blocked_caller():
            # The request came in the task of a call whose caller holds the kernel (%mcp call): a
            # prompt could never get its click, whatever form may be calling meanwhile.
            self.client.record_unanswered_elicitation(_BLOCKED)
            return {"action": "cancel"}
        host = own if own is not None else _newest_host(self.client)
        if host is None and not in_notebook():
            logger.warning("elicitation from %r cancelled: no notebook and no callback to ask", request.get("server"))
            self.client.record_unanswered_elicitation("no notebook and no callback to ask")
            return {"action": "cancel"}
        if host is None and get_runtime().loop.caller_blocked:
            # An older server's request, from no call's task, while a synchronous caller (%mcp call)
            # holds the kernel: a prompt could never get its click.
            self.client.record_unanswered_elicitation(_BLOCKED)
            return {"action": "cancel"}
        if not (host.make_room() if host is not None else self.in_cells.make_room()):
            return {"action": "cancel"}  # as many are shown as a person can answer: counted, visibly
        prompt = ElicitationPrompt(request, secrets=self.secrets, in_cell=host is None)
        shown.append(prompt)
        self.prompts = [*self.prompts[-(PROMPTS_KEPT - 1) :], prompt]
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
            self.in_cells.show(prompt)
        try:
            return await asyncio.wait_for(answered, self.timeout_seconds)
        except asyncio.TimeoutError:
            prompt.cancel(f"No answer within {self.timeout_seconds:g} s: cancelled; the server was told.")
            return {"action": "cancel"}
        except asyncio.CancelledError:
            prompt.cancel("The call ended before an answer; nothing was sent.")
            raise


def _server_of(target: str | ConnectedServer, runtime: Runtime | None) -> ConnectedServer:
    if isinstance(target, ConnectedServer):
        return target
    return (runtime or get_runtime()).server(target)


def enable_elicitation(
    target: str | ConnectedServer,
    *,
    runtime: Runtime | None = None,
    ui: bool = True,
    callback: ElicitationCallback | None = None,
    timeout_seconds: float = DEFAULT_PROMPT_TIMEOUT_SECONDS,
) -> ElicitationRouter:
    """Answer the elicitation requests of one session (a connection name or an ``McpServer``).

    The handler stays until it is removed, so scope a demonstration callback::

        with enable_elicitation("demo", callback=decline):   # restored on leaving the block
            await server.tool("confirm_action").call({"action": "x"})
        router = enable_elicitation("demo", callback=approve)
        router.remove()                                       # the same, later

    Removing restores the handler that was there before (forms then ask the person again);
    ``enable_elicitation("demo")`` without a callback also goes back to asking the person.
    A reconnected name is a new session: it starts without the old session's callback.

    Parameters
    ----------
    target : str or McpServer
        A connection's name, or the connected server.
    runtime : Runtime, optional
        The runtime a name is looked up in; ``None``: the kernel's.
    ui : bool, optional
        Without ``callback``, ask the person (in the running form or cell; default ``True``);
        outside a notebook the request is cancelled. ``False`` without a callback cancels every request.
    callback : callable, optional
        ``callback(request) -> {"action": ..., "content": ...}`` answers every request.
    timeout_seconds : float, optional
        Seconds the person has to answer before the request is cancelled (default 600).

    Returns
    -------
    ElicitationRouter
        The handler installed: ``.remove()`` it, or use it as a context manager.

    Raises
    ------
    UnknownConnectionError
        No open connection has that name.
    """
    server = _server_of(target, runtime)
    client = server.client
    router = ElicitationRouter(
        client, ui=ui, callback=callback, timeout_seconds=timeout_seconds, secrets=server.secrets
    )
    with _sessions_lock:
        router.previous = client.elicitation_handler
        _session(client).routers.append(router)
        client.set_elicitation_handler(router.handle)
    return router


def _remove(router: ElicitationRouter) -> None:
    client = router.client
    with _sessions_lock:
        routers = _session(client).routers
        if router not in routers:
            return
        index = routers.index(router)
        if index == len(routers) - 1:
            if client.elicitation_handler == router.handle:
                client.set_elicitation_handler(router.previous)
        else:  # a router installed later stays in charge, and falls back to what this one replaced
            routers[index + 1].previous = router.previous
        del routers[index]


def router_for(server: ConnectedServer) -> ElicitationRouter | None:
    """The router :func:`enable_elicitation` installed last on this session and still in place."""
    with _sessions_lock:
        found = _sessions.get(server.client)
        return found.routers[-1] if found is not None and found.routers else None


def ensure_elicitation(server: ConnectedServer) -> ElicitationRouter | None:
    """Install the person-asking handler unless the session already has a handler of any kind."""
    router = router_for(server)
    if router is not None:
        return router
    if server.client.elicitation_handler is not None:
        return None  # someone set their own handler on the client: leave it alone
    return enable_elicitation(server)
