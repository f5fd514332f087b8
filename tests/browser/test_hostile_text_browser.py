"""Server text on every surface of a real JupyterLab stays characters: no TeX typeset, no markup live.

Why: JupyterLab typesets TeX in outputs and ipywidgets Labels with MathJax, so server text such as
``$\\href{https://evil.example}{\\text{OK ✔ safe}}$`` could become a link reading "OK ✔ safe".
The first test shows server TeX on every surface (results, resource summaries, the DataFrames,
history errors, form labels) and counts the MathJax elements made from it: none. The second shows
hostile log lines and trace summaries of the demo server: shown as characters, nothing fetched.
Both read one notebook, run once for the file (one kernel; the hostile server and the demo server
each started once). The results themselves are checked in tests/browser/test_hostile_output_browser.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from tests.helpers.hostile_server import MATH_TOOL, SERVER_PATH
from tests.helpers.lab import (
    POLL_MS,
    VIEWPORT,
    FilePage,
    LabServer,
    PageEvents,
    eval_global,
    fit_viewport_to_notebook,
    open_notebook,
    run_all_cells,
    screenshot,
    visible_notebook,
    write_notebook,
)

pytestmark = pytest.mark.browser

SETTLE_TIMEOUT_SECONDS = 30.0

REPO = SERVER_PATH.parents[2]
MATH_CONTROL = 'from IPython.display import Markdown\nMarkdown("control: $x^2$")'
CELLS = [
    "%load_ext anvia_nb",
    f'import sys\nget_ipython().run_line_magic("mcp", f"connect hostile --stdio {{sys.executable}} {SERVER_PATH}")',
    MATH_CONTROL,
    "%mcp tools hostile",
    f"%mcp call hostile.{MATH_TOOL} mode=plain",
    f"%mcp call hostile.{MATH_TOOL}",
    "%mcp history",
    f"%mcp form hostile.{MATH_TOOL}",
    f'connect = f"connect demo --cwd {REPO} --stdio {{sys.executable}} -m anvia_nb.demo_server"\n'
    'get_ipython().run_line_magic("mcp", connect)',
    "%mcp resources demo",
    "%mcp prompts demo",
    "%mcp read demo 'demo://hostile/<script>window.__anvia_pwned=1</script>'",
    "%mcp prompt demo.hostile",
    # the demo server's hostile log lines, then its log and trace (the call is the last exchange)
    "%mcp call demo.log_levels hostile=true",
    "%mcp log demo --lines 40",
    "%mcp trace demo --last 40",
    "t = %mcp trace demo --last 40\nt.message(t.index[-2])['params']['logger']",
    MATH_CONTROL,
]
FIRST_CONTROL, FORM = 2, 7
SERVER_TEXT_CELLS = (3, 4, 5, 6, FORM, 9, 10, 11, 12)
LOG, TRACE, TRACE_MESSAGE = 14, 15, 16
EXCHANGE_SHOWN = (LOG, TRACE, TRACE_MESSAGE)

_MATH_JS = """(index) => {
  const panel = [...document.querySelectorAll('.jp-NotebookPanel')].find(p => p.checkVisibility());
  const cell = panel.querySelectorAll('.jp-Notebook .jp-Cell')[index];
  const outputs = [...cell.querySelectorAll('.jp-OutputArea-output')];
  return {
    math: cell.querySelectorAll('.jp-OutputArea-output mjx-container').length,
    links: cell.querySelectorAll('.jp-OutputArea-output a[href*="evil.example"]').length,
    labels: [...cell.querySelectorAll('.widget-label')].map(l => l.textContent),
    text: outputs.map(o => o.innerText).join('\\n'),
  };
}"""
# Per cell: elements a server's text could have made (none of anvia_nb's text views draws one).
_LIVE_JS = """(indexes) => indexes.map(index => {
  const panel = [...document.querySelectorAll('.jp-NotebookPanel')].find(p => p.checkVisibility());
  const cell = panel.querySelectorAll('.jp-Notebook .jp-Cell')[index];
  return cell.querySelectorAll('.jp-OutputArea-output img, .jp-OutputArea-output iframe, '
    + '.jp-OutputArea-output script, .jp-OutputArea-output svg, .jp-OutputArea-output form').length;
})"""


@dataclass(frozen=True)
class TextRun:
    """What each cell of the notebook showed once it ran and MathJax had typeset, and what the page did."""

    views: dict[int, dict[str, Any]]
    live: list[int]
    requests: list[str]
    pwned: Any
    dialogs: list[tuple[str, str]]


@pytest.fixture(scope="module")
def text_run(file_page: FilePage, jupyter_lab: LabServer) -> TextRun:
    """Run the notebook once, as tall as its cells, and read every cell after MathJax typeset the last."""
    page, events = file_page.page, file_page.events
    events.clear()
    page.set_viewport_size(VIEWPORT)
    requests: list[str] = []

    def on_request(request: Any) -> None:
        requests.append(request.url)

    page.on("request", on_request)
    try:
        path = write_notebook(jupyter_lab, "hostile_text.ipynb", CELLS)
        open_notebook(page, jupyter_lab.base_url, path, jupyter_lab.token)
        run_all_cells(page)
        fit_viewport_to_notebook(page)
        last = len(CELLS) - 1
        # MathJax works in this lab: both control cells are typeset (outputs are typeset in order).
        page.wait_for_function(
            f"() => ({_MATH_JS})({last}).math > 0 && ({_MATH_JS})({FIRST_CONTROL}).math > 0",
            timeout=SETTLE_TIMEOUT_SECONDS * 4000,
            polling=POLL_MS,
        )
        call = visible_notebook(page).locator("button.widget-button", has_text="Call")
        call.first.wait_for(timeout=SETTLE_TIMEOUT_SECONDS * 2000)
        page.wait_for_function(
            f"() => ({_MATH_JS})({FORM}).labels.length > 1", timeout=SETTLE_TIMEOUT_SECONDS * 1000, polling=POLL_MS
        )
        views = {index: page.evaluate(_MATH_JS, index) for index in (*SERVER_TEXT_CELLS, *EXCHANGE_SHOWN)}
        live = page.evaluate(_LIVE_JS, list(EXCHANGE_SHOWN))
        screenshot(page, "hostile_text")
        pwned = eval_global(page, "window.__anvia_pwned")
    finally:
        page.remove_listener("request", on_request)
    return TextRun(views, live, requests, pwned, list(events.dialogs))


def test_server_tex_is_never_typeset_on_any_surface_in_jupyterlab(text_run: TextRun) -> None:
    views = {index: text_run.views[index] for index in SERVER_TEXT_CELLS}
    made = {CELLS[i]: (v["math"], v["links"]) for i, v in views.items() if v["math"] or v["links"]}
    assert made == {}
    # ... and each shows the server's TeX as the characters it sent.
    literal = r"\href{https://evil.example}"
    assert literal in views[3]["text"]  # the tools frame: a name, a title, a description
    assert literal in views[4]["text"]  # a result and its resource <summary>
    assert r"$$\text{display}$$" in views[5]["text"]  # an error result
    assert f"hostile.{MATH_TOOL} answered with MCP error" in views[6]["text"]  # the history's error column
    form_labels = views[FORM]["labels"]
    assert any(literal in label for label in form_labels)
    assert any(r"\(\text{paren}\)" in label for label in form_labels)
    for index in (9, 10, 11, 12):  # resources, prompts, a resource read and a prompt got
        assert literal in views[index]["text"], CELLS[index]
    assert text_run.pwned is None


def test_hostile_log_lines_and_trace_summaries_render_inert_in_jupyterlab(
    text_run: TextRun, page: Any, page_events: PageEvents
) -> None:
    views = {index: text_run.views[index] for index in EXCHANGE_SHOWN}
    assert text_run.pwned is None
    assert eval_global(page, "window.__anvia_pwned") is None  # nor since
    assert text_run.dialogs == []
    assert page_events.dialogs == []
    assert [url for url in text_run.requests if "127.0.0.1:9/" in url] == []
    assert text_run.live == [0, 0, 0]  # no element a server's text could have made
    assert {index: (v["math"], v["links"]) for index, v in views.items() if v["math"] or v["links"]} == {}
    for index in EXCHANGE_SHOWN:
        text = views[index]["text"]
        assert "<img src=x onerror=" in text, text[:300]  # shown as characters
        assert "\u202e" not in text
    assert "⟨U+202E⟩" in views[LOG]["text"]  # the log frame's logger column
    assert "\\u202e" in views[TRACE_MESSAGE]["text"]  # a message is a Python value: its repr escapes the override
