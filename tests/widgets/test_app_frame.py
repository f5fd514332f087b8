"""The kernel end of an MCP App's view (``AppFrame``): what it answers itself, what it hands to the
handler and how errors come back, the notifications kept for the view, and the flood bounds.

No front-end here: the messages a front-end would send are given to the widget's message callback,
and what the widget sends is read from its comm's outgoing messages (ipywidgets' own ``send``).
tests/browser/test_app_frame_browser.py runs the same against JupyterLab and a real view.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from anvia_nb.core.protocol.apps import AppCsp, AppResource
from anvia_nb.core.protocol.limits import APP_KERNEL_BURST, APP_KERNEL_RATE, APP_PENDING_REQUESTS
from anvia_nb.errors import AppRequestRefused, InvalidValueError
from anvia_nb.widgets.apps.frame import APPS_PROTOCOL_VERSION, AppFrame, MessageBudget

VIEW = "view-1"
ANSWER_TIMEOUT_SECONDS = 10.0


class Sent:
    """What the widget sent to the front-end, and a way to wait for an answer to request ``id``."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.changed = threading.Condition()

    def add(self, content: Mapping[str, Any], *_args: object, **_kwargs: object) -> None:
        with self.changed:
            self.messages.append(dict(content))
            self.changed.notify_all()

    def rpc(self) -> list[dict[str, Any]]:
        with self.changed:
            return [m["message"] for m in self.messages if m.get("kind") == "rpc"]

    def answer(self, ident: object) -> dict[str, Any]:
        with self.changed:
            found = self.changed.wait_for(
                lambda: any(m.get("id") == ident and "method" not in m for m in self.rpc()), ANSWER_TIMEOUT_SECONDS
            )
            assert found, f"no answer to {ident!r}: {self.messages}"
            return next(m for m in self.rpc() if m.get("id") == ident and "method" not in m)


class Handler:
    def __init__(self) -> None:
        self.seen: list[tuple[str, dict[str, Any]]] = []
        self.notices: list[str] = []
        self.release = threading.Event()
        self.release.set()

    def handle(self, method: str, params: Mapping[str, Any]) -> Mapping[str, Any]:
        self.release.wait(ANSWER_TIMEOUT_SECONDS)
        self.seen.append((method, dict(params)))
        if method == "tools/call":
            return {"content": [{"type": "text", "text": "ok"}]}
        if method == "refuse":
            raise AppRequestRefused(-32602, "That tool is not for views.")
        if method == "odd":
            return ["not", "a", "mapping"]  # type: ignore[return-value]
        raise RuntimeError("server said: secret /home/me/.ssh traceback")

    def handle_notification(self, method: str, params: Mapping[str, Any]) -> None:
        self.notices.append(method)


@pytest.fixture
def handler() -> Handler:
    return Handler()


@pytest.fixture
def frame_and_sent(handler: Handler, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[AppFrame, Sent]]:
    resource = AppResource(
        "ui://demo/view", "<p>view</p>", AppCsp(connect_domains=("https://api.example.com", "*")), frozenset({"camera"})
    )
    host_context = {"toolInfo": {"tool": {"name": "weather"}}, "theme": "light", "displayMode": "fullscreen"}
    frame = AppFrame(resource, handler, host_context=host_context)
    sent = Sent()
    monkeypatch.setattr(frame, "send", sent.add)
    yield frame, sent
    frame.close()


def _from_view(frame: AppFrame, message: dict[str, Any], frontend: dict[str, Any] | None = None) -> None:
    content = {"kind": "rpc", "view": VIEW, "message": {"jsonrpc": "2.0", **message}, "frontend": frontend or {}}
    frame._on_frontend_message(frame, content, [])


def test_the_frame_carries_the_sandboxed_html_its_csp_and_allow_list() -> None:
    frame = AppFrame(AppResource("ui://demo/view", "<!DOCTYPE html><p>x</p>"), Handler())
    try:
        assert frame._html.startswith('<!DOCTYPE html><meta http-equiv="Content-Security-Policy"')
        assert "connect-src 'none'" in frame._csp
        assert frame._allow == ""
        assert frame._limits["maxHeight"] == 1200 and frame._limits["minHeight"] == 80
    finally:
        frame.close()


def test_a_view_too_large_is_refused_before_any_widget_exists() -> None:
    with pytest.raises(InvalidValueError, match="views are shown up to"):
        AppFrame(AppResource("ui://demo/huge", "x" * 5_000_001), Handler())


