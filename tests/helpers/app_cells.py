"""Notebook cells and page readers shared by the MCP Apps browser tests (JupyterLab and Voilà).

The cells connect the demo server (and a second server, whose tool a view must not reach) and open
the hostile view as a person does (``%mcp app``: AppView, its bridge and AppFrame). Views of the
test's own (a minimal one, one that navigates away) are shown in an
:class:`~anvia_nb.widgets.apps.frame.AppFrame` with a handler written here: it forwards ``tools/call``
of the tools the test names to the real connection through the kernel's runtime and refuses
everything else, and records the notifications it is given.
"""

from __future__ import annotations

import json
import re
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from anvia_nb.demo_server.hostile_app import HOSTILE_APP_URI
from anvia_nb.display.app_html import MAX_HEIGHT_PX
from tests.helpers.hostile_server import SERVER_PATH
from tests.helpers.hostile_server import TOOL as OTHER_TOOL
from tests.helpers.lab import POLL_MS, RUN_TIMEOUT_SECONDS, notebook_view, visible_notebook
from tests.helpers.support import REPO

FRAME = "iframe.anvia-app-frame"
"""The view's sandbox proxy in the page; the view itself is the proxy's own iframe (:func:`view_frame`)."""
REPORT_WAIT_MS = 120_000
ISO_TIME = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d"
"""A time as the MCP Apps examples' ``get-time`` tool answers it (ISO 8601, to the second)."""
PROBE_PATH = "/api/contents/anvia-hostile-probe"
"""The Jupyter API path the hostile view is aimed at (see :func:`hostile_cell`); no request may reach it."""

SETUP_CELL = (
    "%load_ext anvia_nb\n"
    f"%mcp connect demo --cwd {REPO} --stdio python -m anvia_nb.demo_server\n"
    f"%mcp connect other --stdio python {SERVER_PATH}"
)

HANDLER_CELL = '''from anvia_nb.core.protocol.apps import AppResource, app_csp, app_permissions
from anvia_nb.errors import AppRequestRefused
from anvia_nb.runtime.sessions import get_runtime
from anvia_nb.widgets.apps.frame import AppFrame

runtime = get_runtime()
notices = []


class TestHandler:
    """Forwards tools/call of the tools named to the real connection; refuses everything else."""

    def __init__(self, server, app_tools):
        self.server, self.app_tools = server, app_tools

    def handle(self, method, params):
        if method == "tools/call" and params.get("name") in self.app_tools:
            return runtime.call(self.server, params["name"], params.get("arguments") or {}).raw
        raise AppRequestRefused(-32601, "not allowed here: " + method)

    def handle_notification(self, method, params):
        notices.append((method, params.get("data")))


def show_app(server, uri, tool, arguments, app_tools):
    read = runtime.run(runtime.server(server).read_resource(uri))
    content = read.contents[0]
    ui = (content.get("_meta") or {}).get("ui")
    resource = AppResource(uri, content["text"], app_csp(ui), app_permissions(ui))
    frame = AppFrame(resource, TestHandler(server, app_tools))
    frame.notify("ui/notifications/tool-input", {"arguments": arguments})
    frame.notify("ui/notifications/tool-result", runtime.call(server, tool, arguments).raw)
    return frame'''


def hostile_cell(probe_url: str, stun_url: str | None = None) -> str:
    """The cell that opens the hostile view as a person does (``%mcp app``), aimed at ``probe_url``
    (a Jupyter API URL with its token), at a tool of the other server and, when given, at the STUN
    server ``stun_url`` (``stun:127.0.0.1:PORT``, a test's UDP listener)."""
    aims = {"jupyter_url": probe_url, "other_tool": OTHER_TOOL} | ({"stun_url": stun_url} if stun_url else {})
    arguments = json.dumps(aims)
    return f"hostile = %mcp app demo.hostile_view {arguments}\nhostile"


def hostile_cell_direct(probe_url: str) -> str:
    """The same view in an ``AppFrame`` with the test's own handler (no ``AppView``)."""
    arguments = {"jupyter_url": probe_url, "other_tool": OTHER_TOOL}
    return (
        f"hostile = show_app('demo', {HOSTILE_APP_URI!r}, 'hostile_view', {arguments!r}, {{'hostile_app_only'}})\n"
        "hostile"
    )


