"""The extension's examples that need a host built as the MCP Apps specification describes, in a real
JupyterLab (npm, cached by scripts/setup-test under .cache/npm-apps).

- ``server-basic-vue``: Vue's reactivity reads ``window.parent``; a view whose parent is a page of
  another origin fails there (``SecurityError … '__v_isRef'``). Behind the sandbox proxy its parent
  is a frame of its own kind: the click calls ``get-time`` through the kernel.
- ``server-threejs``: the view evaluates the scene's code as a string (``'unsafe-eval'``, which the
  reference host allows and which reaches nothing the view's inline script could not).
- ``server-pdf``: pdf.js loads its worker code from a ``blob:``/``data:`` URL (``script-src``, as the
  reference host allows); the PDF is a local file the server reads, its words drawn on the page.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.app_cells import FRAME, REPORT_WAIT_MS, run_cell_below, time_renews_on_click, view_frame
from tests.helpers.app_cells import ISO_TIME as ISO_TIME  # kept importable here, where it was first written
from tests.helpers.app_examples import PDF_WORDS, one_page_pdf
from tests.helpers.lab import (
    LabServer,
    PageEvents,
    eval_global,
    open_notebook,
    run_all_cells,
    screenshot,
    visible_notebook,
)
from tests.helpers.lab import write_notebook as write_lab_notebook
from tests.helpers.support import cache_dir, require_setup
from tests.helpers.waiting import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.thirdparty]

INKED_PIXELS = """c => {
  const data = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
  let dark = 0;
  for (let i = 0; i < data.length; i += 4) if (data[i + 3] > 0 && data[i] + data[i + 1] + data[i + 2] < 300) dark += 1;
  return dark;
}"""


@pytest.fixture(scope="module")
def apps_bin() -> str:
    folder = cache_dir() / "npm-apps"
    require_setup(folder / "anvia-ready", "the MCP Apps examples from npm")
    return str(folder / "node_modules" / ".bin")


def open_app(page: Any, lab: LabServer, name: str, connect: str, call: str) -> Any:
    cells = [f"%load_ext anvia_nb\n%mcp connect {name} --stdio {connect}", f"app = %mcp app {call}\napp"]
    path = write_lab_notebook(lab, f"app_example_{name}.ipynb", cells)
    open_notebook(page, lab.base_url, path, lab.token)
    run_all_cells(page)
    return view_frame(visible_notebook(page))


def sandbox_complaints(events: PageEvents) -> list[str]:
    """Console lines that say the sandbox or its CSP stopped the view."""
    words = ("Content Security Policy", "sandboxed", "fake worker failed", "SecurityError: Blocked a frame")
    return [text for _kind, text in events.console if any(word in text for word in words)]


def test_the_vue_example_calls_its_tool_back_through_its_parent(
    page: Any, page_events: PageEvents, jupyter_lab: LabServer, apps_bin: str
) -> None:
    view = open_app(page, jupyter_lab, "vue", f"{apps_bin}/mcp-server-basic-vue --stdio", "vue.get-time")
    time_renews_on_click(view.locator(".server-time"), view.get_by_role("button", name="Get Server Time"))
    screenshot(page, "app_example_vue")
    history = run_cell_below(page, "%mcp history")
    assert len(re.findall(r"app ui://get-time/mcp-app\.html", history)) == 1, history
    assert sandbox_complaints(page_events) == []
    assert eval_global(page, "window.__anvia_pwned") is None


def test_the_threejs_example_evaluates_its_scene_and_draws_it(
    page: Any, page_events: PageEvents, jupyter_lab: LabServer, apps_bin: str
) -> None:
    view = open_app(page, jupyter_lab, "three", f"{apps_bin}/mcp-threejs-server --stdio", "three.show_threejs_scene")
    canvas = view.locator("#threejs-canvas")
    canvas.wait_for(timeout=REPORT_WAIT_MS)
    # The scene's code, evaluated, sizes the canvas through its renderer (a canvas starts at 300 px).
    wait_until(lambda: canvas.evaluate("c => c.width") not in (0, 300), "the scene's renderer sizing its canvas")
    screenshot(page, "app_example_threejs")
    assert view.locator(".error-overlay").count() == 0
    assert sandbox_complaints(page_events) == []


def test_the_pdf_example_starts_its_worker_and_shows_the_files_text(
    page: Any, page_events: PageEvents, jupyter_lab: LabServer, apps_bin: str, tmp_path: Path
) -> None:
    pdf = one_page_pdf(tmp_path / "anvia.pdf", PDF_WORDS)
    call = "pdf.display_pdf " + json.dumps({"url": str(pdf)})
    view = open_app(page, jupyter_lab, "pdf", f"{apps_bin}/mcp-pdf-server --stdio {pdf}", call)
    view.locator("#total-pages").filter(has_text="of 1").wait_for(timeout=REPORT_WAIT_MS)
    canvas = view.locator("#pdf-canvas")
    visible_notebook(page).locator(FRAME).first.scroll_into_view_if_needed()
    # pdf.js draws the page's words shortly after it says how many pages there are
    wait_until(lambda: canvas.evaluate(INKED_PIXELS) > 100, "the PDF's words drawn on the page's canvas")
    screenshot(page, "app_example_pdf")
    assert sandbox_complaints(page_events) == []
    assert eval_global(page, "window.__anvia_pwned") is None
