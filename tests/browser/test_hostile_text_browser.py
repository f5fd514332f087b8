"""Server text on every surface of a real JupyterLab stays characters: no TeX typeset, no markup live.

Why: JupyterLab typesets TeX in outputs and ipywidgets Labels with MathJax, so server text such as
``$\\href{https://evil.example}{\\text{OK ✔ safe}}$`` could become a link reading "OK ✔ safe".
The first test shows server TeX on every surface (results, resource summaries, the DataFrames,
history errors, form labels) and counts the MathJax elements made from it: none. The second shows
hostile log lines and trace summaries of the demo server: shown as characters, nothing fetched.
The results themselves are checked in tests/browser/test_hostile_output_browser.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.hostile_server import MATH_TOOL, SERVER_PATH
from tests.browser.lab import (
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

MATH_CONTROL = 'from IPython.display import Markdown\nMarkdown("control: $x^2$")'
MATH_CELLS = [
    "%load_ext anvia_nb",
    "import sys\n"
    f'get_ipython().run_line_magic("mcp", f"connect hostile --stdio {{sys.executable}} {SERVER_PATH}")',
    MATH_CONTROL,
    "%mcp tools hostile",
    f"%mcp call hostile.{MATH_TOOL} mode=plain",
    f"%mcp call hostile.{MATH_TOOL}",
    "%mcp history",
    f"%mcp form hostile.{MATH_TOOL}",
    "%mcp connect demo --stdio python -m anvia_nb.demo_server",
    "%mcp resources demo",
    "%mcp prompts demo",
    "%mcp read demo 'demo://hostile/<script>window.__anvia_pwned=1</script>'",
    "%mcp prompt demo.hostile",
    MATH_CONTROL,
]
SERVER_TEXT_CELLS = (3, 4, 5, 6, 7, 9, 10, 11, 12)

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


def test_server_tex_is_never_typeset_on_any_surface_in_jupyterlab(
    page: Any, jupyter_lab: LabServer, page_events: PageEvents
) -> None:
    path = write_notebook(jupyter_lab, "hostile_math.ipynb", MATH_CELLS)
    open_notebook(page, jupyter_lab.base_url, path, jupyter_lab.token)
    run_all_cells(page)
    fit_viewport_to_notebook(page)
    last = len(MATH_CELLS) - 1
    # MathJax works in this lab: the last control cell is typeset (outputs are typeset in order).
    page.wait_for_function(
        f"() => ({_MATH_JS})({last}).math > 0 && ({_MATH_JS})(2).math > 0", timeout=SETTLE_TIMEOUT_SECONDS * 4000
    )
    call = visible_notebook(page).locator("button.widget-button", has_text="Call")
    call.first.wait_for(timeout=SETTLE_TIMEOUT_SECONDS * 2000)
    page.wait_for_function(f"() => ({_MATH_JS})(7).labels.length > 1", timeout=SETTLE_TIMEOUT_SECONDS * 1000)
    views = {index: page.evaluate(_MATH_JS, index) for index in SERVER_TEXT_CELLS}
    screenshot(page, "hostile_math")

    made = {MATH_CELLS[i]: (v["math"], v["links"]) for i, v in views.items() if v["math"] or v["links"]}
    assert made == {}
    # ... and each shows the server's TeX as the characters it sent.
    literal = r"\href{https://evil.example}"
    assert literal in views[3]["text"]  # the tools frame: a name, a title, a description
    assert literal in views[4]["text"]  # a result and its resource <summary>
    assert r"$$\text{display}$$" in views[5]["text"]  # an error result
    assert f"hostile.{MATH_TOOL} answered with MCP error" in views[6]["text"]  # the history's error column
    form_labels = views[7]["labels"]
    assert any(literal in label for label in form_labels)
    assert any(r"\(\text{paren}\)" in label for label in form_labels)
    for index in (9, 10, 11, 12):  # resources, prompts, a resource read and a prompt got
        assert literal in views[index]["text"], MATH_CELLS[index]
    assert eval_global(page, "window.__anvia_pwned") is None


REPO = SERVER_PATH.parents[2]
EXCHANGE_CELLS = [
    "%load_ext anvia_nb",
    f'import sys\nconnect = f"connect demo --cwd {REPO} --stdio {{sys.executable}} -m anvia_nb.demo_server"',
    'get_ipython().run_line_magic("mcp", connect)',
    "%mcp call demo.log_levels hostile=true",
    "%mcp log demo --lines 40",
    "%mcp trace demo --last 40",
    "t = %mcp trace demo --last 40\nt.message(t.index[-2])['params']['logger']",
    MATH_CONTROL,
]
EXCHANGE_SHOWN = range(4, 7)


def test_hostile_log_lines_and_trace_summaries_render_inert_in_jupyterlab(
    page: Any, jupyter_lab: LabServer, page_events: PageEvents
) -> None:
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    path = write_notebook(jupyter_lab, "hostile_exchange.ipynb", EXCHANGE_CELLS)
    open_notebook(page, jupyter_lab.base_url, path, jupyter_lab.token)
    run_all_cells(page)
    fit_viewport_to_notebook(page)
    last = len(EXCHANGE_CELLS) - 1
    page.wait_for_function(f"() => ({_MATH_JS})({last}).math > 0", timeout=SETTLE_TIMEOUT_SECONDS * 4000)
    views = {index: page.evaluate(_MATH_JS, index) for index in EXCHANGE_SHOWN}
    live = page.evaluate(
        """(indexes) => indexes.map(index => {
          const panel = [...document.querySelectorAll('.jp-NotebookPanel')].find(p => p.checkVisibility());
          const cell = panel.querySelectorAll('.jp-Notebook .jp-Cell')[index];
          return cell.querySelectorAll('.jp-OutputArea-output img, .jp-OutputArea-output iframe, '
            + '.jp-OutputArea-output script, .jp-OutputArea-output svg, .jp-OutputArea-output form').length;
        })""",
        list(EXCHANGE_SHOWN),
    )
    screenshot(page, "hostile_exchange")

    assert eval_global(page, "window.__anvia_pwned") is None
    assert page_events.dialogs == []
    assert [url for url in requests if "127.0.0.1:9/" in url] == []
    assert live == [0, 0, 0]  # no element a server's text could have made
    assert {index: (v["math"], v["links"]) for index, v in views.items() if v["math"] or v["links"]} == {}
    for index in EXCHANGE_SHOWN:
        text = views[index]["text"]
        assert "<img src=x onerror=" in text, text[:300]  # shown as characters
        assert "\u202e" not in text
    assert "⟨U+202E⟩" in views[4]["text"]  # the log frame's logger column
    assert "\\u202e" in views[6]["text"]  # a message is a Python value: its repr escapes the override
