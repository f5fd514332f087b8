// The front-end of anvia_nb's AppFrame (widgets/apps/frame.py): an MCP App's view in a sandbox.
//
// As the MCP Apps specification asks of a web host, the view is not a child of this page: the page
// holds a sandbox proxy, <iframe sandbox="allow-scripts allow-same-origin"> loaded from a data: URL
// (an opaque origin of its own, apart from the notebook's, whatever the sandbox says), whose script
// (proxy.js, given here as PROXY_SOURCE by frame.py) writes the view's HTML into an inner frame of
// its own origin and relays its JSON-RPC. So the view reaches neither this page's DOM, cookies and
// storage nor the Jupyter server, while its parent is a frame of its own kind.
// Only messages whose source is this proxy's own window are accepted; they are posted back with
// targetOrigin "*" (an opaque origin has no name), as the extension's reference host does.
// A flood is dropped here (a token bucket), and again bounded in the kernel.

function attribute(value) {
  return String(value).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function proxyUrl(csp, allow) {
  const origin = window.location.origin;
  const config = { hostOrigin: origin && origin !== "null" ? origin : "*", csp, allow };
  const call = "anviaSandboxProxy(" + JSON.stringify(config).replace(/</g, "\\u003c") + ");";
  const meta = csp ? '<meta http-equiv="Content-Security-Policy" content="' + attribute(csp) + '">' : "";
  const style = "<style>html,body{margin:0;padding:0;height:100%;overflow:hidden}iframe{display:block;border:0;width:100%;height:100%}</style>";
  const html = "<!DOCTYPE html><html><head>" + meta + style + "</head><body><script>" + PROXY_SOURCE + "\n" + call + "</script></body></html>";
  return "data:text/html;charset=utf-8," + encodeURIComponent(html);
}

function frontendFacts(el) {
  const body = document.body;
  let theme = null;
  const light = body && body.dataset ? body.dataset.jpThemeLight : undefined;
  if (light === "true") theme = "light";
  else if (light === "false") theme = "dark";
  else if (window.matchMedia) {
    theme = window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }
  const facts = { theme, width: Math.round(el.getBoundingClientRect().width) || null };
  try {
    facts.locale = navigator.language;
    facts.timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (_error) {
    // neither is needed
  }
  return facts;
}

function newId() {
  return "v" + Math.random().toString(36).slice(2) + Date.now().toString(36);
}

function render({ model, el }) {
  const limits = model.get("_limits") || {};
  const minHeight = limits.minHeight || 80;
  const maxHeight = limits.maxHeight || 1200;
  const burst = limits.burst || 200;
  const rate = limits.rate || 50;
  const maxChars = limits.maxChars || 1000000;
  const view = newId();

  const frame = document.createElement("iframe");
  frame.className = "anvia-app-frame";
  frame.setAttribute("sandbox", "allow-scripts allow-same-origin"); // on a data: URL: an opaque origin
  const csp = model.get("_csp");
  if (csp) frame.setAttribute("csp", csp); // CSP Embedded Enforcement, where the browser has it
  const allow = model.get("_allow") || "";
  frame.setAttribute("allow", allow);
  frame.setAttribute("referrerpolicy", "no-referrer");
  frame.setAttribute("title", "MCP App view");
  frame.setAttribute("data-view", view);
  frame.style.width = "100%";
  frame.style.height = minHeight * 2 + "px";
  frame.style.display = "block";
  frame.style.boxSizing = "border-box";
  frame.style.border = model.get("_border") ? "1px solid var(--jp-border-color2, #ddd)" : "none";
  frame.style.borderRadius = "4px";
  frame.src = proxyUrl(csp, allow);
  let resourceSent = false;
  el.classList.add("anvia-app");
  el.appendChild(frame);

  // -- a view that navigates its own frame away is closed --------------------------------------
  // The sandbox lets a frame navigate itself. Where the browser enforces the `csp` attribute
  // (Chromium) the page it goes to is blocked; elsewhere it would run without our policy. Either
  // way the frame's second load means it is no longer the view the kernel checked: close it.
  let loads = 0;
  let gone = false;
  function closeNavigated(line) {
    if (gone) return;
    gone = true;
    window.removeEventListener("message", onMessage);
    frame.remove();
    const note = document.createElement("div");
    note.className = "anvia-app-closed";
    note.textContent = line || "This view tried to leave its page and was closed.";
    el.appendChild(note);
    model.send({ kind: line ? "closed" : "navigated", view });
  }
  // The specification's first rule: the proxy's origin is not the page's. A data: document has an
  // opaque origin in every current browser; one that gave it this page's would get no view.
  function proxyIsApart() {
    try {
      return frame.contentDocument === null;
    } catch (_error) {
      return true;
    }
  }
  frame.addEventListener("load", () => {
    loads += 1;
    if (loads >= 2) closeNavigated();
  });

  // -- the flood bound -------------------------------------------------------------------------
  let tokens = burst;
  let last = performance.now();
  let dropped = 0;
  let reportTimer = null;
  function take() {
    const now = performance.now();
    tokens = Math.min(burst, tokens + ((now - last) / 1000) * rate);
    last = now;
    if (tokens >= 1) {
      tokens -= 1;
      return true;
    }
    dropped += 1;
    el.dataset.dropped = String(Number(el.dataset.dropped || 0) + 1);
    if (reportTimer === null) {
      reportTimer = setTimeout(() => {
        reportTimer = null;
        const count = dropped;
        dropped = 0;
        model.send({ kind: "dropped", view, count });
      }, 1000);
    }
    return false;
  }

  // -- teardown ----------------------------------------------------------------------------------
  let tornDown = false;
  let initialized = false;
  const waiting = new Map();
  let nextId = 1;
  function post(message) {
    if (frame.contentWindow) frame.contentWindow.postMessage(message, "*");
  }
  function requestTeardown() {
    if (tornDown) return Promise.resolve();
    tornDown = true;
    const id = "anvia-teardown-" + nextId++;
    const answered = new Promise((resolve) => waiting.set(id, resolve));
    post({ jsonrpc: "2.0", id, method: "ui/resource-teardown", params: {} });
    return answered;
  }

  // -- view to kernel ----------------------------------------------------------------------------
  function onMessage(event) {
    if (gone || event.source !== frame.contentWindow || event.source === null) return;
    if (!take()) return;
    const data = event.data;
    if (data === null || typeof data !== "object" || data.jsonrpc !== "2.0") return;
    let text;
    try {
      text = JSON.stringify(data);
    } catch (_error) {
      return;
    }
    if (typeof text !== "string" || text.length > maxChars) return;
    const message = JSON.parse(text);
    if (typeof message.method === "string" && message.method.startsWith("ui/notifications/sandbox-")) {
      if (message.method === "ui/notifications/sandbox-proxy-ready" && !resourceSent) {
        resourceSent = true;
        if (!proxyIsApart()) {
          closeNavigated("This browser gives the view's sandbox this page's origin, so the view is not shown.");
          return;
        }
        post({ jsonrpc: "2.0", method: "ui/notifications/sandbox-resource-ready", params: { html: model.get("_html") } });
      } else if (message.method === "ui/notifications/sandbox-navigated") {
        closeNavigated();
      }
      return; // between the page and its proxy only
    }
    if (typeof message.method !== "string") {
      const resolve = waiting.get(message.id);
      if (resolve) {
        waiting.delete(message.id);
        resolve();
      }
      return; // the host's only requests are its own (teardown); other answers are noise
    }
    if (message.method === "ui/notifications/size-changed") {
      const asked = message.params && message.params.height;
      if (typeof asked === "number" && Number.isFinite(asked)) {
        const height = Math.round(Math.min(maxHeight, Math.max(minHeight, asked)));
        frame.style.height = height + "px";
      }
      return;
    }
    if (message.method === "ui/notifications/initialized") initialized = true;
    model.send({ kind: "rpc", view, message, frontend: frontendFacts(el) });
  }
  window.addEventListener("message", onMessage);

  // -- the page's theme changes (JupyterLab's light or dark): the view hears of it ----------------
  let theme = frontendFacts(el).theme;
  const themeWatch = new MutationObserver(() => {
    const now = frontendFacts(el).theme;
    if (now === theme || !initialized || tornDown) return;
    theme = now;
    post({ jsonrpc: "2.0", method: "ui/notifications/host-context-changed", params: { theme } });
  });
  if (document.body) themeWatch.observe(document.body, { attributes: true, attributeFilter: ["data-jp-theme-light"] });

  // -- kernel to view ----------------------------------------------------------------------------
  function onKernel(content) {
    if (!content || typeof content !== "object") return;
    if (content.view !== null && content.view !== undefined && content.view !== view) return;
    if (content.kind === "rpc" && content.message) {
      post(content.message);
    } else if (content.kind === "teardown") {
      const wait = new Promise((resolve) => setTimeout(resolve, (content.wait || 3) * 1000));
      Promise.race([requestTeardown(), wait]).then(() => model.send({ kind: "torn-down", view }));
    }
  }
  model.on("msg:custom", onKernel);

  return () => {
    // The output is cleared or the widget closed: the view hears of it, its iframe goes.
    requestTeardown();
    window.removeEventListener("message", onMessage);
    themeWatch.disconnect();
    model.off("msg:custom", onKernel);
    if (reportTimer !== null) clearTimeout(reportTimer);
    try {
      if (!gone) model.send({ kind: "closed", view });
    } catch (_error) {
      // the widget itself is gone
    }
  };
}

export default { render };
