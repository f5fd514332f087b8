"""Helpers that read and drive JupyterLab 4.6 the way a person does, for browser tests.

Selectors were measured against JupyterLab 4.6: a notebook is a `.jp-NotebookPanel`
holding `.jp-Notebook`; each cell is a `.jp-Cell` (code cells `.jp-CodeCell`) with an
`.jp-InputPrompt` that reads `[ ]:`, `[*]:` while running, `[n]:` after; outputs are
`.jp-OutputArea-output`; the toolbar's `.jp-Notebook-ExecutionIndicator` carries the
kernel state in `data-status`. Every wait here is bounded and raises with what it saw.
"""

from __future__ import annotations

import json
import re
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat

CHROMIUM_PATH = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
ARTIFACTS_DIR = Path(__file__).resolve().parents[2] / "test-artifacts"

OPEN_TIMEOUT_SECONDS = 60.0
RUN_TIMEOUT_SECONDS = 120.0

# The notebook a person is looking at: the one visible .jp-NotebookPanel, and what it shows.
_NOTEBOOK_VIEW_JS = """() => {
  const panel = [...document.querySelectorAll('.jp-NotebookPanel')].find(p => p.checkVisibility());
  if (!panel) return null;
  const indicator = panel.querySelector('.jp-Notebook-ExecutionIndicator');
  const dialog = [...document.querySelectorAll('.jp-Dialog')].find(d => d.checkVisibility());
  return {
    cells: panel.querySelectorAll('.jp-Notebook .jp-Cell').length,
    prompts: [...panel.querySelectorAll('.jp-CodeCell .jp-InputPrompt')].map(p => p.textContent.trim()),
    status: indicator ? indicator.dataset.status : null,
    dialog: dialog ? dialog.innerText : null,
  };
}"""


@dataclass(frozen=True)
class LabServer:
    """A running JupyterLab: where it listens, its token, and the notebook root on disk."""

    base_url: str
    token: str
    root_dir: Path

    def api_url(self, path: str) -> str:
        return f"{self.base_url}{path}?token={urllib.parse.quote(self.token)}"

    def api(self, path: str, method: str = "GET") -> Any:
        return api_request(self.base_url, self.token, path, method)


def api_request(base_url: str, token: str, path: str, method: str = "GET") -> Any:
    """One call to the Jupyter server's REST API, authenticated with the token header."""
    request = urllib.request.Request(f"{base_url}{path}", method=method)
    if token:
        request.add_header("Authorization", f"token {token}")
    with urllib.request.urlopen(request, timeout=10) as response:
        body = response.read()
    return json.loads(body) if body else None


@dataclass
class PageEvents:
    """What a page said and asked while a test ran: console lines, uncaught errors, dialogs."""

    console: list[tuple[str, str]] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    dialogs: list[tuple[str, str]] = field(default_factory=list)

    def console_errors(self) -> list[str]:
        return [text for kind, text in self.console if kind == "error"]


def record_page_events(page: Any, events: PageEvents) -> None:
    """Record console messages and page errors; dismiss every dialog, but remember it opened."""

    def on_dialog(dialog: Any) -> None:
        events.dialogs.append((dialog.type, dialog.message))
        dialog.dismiss()

    page.on("console", lambda message: events.console.append((message.type, message.text)))
    page.on("pageerror", lambda error: events.page_errors.append(str(error)))
    page.on("dialog", on_dialog)


def shutdown_all_kernels(server: LabServer) -> None:
    """Shut down every session and kernel, so one test's kernel never serves the next."""
    for session in server.api("/api/sessions"):
        server.api(f"/api/sessions/{session['id']}", method="DELETE")
    for kernel in server.api("/api/kernels"):
        server.api(f"/api/kernels/{kernel['id']}", method="DELETE")


def write_notebook(server: LabServer, path: str, sources: list[str]) -> str:
    """Write a notebook of code cells (no outputs) under the lab root; return its lab path."""
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in sources]
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    target = server.root_dir / path
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, str(target))
    return path


def kernel_state(base_url: str, token: str, path: str) -> str | None:
    """The REST view of the kernel behind the notebook at `path`: idle, busy, starting, or None."""
    for session in api_request(base_url, token, "/api/sessions"):
        if session.get("path") == path and session.get("kernel"):
            kernel = api_request(base_url, token, f"/api/kernels/{session['kernel']['id']}")
            state: str = kernel["execution_state"]
            return state
    return None


def notebook_url(base_url: str, path: str, token: str) -> str:
    quoted = urllib.parse.quote(path)
    return f"{base_url}/lab/tree/{quoted}?token={urllib.parse.quote(token)}&reset"