def test_initialize_is_answered_by_the_frame_with_only_what_the_host_does(
    frame_and_sent: tuple[AppFrame, Sent],
) -> None:
    frame, sent = frame_and_sent
    _from_view(
        frame,
        {"id": 1, "method": "ui/initialize", "params": {"appInfo": {"name": "weather-view"}}},
        {"theme": "dark", "width": 640, "locale": "en-GB", "timeZone": "Europe/Oslo"},
    )
    result = sent.answer(1)["result"]
    assert result["protocolVersion"] == APPS_PROTOCOL_VERSION
    assert result["hostInfo"]["name"] == "anvia_nb"
    capabilities = result["hostCapabilities"]
    assert set(capabilities) == {
        "openLinks",
        "serverTools",
        "serverResources",
        "message",
        "updateModelContext",
        "sandbox",
    }
    assert capabilities["sandbox"] == {
        "permissions": {"camera": {}},
        "csp": {
            "connectDomains": ["https://api.example.com"],
            "resourceDomains": [],
            "frameDomains": [],
            "baseUriDomains": [],
        },
    }
    assert result["hostContext"] == {
        "theme": "dark",
        "displayMode": "inline",
        "availableDisplayModes": ["inline"],
        "containerDimensions": {"maxHeight": 1200, "width": 640},
        "platform": "web",
        "locale": "en-GB",
        "timeZone": "Europe/Oslo",
        "toolInfo": {"tool": {"name": "weather"}},
    }
    assert frame.app_info == {"name": "weather-view"}


def test_notifications_wait_for_the_view_to_be_initialized_then_reach_every_initialized_view(
    frame_and_sent: tuple[AppFrame, Sent],
) -> None:
    frame, sent = frame_and_sent
    frame.notify("ui/notifications/tool-input", {"arguments": {"city": "Oslo"}})
    frame.notify("ui/notifications/tool-result", {"content": []})
    assert sent.rpc() == []
    _from_view(frame, {"method": "ui/notifications/initialized"})
    assert [m["method"] for m in sent.rpc()] == ["ui/notifications/tool-input", "ui/notifications/tool-result"]
    assert {m["view"] for m in sent.messages} == {VIEW}
    frame.notify("ui/notifications/tool-cancelled", {"reason": "user action"})
    assert sent.rpc()[-1] == {
        "jsonrpc": "2.0",
        "method": "ui/notifications/tool-cancelled",
        "params": {"reason": "user action"},
    }


def test_other_requests_go_to_the_handler_and_errors_come_back_as_json_rpc_errors(
    frame_and_sent: tuple[AppFrame, Sent], handler: Handler
) -> None:
    frame, sent = frame_and_sent
    _from_view(frame, {"id": "a", "method": "tools/call", "params": {"name": "echo", "arguments": {}}})
    _from_view(frame, {"id": "b", "method": "refuse", "params": {}})
    _from_view(frame, {"id": "c", "method": "sampling/createMessage", "params": {}})
    _from_view(frame, {"id": "d", "method": "odd"})
    _from_view(frame, {"id": 5, "method": "ping"})
    _from_view(frame, {"id": 6, "method": "ui/request-display-mode", "params": {"mode": "fullscreen"}})
    assert sent.answer("a")["result"] == {"content": [{"type": "text", "text": "ok"}]}
    assert sent.answer("b")["error"] == {"code": -32602, "message": "That tool is not for views."}
    assert sent.answer("c")["error"] == {"code": -32603, "message": "The host could not carry out this request."}
    assert sent.answer("d")["error"]["code"] == -32603
    assert sent.answer(5)["result"] == {}
    assert sent.answer(6)["result"] == {"mode": "inline"}
    assert [method for method, _ in handler.seen] == ["tools/call", "refuse", "sampling/createMessage", "odd"]
    assert "secret" not in repr(sent.messages)


def test_notifications_of_the_view_go_to_the_handler_if_it_takes_them_and_noise_is_dropped(
    frame_and_sent: tuple[AppFrame, Sent], handler: Handler
) -> None:
    frame, sent = frame_and_sent
    _from_view(frame, {"method": "notifications/message", "params": {"level": "info", "data": "hi"}})
    frame._on_frontend_message(frame, {"kind": "rpc", "view": VIEW, "message": {"method": "x"}}, [])  # no jsonrpc
    frame._on_frontend_message(frame, ["not", "a", "dict"], [])
    frame._on_frontend_message(frame, {"kind": "rpc", "view": 7, "message": {}}, [])
    _from_view(frame, {"id": 9, "result": {}})  # an answer to nothing the kernel asked
    assert handler.notices == ["notifications/message"]
    assert sent.messages == []


