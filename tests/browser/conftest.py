"""Fixtures that drive a real JupyterLab in headless Debian Chromium.

Why: anvia_nb renders untrusted MCP output, and only a real browser shows what a person
sees (and whether an `<img onerror>` ran). These fixtures start one isolated JupyterLab per
test session (its own config, data, runtime, settings and workspace dirs, its own kernelspec
pointing at this interpreter) and give each test file one new Chromium page (no cookies,
no storage; one browser context holds the session's HTTP cache) whose console messages, page
errors and dialogs are recorded: JupyterLab loads once per file and each test
opens its notebook in a new tab of it (`lab.open_notebook`). The lab leaves out the server
extensions and the JupyterLab plugins no test uses (language servers, debugger, extension
manager, terminals, Voila's preview...), which start it sooner; every plugin that renders
outputs (HTML, JSON, MathJax, widgets, images, ...) stays.

Chromium is Debian's headless shell, or the full browser without it (see `lab.CHROMIUM_PATH`).
Without /usr/bin/chromium the browser tests are skipped with a reason; with the CI
environment variable set they fail instead (scripts/setup-test installs it, as root on Debian).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import sync_playwright

from tests.helpers.support import child_pids, in_ci
from tests.helpers.waiting import wait_until

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from tests.helpers.lab import (  # noqa: E402
    CHROMIUM_ARGS,
    CHROMIUM_PATH,
    QUICK_JUPYTER,
    VIEWPORT,
    FilePage,
    LabServer,
    PageEvents,
    jupyter_environment,
    record_page_events,
    shutdown_all_kernels,
)
from tests.helpers.ports import free_port  # noqa: E402
from tests.helpers.voila import served_voila  # noqa: E402

LAB_START_TIMEOUT_SECONDS = 60.0
LAB_STOP_TIMEOUT_SECONDS = 15.0
LAB_SETTINGS: dict[str, dict[str, Any]] = {
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/notebook-extension/tracker": {"autoStartDefaultKernel": True},
    # In JupyterLab 4.6 autoStartDefaultKernel lives in the notebook tracker schema; older
    # releases read it from the document manager, so both are written.
    "@jupyterlab/docmanager-extension/plugin": {"autoStartDefaultKernel": True},
}
# Plugins that only add panels, menus or viewers of files no test opens; none renders outputs.
LAB_DISABLED = [
    "@jupyterlab/extensionmanager-extension",
    "@jupyterlab/lsp-extension",
    "@jupyterlab/debugger-extension",
    "@jupyterlab/help-extension",
    "@jupyterlab/hub-extension",
    "@jupyterlab/pluginmanager-extension",
    "@jupyterlab/running-extension",
    "@jupyterlab/terminal-extension",
    "@jupyterlab/toc-extension",
    "@jupyterlab/celltags-extension",
    "@jupyterlab/metadataform-extension",
    "@jupyterlab/inspector-extension",
    "@jupyterlab/csvviewer-extension",
    "@jupyterlab/htmlviewer-extension",
    "@jupyterlab/imageviewer-extension",
    "@jupyterlab/audio-extension",
    "@jupyterlab/video-extension",
    "@jupyterlab/logconsole-extension",
    "@jupyterlab/tooltip-extension",
    "@jupyterlab/settingeditor-extension",
    "@jupyterlab/launcher-extension",
    "@jupyterlab/theme-dark-extension",
    "@jupyterlab/theme-dark-high-contrast-extension",
    "@voila-dashboards/jupyterlab-preview",
]
# This folder's files, longest first (each alone on 2 busy cores: from about 65 s down to 20 s).
# pytest-xdist (--dist loadfile --no-loadscope-reorder) hands each file whole to the next free
# worker in collection order, so the long files start first and the short ones fill in at the end.
LONGEST_FIRST = (
    "test_dashboard_viewer_attacks_browser.py",  # about 70 s, half of it waiting for a closed page to be culled
    "test_voila_browser.py",
    "test_hostile_output_browser.py",
    "test_panel_browser.py",
    "test_hostile_text_browser.py",
    "test_oauth_browser.py",
    "test_notebook7_browser.py",
    "test_lab_harness.py",
)
# Server extensions no test uses (Voila's takes seconds to import; jupyter_lsp scans for servers).
SERVER_EXTENSIONS_OFF = ["jupyter_lsp", "jupyter_server_terminals", "notebook_shim", "voila.server_extension"]
# Jupyter Notebook 7 (/notebooks/<path>, /tree), for test_notebook7_browser.py: on whatever the
# environment's jupyter config says; its pages are served only when asked for.
SERVER_EXTENSIONS_ON = ["notebook"]


def _require_chromium() -> None:
    """Playwright is in the test extra; the Chromium binary is what setup may lack (apt, as root)."""
    if Path(CHROMIUM_PATH).exists():
        return
    reason = f"{CHROMIUM_PATH} is missing: run scripts/setup-test as root on Debian to enable browser tests"
    if in_ci():
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


def _write_lab_home(home: Path) -> None:
    for name in ("config", "data", "runtime", "settings", "workspaces", "ipython", "root"):
        (home / name).mkdir(parents=True, exist_ok=True)
    for plugin, values in LAB_SETTINGS.items():
        target = home / "settings" / f"{plugin}.jupyterlab-settings"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(values, indent=2))
    page_config = home / "config" / "labconfig" / "page_config.json"
    page_config.parent.mkdir(parents=True, exist_ok=True)
    # No build check: on every page load it runs node over the installed extensions (about 1 s of CPU)
    # to offer a rebuild no test wants.
    disabled = {name: True for name in LAB_DISABLED}
    page_config.write_text(json.dumps({"disabledExtensions": disabled, "buildCheck": False, "buildAvailable": False}))
    kernel_dir = home / "data" / "kernels" / "python3"
    kernel_dir.mkdir(parents=True, exist_ok=True)
    kernel_spec = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
        "metadata": {"debugger": True},
    }
    (kernel_dir / "kernel.json").write_text(json.dumps(kernel_spec, indent=1))


def _kill_leftovers(pids: set[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


def _wait_until_answering(server: LabServer, process: subprocess.Popen[bytes], log_path: Path) -> None:
    def answering() -> bool:
        if process.poll() is not None:
            raise RuntimeError(f"JupyterLab exited with {process.returncode}:\n{log_path.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(server.api_url("/api/status"), timeout=2) as response:
                status: int = response.status
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return False
        return status == 200

    wait_until(
        answering,
        lambda: f"JupyterLab to answer /api/status:\n{log_path.read_text()[-3000:]}",
        seconds=LAB_START_TIMEOUT_SECONDS,
    )


def _stop_lab(process: subprocess.Popen[bytes]) -> None:
    descendants = child_pids(process.pid, include_zombies=True)  # kernels run in their own sessions
    process.terminate()
    try:
        process.wait(timeout=LAB_STOP_TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=LAB_STOP_TIMEOUT_SECONDS)
    _kill_leftovers({pid for pid in descendants if Path(f"/proc/{pid}").exists()})


@pytest.hookimpl(trylast=True)  # after tests/conftest.py has put the browser tests last
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Order this folder's files as LONGEST_FIRST says (others after them), each file's tests as written."""
    here = Path(__file__).parent
    slots = [index for index, item in enumerate(items) if item.path.parent == here]
    names = list(LONGEST_FIRST)

    def rank(item: pytest.Item) -> int:
        return names.index(item.path.name) if item.path.name in names else len(names)

    for slot, item in zip(slots, sorted((items[index] for index in slots), key=rank), strict=True):
        items[slot] = item


