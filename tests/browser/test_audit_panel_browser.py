"""The panel's audit in a real JupyterLab (issue 38, where people look): the poisoned demo server's
findings in the Audit tab and the marks on its flagged tools, as a person sees them.

The hostile definitions (tag characters, a right-to-left override, an ``<IMPORTANT>`` block, a
``<script>`` and an ``<img onerror>`` hidden in an HTML comment) show as text: nothing of them is
markup, nothing runs. Then notebook 09, the tool-poisoning workshop, runs top to bottom in the lab.
"""

from __future__ import annotations

import re
from typing import Any

import nbformat
import pytest

from tests.helpers.lab import (
    LabServer,
    PageEvents,
    eval_global,
    notebook_view,
    open_notebook,
    run_all_cells,
    screenshot,
    visible_notebook,
    write_notebook,
)
from tests.helpers.support import REPO

pytestmark = pytest.mark.browser

WAIT_MS = 30_000
CONNECT = (
    "import sys\n"
    "from anvia_nb import mcp\n"
    "from anvia_nb.runtime import get_runtime\n"
    "# the kernel's own interpreter: 'python' on PATH may be another one\n"
    "server, _ = get_runtime().connect(mcp.stdio(name='notes', command=sys.executable, "
    "args=['-m', 'anvia_nb.demo_server', '--poisoned']))\n"
    "print(len(server.tools), 'tools')"
)
PANEL = "import anvia_nb.widgets\nexplorer = anvia_nb.widgets.panel()\nexplorer"
WORKSHOP = REPO / "notebooks" / "09-tool-poisoning.ipynb"


def _panel(page: Any) -> Any:
    cell = visible_notebook(page).locator(".jp-Notebook .jp-Cell").nth(1)
    panel = cell.locator(".jp-OutputArea-output .jupyter-widgets").first
    panel.wait_for(timeout=WAIT_MS)
    return panel


def test_the_audit_tab_shows_hostile_definitions_as_text_and_marks_the_flagged_tools(
    page: Any, jupyter_lab: LabServer, page_events: PageEvents
) -> None:
    path = write_notebook(jupyter_lab, "audit_panel_browser.ipynb", [CONNECT, PANEL])
    open_notebook(page, jupyter_lab.base_url, path, jupyter_lab.token)
    run_all_cells(page)
    panel = _panel(page)

    tools = panel.locator(".widget-select select").first
    tools.wait_for(timeout=WAIT_MS)
    options = tools.locator("option").all_inner_texts()
    labels = [text.replace("\xa0", " ").strip() for text in options]  # ipywidgets draws spaces as nbsp
    assert "⚠ high · translate" in labels and "⚠ medium · preview_note" in labels, labels
    assert "multiply" in labels and "change_multiply" in labels  # clean controls: no mark
    flagged = panel.locator(".anvia-notice", has_text="tools flagged by the audit")  # under the list
    reasons = flagged.get_attribute("title") or ""  # its tooltip
    assert "translate: hidden-tags (high), addressed-to-model (high)" in reasons, reasons

    panel.locator(".lm-TabBar-tab", has_text=re.compile(r"^\s*Audit\s*$")).click()
    box = panel.locator(".anvia-server-block", has_text="findings, most severe first")
    box.wait_for(timeout=WAIT_MS)
    shown = box.inner_text()
    for literal in (
        "<script>window.__anvia_pwned=1</script>",
        '<img src=x onerror="window.__anvia_pwned=2">',
        "<IMPORTANT>",
        "⟨U+202E RIGHT-TO-LEFT OVERRIDE⟩",
        'TAG CHARACTERS (U+E0000–U+E007F) reading " Ignore all previous instructions."',
    ):
        assert literal in shown, literal
    assert "\u202e" not in shown and not any(0xE0000 <= ord(c) <= 0xE007F for c in shown)
    assert panel.locator("script, img, iframe, b").count() == 0  # the markup is text, not elements
    box.scroll_into_view_if_needed()
    screenshot(page, "audit_panel_browser")

    assert eval_global(page, "window.__anvia_pwned") is None
    assert page_events.page_errors == [] and page_events.dialogs == []


def test_the_tool_poisoning_workshop_runs_top_to_bottom_in_jupyterlab(
    page: Any, jupyter_lab: LabServer, page_events: PageEvents
) -> None:
    workshop = nbformat.read(WORKSHOP, as_version=4)
    sources = [cell.source for cell in workshop.cells if cell.cell_type == "code"]
    path = write_notebook(jupyter_lab, "09-tool-poisoning.ipynb", sources)
    open_notebook(page, jupyter_lab.base_url, path, jupyter_lab.token)
    run_all_cells(page)

    notebook = visible_notebook(page)
    assert notebook.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']").count() == 0
    view = notebook_view(page)
    assert view is not None and view["cells"] == len(sources), view
    assert all(re.fullmatch(r"\[\d+\]:", prompt) for prompt in view["prompts"]), view  # every cell ran
    texts = "\n".join(notebook.locator(".jp-OutputArea-output").all_inner_texts())
    assert "Exercise 5: no answer yet" in texts and "refused" in texts and "SARIF 2.1.0" in texts
    at = next(i for i, source in enumerate(sources) if source.startswith("%mcp panel"))
    panel = notebook.locator(".jp-Notebook .jp-Cell").nth(at).locator(".jp-OutputArea-output .jupyter-widgets").first
    panel.wait_for(timeout=WAIT_MS)
    assert panel.locator(".lm-TabBar-tab", has_text=re.compile(r"^\s*Audit\s*$")).count() == 1
    assert eval_global(page, "window.__anvia_pwned") is None
    assert page_events.page_errors == []
