"""The extension's own example apps (npm, cached by scripts/setup-test) hosted in a real JupyterLab.

``@modelcontextprotocol/server-basic-vanillajs`` 2.0.3 is a real view built with the extension's
SDK: it must accept our ``ui/initialize`` answer, show the tool's result, call its tool back through
the kernel (then in ``%mcp history``), resize itself within the bounds, and be torn down.
``-system-monitor`` and ``-budget-allocator`` (larger views, charts drawn from inline code) must
render and get their data from their server through the kernel.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from anvia_nb.display.app_html import MAX_HEIGHT_PX, MIN_HEIGHT_PX
from tests.helpers.app_cells import (
    FRAME,
    REPORT_WAIT_MS,
    frame_heights,
    run_cell_below,
    time_renews_on_click,
    view_frame,
)
from tests.helpers.lab import (
    POLL_MS,
    LabServer,
    PageEvents,
    eval_global,
    fit_viewport_to_notebook,
    open_notebook,
    run_all_cells,
    screenshot,
    visible_notebook,
)
from tests.helpers.lab import write_notebook as write_lab_notebook
from tests.helpers.support import npm_servers, require_setup

pytestmark = [pytest.mark.browser, pytest.mark.thirdparty]


@pytest.fixture(scope="module")
def npm_bin() -> str:
    require_setup(npm_servers() / "anvia-ready", "the npm MCP servers")
    return str(npm_servers() / "node_modules" / ".bin")


def test_the_basic_vanillajs_app_renders_calls_its_tool_back_resizes_and_is_torn_down(
    page: Any, page_events: PageEvents, jupyter_lab: LabServer, npm_bin: str
) -> None:
    cells = [
        f"%load_ext anvia_nb\n%mcp connect vanilla --stdio {npm_bin}/mcp-server-basic-vanillajs --stdio",
        "app = %mcp app vanilla.get-time\napp",
    ]
    path = write_lab_notebook(jupyter_lab, "app_vanilla.ipynb", cells)
    open_notebook(page, jupyter_lab.base_url, path, jupyter_lab.token)
    run_all_cells(page)
    view = view_frame(visible_notebook(page))
    # The tool's result shown, then the view's own call of get-time through the kernel.
    time_renews_on_click(view.locator("#server-time"), view.locator("#get-time-btn"))
    heights = frame_heights(page)
    assert len(heights) == 1 and MIN_HEIGHT_PX <= heights[0] <= MAX_HEIGHT_PX
    screenshot(page, "app_frame_vanilla")
    history = run_cell_below(page, "%mcp history")
    assert len(re.findall(r"vanilla\s+get-time", history)) == 2, history  # the cell's call and the view's
    assert len(re.findall(r"app ui://get-time/mcp-app\.html", history)) == 1, history
    run_cell_below(page, "app.teardown()")
    page.wait_for_function(f"() => document.querySelectorAll('{FRAME}').length === 0", timeout=30_000, polling=POLL_MS)
    assert eval_global(page, "window.__anvia_pwned") is None
    assert page_events.dialogs == []


@pytest.mark.parametrize(
    ("command", "tool", "ready"),
    [
        ("mcp-system-monitor-server", "get-system-info", "canvas"),
        ("mcp-budget-allocator-server", "get-budget-data", "canvas"),
    ],
)
def test_the_larger_example_apps_render_with_their_servers_data(
    page: Any,
    page_events: PageEvents,
    jupyter_lab: LabServer,
    npm_bin: str,
    command: str,
    tool: str,
    ready: str,
) -> None:
    name = command.split("-")[1]
    cells = [
        f"%load_ext anvia_nb\n%mcp connect {name} --stdio {npm_bin}/{command} --stdio",
        f"app = %mcp app {name}.{tool}\napp",
    ]
    path = write_lab_notebook(jupyter_lab, f"app_{name}.ipynb", cells)
    open_notebook(page, jupyter_lab.base_url, path, jupyter_lab.token)
    run_all_cells(page)
    view_frame(visible_notebook(page)).locator(ready).first.wait_for(timeout=REPORT_WAIT_MS)
    fit_viewport_to_notebook(page)
    screenshot(page, f"app_frame_{name}")
    assert eval_global(page, "window.__anvia_pwned") is None
    assert page_events.dialogs == []
