"""The demo server's counter view (anvia_nb/demo_server/apps.py) speaks the app side of MCP Apps by
hand: in headless Chromium, in a sandboxed iframe of an opaque origin, under a minimal host page
that answers as a host would. It asks ``ui/initialize`` first, says ``initialized``, shows the tool's
input and result, calls ``counter_step`` on Step, sets the model context, sends ``ui/message`` and
reports its size. (The notebook host itself is tested with the front end's frame.)"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from anvia_nb.demo_server.apps import COUNTER_HTML
from tests.helpers.lab import wait_js

pytestmark = pytest.mark.browser

WAIT_SECONDS = 20.0

HOST = """<!doctype html><html><body><iframe id="view" sandbox="allow-scripts" style="width:400px;height:300px">
</iframe><script>
window.seen = [];
const frame = document.getElementById("view");
function post(message) { frame.contentWindow.postMessage({jsonrpc: "2.0", ...message}, "*"); }
function answer(id, result) { post({id: id, result: result}); }
function notify(method, params) { post({method: method, params: params}); }
window.addEventListener("message", (event) => {
  if (event.source !== frame.contentWindow) return;
  const m = event.data;
  window.seen.push(m);
  if (m.method === "ui/initialize") {
    answer(m.id, {protocolVersion: "2026-01-26", hostInfo: {name: "test-host", version: "1"}, hostCapabilities: {},
                  hostContext: {theme: "dark", displayMode: "inline"}});
  } else if (m.method === "ui/notifications/initialized") {
    notify("ui/notifications/tool-input", {arguments: {start: 3}});
    notify("ui/notifications/tool-result", {content: [{type: "text", text: "count: 3"}],
                                            structuredContent: {count: 3}});
  } else if (m.method === "tools/call") {
    const count = m.params.arguments.count + 1;
    answer(m.id, {content: [{type: "text", text: "count: " + count}], structuredContent: {count: count}});
  } else if (m.id !== undefined) {
    answer(m.id, {});
  }
});
frame.srcdoc = SOURCE;
</script></body></html>"""


@pytest.fixture
def host(chromium: Any) -> Iterator[Any]:
    context = chromium.new_context()
    page = context.new_page()
    try:
        page.set_content(HOST.replace("SOURCE", json.dumps(COUNTER_HTML).replace("</", "<\\/")))
        yield page
    finally:
        context.close()


def methods(page: Any) -> list[str]:
    return [str(m.get("method")) for m in page.evaluate("window.seen")]


def test_the_counter_view_initializes_shows_the_result_and_calls_back(host: Any) -> None:
    view = host.frame_locator("#view")
    assert wait_js(host, "() => window.seen.some(m => m.method === 'ui/notifications/initialized')", None, WAIT_SECONDS)
    assert methods(host)[0] == "ui/initialize"  # nothing before the handshake
    view.locator("#count").filter(has_text="3").wait_for(timeout=WAIT_SECONDS * 1000)
    assert view.locator("#input").inner_text() == 'input: {"start":3}'
    assert view.locator("body").get_attribute("class") == "dark"  # the host context's theme

    view.locator("#step").click()
    view.locator("#count").filter(has_text="4").wait_for(timeout=WAIT_SECONDS * 1000)
    assert wait_js(host, "() => window.seen.some(m => m.method === 'ui/update-model-context')", None, WAIT_SECONDS)
    seen = host.evaluate("window.seen")
    call = next(m for m in seen if m.get("method") == "tools/call")
    assert call["params"] == {"name": "counter_step", "arguments": {"count": 3}}
    context = next(m for m in seen if m.get("method") == "ui/update-model-context")
    assert context["params"]["structuredContent"] == {"count": 4}

    view.locator("#tell").click()
    assert wait_js(host, "() => window.seen.some(m => m.method === 'ui/message')", None, WAIT_SECONDS)
    message = next(m for m in host.evaluate("window.seen") if m.get("method") == "ui/message")
    assert message["params"] == {"role": "user", "content": [{"type": "text", "text": "The count is 4."}]}
    sizes = [m["params"] for m in host.evaluate("window.seen") if m.get("method") == "ui/notifications/size-changed"]
    assert sizes and all(size["height"] > 0 and size["width"] > 0 for size in sizes)
