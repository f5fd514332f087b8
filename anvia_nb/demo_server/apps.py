"""A friendly MCP App on the demo server: a counter with an interactive view, for tests and teaching.

MCP Apps (the ``io.modelcontextprotocol/ui`` extension) let a tool name an HTML view in its
``_meta.ui.resourceUri``. Here:

- ``counter_app`` has the view ``ui://anvia-demo/counter.html``: it returns the count it was given
  (``structuredContent: {"count": N, "hostDeclaresApps": ...}``, the second saying whether the
  client declared the extension in its capabilities);
- ``counter_step`` is for the view only (``visibility: ["app"]``): the view's Step button calls it;
- ``counter_reset`` is for cells only (``visibility: ["model"]``): the view may not call it.

The view is one self-contained HTML page (no CDN, no network): it speaks the app side of the
protocol by hand, JSON-RPC over ``postMessage`` to its parent (``ui/initialize``, then
``ui/notifications/initialized``), shows the tool's input and result, calls ``counter_step`` on a
button, tells the notebook the count (``ui/message``, ``ui/update-model-context``) and reports its
size (``ui/notifications/size-changed``). It writes text with ``textContent`` only.
"""

from __future__ import annotations

from typing import Any

import mcp_types as types
from mcp.server.context import ServerRequestContext

from anvia_nb.demo_server.tool_objects import NO_ARGUMENTS, tool

__all__ = [
    "APP_CONTENTS",
    "APP_RESOURCES",
    "APP_TOOLS",
    "COUNTER_URI",
    "call_app_tool",
    "is_app_tool",
]

JsonObject = dict[str, Any]
_Context = ServerRequestContext[Any]

EXTENSION_ID = "io.modelcontextprotocol/ui"
APP_MIME_TYPE = "text/html;profile=mcp-app"
COUNTER_URI = "ui://anvia-demo/counter.html"
_LIMIT = 1_000_000


def _count_schema(name: str, description: str) -> JsonObject:
    return {
        "type": "object",
        "properties": {name: {"type": "integer", "minimum": 0, "maximum": _LIMIT, "description": description}},
        "additionalProperties": False,
    }


_OUTPUT = {
    "type": "object",
    "properties": {"count": {"type": "integer"}, "hostDeclaresApps": {"type": "boolean"}},
    "required": ["count"],
}

APP_TOOLS: list[JsonObject] = [
    tool(
        "counter_app",
        "Counter (with a view)",
        # The server's words reach every reader (a dashboard's viewers, a model): how to open the
        # view in a notebook is anvia_nb's to say (the `app` column of %mcp tools, docs/apps.md).
        "Returns the count it is given; comes with an interactive view (MCP Apps) whose Step button counts on.",
        _count_schema("start", "Where to start counting"),
        output_schema=_OUTPUT,
        meta={"ui": {"resourceUri": COUNTER_URI}},
    ),
    tool(
        "counter_step",
        "Counter step (for its view)",
        "Adds one to count; only the counter's view may call it.",
        {**_count_schema("count", "The count so far"), "required": ["count"]},
        output_schema=_OUTPUT,
        meta={"ui": {"resourceUri": COUNTER_URI, "visibility": ["app"]}},
    ),
    tool(
        "counter_reset",
        "Counter reset (cells only)",
        "Returns a count of zero; cells may call it, the counter's view may not.",
        NO_ARGUMENTS,
        output_schema=_OUTPUT,
        meta={"ui": {"visibility": ["model"], "resourceUri": COUNTER_URI}},
    ),
]

_NAMES = frozenset(listed["name"] for listed in APP_TOOLS)

