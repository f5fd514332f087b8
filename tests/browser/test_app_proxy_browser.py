"""The sandbox proxy (anvia_nb/widgets/apps/proxy.js) in headless Chromium, without a kernel: the
front-end's own module (frame.js, as the AppFrame widget ships it) renders views on a page, with a
model that records what would go to the kernel and answers ``ui/initialize``.

- WebRTC: a view that declared no domains tries a peer connection from its own window, its proxy's,
  a blank frame it makes (in its document, in a shadow root, after ``document.open()``) and one it
  makes in its proxy's document; each is refused and a UDP listener on 127.0.0.1, the STUN and TURN
  server it names, receives nothing.
- Two views on a page: the proxy relays nothing from a sibling to its page (so to the kernel), and
  one view cannot script another's proxy (each ``data:`` proxy is an opaque origin of its own).
- Storage: a view's ``localStorage`` and ``sessionStorage`` work, in memory and its own: another view
  reads nothing of it, and the page's is out of reach.
- A browser that gave the proxy the page's origin (none does today) gets no view, and says so.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from typing import Any

import pytest

from anvia_nb.core.protocol.apps import AppCsp
from anvia_nb.display.app_html import content_security_policy, sandboxed_html
from anvia_nb.widgets.apps.frame import AppFrame
from tests.helpers import app_cells
from tests.helpers.lab import wait_js

pytestmark = pytest.mark.browser

WAIT_SECONDS = 30.0
REFUSED_LINE = "This browser gives the view's sandbox this page's origin, so the view is not shown."
REPORTED = "() => (window.sent || []).some(c => c.message && c.message.method === 'x/report')"
PAGE_URL = "http://anvia-proxy.test/"

PAGE = """<!doctype html><html><body><script type="module">
__PRELUDE__
const source = __SOURCE__;
const frame = await import(URL.createObjectURL(new Blob([source], {type: "text/javascript"})));
window.sent = [];
for (const [index, html] of __VIEWS__.entries()) {
  const listeners = [];
  const values = {_html: html, _csp: __CSP__, _allow: "", _border: true, _limits: {}};
  const model = {
    get: (name) => values[name], on: (_event, listener) => listeners.push(listener), off() {},
    send(content) {
      window.sent.push({index, ...content});
      const message = content.message;
      if (content.kind !== "rpc" || message.method !== "ui/initialize") return;
      const result = {protocolVersion: "2026-01-26", hostInfo: {name: "test", version: "1"},
                      hostCapabilities: {}, hostContext: {}};
      for (const listener of listeners) listener({kind: "rpc", view: content.view,
                                                  message: {jsonrpc: "2.0", id: message.id, result}});
    },
  };
  const el = document.createElement("div");
  document.body.appendChild(el);
  frame.default.render({model, el});
}
</script></body></html>"""

# The view's part of the handshake, then its own script; it reports with a notification "x/report".
VIEW = """<!doctype html><html><body><script>
const report = {};
function note(name, run) {
  try { report[name] = String(run()); } catch (error) { report[name] = "blocked: " + error.name; }
}
function send(params) { window.parent.postMessage({jsonrpc: "2.0", method: "x/report", params}, "*"); }
window.parent.postMessage({jsonrpc: "2.0", id: 1, method: "ui/initialize", params: {}}, "*");
__BODY__
</script></body></html>"""

WEBRTC_BODY = """
const servers = {iceServers: [{urls: "stun:__STUN__"}, {urls: "turn:__STUN__", username: "u", credential: "p"}]};
function open(Peer) {
  const peer = new Peer(servers);
  peer.createDataChannel("x");
  peer.createOffer().then((offer) => peer.setLocalDescription(offer));
  return "OPENED";
}
function blank(where) {
  (where || document.body).appendChild(document.createElement("iframe"));
  return window[window.length - 1];
}
note("own", () => open(window.RTCPeerConnection));
note("webkit", () => open(window.webkitRTCPeerConnection));
note("restored", () => {
  delete window.RTCPeerConnection;
  window.RTCPeerConnection = 1;
  return open(window.RTCPeerConnection);
});
note("parent", () => open(window.parent.RTCPeerConnection));
note("frame", () => open(blank().RTCPeerConnection));
note("frame_element", () => {
  const frame = document.body.appendChild(document.createElement("iframe"));
  return open(frame.contentWindow.RTCPeerConnection);
});
note("shadow_frame", () => {
  const root = document.body.appendChild(document.createElement("div")).attachShadow({mode: "closed"});
  return open(blank(root).RTCPeerConnection);
});
note("parent_frame", () => {
  const proxy = window.parent.document;
  proxy.body.appendChild(proxy.createElement("iframe"));
  return open(window.parent[window.parent.length - 1].RTCPeerConnection);
});
setTimeout(() => {
  note("frame_after_open", () => {
    document.open();
    document.write("<body></body>");
    return open(blank().RTCPeerConnection);
  });
  send(report);
}, 200);
"""

ATTEMPTS = {
    "own",
    "webkit",
    "restored",
    "parent",
    "frame",
    "frame_element",
    "shadow_frame",
    "parent_frame",
    "frame_after_open",
}

SIBLING_BODY = """
setTimeout(() => {
  const other = window.top.frames[1];
  note("read_other_proxy", () => other.document.body.innerHTML.length);
  note("post_to_other_proxy", () => {
    other.postMessage({jsonrpc: "2.0", id: 7, method: "tools/call", params: {name: "spoofed", arguments: {}}}, "*");
    return "posted";
  });
  send(report);
}, 500);
"""

QUIET_BODY = ""

STORAGE_WRITER = """
note("own", () => {
  localStorage.setItem("anvia", "kept");
  sessionStorage.setItem("anvia", "kept");
  return localStorage.getItem("anvia") + "," + sessionStorage.length;
});
note("page", () => window.top.localStorage.length);
send(report);
"""

STORAGE_READER = """
setTimeout(() => {
  note("own", () => localStorage.getItem("anvia") + "," + localStorage.length + "," + sessionStorage.length);
  note("proxy", () => window.parent.localStorage.getItem("anvia"));
  send(report);
}, 500);
"""


@pytest.fixture
def udp_listener() -> Iterator[socket.socket]:
    with app_cells.udp_listener() as listener:
        yield listener


def _view(body: str) -> str:
    return sandboxed_html("ui://test/view", VIEW.replace("__BODY__", body), AppCsp())


def _script_json(value: object) -> str:
    """``value`` as JSON that can sit inside a ``<script>`` (no ``</`` in it)."""
    return json.dumps(value).replace("</", "<\\/")


def _open_page(chromium: Any, views: list[str], prelude: str = "") -> Any:
    policy = content_security_policy(AppCsp())
    html = PAGE.replace("__PRELUDE__", prelude).replace("__VIEWS__", _script_json(views))
    html = html.replace("__CSP__", _script_json(policy)).replace("__SOURCE__", _script_json(AppFrame._esm))
    page = chromium.new_context().new_page()
    page.route(PAGE_URL, lambda route: route.fulfill(status=200, content_type="text/html", body=html))
    page.goto(PAGE_URL)
    return page


def _reports(page: Any) -> list[dict[str, Any]]:
    sent = page.evaluate("window.sent")
    return [
        {"index": item["index"], **item["message"]["params"]}
        for item in sent
        if item.get("kind") == "rpc" and item["message"].get("method") == "x/report"
    ]


def test_a_view_opens_no_webrtc_connection_from_any_window_it_reaches(
    chromium: Any, udp_listener: socket.socket
) -> None:
    stun = f"127.0.0.1:{udp_listener.getsockname()[1]}"
    page = _open_page(chromium, [_view(WEBRTC_BODY.replace("__STUN__", stun))])
    try:
        assert wait_js(page, REPORTED, None, WAIT_SECONDS)
        (report,) = _reports(page)
        opened = {name: outcome for name, outcome in report.items() if name != "index" and "blocked" not in outcome}
        assert opened == {}
        assert set(report) - {"index"} == ATTEMPTS  # every attempt ran
        page.wait_for_timeout(1_000)  # ICE would have sent its first packets by now
        assert app_cells.datagrams(udp_listener) == []
    finally:
        page.context.close()


def test_the_proxy_relays_nothing_from_a_sibling_view(chromium: Any) -> None:
    page = _open_page(chromium, [_view(SIBLING_BODY), _view(QUIET_BODY)])
    try:
        assert wait_js(page, REPORTED, None, WAIT_SECONDS)
        page.wait_for_timeout(1_000)  # a relayed message would have reached the model by now
        (report,) = _reports(page)
        assert report["read_other_proxy"].startswith("blocked: SecurityError")  # another opaque origin
        assert report["post_to_other_proxy"] == "posted"
        seen_by_second = [item["message"].get("method") for item in page.evaluate("window.sent") if item["index"] == 1]
        assert "tools/call" not in seen_by_second, seen_by_second  # the second view's proxy relayed none of it
        assert "ui/initialize" in seen_by_second  # the second view itself was heard
    finally:
        page.context.close()


def test_a_views_storage_is_its_own_in_memory_and_the_pages_stays_out_of_reach(chromium: Any) -> None:
    page = _open_page(chromium, [_view(STORAGE_WRITER), _view(STORAGE_READER)])
    try:
        assert wait_js(
            page,
            "() => (window.sent || []).filter(c => c.message.method === 'x/report').length === 2",
            None,
            WAIT_SECONDS,
        )
        writer, reader = sorted(_reports(page), key=lambda report: report["index"])
        assert writer["own"] == "kept,1"  # storage works in the view (the opaque origin has none)
        assert writer["page"].startswith("blocked: SecurityError")
        assert reader["own"] == "null,0,0"  # no other view's
        assert reader["proxy"] == "null"
        assert page.evaluate("localStorage.getItem('anvia')") is None  # nor the page's
    finally:
        page.context.close()


def test_a_proxy_that_shares_the_pages_origin_gets_no_view(chromium: Any) -> None:
    # A browser that gave a data: frame this page's origin, as the page sees it: the frame's document is readable.
    prelude = "Object.defineProperty(HTMLIFrameElement.prototype, 'contentDocument', {get() { return document; }});"
    page = _open_page(chromium, [_view(SIBLING_BODY)], prelude)
    try:
        line = page.locator(".anvia-app-closed")
        line.wait_for(timeout=WAIT_SECONDS * 1000)
        assert (
            line.text_content() == "This browser gives the view's sandbox this page's origin, so the view is not shown."
        )
        assert page.locator("iframe").count() == 0
        assert [item["kind"] for item in page.evaluate("window.sent")] == ["closed"]  # the view was never written
    finally:
        page.context.close()
