"""``AppBridge``: what answers the requests of a tool's interactive view (MCP Apps), in the kernel.

A view (the ``ui://`` HTML a tool names, shown in a sandboxed frame) asks its host for things over
JSON-RPC. The frame answers ``ui/initialize`` and size changes itself and hands every other request
to :meth:`AppBridge.handle` (an :class:`~anvia_nb.core.protocol.apps.AppHandler`), which does only this:

- ``tools/call``: a tool of the view's own server whose visibility includes ``"app"``, through the
  connection's client exactly as a cell's call (argument checks, the call timeout, masking), kept in
  the runtime's history marked ``requested_by="app ui://..."`` (``%mcp history`` shows it). The
  arguments a form's author fixed (``readonly_arguments``) are sent as fixed, whatever the view sent
  or left out (:func:`~anvia_nb.core.protocol.values.with_fixed`, the form's own rule);
- ``resources/read``: from the view's own server only; on a page for viewers only what the page
  offers and the view's own ``ui://`` resource;
- ``ui/open-link``: an http or https URL is kept in :attr:`AppBridge.links`, for the person to follow
  or not; nothing is opened by itself;
- ``ui/message`` and ``ui/update-model-context``: kept (bounded) in :attr:`AppBridge.messages` and
  :attr:`AppBridge.model_context`; the view object shows them as server text;
- ``ping``: answered.

Anything else is refused with JSON-RPC error -32601, and a request it will not carry out as asked
with -32602 (:class:`~anvia_nb.errors.AppRequestRefused`). What a view stores is bounded like any
server input (:data:`~anvia_nb.core.protocol.limits.APP_MESSAGES_KEPT` entries of at most
:data:`~anvia_nb.core.protocol.limits.APP_MESSAGE_CHARS` characters each), and every answer it gets is
masked with the connection's secrets and at most :data:`~anvia_nb.core.protocol.limits.APP_REPLY_CHARS`.
Every answer, failures included, goes through the widget's :class:`~anvia_nb.policy.ShowPolicy`: on a
page for viewers (``hide_server_errors``) a view reads no server error text, as the page around it.
"""

from __future__ import annotations

import collections
import dataclasses
import itertools
import json
import logging
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from anvia_nb.core import McpServer
from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.apps import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    METHOD_NOT_FOUND,
    AppRequestRefused,
    is_offered_link,
)
from anvia_nb.core.protocol.bounded import bounded_json
from anvia_nb.core.protocol.types import CallOutcome, JsonObject
from anvia_nb.core.protocol.values import with_fixed
from anvia_nb.errors import AnviaError, ArgumentError, ArgumentValidationError, UnknownToolError
from anvia_nb.policy import HIDDEN_SERVER_ERROR, ShowPolicy
from anvia_nb.runtime.sessions import Runtime

__all__ = ["AppBridge", "PageOffer", "app_requester"]

logger = logging.getLogger("anvia_nb.runtime")


Listener = Callable[[str], None]
"""``listener(what)``: ``"links"``, ``"messages"`` or ``"model_context"`` changed."""


def app_requester(uri: str) -> str:
    """What a history entry says of a call a view asked for: ``"app ui://..."``."""
    return f"app {uri}"


def _cut(text: str) -> str:
    return text if len(text) <= limits.APP_TEXT_CHARS else text[: limits.APP_TEXT_CHARS] + "…"


def _json_chars(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, default=str))


_END = object()


def _surely_over(value: Any, most: int) -> bool:
    """Whether ``value``'s JSON has more than ``most`` characters for certain, counted from its
    strings and items without writing it (no copy of a 200 MB answer) and stopping as soon as it
    does: every string is at least its characters and two quotes, every other item one."""
    count = 0
    pending: list[Iterator[Any]] = [iter((value,))]
    while pending:
        item = next(pending[-1], _END)
        if item is _END:
            pending.pop()
            continue
        if isinstance(item, str):
            count += len(item) + 2
        elif isinstance(item, dict):
            count += 2
            pending.append(itertools.chain.from_iterable(item.items()))
        elif isinstance(item, list | tuple):
            count += 2
            pending.append(iter(item))
        else:
            count += 1
        if count > most:
            return True
    return False


@dataclass(frozen=True)
class PageOffer:
    """What a page served to viewers (a scoped panel, a form under viewer mode) lets a view reach:
    the tools and resource URIs its author named. A tool its server shows only to views stays
    callable, and the view's own ``ui://`` resource readable (not another view's); nothing else.
    Without an offer (the author's own notebook) a view reaches every tool and resource its server
    shows to views."""

    tools: frozenset[str] = frozenset()
    resources: frozenset[str] = frozenset()


