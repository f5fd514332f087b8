"""anvia_nb in Jupyter Notebook 7: what a person sees, on the session's Jupyter server.

Notebook 7 (the ``notebook`` package) draws outputs with JupyterLab's renderers in a page of its
own (``/notebooks/<path>``), with its own shell, menus and trust of outputs. A quickstart-like
notebook shows its tools as a DataFrame, a call's hostile text as text (its markup never runs), an
image result inline and a form whose Call shows the result; the hostile MCP Apps view is refused
everything and nothing of it reaches the page, the minimal view shows its text at its size, and the
view's one allowed call is in ``%mcp history``. The JupyterLab test of the same view
(test_app_frame_browser.py) checks the rest (resizing, theme, teardown, navigation away).
"""

from __future__ import annotations

import json
import re
import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest

from tests.helpers.app_cells import (
    HANDLER_CELL,
    MINIMAL_CELL,
    PROBE_PATH,
    SETUP_CELL,
    frame_report,
    hostile_cell,
    record_requests,
    report_problems,
    run_cell_below,
    sized_views,
)
from tests.helpers.lab import (
    POLL_MS,
    FilePage,
    LabServer,
    eval_global,
    fit_viewport_to_notebook,
    record_page_events,
    screenshot,
    write_notebook,
)
from tests.helpers.notebook7 import (
    cell_output,
    cell_output_text,
    open_notebook7,
    page_errors_not_of_notebook7,
    run_all_cells7,
)
from tests.helpers.support import REPO

pytestmark = pytest.mark.browser

WAIT_MS = 60_000
HOSTILE = "<img src=x onerror=window.__anvia_pwned=1>"
QUICKSTART = [
    f"%load_ext anvia_nb\n%mcp connect demo --cwd {REPO} --stdio python -m anvia_nb.demo_server",
    "%mcp tools demo",
    f"%mcp call demo.echo {json.dumps({'message': HOSTILE})}",
    "%mcp call demo.image kind=png",
    "%mcp form demo.add",
]
TOOLS, ECHO, IMAGE, FORM = 1, 2, 3, 4  # cells of QUICKSTART

# Every <img> of an output, as a person's browser loaded it.
_IMAGES_JS = """area => [...area.querySelectorAll('img')].map(i => ({
  src: i.getAttribute('src') || '', loaded: i.complete && i.naturalWidth > 0, shown: i.checkVisibility(),
}))"""


@pytest.fixture
def tab(file_page: FilePage, lab_context: Any) -> Iterator[FilePage]:
    """A new browser tab for one notebook, as Notebook 7's file browser opens each notebook in a tab of
    its own (the file's page, which cleared cookies and storage, shuts the kernels down after the file).
    Its console messages, page errors and dialogs are recorded; it is closed at the end."""
    page = lab_context.new_page()
    try:
        yield FilePage(page, record_page_events(page))
    finally:
        page.close()


def test_a_quickstart_notebook_shows_tools_escaped_text_an_image_and_a_working_form(
    tab: FilePage, jupyter_lab: LabServer
) -> None:
    page, page_events = tab.page, tab.events
    path = write_notebook(jupyter_lab, "notebook7/quickstart.ipynb", QUICKSTART)
    open_notebook7(page, jupyter_lab, path)
    run_all_cells7(page)

    # %mcp tools: a DataFrame, one row per tool.
    tools = cell_output(page, TOOLS).locator("table.dataframe")
    tools.wait_for(timeout=WAIT_MS)
    names = tools.locator("tbody tr").all_inner_texts()
    assert [name for name in ("echo", "add", "image") if not any(re.search(rf"\b{name}\b", row) for row in names)] == []

    # The hostile text is shown as text, in the result view; its markup never ran.
    echo = cell_output(page, ECHO).locator(".anvia-result")
    echo.wait_for(timeout=WAIT_MS)
    assert HOSTILE in echo.inner_text()
    assert echo.locator("img").count() == 0
    assert eval_global(page, "window.__anvia_pwned") is None

    # The image result: an inline <img> from a data: URL, loaded and on the page.
    image = cell_output(page, IMAGE)
    image.locator("img").first.wait_for(timeout=WAIT_MS)
    page.wait_for_function(
        f"area => ({_IMAGES_JS})(area).every(i => i.loaded)",
        arg=image.element_handle(),
        timeout=WAIT_MS,
        polling=POLL_MS,
    )
    images = image.evaluate(_IMAGES_JS)
    assert [i for i in images if i["src"].startswith("data:image/png;base64,") and i["loaded"] and i["shown"]], images
    assert "A small png image" in cell_output_text(page, IMAGE)

    # The form: fill a and b, press Call, the sum shows under it.
    form = cell_output(page, FORM)
    call = form.locator("button.widget-button", has_text=re.compile(r"^\s*Call\s*$"))
    call.wait_for(timeout=WAIT_MS)
    for name, value in (("a", "2"), ("b", "40")):
        label = page.locator(".widget-label", has_text=re.compile(rf"^{name}\b"))
        form.locator(".widget-hbox", has=label).locator("input").first.fill(value)
    page.wait_for_function("b => !b.disabled", arg=call.element_handle(), timeout=WAIT_MS, polling=POLL_MS)
    call.click()
    result = form.locator(".widget-output .anvia-result")
    result.wait_for(timeout=WAIT_MS)
    assert re.search(r"demo\s*·\s*add\s*ok", result.locator(".anvia-header").inner_text())
    assert re.search(r"\b42\b", result.inner_text()), result.inner_text()
    fit_viewport_to_notebook(page)  # every output on screen and in the screenshot
    screenshot(page, "notebook7_quickstart")

    assert eval_global(page, "window.__anvia_pwned") is None
    assert page_errors_not_of_notebook7(page_events.page_errors) == []
    assert page_events.dialogs == []


def test_the_hostile_view_is_refused_everything_and_the_minimal_view_shows_in_notebook7(
    tab: FilePage, jupyter_lab: LabServer
) -> None:
    page, page_events = tab.page, tab.events
    requests = record_requests(page)
    probe = f"{jupyter_lab.base_url}{PROBE_PATH}?token={urllib.parse.quote(jupyter_lab.token)}"
    path = write_notebook(
        jupyter_lab, "notebook7/app_frame.ipynb", [SETUP_CELL, HANDLER_CELL, hostile_cell(probe), MINIMAL_CELL]
    )
    open_notebook7(page, jupyter_lab, path)
    notebook_url = page.url
    pages_before = len(page.context.pages)
    run_all_cells7(page)
    report = frame_report(page)
    minimal = sized_views(page)  # the hostile view held at the height bound, the minimal one at its 240 px
    screenshot(page, "notebook7_app_frame")

    assert report_problems(report) == []
    assert minimal.text_content() == "initialized inline; result"
    # Nothing of the hostile view outside its frame.
    assert page.url == notebook_url
    assert len(page.context.pages) == pages_before
    assert eval_global(page, "window.__anvia_pwned") is None
    assert page_events.dialogs == []
    assert page_errors_not_of_notebook7(page_events.page_errors) == []
    assert [url for url in requests if "example.com" in url or PROBE_PATH in url] == []
    # The view's one allowed call went through the kernel, marked as the view's.
    history = run_cell_below(page, "%mcp history")
    assert re.search(r"demo\s+hostile_app_only\s.*app ui://anvia-demo/hostile-view\.html", history), history
    assert "hostile_model_only" not in history