COUNTER_HTML = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Counter</title>
<style>
  body { font: 14px system-ui, sans-serif; margin: 0; padding: 12px; color: #222; background: #fff; }
  body.dark { color: #eee; background: #222; }
  #count { font-size: 32px; font-weight: 600; margin: 4px 0 8px; }
  .muted { color: #777; font-size: 12px; }
  button { margin-right: 6px; }
</style>
</head>
<body>
<div class="muted" id="input">waiting for the tool's input…</div>
<div id="count">–</div>
<button id="step" disabled>Step</button>
<button id="tell" disabled>Tell the notebook</button>
<button id="link" disabled>Offer a link</button>
<div class="muted" id="status">connecting…</div>
<script>
(function () {
  "use strict";
  var nextId = 1;
  var pending = {};
  var count = null;
  var el = function (id) { return document.getElementById(id); };
  function send(message) { window.parent.postMessage(message, "*"); }
  function request(method, params) {
    var id = nextId++;
    send({ jsonrpc: "2.0", id: id, method: method, params: params });
    return new Promise(function (resolve, reject) { pending[id] = { resolve: resolve, reject: reject }; });
  }
  function notify(method, params) { send({ jsonrpc: "2.0", method: method, params: params }); }
  function answer(id, result) { send({ jsonrpc: "2.0", id: id, result: result }); }
  function status(text) { el("status").textContent = text; sizeChanged(); }
  function sizeChanged() {
    var root = document.documentElement;
    notify("ui/notifications/size-changed", { width: root.scrollWidth, height: root.scrollHeight });
  }
  function showCount(value) {
    count = value;
    el("count").textContent = String(value);
    el("step").disabled = el("tell").disabled = false;
  }
  function showResult(result) {
    var data = result && result.structuredContent;
    if (data && typeof data.count === "number") { showCount(data.count); return; }
    status(result && result.isError ? "the tool failed" : "the result has no count");
  }
  function theme(context) {
    if (context && context.theme) { document.body.className = context.theme === "dark" ? "dark" : ""; }
  }
  window.addEventListener("message", function (event) {
    if (event.source !== window.parent) { return; }
    var m = event.data;
    if (!m || m.jsonrpc !== "2.0") { return; }
    if (m.method === undefined && m.id !== undefined) {
      var waiting = pending[m.id];
      delete pending[m.id];
      if (waiting) { if (m.error) { waiting.reject(m.error); } else { waiting.resolve(m.result); } }
      return;
    }
    var params = m.params || {};
    if (m.method === "ui/notifications/tool-input") {
      el("input").textContent = "input: " + JSON.stringify(params.arguments || {});
    } else if (m.method === "ui/notifications/tool-result") {
      showResult(params);
      status("shown");
    } else if (m.method === "ui/notifications/tool-cancelled") {
      status("the call was cancelled");
    } else if (m.method === "ui/notifications/host-context-changed") {
      theme(params);
    } else if (m.method === "ui/resource-teardown" || m.method === "ping") {
      if (m.id !== undefined) { answer(m.id, {}); }
    }
  });
  el("step").addEventListener("click", function () {
    status("calling counter_step…");
    request("tools/call", { name: "counter_step", arguments: { count: count } }).then(function (result) {
      showResult(result);
      status("stepped");
      return request("ui/update-model-context", {
        content: [{ type: "text", text: "The counter shows " + count + "." }],
        structuredContent: { count: count }
      });
    }).catch(function (error) { status("refused: " + (error && error.message)); });
  });
  el("tell").addEventListener("click", function () {
    request("ui/message", { role: "user", content: [{ type: "text", text: "The count is " + count + "." }] })
      .then(function () { status("told the notebook"); })
      .catch(function (error) { status("refused: " + (error && error.message)); });
  });
  el("link").addEventListener("click", function () {
    request("ui/open-link", { url: "https://modelcontextprotocol.io/" })
      .then(function () { status("offered a link"); })
      .catch(function (error) { status("refused: " + (error && error.message)); });
  });
  el("link").disabled = false;
  request("ui/initialize", {
    appInfo: { name: "anvia-demo-counter", version: "1.0.0" },
    appCapabilities: {},
    protocolVersion: "2026-01-26"
  }).then(function (result) {
    theme(result && result.hostContext);
    notify("ui/notifications/initialized", {});
    status("ready");
  }).catch(function (error) { status("the host refused to start: " + (error && error.message)); });
}());
</script>
</body>
</html>
"""

_UI_META: JsonObject = {"ui": {"csp": {"connectDomains": [], "resourceDomains": []}, "prefersBorder": True}}

APP_RESOURCES: list[JsonObject] = [
    {"uri": COUNTER_URI, "name": "counter-view", "title": "The counter's interactive view",
     "mimeType": APP_MIME_TYPE, "description": "An MCP App: HTML the host shows in a sandbox.", "_meta": _UI_META},
]  # fmt: skip
APP_CONTENTS: dict[str, JsonObject] = {
    COUNTER_URI: {"uri": COUNTER_URI, "mimeType": APP_MIME_TYPE, "text": COUNTER_HTML, "_meta": _UI_META},
}


def is_app_tool(name: str) -> bool:
    return name in _NAMES


def _declares_apps(ctx: _Context) -> bool:
    """Whether the client declared the MCP Apps extension (at initialize, or with this request)."""
    capabilities = ctx.session.client_capabilities
    extensions = capabilities.extensions if capabilities is not None else None
    sent = (ctx.meta or {}).get(types.CLIENT_CAPABILITIES_META_KEY)
    per_request = sent.get("extensions") if isinstance(sent, dict) else None
    return any(isinstance(found, dict) and EXTENSION_ID in found for found in (extensions, per_request))


def call_app_tool(ctx: _Context, name: str, arguments: dict[str, Any]) -> types.CallToolResult:
    """``counter_app``, ``counter_step`` or ``counter_reset`` (arguments already checked)."""
    if name == "counter_app":
        count = int(arguments.get("start", 0))
    elif name == "counter_step":
        count = min(int(arguments["count"]) + 1, _LIMIT)
    else:
        count = 0
    data = {"count": count, "hostDeclaresApps": _declares_apps(ctx)}
    return types.CallToolResult.model_validate(
        {"content": [{"type": "text", "text": f"count: {count}"}], "structuredContent": data}
    )