def test_a_flood_is_refused_beyond_the_kernels_budget(frame_and_sent: tuple[AppFrame, Sent]) -> None:
    frame, sent = frame_and_sent
    frame.budget = MessageBudget(APP_KERNEL_BURST, APP_KERNEL_RATE, clock=lambda: 0.0)  # no time passes
    for ident in range(APP_KERNEL_BURST + 50):
        _from_view(frame, {"id": ident, "method": "ping"})
    answers = [sent.answer(ident) for ident in range(APP_KERNEL_BURST + 50)]
    assert sum("result" in a for a in answers) == APP_KERNEL_BURST
    assert [a["error"]["code"] for a in answers if "error" in a] == [-32000] * 50
    assert frame.budget.refused == 50


def test_the_budget_refills_with_time() -> None:
    now = [0.0]
    budget = MessageBudget(3, 2.0, clock=lambda: now[0])
    assert [budget.take() for _ in range(4)] == [True, True, True, False]
    now[0] = 1.0  # two more
    assert [budget.take() for _ in range(3)] == [True, True, False]
    now[0] = 100.0  # never more than the burst
    assert [budget.take() for _ in range(4)] == [True, True, True, False]
    assert budget.refused == 3


def test_requests_waiting_for_the_handler_are_bounded(frame_and_sent: tuple[AppFrame, Sent], handler: Handler) -> None:
    frame, sent = frame_and_sent
    handler.release.clear()  # the handler blocks on the first request; the rest wait in line
    total = APP_PENDING_REQUESTS + 10
    for ident in range(total):
        _from_view(frame, {"id": ident, "method": "tools/call", "params": {"name": "echo"}})
    with sent.changed:
        assert sent.changed.wait_for(
            lambda: sum("error" in m for m in sent.rpc()) >= total - APP_PENDING_REQUESTS - 1, ANSWER_TIMEOUT_SECONDS
        )
    handler.release.set()
    answers = [sent.answer(ident) for ident in range(total)]
    refused = [a for a in answers if "error" in a]
    # the one in hand may not be taken yet
    assert len(refused) in (total - APP_PENDING_REQUESTS - 1, total - APP_PENDING_REQUESTS)
    assert {a["error"]["message"] for a in refused} == {"Too many requests from this view: refused."}


def test_teardown_with_no_view_closes_at_once_and_later_requests_are_refused(
    frame_and_sent: tuple[AppFrame, Sent],
) -> None:
    frame, sent = frame_and_sent
    frame.teardown()
    assert frame.comm is None and frame.torn_down
    _from_view(frame, {"id": 1, "method": "tools/call", "params": {}})
    assert sent.answer(1)["error"]["message"] == "This view has been closed."


def test_teardown_with_a_view_asks_it_first_and_closes_when_it_has_answered(
    frame_and_sent: tuple[AppFrame, Sent],
) -> None:
    frame, sent = frame_and_sent
    _from_view(frame, {"method": "ui/notifications/initialized"})
    frame.teardown()
    assert sent.messages[-1] == {"kind": "teardown", "wait": 3.0}
    assert frame.comm is not None
    frame._on_frontend_message(frame, {"kind": "torn-down", "view": VIEW}, [])
    assert frame.comm is None


def test_a_closed_view_is_counted_and_no_longer_notified(frame_and_sent: tuple[AppFrame, Sent]) -> None:
    frame, sent = frame_and_sent
    _from_view(frame, {"method": "ui/notifications/initialized"})
    frame._on_frontend_message(frame, {"kind": "closed", "view": VIEW}, [])
    frame._on_frontend_message(frame, {"kind": "dropped", "view": VIEW, "count": 12}, [])
    frame.notify("ui/notifications/tool-result", {"content": []})
    assert frame.views == set() and frame.views_closed == 1 and frame.dropped_in_frontend == 12
    assert sent.rpc() == []


def test_a_static_copy_of_the_output_says_the_view_needs_a_live_kernel() -> None:
    frame = AppFrame(AppResource("ui://demo/view", "<p>x</p>"), Handler())
    try:
        bundle = frame._repr_mimebundle_()
        assert bundle is not None
        data, _metadata = bundle
        line = "This tool has an interactive view (ui://demo/view); it needs a live kernel to show."
        assert data["text/plain"] == line
        assert "it needs a live kernel to show." in data["text/html"]
        assert data["application/vnd.jupyter.widget-view+json"]["model_id"] == frame.model_id
    finally:
        frame.close()