class AppBridge:
    """Answers one view's requests for the tool ``tool`` of ``server`` (see the module's doc)."""

    def __init__(
        self,
        runtime: Runtime,
        server: McpServer,
        tool: str,
        resource_uri: str,
        *,
        timeout_seconds: float | limits.Default | None = limits.DEFAULT,
        offer: PageOffer | None = None,
        policy: ShowPolicy | None = None,
        fixed: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> None:
        self.runtime = runtime
        self.offer = offer
        """On a page served to viewers, what its author named (see :class:`PageOffer`)."""
        self.fixed: dict[str, dict[str, Any]] = {name: dict(values) for name, values in (fixed or {}).items()}
        """Per tool, the arguments its author fixed: sent as fixed whatever the view sends."""
        self.server = server
        self.tool = tool
        self.resource_uri = resource_uri
        self.timeout_seconds = timeout_seconds
        self.policy = (policy or ShowPolicy()).with_secrets(server.secrets)
        """The widget's policy (the one that shows the view): masking, and on a page for viewers no
        server error text in any answer."""
        self.links: collections.deque[str] = collections.deque(maxlen=limits.APP_MESSAGES_KEPT)
        """The links the view offered, newest last (masked): for the person to follow, or not."""
        self.messages: collections.deque[JsonObject] = collections.deque(maxlen=limits.APP_MESSAGES_KEPT)
        """The view's ``ui/message`` requests (``role``, ``content``), bounded and masked, newest last."""
        self.model_context: JsonObject | None = None
        """What the view last set with ``ui/update-model-context`` (bounded, masked), or ``None``."""
        self.requests = 0
        """Requests the view made (each counted once)."""
        self.refused = 0
        """Requests refused."""
        self.closed = False
        self._lock = threading.Lock()
        self._listeners: list[Listener] = []

    @property
    def requester(self) -> str:
        return app_requester(self.resource_uri)

    def on_change(self, listener: Listener) -> None:
        """Call ``listener(what)`` after the links, messages or model context change."""
        self._listeners.append(listener)

    def close(self) -> None:
        """Refuse every later request (the view is torn down)."""
        self.closed = True

    # -- the one door ------------------------------------------------------------------------

    def handle(self, method: str, params: Mapping[str, Any]) -> Mapping[str, Any]:
        """The JSON-RPC ``result`` for one request of the view, or :class:`AppRequestRefused`."""
        with self._lock:
            self.requests += 1
        try:
            return self._answer(method, params if isinstance(params, Mapping) else {})
        except AppRequestRefused:
            with self._lock:
                self.refused += 1
            raise

    def _answer(self, method: str, params: Mapping[str, Any]) -> Mapping[str, Any]:
        if self.closed:
            raise AppRequestRefused(INVALID_PARAMS, "this view was torn down: the host answers none of its requests")
        if method == "ping":
            return {}
        if method == "tools/call":
            return self._call(params)
        if method == "resources/read":
            return self._read(params)
        if method == "ui/open-link":
            return self._link(params)
        if method == "ui/message":
            return self._message(params)
        if method == "ui/update-model-context":
            return self._context(params)
        raise AppRequestRefused(METHOD_NOT_FOUND, f"the host does not carry out {_cut(str(method))!r} for a view")

    # -- requests ----------------------------------------------------------------------------

    def _open_server(self) -> McpServer:
        if not self.server.is_open:
            if self.policy.for_viewers:  # a viewer's words: no exit status, nothing to type
                raise AppRequestRefused(INTERNAL_ERROR, self.policy.viewer_line(None, self.server.name))
            raise AppRequestRefused(INTERNAL_ERROR, f"the connection {self.server.name!r} is {self.server.status}")
        return self.server

    def _call(self, params: Mapping[str, Any]) -> Mapping[str, Any]:
        name = params.get("name")
        arguments = params.get("arguments")
        if not isinstance(name, str) or not name:
            raise AppRequestRefused(INVALID_PARAMS, "tools/call needs the name of a tool")
        server = self._open_server()
        try:
            tool = server.tool(name)
        except UnknownToolError:
            raise AppRequestRefused(INVALID_PARAMS, f"{server.name!r} has no tool {_cut(name)!r}") from None
        if not tool.info.for_app:
            raise AppRequestRefused(
                INVALID_PARAMS, f"{_cut(name)!r} is not for views: its server shows it to cells and models only"
            )
        if self.offer is not None and tool.info.for_cells and name not in self.offer.tools:
            raise AppRequestRefused(INVALID_PARAMS, f"this page does not offer the tool {_cut(name)!r}")
        if arguments is not None and not isinstance(arguments, Mapping):
            raise AppRequestRefused(INVALID_PARAMS, "tools/call arguments are an object")
        if name in self.fixed:  # the form's rule: the fixed ones are sent, whatever came
            arguments = with_fixed(arguments, self.fixed[name])
        try:
            outcome = self.runtime.run(tool.call_outcome(arguments, timeout_seconds=self.timeout_seconds))
        except (ArgumentError, ArgumentValidationError) as error:
            raise AppRequestRefused(INVALID_PARAMS, _cut(str(error))) from None
        outcome = dataclasses.replace(outcome, requested_by=self.requester)
        self.runtime.record(outcome)
        return self._result(outcome)

    def _result(self, outcome: CallOutcome) -> Mapping[str, Any]:
        if outcome.raw is None:
            raise AppRequestRefused(INTERNAL_ERROR, self.failure(outcome))
        return self.for_view(outcome.raw)

    def failure(self, outcome: CallOutcome) -> str:
        """One line saying why ``outcome`` has no result (what a view is told)."""
        error = outcome.error
        said = self.policy.error_line(error) if error is not None else "no result arrived"
        return f"{outcome.tool} failed: {_cut(said)}"

    def for_view(self, value: JsonObject) -> JsonObject:
        """``value`` as a view may receive it: masked with the connection's secrets, and on a page
        for viewers a tool's error result (``isError``, all of it server text) as the viewer's
        line; raises :class:`AppRequestRefused` when its JSON is larger than
        :data:`~anvia_nb.core.protocol.limits.APP_REPLY_CHARS`."""
        if value.get("isError") is True and self.policy.hides():
            return {"content": [{"type": "text", "text": HIDDEN_SERVER_ERROR}], "isError": True}
        if _surely_over(value, limits.APP_REPLY_CHARS):  # before masking or writing a copy of it
            said = f"the answer is larger than a view is sent (at most {limits.APP_REPLY_CHARS:,} characters)"
            raise AppRequestRefused(INTERNAL_ERROR, said)
        masked: JsonObject = self.policy.mask_json(value)
        size = _json_chars(masked)
        if size > limits.APP_REPLY_CHARS:
            raise AppRequestRefused(
                INTERNAL_ERROR, f"the answer is {size:,} characters: a view is sent at most {limits.APP_REPLY_CHARS:,}"
            )
        return masked

    def _read(self, params: Mapping[str, Any]) -> Mapping[str, Any]:
        uri = params.get("uri")
        if not isinstance(uri, str) or not uri:
            raise AppRequestRefused(INVALID_PARAMS, "resources/read needs a uri")
        if self.offer is not None and uri != self.resource_uri and uri not in self.offer.resources:
            raise AppRequestRefused(INVALID_PARAMS, f"this page does not offer the resource {_cut(uri)!r}")
        server = self._open_server()
        try:
            read = self.runtime.run(server.read_resource(uri, timeout_seconds=self.timeout_seconds))
        except AnviaError as error:
            said = _cut(self.policy.error_line(error))
            raise AppRequestRefused(INTERNAL_ERROR, f"reading {_cut(uri)!r} failed: {said}") from None
        return self.for_view(read.raw)

    def _link(self, params: Mapping[str, Any]) -> Mapping[str, Any]:
        url = params.get("url")
        if not is_offered_link(url):
            shown = _cut(str(url)) if isinstance(url, str) else type(url).__name__
            raise AppRequestRefused(INVALID_PARAMS, f"only http and https links may be offered, not {shown!r}")
        assert isinstance(url, str)
        self.links.append(self.policy.mask(url))
        self._tell("links")
        return {}

    def _kept(self, params: Mapping[str, Any], what: str) -> JsonObject:
        kept = self.policy.mask_json(bounded_json(dict(params)))
        if _json_chars(kept) > limits.APP_MESSAGE_CHARS:
            most = limits.APP_MESSAGE_CHARS
            raise AppRequestRefused(INVALID_PARAMS, f"{what} is too large: at most {most:,} characters")
        assert isinstance(kept, dict)
        return kept

    def _message(self, params: Mapping[str, Any]) -> Mapping[str, Any]:
        content = params.get("content")
        if not isinstance(content, list):
            raise AppRequestRefused(INVALID_PARAMS, "ui/message needs content (a list of content blocks)")
        role = params.get("role")
        self.messages.append(
            self._kept({"role": role if isinstance(role, str) else "user", "content": content}, "the message")
        )
        self._tell("messages")
        return {}

    def _context(self, params: Mapping[str, Any]) -> Mapping[str, Any]:
        fields = {key: params[key] for key in ("content", "structuredContent") if key in params}
        self.model_context = self._kept(fields, "the model context") if fields else None
        self._tell("model_context")
        return {}

    def _tell(self, what: str) -> None:
        for listener in list(self._listeners):
            try:
                listener(what)
            except Exception:  # a view's trouble showing it never fails the view's request
                logger.exception("an app view listener failed")
