"""Helpers that read and drive JupyterLab 4.6 the way a person does, for browser tests.

Selectors were measured against JupyterLab 4.6: a notebook is a `.jp-NotebookPanel`
holding `.jp-Notebook`; each cell is a `.jp-Cell` (code cells `.jp-CodeCell`) with an
`.jp-InputPrompt` that reads `[ ]:`, `[*]:` while running, `[n]:` after; outputs are
`.jp-OutputArea-output`; the toolbar's `.jp-Notebook-ExecutionIndicator` carries the
kernel state in `data-status`; the main area's current tab (`#jp-main-dock-panel
.lm-TabBar-tab.lm-mod-current`) is labelled with the notebook's file name, and a tab whose
notebook is unsaved carries `jp-mod-dirty`. A notebook in a tab that is not current is
`display: none` (`lm-mod-hidden`). Every wait here is bounded and raises with what it saw.
"""

from __future__ import annotations

import json
import os
import re
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import nbformat

from tests.helpers.waiting import wait_until

# Debian's chromium-headless-shell (Chromium's "old headless" build, the one Playwright itself runs
# headless) draws the same pages as the full browser with about a third less CPU; scripts/setup-test
# installs both. Without the shell the full browser runs, headless.
HEADLESS_SHELL_PATH = "/usr/bin/chromium-headless-shell"
FULL_CHROMIUM_PATH = "/usr/bin/chromium"
CHROMIUM_PATH = HEADLESS_SHELL_PATH if Path(HEADLESS_SHELL_PATH).exists() else FULL_CHROMIUM_PATH
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
# `[sys.executable, "-c", QUICK_JUPYTER, "jupyterlab" or "voila", *arguments]` runs that Jupyter
# application as `python -m` would, but without the IRI grammar jsonschema builds at import (about
# 3 s of CPU per process, for formats no Jupyter schema uses): anvia_nb's import_jsonschema, as
# tests/helpers/jsonschema_first.py does for pytest.
QUICK_JUPYTER = (
    "import runpy, sys\n"
    "from anvia_nb.core.protocol.schema import import_jsonschema\n"
    "import_jsonschema()\n"
    "del sys.argv[0]\n"
    "runpy.run_module(sys.argv[0], run_name='__main__', alter_sys=True)"
)
ARTIFACTS_DIR = Path(__file__).resolve().parents[2] / "test-artifacts"

OPEN_TIMEOUT_SECONDS = 60.0
RUN_TIMEOUT_SECONDS = 120.0

# The notebook a person is looking at: the one visible .jp-NotebookPanel, and what it shows.
_NOTEBOOK_VIEW_JS = """() => {
  const panel = [...document.querySelectorAll('.jp-NotebookPanel')].find(p => p.checkVisibility());
  if (!panel) return null;
  const indicator = panel.querySelector('.jp-Notebook-ExecutionIndicator');
  const dialog = [...document.querySelectorAll('.jp-Dialog')].find(d => d.checkVisibility());
  const tab = document.querySelector('#jp-main-dock-panel .lm-TabBar-tab.lm-mod-current');
  return {
    tab: tab ? tab.querySelector('.lm-TabBar-tabLabel').textContent : null,
    dirty: tab ? tab.classList.contains('jp-mod-dirty') : null,
    cells: panel.querySelectorAll('.jp-Notebook .jp-Cell').length,
    prompts: [...panel.querySelectorAll('.jp-CodeCell .jp-InputPrompt')].map(p => p.textContent.trim()),
    status: indicator ? indicator.dataset.status : null,
    dialog: dialog ? dialog.innerText : null,
  };
}"""


# The notebook `name` shows in the current tab with its cells and an idle kernel, or a dialog asks.
_OPEN_OR_ASKING_JS = f"""(name) => {{
  const view = ({_NOTEBOOK_VIEW_JS})();
  return view !== null && (view.dialog !== null || (view.tab === name && view.cells > 0 && view.status === 'idle'));
}}"""
# How often a wait re-reads the page: a tenth of a second is quick enough for a person, and
# costs the browser far less than re-reading on every animation frame (Playwright's default).
POLL_MS = 100


