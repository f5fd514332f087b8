// The sandbox proxy of an MCP App's view (the extension's "Sandbox"): the script of the outer frame
// that anvia_nb's frame.js puts between the notebook page and the view.
//
// The outer frame is <iframe sandbox="allow-scripts allow-same-origin" src="data:..."> : a data:
// document has an opaque origin of its own whatever the sandbox says, so it is apart from the page
// (the specification's rule 1) while holding the two permissions the specification names (rule 2).
// The view is written into an inner <iframe sandbox="allow-scripts allow-same-origin"> of this
// frame with document.write, as the extension's reference host does: it shares the proxy's opaque
// origin, so the view's parent is a frame of its own kind (libraries that touch window.parent, as
// Vue's reactivity does, work) while the page stays out of reach. Both frames hold the sandbox the
// page gave the outer one: no top navigation, pop-ups, forms or modals.
//
// This script runs before any of the view's, in both frames: it removes the WebRTC constructors
// (CSP cannot stop WebRTC in Chromium) from every window of the view it can reach, gives each an
// in-memory localStorage and sessionStorage (the opaque origin has none), relays JSON-RPC
// between the page and the view (never a ui/notifications/sandbox-* message, never a message from
// any other window), and announces itself with ui/notifications/sandbox-proxy-ready; the page answers
// with ui/notifications/sandbox-resource-ready carrying the view's HTML (its CSP meta first).
//
// Called as anviaSandboxProxy({hostOrigin, allow, csp}) from the outer document.