MINIMAL_VIEW = """<!DOCTYPE html><html><head><title>minimal</title></head><body><p id="state">starting</p>
<script>
const state = document.getElementById("state");
window.addEventListener("message", (event) => {
  if (event.source !== window.parent) return;
  const message = event.data || {};
  if (message.id === 1 && message.result) {
    state.textContent = "initialized " + message.result.hostContext.displayMode;
    window.parent.postMessage({jsonrpc: "2.0", method: "ui/notifications/initialized", params: {}}, "*");
    window.parent.postMessage({jsonrpc: "2.0", method: "ui/notifications/size-changed", params: {height: 240}}, "*");
  }
  if (message.method === "ui/notifications/tool-result") state.textContent += "; result";
  if (message.method === "ui/notifications/host-context-changed") state.textContent += "; " + message.params.theme;
  if (message.method === "ui/resource-teardown") {
    window.parent.postMessage({jsonrpc: "2.0", method: "notifications/message", params: {data: "torn down"}}, "*");
    window.parent.postMessage({jsonrpc: "2.0", id: message.id, result: {}}, "*");
  }
});
window.parent.postMessage({jsonrpc: "2.0", id: 1, method: "ui/initialize",
  params: {appInfo: {name: "minimal", version: "1"}, appCapabilities: {}, protocolVersion: "2026-01-26"}}, "*");
</script></body></html>"""

MINIMAL_CELL = (
    "minimal = AppFrame(AppResource('ui://test/minimal', " + repr(MINIMAL_VIEW) + "), TestHandler('demo', set()))\n"
    "minimal.notify('ui/notifications/tool-result', {'content': []})\n"
    "minimal"
)


def navigator_cell(target: str) -> str:
    """A cell showing a view that, once initialized, navigates its own frame to ``target``."""
    view = (
        "<script>window.addEventListener('message', (event) => { if (event.data && event.data.id === 1) "
        f"location.href = {target!r}; }});"
        "window.parent.postMessage({jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: {appInfo: "
        "{name: 'navigator', version: '1'}, appCapabilities: {}, protocolVersion: '2026-01-26'}}, '*');</script>"
    )
    return f"navigator = AppFrame(AppResource('ui://test/navigator', {view!r}), TestHandler('demo', set()))\nnavigator"


def record_requests(page: Any) -> list[str]:
    """From now on, the requests of the page (its frames included) that were answered, and the
    WebSockets it opened; a request the CSP blocked is reported by Chromium too, but failed and
    never reached a server."""
    requests: list[str] = []
    page.on("requestfinished", lambda request: requests.append(request.url))
    page.on("websocket", lambda socket: requests.append(socket.url))
    return requests


def view_frame(scope: Any, nth: int = 0) -> Any:
    """The ``nth`` view's own document in ``scope`` (a page or a locator): the iframe its sandbox proxy holds."""
    return scope.frame_locator(FRAME).nth(nth).frame_locator("iframe").first


def frame_report(page: Any, nth: int = 0) -> dict[str, Any]:
    """The hostile view's report (JSON in its ``#report``), once its body says it is done."""
    frame = view_frame(page, nth)
    frame.locator("body[data-done='true']").wait_for(state="attached", timeout=REPORT_WAIT_MS)
    report: dict[str, Any] = json.loads(frame.locator("#report").text_content())
    return report


def sized_views(page: Any) -> Any:
    """Waits until the hostile view's frame (which asks for 100,000 px) holds at the height bound and
    the minimal view's at the 240 px it asks for; the minimal view's state line."""
    page.wait_for_function(
        f"() => [...document.querySelectorAll('{FRAME}')].map(f => f.getBoundingClientRect().height).join() "
        f"=== '{MAX_HEIGHT_PX},240'",
        timeout=30_000,
        polling=POLL_MS,
    )
    return view_frame(page, 1).locator("#state")