def wait_js(page: Any, predicate: str, arg: Any, timeout_seconds: float) -> bool:
    """Wait (bounded) until the JavaScript function `predicate(arg)` is truthy; say whether it became so."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    try:
        page.wait_for_function(predicate, arg=arg, timeout=timeout_seconds * 1000, polling=POLL_MS)
    except PlaywrightTimeoutError:
        return False
    return True


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

    def clear(self) -> None:
        """Forget what was recorded so far (the page lives on for the next test)."""
        self.console.clear()
        self.page_errors.clear()
        self.dialogs.clear()

    def console_errors(self) -> list[str]:
        return [text for kind, text in self.console if kind == "error"]


VIEWPORT = {"width": 1280, "height": 900}


@dataclass
class FilePage:
    """The one page the tests of a file share (JupyterLab loads once), and what it recorded."""

    page: Any
    events: PageEvents


def record_page_events(page: Any) -> PageEvents:
    """Record ``page``'s console messages and page errors; dismiss every dialog, but remember it opened."""
    events = PageEvents()

    def on_dialog(dialog: Any) -> None:
        events.dialogs.append((dialog.type, dialog.message))
        dialog.dismiss()

    page.on("console", lambda message: events.console.append((message.type, message.text)))
    page.on("pageerror", lambda error: events.page_errors.append(str(error)))
    page.on("dialog", on_dialog)
    return events


def shutdown_all_kernels(server: LabServer) -> None:
    """Shut down every session and kernel, so one file's kernels never serve the next (all at once)."""
    with ThreadPoolExecutor() as pool:
        list(pool.map(lambda s: server.api(f"/api/sessions/{s['id']}", method="DELETE"), server.api("/api/sessions")))
        list(pool.map(lambda k: server.api(f"/api/kernels/{k['id']}", method="DELETE"), server.api("/api/kernels")))


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


def _lab_is_loaded(page: Any, base_url: str) -> bool:
    return bool(page.url.startswith(f"{base_url}/lab")) and page.locator("#jp-main-dock-panel").count() == 1


def click_menu(page: Any, menu: str, item: str) -> None:
    """Click menu bar item `menu`, then its visible entry labelled `item` (or `item…`): Lumino's
    menus, in JupyterLab and in Notebook 7."""
    page.locator(".lm-MenuBar-item", has_text=re.compile(rf"^\s*{re.escape(menu)}\s*$")).click()
    label = page.locator(".lm-Menu-itemLabel", has_text=re.compile(rf"^{re.escape(item)}(…|\.\.\.)?$"))
    page.locator(".lm-Menu .lm-Menu-item", has=label).filter(visible=True).click()


def open_notebook(
    page: Any, base_url: str, path: str, token: str = "", timeout_seconds: float = OPEN_TIMEOUT_SECONDS
) -> None:
    """Open `path` in JupyterLab and wait until its tab is current, its cells show and its kernel is idle.

    A page not showing this lab yet loads it at the notebook's URL (`?reset` starts from an
    empty workspace); a page already showing it opens the notebook in a new tab with
    File > Open from Path..., as a person would, so JupyterLab starts once per page. Idle is
    read twice: from the notebook toolbar's indicator (what a person sees) and from the REST
    API (sessions, then the kernel). A "Select Kernel" dialog is answered with the default kernel.
    """
    if _lab_is_loaded(page, base_url):
        click_menu(page, "File", "Open from Path")
        dialog = page.locator(".jp-Dialog").filter(visible=True)
        dialog.locator("input").fill(path)
        dialog.locator(".jp-mod-accept").click()
        dialog.wait_for(state="detached", timeout=timeout_seconds * 1000)
    else:
        page.goto(notebook_url(base_url, path, token))
    name = PurePosixPath(path).name
    view = None

    def open_and_idle() -> bool:
        nonlocal view
        # The page is watched in the page (cheap); the REST API is asked once the page shows idle.
        if not wait_js(page, _OPEN_OR_ASKING_JS, name, timeout_seconds):
            return False
        view = notebook_view(page)
        if view and view["dialog"]:
            accept_kernel_dialog(page)
            return False
        return kernel_state(base_url, token, path) == "idle"  # the REST view lags the page

    wait_until(open_and_idle, lambda: f"{path} to open with an idle kernel; last view: {view}", seconds=timeout_seconds)


def save_notebook(page: Any, timeout_seconds: float = OPEN_TIMEOUT_SECONDS) -> None:
    """File > Save Notebook, then wait until the current tab no longer marks unsaved changes."""
    click_menu(page, "File", "Save Notebook")
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    try:
        page.wait_for_function(
            f"() => ({_NOTEBOOK_VIEW_JS})().dirty === false", timeout=timeout_seconds * 1000, polling=POLL_MS
        )
    except PlaywrightTimeoutError as error:
        raise TimeoutError(f"notebook still unsaved after {timeout_seconds} s: {notebook_view(page)}") from error


