"""The dashboard notebook served with Voilà and used in headless Chromium, as a viewer would.

Voilà runs every cell and stops at the first that raises; it shows outputs, never code. So this
proves what only a served page shows: notebooks/07-dashboard.ipynb renders to its last cell, a
form call works (its fixed argument sent), a server that will not start leaves the rest of the page
working, a server that dies mid-session is reported in a viewer's words, and nothing a failing
server wrote to stderr (a machine path, a secret, a traceback) reaches the page.

One Voilà for the module, on 127.0.0.1 with its own Jupyter dirs and a kernelspec pointing at this
interpreter; it is stopped at the end with everything it started (kernels and their servers).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import nbformat
import pytest

from tests.helpers.failing_server import MACHINE_PATH, SECRET, TRACEBACK_WORDS
from tests.helpers.lab import (
    POLL_MS,
    record_page_events,
    screenshot,
)
from tests.helpers.support import REPO
from tests.helpers.voila import call_fixed_add

pytestmark = pytest.mark.browser

DASHBOARD = REPO / "notebooks" / "07-dashboard.ipynb"
FAILING_SERVER = Path(__file__).parents[1] / "helpers" / "failing_server.py"
WAIT_MS = 120_000  # a kernel, a demo server and every cell: generous on a busy machine
STOPPED = "The server “fragile” stopped, so this is not available now."
NOT_STARTED = "The server “weather” could not be started, so the parts of this page that use it are not available."


def _serve(root: Path, name: str, replace: dict[str, str] | None = None, extra: list[str] | None = None) -> str:
    """notebooks/07 under the Voilà root as ``name``, with source replaced and cells added."""
    notebook = nbformat.read(str(DASHBOARD), as_version=4)
    for cell in notebook.cells:
        for old, new in (replace or {}).items():
            cell.source = cell.source.replace(old, new)
    notebook.cells += [nbformat.v4.new_code_cell(source) for source in extra or []]
    nbformat.write(notebook, str(root / name))
    return f"/voila/render/{name}"


def _open(page: Any, url: str, last_text: str) -> None:
    """Open a served notebook and wait until its last cell's output shows."""
    page.goto(url, wait_until="commit", timeout=WAIT_MS)  # Voilà streams the cells as they run
    page.get_by_text(last_text).first.wait_for(timeout=WAIT_MS)


def _output(page: Any, text: str) -> Any:
    """The one output area that contains ``text``."""
    return page.locator(".jp-OutputArea-output").filter(has_text=text)


def _call_add(page: Any, a: str) -> Any:
    """Type ``a`` in the add form (``b`` is fixed), press Call, wait for the result; its output."""
    return call_fixed_add(page, a, WAIT_MS, POLL_MS)


def test_the_dashboard_renders_to_the_end_and_a_form_call_sends_its_fixed_argument(
    voila: tuple[str, Path], voila_context: Any
) -> None:
    base, root = voila
    page = voila_context.new_page()
    events = record_page_events(page)
    try:
        _open(page, base + _serve(root, "dashboard.ipynb"), "The server “weather” is not available right now.")
        assert page.get_by_text(NOT_STARTED).count() == 1  # the failed connect, and the page went on
        form = _call_add(page, "2")
        result = form.locator(".widget-output .anvia-result")
        page.wait_for_function(
            "e => e.innerText.includes('102')", arg=result.element_handle(), timeout=WAIT_MS, polling=POLL_MS
        )
        assert re.search(r"demo\s*·\s*add\s*ok", result.locator(".anvia-header").inner_text())
        tools_label = page.locator("label", has_text=re.compile(r"^Tools$"))
        panel_tools = _output(page, "2 of 2 tools").locator(".widget-select", has=tools_label).locator("select")
        panel_tools.locator("option").first.wait_for(timeout=WAIT_MS)  # the list arrives in its own widget update
        options = [" ".join(t.replace("\xa0", " ").split()) for t in panel_tools.locator("option").all_inner_texts()]
        assert options == ["echo — Echo", "add — Add"]  # the panel offers these two tools, no other
        screenshot(page, "voila_dashboard")
        assert events.page_errors == []
    finally:
        page.close()


def test_a_failing_and_a_dying_server_leave_the_page_working_and_say_so_in_a_viewers_words(
    voila: tuple[str, Path], voila_context: Any
) -> None:
    base, root = voila
    failing = f"python {FAILING_SERVER}"
    url = base + _serve(
        root,
        "hostile_dashboard.ipynb",
        replace={"python -m anvia_nb.demo_server --no-such-option": failing},
        extra=["%mcp connect fragile --soft --stdio python -m anvia_nb.demo_server", "%mcp form fragile.crash"],
    )
    page = voila_context.new_page()
    events = record_page_events(page)
    try:
        _open(page, url, "Exits the server process abruptly")  # the last cell: the page went past the failure
        assert page.get_by_text(NOT_STARTED).count() == 1
        assert page.get_by_text("The server “weather” is not available right now.").count() == 1
        form = _call_add(page, "5")  # the rest of the page works
        result = form.locator(".widget-output .anvia-result")
        page.wait_for_function(
            "e => e.innerText.includes('105')", arg=result.element_handle(), timeout=WAIT_MS, polling=POLL_MS
        )

        crash = _output(page, "Exits the server process abruptly")
        crash.locator("button.widget-button", has_text=re.compile(r"^\s*Call")).click()
        crash.get_by_text(STOPPED).wait_for(timeout=WAIT_MS)  # the server died mid-session: said so, plainly
        crash.scroll_into_view_if_needed()
        screenshot(page, "voila_dashboard_failures")

        html, text = page.content(), page.inner_text("body")
        for leaked in (MACHINE_PATH, SECRET, *TRACEBACK_WORDS, str(REPO), "weather-config"):
            assert leaked not in html, leaked
            assert leaked not in text, leaked
        outputs = "\n".join(page.locator(".jp-OutputArea-output").all_inner_texts())
        assert "%mcp" not in outputs and "Error" not in outputs  # nothing to type, no class names
        assert "The server reported an error" not in outputs  # a server that died says so
        assert events.page_errors == []
    finally:
        page.close()