@pytest.fixture(scope="session")
def jupyter_lab() -> Iterator[LabServer]:
    """One JupyterLab for the whole session, on 127.0.0.1, with a known token.

    The notebook root is `jupyter_lab.root_dir`; tests write notebooks there (see
    `lab.write_notebook`). Stopped at the end with its kernels: terminate, then kill.
    """
    _require_chromium()
    with tempfile.TemporaryDirectory(prefix="anvia-lab-") as home_text:
        home = Path(home_text)
        _write_lab_home(home)
        port = free_port()
        token = secrets.token_hex(16)
        server = LabServer(base_url=f"http://127.0.0.1:{port}", token=token, root_dir=home / "root")
        command = [
            sys.executable, "-c", QUICK_JUPYTER, "jupyterlab",
            "--no-browser", "--allow-root",
            "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
            f"--ServerApp.root_dir={server.root_dir}",
            f"--IdentityProvider.token={token}", "--PasswordIdentityProvider.hashed_password=",
            "--ServerApp.terminals_enabled=False",
            "--KernelSpecManager.ensure_native_kernel=False",
            f"--LabApp.user_settings_dir={home / 'settings'}",
            f"--LabApp.workspaces_dir={home / 'workspaces'}",
            *(f"--ServerApp.jpserver_extensions={name}=False" for name in SERVER_EXTENSIONS_OFF),
            *(f"--ServerApp.jpserver_extensions={name}=True" for name in SERVER_EXTENSIONS_ON),
        ]  # fmt: skip
        log_path = home / "lab.log"
        with log_path.open("wb") as log:
            process = subprocess.Popen(
                command,
                env=jupyter_environment(home),
                cwd=server.root_dir,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            )
        try:
            _wait_until_answering(server, process, log_path)
            yield server
        finally:
            _stop_lab(process)


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """One headless Debian Chromium for the session (Playwright's own download is unusable here)."""
    _require_chromium()
    with sync_playwright() as playwright:
        # launch() gives every run a fresh temporary profile (user-data dir) of its own.
        browser = playwright.chromium.launch(executable_path=CHROMIUM_PATH, headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="session")