def notebook_view(page: Any) -> dict[str, Any] | None:
    """What the visible notebook shows: cell count, code prompts, kernel status, open dialog."""
    view: dict[str, Any] | None = page.evaluate(_NOTEBOOK_VIEW_JS)
    return view


def accept_kernel_dialog(page: Any) -> bool:
    """If JupyterLab asks to select a kernel, accept its default (Python 3); say whether it asked."""
    dialog = page.locator(".jp-Dialog").filter(visible=True)
    if dialog.count() == 0 or "kernel" not in dialog.first.inner_text().lower():
        return False
    dialog.first.locator(".jp-mod-accept").click()
    return True


def open_notebook(
    page: Any, base_url: str, path: str, token: str = "", timeout_seconds: float = OPEN_TIMEOUT_SECONDS
) -> None:
    """Open `path` in JupyterLab and wait until its cells show and its kernel is idle.

    Idle is read twice: from the notebook toolbar's indicator (what a person sees) and from
    the REST API (sessions, then the kernel). A "Select Kernel" dialog is answered with the
    default kernel. `?reset` starts from an empty workspace, so earlier tests' tabs stay closed.
    """
    page.goto(notebook_url(base_url, path, token))
    deadline = time.monotonic() + timeout_seconds
    view = None
    while time.monotonic() < deadline:
        view = notebook_view(page)
        if view and view["dialog"]:
            accept_kernel_dialog(page)
        elif view and view["cells"] and view["status"] == "idle" and kernel_state(base_url, token, path) == "idle":
            return
        page.wait_for_timeout(100)  # polling interval of a bounded wait
    raise TimeoutError(f"{path} not open with an idle kernel after {timeout_seconds} s; last view: {view}")


def run_all_cells(page: Any, timeout_seconds: float = RUN_TIMEOUT_SECONDS) -> None:
    """Run > Run All Cells from the menu bar, then wait until no cell shows [*] and the kernel is idle.

    Done means: the code prompts changed from before the click, none reads [*], and the
    toolbar says idle. A cell that raises stops the run (JupyterLab's own behaviour); later
    prompts then stay as they were, and this still returns.
    """
    before = notebook_view(page)
    if not before or not before["cells"]:
        raise RuntimeError(f"no visible notebook to run: {before}")
    page.locator(".lm-MenuBar-item", has_text=re.compile(r"^\s*Run\s*$")).click()
    label = page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$"))
    page.locator(".lm-Menu .lm-Menu-item", has=label).filter(visible=True).click()
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    try:
        page.wait_for_function(
            f"""(before) => {{
              const now = ({_NOTEBOOK_VIEW_JS})();
              return now !== null && now.status === 'idle'
                && now.prompts.every(p => !p.includes('*'))
                && JSON.stringify(now.prompts) !== JSON.stringify(before);
            }}""",
            arg=before["prompts"],
            timeout=timeout_seconds * 1000,
        )
    except PlaywrightTimeoutError as error:
        raise TimeoutError(f"cells still running after {timeout_seconds} s: {notebook_view(page)}") from error


def cell_outputs(page: Any) -> list[Any]:
    """Locators of every output area item in the visible notebook, in order."""
    outputs: list[Any] = page.locator(".jp-NotebookPanel").filter(visible=True).locator(".jp-OutputArea-output").all()
    return outputs


def cell_output_texts(page: Any) -> list[str]:
    """The visible text of every output, in order (what a person reads)."""
    return [output.inner_text() for output in cell_outputs(page)]


def screenshot(page: Any, name: str) -> Path:
    """Save a full-page PNG to test-artifacts/<name>.png at the repo root; return its path."""
    ARTIFACTS_DIR.mkdir(exist_ok=True)
    target = ARTIFACTS_DIR / f"{name}.png"
    page.screenshot(path=str(target), full_page=True)
    return target


def eval_global(page: Any, expression: str) -> Any:
    """Evaluate a JavaScript expression in the page, e.g. `window.__anvia_pwned` (None when undefined)."""
    return page.evaluate(f"() => ({expression})")


def wait_for_global(page: Any, expression: str, timeout_seconds: float = 10.0) -> Any:
    """Wait (bounded) until `expression` is truthy in the page and return its value.

    Raises TimeoutError when it stays falsy; use it to prove an injected script DID run.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    try:
        handle = page.wait_for_function(f"() => ({expression})", timeout=timeout_seconds * 1000)
    except PlaywrightTimeoutError as error:
        raise TimeoutError(f"{expression} stayed falsy for {timeout_seconds} s") from error
    return handle.json_value()