// eslint-disable-next-line no-unused-vars
function anviaSandboxProxy(config) {
  "use strict";
  const WEBRTC = ["RTCPeerConnection", "webkitRTCPeerConnection", "RTCDataChannel", "RTCIceTransport"];
  const guarded = new WeakSet();

  // -- WebRTC: gone from each window of the view, for good ---------------------------------------
  function lock(win) {
    for (const name of WEBRTC) {
      try {
        Object.defineProperty(win, name, { value: undefined, writable: false, configurable: false });
      } catch (_error) {
        // already locked
      }
    }
  }

  // -- storage: a data: document's opaque origin has none (reading it throws SecurityError); each
  // window of the view gets an in-memory Storage of its own instead, gone with the frame, read by no
  // other view and never the page's (docs/apps.md "Storage")
  function memoryStorage() {
    const items = new Map();
    return Object.freeze({
      get length() {
        return items.size;
      },
      key: (index) => (index >= 0 && index < items.size ? [...items.keys()][index] : null),
      getItem: (key) => (items.has(String(key)) ? items.get(String(key)) : null),
      setItem: (key, value) => void items.set(String(key), String(value)),
      removeItem: (key) => void items.delete(String(key)),
      clear: () => items.clear(),
    });
  }

  function giveStorage(win) {
    for (const name of ["localStorage", "sessionStorage"]) {
      try {
        win[name]; // a window that has storage keeps it
        continue;
      } catch (_error) {
        // an opaque origin: no storage
      }
      try {
        Object.defineProperty(win, name, { value: memoryStorage(), writable: false, configurable: false });
      } catch (_error) {
        // already given
      }
    }
  }

  function fix(proto, name, value) {
    Object.defineProperty(proto, name, { value, configurable: false, writable: false, enumerable: false });
  }

  function onLoad(event) {
    const target = event.target;
    if (target && target.tagName && /^(IFRAME|FRAME|OBJECT)$/.test(target.tagName)) {
      try {
        guardWindow(target.contentWindow);
      } catch (_error) {
        // another origin: its own sandbox and CSP hold it
      }
    }
  }

  function guardWindow(win) {
    if (!win || guarded.has(win)) return;
    try {
      win.document; // throws for a window of another origin: nothing to do there
    } catch (_error) {
      return;
    }
    guarded.add(win);
    lock(win);
    giveStorage(win);
    // A frame the view makes is locked as soon as it exists: the initial about:blank document
    // fires its load synchronously, inside the call that inserted it, and reaching a frame's window
    // through the element locks it too.
    win.document.addEventListener("load", onLoad, true);
    for (const kind of ["HTMLIFrameElement", "HTMLFrameElement", "HTMLObjectElement"]) {
      const proto = win[kind] && win[kind].prototype;
      if (!proto) continue;
      for (const name of ["contentWindow", "contentDocument"]) {
        const described = Object.getOwnPropertyDescriptor(proto, name);
        if (!described || !described.get || !described.configurable) continue;
        const get = described.get;
        Object.defineProperty(proto, name, {
          configurable: false,
          enumerable: described.enumerable,
          get() {
            const value = get.call(this);
            try {
              guardWindow(name === "contentWindow" ? value : value && value.defaultView);
            } catch (_error) {
              // another origin
            }
            return value;
          },
        });
      }
    }
    // document.open() (and a write that opens) erases the document's listeners: set ours again.
    const docs = win.Document && win.Document.prototype;
    if (docs && docs.open) {
      const open = docs.open;
      const listen = (doc) => doc.addEventListener("load", onLoad, true);
      fix(docs, "open", function (...args) {
        const opened = open.apply(this, args);
        listen(this);
        return opened;
      });
      for (const name of ["write", "writeln"]) {
        const write = docs[name];
        fix(docs, name, function (...args) {
          if (this.readyState !== "loading") {
            open.call(this);
            listen(this);
          }
          return write.apply(this, args);
        });
      }
    }
    const attach = win.Element && win.Element.prototype.attachShadow;
    if (attach) {
      fix(win.Element.prototype, "attachShadow", function (...args) {
        const root = attach.apply(this, args);
        root.addEventListener("load", onLoad, true);
        return root;
      });
    }
    for (let i = 0; i < win.length; i += 1) guardWindow(win[i]);
  }

  guardWindow(window);

  // -- the view's frame ------------------------------------------------------------------------
  const host = window.parent;
  const inner = document.createElement("iframe");
  inner.setAttribute("sandbox", "allow-scripts allow-same-origin");
  if (config.allow) inner.setAttribute("allow", config.allow);
  if (config.csp) inner.setAttribute("csp", config.csp);
  inner.setAttribute("title", "MCP App view");
  document.body.appendChild(inner);
  guardWindow(inner.contentWindow);
  let written = false;
  let view = null;
  // The view that navigates its frame away is no longer the page the kernel checked: the page is told,
  // and closes it (a view that stops this script only keeps itself from being closed sooner).
  inner.addEventListener("load", () => {
    let same = false;
    try {
      same = inner.contentDocument === view;
    } catch (_error) {
      same = false;
    }
    if (written && !same) {
      host.postMessage({ jsonrpc: "2.0", method: "ui/notifications/sandbox-navigated", params: {} }, config.hostOrigin);
    }
  });

  function fromHost(data) {
    if (data.method === "ui/notifications/sandbox-resource-ready") {
      const html = data.params && data.params.html;
      if (written || typeof html !== "string") return;
      written = true;
      const doc = inner.contentDocument;
      view = doc;
      doc.open(); // erases the window's listeners: set again before the view's first line runs
      doc.addEventListener("load", onLoad, true);
      doc.write(html);
      doc.close();
      return;
    }
    if (typeof data.method === "string" && data.method.startsWith("ui/notifications/sandbox-")) return;
    if (written && inner.contentWindow) inner.contentWindow.postMessage(data, "*");
  }

  window.addEventListener("message", (event) => {
    const data = event.data;
    if (data === null || typeof data !== "object" || data.jsonrpc !== "2.0") return;
    if (event.source === host && (config.hostOrigin === "*" || event.origin === config.hostOrigin)) {
      fromHost(data);
    } else if (event.source === inner.contentWindow && event.source !== null) {
      if (typeof data.method === "string" && data.method.startsWith("ui/notifications/sandbox-")) return;
      host.postMessage(data, config.hostOrigin);
    }
    // any other window (a sibling view, a frame of the view's own): not relayed
  });

  host.postMessage({ jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} }, config.hostOrigin);
}