def lab_context(chromium: Any) -> Iterator[Any]:
    """The browser context of the session's JupyterLab pages: they share its HTTP cache only.

    JupyterLab's scripts are fetched and compiled once per session, not once per test file (the
    cache holds nothing a test checks); `file_page` clears cookies and storage before each file.
    """
    context = chromium.new_context(viewport=VIEWPORT)
    try:
        yield context
    finally:
        context.close()


@pytest.fixture(scope="module")
def file_page(lab_context: Any, jupyter_lab: LabServer) -> Iterator[FilePage]:
    """A new page, with no cookies or storage (only the context's HTTP cache), for the tests of one file.

    Dialogs are dismissed and recorded; at the end the page closes and the lab's kernels shut down.
    """
    lab_context.clear_cookies()
    new_page = lab_context.new_page()
    cdp = lab_context.new_cdp_session(new_page)
    # "all" is every kind of site storage (local storage, IndexedDB, service workers...), not the HTTP cache
    cdp.send("Storage.clearDataForOrigin", {"origin": jupyter_lab.base_url, "storageTypes": "all"})
    cdp.detach()
    try:
        yield FilePage(new_page, record_page_events(new_page))
    finally:
        new_page.close()
        shutdown_all_kernels(jupyter_lab)


@pytest.fixture
def page_events(file_page: FilePage) -> PageEvents:
    """Console messages, page errors and dialogs seen by the `page` fixture's page during this test."""
    file_page.events.clear()
    return file_page.events


@pytest.fixture
def page(file_page: FilePage, page_events: PageEvents) -> Any:
    """The file's page at the usual window size; a test opens its own notebook in it (`lab.open_notebook`)."""
    file_page.page.set_viewport_size(VIEWPORT)
    return file_page.page


@pytest.fixture(scope="module")
def voila(chromium: Any) -> Iterator[tuple[str, Path]]:
    """``(base URL, notebook root)`` of one plain Voilà serving a folder on 127.0.0.1, for one file
    (test_dashboard_viewer_attacks_browser.py has its own: the repository's dashboard launcher)."""
    with served_voila() as served:
        yield served


@pytest.fixture(scope="module")
def voila_context(chromium: Any) -> Iterator[Any]:
    """One browser context for a file's Voilà pages: they share its HTTP cache, so Voilà's scripts load once."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    try:
        yield context
    finally:
        context.close()
