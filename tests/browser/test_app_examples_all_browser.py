"""Every official MCP Apps example (tests/helpers/app_examples.py: 20 servers of the ext-apps 2.0.x
family, npm, cached by scripts/setup-test under .cache/npm-apps) opened through anvia_nb in one real
JupyterLab, one notebook cell each, as a person opens them (``%mcp connect`` then ``%mcp app``).

For each: the view renders what its author meant it to show (an example that needs the internet
shows its own one-line failure instead, see ``Example.offline``), its first interaction that makes a
tool call reaches the kernel (``%mcp history`` lists the call as requested by the view), and no
Content Security Policy violation or ``SecurityError`` from the host's sandbox appears in the
console. docs/apps.md "The official examples" is the table of what this shows.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.app_cells import FRAME, REPORT_WAIT_MS, run_cell_below, view_frame
from tests.helpers.app_examples import EXAMPLES, PDF_WORDS, Example, one_page_pdf
from tests.helpers.lab import (
    VIEWPORT,
    FilePage,
    LabServer,
    eval_global,
    open_notebook,
    run_all_cells,
    screenshot,
    visible_notebook,
)
from tests.helpers.lab import write_notebook as write_lab_notebook
from tests.helpers.support import cache_dir, require_setup
from tests.helpers.waiting import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.thirdparty, pytest.mark.slow, pytest.mark.timeout(900)]

OPEN_ALL_SECONDS = 600.0
"""Bound on running the notebook's 21 cells (20 servers start, each view opens); only proves nothing hangs."""
SANDBOX_WORDS = ("Content Security Policy", "SecurityError", "sandboxed", "fake worker failed")
SIZED_CANVAS = "c => c.width > 0 && c.height > 0 && c.width * c.height !== 300 * 150"


def app_cell(example: Example, bin_dir: Path, pdf: Path) -> str:
    """The cell that connects ``example``'s server and opens its tool's view."""
    command = f"{bin_dir / example.command} --stdio"
    arguments = " " + example.arguments if example.arguments else ""
    if example.key == "pdf":  # the server may read only the files it is started with
        command += f" {pdf}"
        arguments = " " + json.dumps({"url": str(pdf)})
    return (
        f"%mcp connect {example.key} --stdio {command}\n"
        f"view_{example.key} = %mcp app {example.key}.{example.tool}{arguments}\n"
        f"view_{example.key}"
    )


@pytest.fixture(scope="module")
def examples_page(file_page: FilePage, jupyter_lab: LabServer, tmp_path_factory: Any) -> FilePage:
    """The file's page with one notebook in which every example's view was opened, one cell each."""
    folder = cache_dir() / "npm-apps"
    require_setup(folder / "anvia-ready", "the MCP Apps examples from npm")
    pdf = one_page_pdf(tmp_path_factory.mktemp("pdf") / "anvia.pdf", PDF_WORDS)
    cells = ["%load_ext anvia_nb", *(app_cell(example, folder / "node_modules" / ".bin", pdf) for example in EXAMPLES)]
    page = file_page.page
    page.set_viewport_size(VIEWPORT)
    file_page.events.clear()
    path = write_lab_notebook(jupyter_lab, "app_examples_all.ipynb", cells)
    open_notebook(page, jupyter_lab.base_url, path, jupyter_lab.token)
    run_all_cells(page, timeout_seconds=OPEN_ALL_SECONDS)
    return file_page


def view_calls(page: Any, key: str) -> list[list[str]]:
    """``[tool, requested_by]`` of each call in ``%mcp history`` to server ``key`` that a view asked for."""
    source = (
        "_h = %mcp history\n"
        f"_h = _h[(_h.server == {key!r}) & _h.requested_by.notna()]\n"
        "print(__import__('json').dumps(_h[['tool', 'requested_by']].values.tolist()))"
    )
    text = run_cell_below(page, source)
    found: list[list[str]] = json.loads(text.strip().splitlines()[-1])
    return found


def interact(view: Any, act: str) -> None:
    """Do what ``Example.act`` says, in the view's frame."""
    kind, _, what = act.partition(":")
    if kind == "button":
        view.get_by_role("button", name=what).click()
    elif kind == "click":
        view.locator(what).click()
    elif kind == "select":
        view.locator("select").first.select_option(label=what)
    else:
        raise AssertionError(f"no such interaction: {act}")


def complaints(file_page: FilePage) -> list[str]:
    """Console lines since the notebook opened that say the sandbox or its CSP stopped a view."""
    return [text for _kind, text in file_page.events.console if any(word in text for word in SANDBOX_WORDS)]


@pytest.mark.parametrize("example", EXAMPLES, ids=[example.key for example in EXAMPLES])
def test_the_official_example_renders_and_its_tool_call_reaches_the_kernel(
    examples_page: FilePage, example: Example
) -> None:
    page = examples_page.page
    cell = visible_notebook(page).locator(".jp-CodeCell").nth(EXAMPLES.index(example) + 1)
    cell.locator(FRAME).scroll_into_view_if_needed()
    view = view_frame(cell)
    body = view.locator("body")
    if example.shows:
        body.filter(has_text=re.compile(example.shows)).wait_for(timeout=REPORT_WAIT_MS)
    if example.drawn == "canvas" or example.drawn.endswith("canvas"):
        drawn = view.locator(example.drawn).first
        drawn.wait_for(timeout=REPORT_WAIT_MS)
        wait_until(lambda: drawn.evaluate(SIZED_CANVAS), f"{example.key}'s canvas sized by its renderer")
    elif example.drawn:
        view.locator(f"{example.drawn} *").first.wait_for(state="attached", timeout=REPORT_WAIT_MS)
    if example.act and example.act != "load":
        before = body.inner_text()
        interact(view, example.act)
        wait_until(lambda: body.inner_text() != before, f"{example.key}'s view showing its call's answer")
    if example.calls:
        uri_calls = wait_until(
            lambda: [call for call in view_calls(page, example.key) if call[0] == example.calls],
            f"{example.key}'s view calling {example.calls} through the kernel",
        )
        assert all(requested_by.startswith("app ui://") for _tool, requested_by in uri_calls), uri_calls
    screenshot(page, f"app_example_all_{example.key}")
    assert complaints(examples_page) == []
    assert eval_global(page, "window.__anvia_pwned") is None