def frame_heights(page: Any) -> list[float]:
    """The height of every view's iframe in the page, in CSS pixels."""
    script = "frames => frames.map(f => f.getBoundingClientRect().height)"
    heights: list[float] = page.eval_on_selector_all(FRAME, script)
    return heights


REFUSED_IN_PAGE = (
    "top_navigation",
    "parent_dom",
    "parent_write",
    "parent_location",
    "cookie",
    "local_storage",
    "session_storage",
    "fetch_jupyter",
    "fetch_outside",
    "image_beacon",
    "websocket",
    "webrtc",
    "webrtc_parent",
    "webrtc_frame",
    "popup",
)
"""Attempts the browser must refuse inside the frame (the report says ``blocked: ...``)."""
REFUSED_BY_HOST = ("open_link_javascript", "call_model_only", "call_other_server", "unknown_method")
"""Requests the host must answer with a JSON-RPC error (the report says ``refused: ...``)."""


def _starts(report: dict[str, Any], name: str, word: str) -> bool:
    return str(report.get(name)).startswith(word)


def report_problems(report: dict[str, Any]) -> list[str]:
    """Every attempt of the hostile view that was not refused, as readable lines."""
    problems = [f"{name}: {report.get(name)!r}" for name in REFUSED_IN_PAGE if not _starts(report, name, "blocked")]
    problems += [f"{name}: {report.get(name)!r}" for name in REFUSED_BY_HOST if not _starts(report, name, "refused")]
    if not str(report.get("call_app_only", "")).startswith("ANSWERED"):
        problems.append(f"the positive control failed: call_app_only {report.get('call_app_only')!r}")
    for name in ("initialize", "tool_input", "tool_result"):
        if report.get(name) not in ("answered", "received"):
            problems.append(f"{name}: {report.get(name)!r}")
    return problems


def run_cell_below(page: Any, source: str) -> str:
    """Add a code cell under the last one, type ``source`` and run it, with the notebook's toolbar
    buttons (the keyboard may be in a view's frame); return its output text."""
    notebook = visible_notebook(page)
    view = notebook_view(page)
    assert view is not None
    before = len(view["prompts"])
    notebook.locator(".jp-Cell").last.locator(".jp-InputPrompt").click()
    toolbar = notebook.locator(".jp-NotebookPanel-toolbar")
    toolbar.locator("[data-command='notebook:insert-cell-below']").click()
    cell = notebook.locator(".jp-Cell").nth(before)
    cell.locator(".cm-content").click()
    page.keyboard.insert_text(source)
    toolbar.locator("[data-command='notebook:run-cell-and-select-next']").click()
    page.wait_for_function(
        """(index) => {
          const panel = [...document.querySelectorAll('.jp-NotebookPanel')].find(p => p.checkVisibility());
          const prompt = panel.querySelectorAll('.jp-CodeCell .jp-InputPrompt')[index];
          return prompt && /\\[\\d+\\]/.test(prompt.textContent);
        }""",
        arg=before,
        timeout=RUN_TIMEOUT_SECONDS * 1000,
        polling=POLL_MS,
    )
    text: str = cell.locator(".jp-OutputArea").inner_text()
    return text


@contextmanager
def udp_listener() -> Iterator[socket.socket]:
    """A UDP socket on 127.0.0.1 (non-blocking) for a view's WebRTC to aim at as its STUN and TURN server."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    listener.bind(("127.0.0.1", 0))
    listener.setblocking(False)
    try:
        yield listener
    finally:
        listener.close()


def datagrams(listener: socket.socket) -> list[bytes]:
    """The datagrams ``listener`` has received so far."""
    received = []
    while True:
        try:
            received.append(listener.recv(4096))
        except BlockingIOError:
            return received


def time_renews_on_click(shown: Any, button: Any) -> None:
    """Wait for ``shown`` (in a view) to hold a time, click ``button`` (the view calls ``get-time``
    through the kernel) and wait for ``shown`` to hold another."""
    shown.filter(has_text=re.compile(ISO_TIME)).wait_for(timeout=REPORT_WAIT_MS)
    first = shown.text_content()
    button.click()
    shown.filter(has_text=re.compile(ISO_TIME)).filter(has_not_text=first or "").wait_for(timeout=REPORT_WAIT_MS)
