"""The explorer panel in a real JupyterLab: a person picks a tool, types, calls, reads the result.

Proves what only a browser can: the ipywidgets views render in JupyterLab, clicks reach the
kernel and the result comes back while the kernel is free, hostile text typed into the form
comes back shown literally (escaped, no script ran), and an empty required field disables Call.

One notebook holds every test's widgets, each in its own cell: it connects the demo server once
and is run once for the file (one kernel, one demo server); each test works in its own cells.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest

from tests.helpers.lab import (
    POLL_MS,
    VIEWPORT,
    FilePage,
    LabServer,
    PageEvents,
    eval_global,
    open_notebook,
    run_all_cells,
    screenshot,
    visible_notebook,
    write_notebook,
)

pytestmark = pytest.mark.browser

HOSTILE = '<img src=x onerror="window.__anvia_pwned=1">'
WAIT_MS = 30_000

CONNECT = (
    "import sys\n"
    "import anvia_nb\n"
    "from anvia_nb import mcp\n"
    "from anvia_nb.runtime import get_runtime\n"
    "# the kernel's own interpreter: 'python' on PATH may be another one\n"
    "server, _ = get_runtime().connect(mcp.stdio(name='demo', command=sys.executable, "
    "args=['-m', 'anvia_nb.demo_server']))\n"
    "print(len(server.tools), 'tools')"
)
# Each test's cells, by index: the explorer panel; a form whose tool asks a question; the panel and
# a form shown by the magic, for the narrow-notebook layout.
PANEL, CONFIRM_FORM, MAGIC_PANEL, MAGIC_FORM = 1, 2, 3, 4
NOTEBOOK = [
    CONNECT,
    "import anvia_nb.widgets\nexplorer = anvia_nb.widgets.panel()\nexplorer",
    "anvia_nb.widgets.form('demo.confirm_action')",
    "%load_ext anvia_nb\n%mcp panel",
    "%mcp form demo.form_showcase",
]


@dataclass(frozen=True)
class PanelNotebook:
    """The file's notebook, open and run in the file's page, and the page errors its run raised."""

    page_errors: list[str]

    def cell(self, page: Any, index: int) -> Any:
        return visible_notebook(page).locator(".jp-Notebook .jp-Cell").nth(index)


@pytest.fixture(scope="module")
def panel_notebook(file_page: FilePage, jupyter_lab: LabServer) -> PanelNotebook:
    """Open the notebook of every test's widgets and run it once, at the lab's usual width."""
    page = file_page.page
    file_page.events.clear()
    page.set_viewport_size(VIEWPORT)
    path = write_notebook(jupyter_lab, "panel_browser.ipynb", NOTEBOOK)
    open_notebook(page, jupyter_lab.base_url, path, jupyter_lab.token)
    run_all_cells(page)  # at the lab's usual width, where its toolbar shows the kernel's state
    return PanelNotebook(list(file_page.events.page_errors))


def test_a_person_calls_echo_from_the_panel_and_sees_hostile_text_escaped(
    page: Any, panel_notebook: PanelNotebook, page_events: PageEvents
) -> None:
    cell = panel_notebook.cell(page, PANEL)  # the cell of this test's panel

    panel = cell.locator(".jp-OutputArea-output .jupyter-widgets").first
    panel.wait_for(timeout=WAIT_MS)
    assert cell.locator(".widget-button").count() >= 2  # Refresh and Run again, drawn by ipywidgets
    tools_label = page.locator("label", has_text=re.compile(r"^Tools$"))
    tools = cell.locator(".widget-select", has=tools_label).locator("select")
    tools.select_option(label="echo — Echo")

    # a field is a row of ipywidgets: its name Label, then the Text control
    field_name = page.locator(".widget-label", has_text=re.compile(r"^message", re.IGNORECASE))
    message_input = cell.locator(".widget-hbox", has=field_name).locator(".widget-text input").last
    message_input.wait_for(timeout=WAIT_MS)
    call = cell.locator("button.widget-button", has_text=re.compile(r"^\s*Call\s*$"))
    page.wait_for_function("b => b.disabled", arg=call.element_handle(), timeout=WAIT_MS, polling=POLL_MS)
    reason = cell.get_by_text("Cannot call yet: message: required, but empty")
    reason.first.wait_for(timeout=WAIT_MS)  # the reason arrives in its own widget update
    assert reason.count() == 1

    message_input.fill(HOSTILE)
    page.wait_for_function("b => !b.disabled", arg=call.element_handle(), timeout=WAIT_MS, polling=POLL_MS)
    call.click()

    result = cell.locator(".widget-output .anvia-result")
    result.wait_for(timeout=WAIT_MS)
    page.wait_for_function(
        "([nb, text]) => [...nb.querySelectorAll('.widget-output')].some(o => o.innerText.includes(text))",
        arg=[cell.element_handle(), HOSTILE],
        timeout=WAIT_MS,
        polling=POLL_MS,
    )
    assert "[MCP" not in result.inner_text()  # the HTML view is shown, not the text/plain copy
    assert re.search(r"demo\s*·\s*echo\s*ok", result.locator(".anvia-header").inner_text())
    assert result.locator("img").count() == 0
    assert eval_global(page, "window.__anvia_pwned") is None
    result.scroll_into_view_if_needed()
    screenshot(page, "panel_browser_result")

    message_input.fill("")
    page.wait_for_function("b => b.disabled", arg=call.element_handle(), timeout=WAIT_MS, polling=POLL_MS)
    reason = cell.get_by_text("Cannot call yet: message: required, but empty")
    reason.first.wait_for(timeout=WAIT_MS)  # the reason arrives in its own widget update
    assert reason.count() == 1 and cell.get_by_text(re.compile("required, but empty")).count() == 1  # said once
    previous = cell.get_by_text(re.compile(r"^Below: the previous call's result, for \{\"message\": "))
    previous.first.wait_for(timeout=WAIT_MS)  # the result kept under a refused call is marked as the last call's
    assert previous.count() == 1 and result.count() == 1
    call.scroll_into_view_if_needed()
    screenshot(page, "panel_browser_disabled")

    assert eval_global(page, "window.__anvia_pwned") is None
    assert panel_notebook.page_errors == []
    assert page_events.page_errors == []
    assert page_events.dialogs == []


def test_a_person_answers_a_servers_question_in_the_form_while_the_call_waits(
    page: Any, panel_notebook: PanelNotebook, page_events: PageEvents
) -> None:
    cell = panel_notebook.cell(page, CONFIRM_FORM)  # the cell of this test's form

    field_name = page.locator(".widget-label", has_text=re.compile(r"^action", re.IGNORECASE))
    action_input = cell.locator(".widget-hbox", has=field_name).locator(".widget-text input").last
    action_input.wait_for(timeout=WAIT_MS)
    action_input.fill("deploy")
    call = cell.locator("button.widget-button", has_text=re.compile(r"^\s*Call\s*$"))
    page.wait_for_function("b => !b.disabled", arg=call.element_handle(), timeout=WAIT_MS, polling=POLL_MS)
    call.click()

    accept = cell.locator("button.widget-button", has_text=re.compile(r"^\s*Accept\s*$"))
    accept.wait_for(timeout=WAIT_MS)  # the prompt appeared in the form's result area
    assert cell.locator(".anvia-request-header", has_text="asks you for input").count() == 1
    confirm_label = page.locator(".widget-label", has_text=re.compile(r"^Confirm"))
    confirm_box = cell.locator(".widget-hbox", has=confirm_label)
    confirm_box.locator("input[type=checkbox]").check()
    page.wait_for_function("b => !b.disabled", arg=accept.element_handle(), timeout=WAIT_MS, polling=POLL_MS)
    accept.click()

    page.wait_for_function(
        "nb => [...nb.querySelectorAll('.widget-output')].some(o => o.innerText.includes('Confirmed: deploy'))",
        arg=cell.element_handle(),
        timeout=WAIT_MS,
        polling=POLL_MS,
    )
    cell.locator(".widget-output .anvia-result").scroll_into_view_if_needed()
    screenshot(page, "form_elicitation_browser")
    assert cell.get_by_text("You accepted; the answer was sent.").count() == 1
    assert panel_notebook.page_errors == []
    assert page_events.page_errors == []


# Every element under `root` whose content is wider than its box (a horizontal scrollbar or
# clipped text), described for the failure message; `root` itself included.
OVERFLOWING = """root => [root, ...root.querySelectorAll('*')]
    .filter(e => e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0)
    .map(e => `${[...e.classList].join('.')} ${e.scrollWidth}>${e.clientWidth} ${e.innerText.slice(0, 60)}`)"""
# How a text element is laid out: its height in lines and whether it clips with an ellipsis.
TEXT_BOX = """e => {
    const s = getComputedStyle(e), line = parseFloat(s.lineHeight) || 1.3 * parseFloat(s.fontSize);
    return {lines: e.getBoundingClientRect().height / line, textOverflow: s.textOverflow, whiteSpace: s.whiteSpace};
}"""
NARROW_NOTEBOOK = {"width": 900, "height": 1400}  # a notebook beside another window


def test_a_long_description_wraps_and_nothing_scrolls_sideways_in_a_narrow_notebook(
    page: Any, panel_notebook: PanelNotebook, page_events: PageEvents
) -> None:
    page.set_viewport_size(NARROW_NOTEBOOK)  # the notebook ran at the usual width; now narrow: widgets reflow

    root = ".jp-OutputArea-output > .jupyter-widgets"
    panel = panel_notebook.cell(page, MAGIC_PANEL).locator(root).first
    form = panel_notebook.cell(page, MAGIC_FORM).locator(root).first
    panel.wait_for(timeout=WAIT_MS)
    form.wait_for(timeout=WAIT_MS)
    tools_label = page.locator("label", has_text=re.compile(r"^Tools$"))
    tools = panel.locator(".widget-select", has=tools_label).locator("select")
    tools.select_option(label="form_showcase — Form showcase")
    about = re.compile(r"Exercises every form field kind")
    panel.locator(".widget-html", has_text=about).first.wait_for(timeout=WAIT_MS)
    form.locator(".widget-html", has_text=about).first.wait_for(timeout=WAIT_MS)
    for widget in (panel, form):
        # the showcase's last field is drawn: the whole form is on the page
        widget.locator(".widget-label", has_text=re.compile(r"^Greeting")).first.wait_for(timeout=WAIT_MS)

    for name, widget in (("panel", panel), ("form", form)):
        widget.scroll_into_view_if_needed()  # laid out on screen, as a person reads it
        assert widget.evaluate(OVERFLOWING) == [], f"the {name} is wider than the notebook"
        description = widget.locator(".widget-html-content", has_text=about).last
        box = description.evaluate(TEXT_BOX)
        assert box["lines"] > 1.5, f"the {name}'s tool description is one clipped line: {box}"
        assert box["textOverflow"] != "ellipsis" and box["whiteSpace"] != "nowrap", box
        help_text = widget.locator(".widget-html-content", has_text="2 to 40 letters, spaces or hyphens").last
        field_box = help_text.evaluate(TEXT_BOX)
        assert field_box["textOverflow"] != "ellipsis" and field_box["whiteSpace"] != "nowrap", field_box

    reason = panel.get_by_text(re.compile(r"^Cannot call yet: "))
    reason.scroll_into_view_if_needed()  # the long reason under Call: wrapped, not cut off
    assert reason.evaluate(TEXT_BOX)["lines"] > 1.5
    screenshot(page, "layout_browser")
    assert panel_notebook.page_errors == []
    assert page_events.page_errors == []
