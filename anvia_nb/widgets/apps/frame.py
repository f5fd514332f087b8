"""An MCP App's view in a notebook output: a sandboxed iframe and the kernel end of its channel.

:class:`AppFrame` is an anywidget (its JavaScript, ``frame.js`` beside this module, ships with
the package: no build step, nothing fetched at run time). The front-end hosts the view as the MCP
Apps specification asks of a web page: a sandbox proxy (``proxy.js``, an
``<iframe sandbox="allow-scripts allow-same-origin">`` loaded from a ``data:`` URL, so of an opaque
origin apart from the notebook's) writes the view's HTML, checked and given its CSP by
:func:`~anvia_nb.display.app_html.sandboxed_html`, into an inner frame of its own origin, and the
front-end relays the view's JSON-RPC messages, and only its own proxy's, to the kernel.

In the kernel, this class answers ``ui/initialize`` (the host's capabilities and context),
``ping`` and ``ui/request-display-mode`` (always ``inline``) itself, notes
``ui/notifications/initialized``, and passes every other request to ``handler.handle`` on a worker
thread of the frame: its return is the JSON-RPC result, :class:`AppRequestRefused` becomes a
JSON-RPC error with its code and message, any other exception -32603 with a plain message.
``ui/notifications/size-changed`` is handled in the front-end (height kept within
``MIN_HEIGHT_PX..MAX_HEIGHT_PX``). Other notifications from the view go to the handler's
``handle_notification(method, params)`` if it has one, and are otherwise dropped.

Floods are bounded twice (the numbers are in :mod:`anvia_nb.core.protocol.limits`): the front-end
drops what a view sends beyond ``APP_FRONTEND_BURST`` messages at once and ``APP_FRONTEND_RATE`` a
second (and any message over ``APP_SENT_CHARS``); the kernel takes at most ``APP_KERNEL_BURST`` at
once and ``APP_KERNEL_RATE`` a second, with at most ``APP_PENDING_REQUESTS`` requests waiting, and
refuses the rest.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from anvia_nb._version import __version__
from anvia_nb.core.protocol.apps import AppHandler, AppResource
from anvia_nb.core.protocol.limits import (
    APP_FRONTEND_BURST,
    APP_FRONTEND_RATE,
    APP_INFO_CHARS,
    APP_KERNEL_BURST,
    APP_KERNEL_RATE,
    APP_NOTIFICATIONS_KEPT,
    APP_PENDING_REQUESTS,
    APP_SENT_CHARS,
    APP_TEARDOWN_WAIT_SECONDS,
)
from anvia_nb.display.app_html import (
    MAX_HEIGHT_PX,
    MIN_HEIGHT_PX,
    content_security_policy,
    iframe_allow,
    live_kernel_note,
    sandbox_origins,
    sandboxed_html,
)
from anvia_nb.errors import AppRequestRefused

__all__ = [
    "APPS_PROTOCOL_VERSION",
    "AppFrame",
    "MessageBudget",
]

logger = logging.getLogger("anvia_nb.widgets")

APPS_PROTOCOL_VERSION = "2026-01-26"

TOO_MANY = AppRequestRefused(-32000, "Too many requests from this view: refused.")
INTERNAL = AppRequestRefused(-32603, "The host could not carry out this request.")

_PROXY = Path(__file__).with_name("proxy.js").read_text(encoding="utf-8")
# The sandbox proxy's script goes to the front-end as a string (it runs in the proxy's own frame).
_JS = f"const PROXY_SOURCE = {json.dumps(_PROXY)};\n" + Path(__file__).with_name("frame.js").read_text(encoding="utf-8")


class MessageBudget:
    """A token bucket: ``burst`` messages at once, refilled at ``rate`` a second."""

    def __init__(self, burst: int, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.burst = burst
        self.rate = rate
        self._clock = clock
        self._tokens = float(burst)
        self._last = clock()
        self.refused = 0

    def take(self) -> bool:
        """Spend one message; ``False`` (and counted in :attr:`refused`) when none is left."""
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        self.refused += 1
        return False


def _request_id(message: Mapping[str, Any]) -> str | int | None:
    ident = message.get("id")
    return ident if isinstance(ident, (str, int)) and not isinstance(ident, bool) else None


class AppFrame(anywidget.AnyWidget):
    """A tool's interactive view (MCP Apps), sandboxed, talking to ``handler`` through the kernel."""

    _esm = _JS
    _html = traitlets.Unicode("").tag(sync=True)
    _csp = traitlets.Unicode("").tag(sync=True)
    _allow = traitlets.Unicode("").tag(sync=True)
    _border = traitlets.Bool(True).tag(sync=True)
    _limits = traitlets.Dict().tag(sync=True)

    def __init__(
        self, resource: AppResource, handler: AppHandler, *, host_context: Mapping[str, Any] | None = None
    ) -> None:
        # The size bound raises before any widget exists.
        html = sandboxed_html(resource.uri, resource.html, resource.csp)
        super().__init__(
            _html=html,
            _csp=content_security_policy(resource.csp),
            _allow=iframe_allow(resource.permissions),
            _border=resource.prefers_border is not False,
            _limits={
                "minHeight": MIN_HEIGHT_PX,
                "maxHeight": MAX_HEIGHT_PX,
                "burst": APP_FRONTEND_BURST,
                "rate": APP_FRONTEND_RATE,
                "maxChars": APP_SENT_CHARS,
            },
        )
        self.resource = resource
        self.handler = handler
        self.host_context: dict[str, Any] = dict(host_context or {})
        self.budget = MessageBudget(APP_KERNEL_BURST, APP_KERNEL_RATE)
        self.app_info: dict[str, Any] | None = None
        """What the view said of itself in ``ui/initialize`` (``appInfo``: name, version, title, cut)."""
        self.views: set[str] = set()
        """The front-end views whose iframe sent ``ui/notifications/initialized``."""
        self.views_closed = 0
        self.navigated_away = 0
        """Views closed because their frame navigated away from the checked page."""
        self.dropped_in_frontend = 0
        self.torn_down = False
        self._lock = threading.Lock()
        self._sent: list[dict[str, Any]] = []
        self._requests: queue.Queue[tuple[str, dict[str, Any]] | None] = queue.Queue(maxsize=APP_PENDING_REQUESTS)
        self._worker: threading.Thread | None = None
        self.on_msg(self._on_frontend_message)

    # -- the static view -------------------------------------------------------------------------

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]] | None:
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is None:
            return None
        data, metadata = bundle
        line, markup = live_kernel_note(self.resource.uri)
        return {**data, "text/plain": line, "text/html": str(markup)}, metadata

    # -- kernel to view --------------------------------------------------------------------------

    def notify(self, method: str, params: Mapping[str, Any]) -> None:
        """Send a notification to the view (``ui/notifications/tool-result``...); kept until the
        view says it is initialized, and sent again to a view shown later."""
        message = {"jsonrpc": "2.0", "method": method, "params": dict(params)}
        with self._lock:
            self._sent = [*self._sent, message][-APP_NOTIFICATIONS_KEPT:]
            views = sorted(self.views)
        for view in views:
            self._post(view, message)

    def teardown(self) -> None:
        """Send ``ui/resource-teardown`` to the view, then close the widget (when the view has
        answered, or after :data:`APP_TEARDOWN_WAIT_SECONDS`)."""
        with self._lock:
            if self.torn_down:
                return
            self.torn_down = True
            views = bool(self.views)
        self._stop_worker()
        if not views:
            self.close()
            return
        self.send({"kind": "teardown", "wait": APP_TEARDOWN_WAIT_SECONDS})
        timer = threading.Timer(APP_TEARDOWN_WAIT_SECONDS + 2, self.close)
        timer.daemon = True
        timer.start()

    def _post(self, view: str | None, message: Mapping[str, Any]) -> None:
        try:
            self.send({"kind": "rpc", "view": view, "message": message})
        except (TypeError, ValueError):  # not JSON: the handler returned something else
            logger.debug("an answer to the view could not be sent", exc_info=True)
            ident = message.get("id")
            if ident is not None:
                self.send({"kind": "rpc", "view": view, "message": _error(ident, INTERNAL)})

    # -- view to kernel --------------------------------------------------------------------------

    def _on_frontend_message(self, _widget: object, content: object, _buffers: object) -> None:
        if not isinstance(content, dict):
            return
        view = content.get("view")
        if not isinstance(view, str):
            return
        kind = content.get("kind")
        if kind == "rpc" and isinstance(content.get("message"), dict):
            frontend = content.get("frontend")
            self._on_view_message(view, content["message"], frontend if isinstance(frontend, dict) else {})
        elif kind == "dropped" and isinstance(content.get("count"), int):
            self.dropped_in_frontend += max(0, content["count"])
        elif kind in ("closed", "navigated"):
            with self._lock:
                self.views.discard(view)
            self.views_closed += 1
            if kind == "navigated":
                self.navigated_away += 1
        elif kind == "torn-down" and self.torn_down:
            self.close()

    def _on_view_message(self, view: str, message: dict[str, Any], frontend: Mapping[str, Any]) -> None:
        method = message.get("method")
        if message.get("jsonrpc") != "2.0" or not isinstance(method, str):
            return  # answers to our requests are the front-end's (teardown); anything else is noise
        ident = _request_id(message)
        params = message.get("params")
        params = params if isinstance(params, dict) else {}
        if not self.budget.take() or len(json.dumps(message)) > APP_SENT_CHARS:
            if ident is not None:
                self._post(view, _error(ident, TOO_MANY))
            return
        if ident is None:
            self._on_notification(view, method, params)
        elif method == "ui/initialize":
            self._post(view, {"jsonrpc": "2.0", "id": ident, "result": self._initialize(params, frontend)})
        elif method == "ping":
            self._post(view, {"jsonrpc": "2.0", "id": ident, "result": {}})
        elif method == "ui/request-display-mode":
            self._post(view, {"jsonrpc": "2.0", "id": ident, "result": {"mode": "inline"}})
        elif self.torn_down:
            self._post(view, _error(ident, AppRequestRefused(-32000, "This view has been closed.")))
        else:
            self._enqueue(view, {"id": ident, "method": method, "params": params})

    def _on_notification(self, view: str, method: str, params: dict[str, Any]) -> None:
        if method == "ui/notifications/initialized":
            with self._lock:
                self.views.add(view)
                kept = list(self._sent)
            for message in kept:
                self._post(view, message)
            return
        passed_on = getattr(self.handler, "handle_notification", None)
        if callable(passed_on):
            try:
                passed_on(method, params)
            except Exception:  # the view's notification must never break the kernel
                logger.debug("the handler failed on a notification of the view", exc_info=True)

    def _initialize(self, params: Mapping[str, Any], frontend: Mapping[str, Any]) -> dict[str, Any]:
        info = params.get("appInfo")
        if isinstance(info, dict):  # server text: kept as strings only, each cut
            self.app_info = {
                k: v[:APP_INFO_CHARS]
                for k, v in info.items()
                if k in ("name", "version", "title") and isinstance(v, str)
            }
        theme = frontend.get("theme")
        width = frontend.get("width")
        dimensions: dict[str, Any] = {"maxHeight": MAX_HEIGHT_PX}
        if isinstance(width, int) and not isinstance(width, bool) and width > 0:
            dimensions["width"] = width
        context: dict[str, Any] = {"platform": "web"}
        for key in ("locale", "timeZone"):
            if isinstance(frontend.get(key), str):
                context[key] = frontend[key]
        context.update(self.host_context)  # the caller's defaults; what the page knows wins below
        if theme in ("light", "dark"):
            context["theme"] = theme
        context.update(displayMode="inline", availableDisplayModes=["inline"], containerDimensions=dimensions)
        csp = self.resource.csp
        return {
            "protocolVersion": APPS_PROTOCOL_VERSION,
            "hostInfo": {"name": "anvia_nb", "version": __version__},
            "hostCapabilities": {
                "openLinks": {},
                "serverTools": {},
                "serverResources": {},
                "message": {"text": {}},
                "updateModelContext": {"text": {}},
                "sandbox": {
                    "permissions": {name: {} for name in sorted(self.resource.permissions)},
                    "csp": {
                        "connectDomains": list(sandbox_origins(csp.connect_domains)),
                        "resourceDomains": list(sandbox_origins(csp.resource_domains)),
                        "frameDomains": list(sandbox_origins(csp.frame_domains)),
                        "baseUriDomains": list(sandbox_origins(csp.base_uri_domains)),
                    },
                },
            },
            "hostContext": context,
        }

    # -- the worker that answers the view's requests ---------------------------------------------

    def _enqueue(self, view: str, request: dict[str, Any]) -> None:
        try:
            self._requests.put_nowait((view, request))
        except queue.Full:
            self._post(view, _error(request["id"], TOO_MANY))
            return
        with self._lock:
            if self._worker is None:
                self._worker = threading.Thread(target=self._work, name="anvia-app-frame", daemon=True)
                self._worker.start()

    def _work(self) -> None:
        while (item := self._requests.get()) is not None:
            view, request = item
            self._post(view, self._answer(request))

    def _answer(self, request: dict[str, Any]) -> dict[str, Any]:
        ident = request["id"]
        try:
            result = self.handler.handle(request["method"], request["params"])
        except AppRequestRefused as refused:
            return _error(ident, refused)
        except Exception:  # the view learns nothing of the server's or our text
            logger.debug("the handler failed on %s", request["method"], exc_info=True)
            return _error(ident, INTERNAL)
        if not isinstance(result, Mapping):
            return _error(ident, INTERNAL)
        return {"jsonrpc": "2.0", "id": ident, "result": dict(result)}

    def _stop_worker(self) -> None:
        with self._lock:
            worker = self._worker
        if worker is not None:
            while True:
                try:
                    self._requests.put_nowait(None)
                    break
                except queue.Full:
                    self._drain_one()

    def _drain_one(self) -> None:
        try:
            item = self._requests.get_nowait()
        except queue.Empty:
            return
        if item is not None:
            view, request = item
            self._post(view, _error(request["id"], AppRequestRefused(-32000, "This view has been closed.")))

    def close(self) -> None:
        """Close the widget (its views disappear) and stop answering the view."""
        if "_lock" not in self.__dict__:  # a frame whose view was refused: it never opened
            return
        with self._lock:
            self.torn_down = True
        self._stop_worker()
        super().close()


def _error(ident: object, refused: AppRequestRefused) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": ident, "error": {"code": refused.code, "message": refused.message}}