def visible_notebook(page: Any) -> Any:
    """A locator of the notebook in the current tab (other tabs' notebooks are hidden, not gone)."""
    return page.locator(".jp-NotebookPanel").filter(visible=True)


def run_all_cells(page: Any, timeout_seconds: float = RUN_TIMEOUT_SECONDS) -> None:
    """Run > Run All Cells from the menu bar, then wait until no cell shows [*] and the kernel is idle.

    Done means: the code prompts changed from before the click, none reads [*], and the
    toolbar says idle. A cell that raises stops the run (JupyterLab's own behaviour); later
    prompts then stay as they were, and this still returns.
    """
    before = notebook_view(page)
    if not before or not before["cells"]:
        raise RuntimeError(f"no visible notebook to run: {before}")
    click_menu(page, "Run", "Run All Cells")
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
            polling=POLL_MS,
        )
    except PlaywrightTimeoutError as error:
        raise TimeoutError(f"cells still running after {timeout_seconds} s: {notebook_view(page)}") from error


def cell_outputs(page: Any) -> list[Any]:
    """Locators of every output area item in the visible notebook, in order."""
    outputs: list[Any] = visible_notebook(page).locator(".jp-OutputArea-output").all()
    return outputs


def cell_output_texts(page: Any) -> list[str]:
    """The visible text of every output, in order (what a person reads)."""
    return [output.inner_text() for output in cell_outputs(page)]


def fit_viewport_to_notebook(page: Any) -> None:
    """Make the window as tall as the notebook, so every output is on screen and in the screenshot."""
    measure = """async () => {
      const panel = [...document.querySelectorAll('.jp-NotebookPanel')].find(p => p.checkVisibility());
      const scroller = panel.querySelector('.jp-WindowedPanel-outer') || panel.querySelector('.jp-Notebook');
      scroller.scrollTop = 0;
      await new Promise(resolve => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const cells = panel.querySelectorAll('.jp-Notebook .jp-Cell');
      const top = scroller.getBoundingClientRect().top;
      return {
        last: cells[cells.length - 1].getBoundingClientRect().bottom - top,
        client: scroller.clientHeight,
        window: window.innerHeight,
      };
    }"""
    # Offscreen cells have estimated heights (content-visibility) until shown; the notebook also
    # pads its end by a screenful. So grow the window until the last cell's bottom is on screen.
    for _attempt in range(6):
        size = page.evaluate(measure)
        if size["last"] <= size["client"]:
            return
        height = int(size["window"] + size["last"] - size["client"] + 40)
        page.set_viewport_size({"width": 1280, "height": min(height, 30_000)})


def screenshot(page: Any, name: str) -> Path:
    """Save a full-page PNG to test-artifacts/<name>.png at the repo root; return its path."""
    ARTIFACTS_DIR.mkdir(exist_ok=True)
    target = ARTIFACTS_DIR / f"{name}.png"
    page.screenshot(path=str(target), full_page=True)
    return target


def eval_global(page: Any, expression: str) -> Any:
    """Evaluate a JavaScript expression in the page, e.g. `window.__anvia_pwned` (None when undefined)."""
    return page.evaluate(f"() => ({expression})")


def wait_for_global(page: Any, expression: str) -> Any:
    """``wait_until`` `expression` is truthy in the page; return its value.

    Raises AssertionError when it stays falsy; use it to prove an injected script DID run.
    """
    return wait_until(lambda: eval_global(page, expression), f"{expression} to be truthy in the page")


def jupyter_environment(home: Path) -> dict[str, str]:
    """The environment a Jupyter server (Lab or Voila) and its kernels see: its own dirs under
    ``home``, no pytest variables."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PYTEST_", "JUPYTER", "IPYTHON")) and key != "PYTHONBREAKPOINT"
    }
    env.update(
        JUPYTER_CONFIG_DIR=str(home / "config"),
        JUPYTER_DATA_DIR=str(home / "data"),
        JUPYTER_RUNTIME_DIR=str(home / "runtime"),
        JUPYTERLAB_SETTINGS_DIR=str(home / "settings"),
        JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"),
        IPYTHONDIR=str(home / "ipython"),
        # In a virtualenv jupyter_core prefers sys.prefix over the user dirs: our kernelspec must win.
        JUPYTER_PREFER_ENV_PATH="0",
        PYTHONUNBUFFERED="1",
    )
    return env
