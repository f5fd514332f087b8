"""MCP Apps in a real JupyterLab: a view runs sandboxed, talks to the kernel, and escapes nowhere.

The demo server's ``hostile_view`` comes with a view that attacks the page (see
anvia_nb/demo_server/hostile_app.py): each attempt must be refused inside its frame or by the host,
and nothing may reach the notebook outside the frame (no script of it runs in the page, no dialog,
no pop-up, no navigation, no request leaves for the Jupyter API or the outside). The same view's
legitimate call goes through the kernel and shows in ``%mcp history``; the view is resized within
its bounds; ``AppFrame.teardown()`` tells the view before the widget closes, and clearing an
output tells the kernel its view went.
"""

from __future__ import annotations

import re
import socket
import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest

from tests.helpers import app_cells
from tests.helpers.app_cells import (
    FRAME,
    HANDLER_CELL,
    MINIMAL_CELL,
    PROBE_PATH,
    SETUP_CELL,
    frame_heights,
    frame_report,
    hostile_cell,
    navigator_cell,
    record_requests,
    report_problems,
    run_cell_below,
    sized_views,
)
from tests.helpers.lab import (
    POLL_MS,
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


@pytest.fixture
def udp_listener() -> Iterator[socket.socket]:
    with app_cells.udp_listener() as listener:
        yield listener


def test_the_hostile_view_is_refused_everything_and_nothing_reaches_the_notebook(
    page: Any, page_events: PageEvents, jupyter_lab: LabServer, udp_listener: socket.socket
) -> None:
    requests = record_requests(page)
    probe = f"{jupyter_lab.base_url}{PROBE_PATH}?token={urllib.parse.quote(jupyter_lab.token)}"
    stun = f"stun:127.0.0.1:{udp_listener.getsockname()[1]}"
    cells = [SETUP_CELL, HANDLER_CELL, hostile_cell(probe, stun), MINIMAL_CELL, navigator_cell(probe)]
    path = write_notebook(jupyter_lab, "app_frame.ipynb", cells)
    open_notebook(page, jupyter_lab.base_url, path, jupyter_lab.token)
    lab_url = page.url
    pages_before = len(page.context.pages)
    run_all_cells(page)
    report = frame_report(page)
    screenshot(page, "app_frame_hostile")

    assert report_problems(report) == []
    assert any(line.startswith("connect-src") for line in report["violations"])  # refused by the CSP
    flood = report["flood"]
    assert flood["sent"] == flood["answered"] + flood["refused"] + flood["unanswered"]
    assert flood["refused"] > 0 and flood["unanswered"] > 0  # bounded in the kernel and the page
    dropped = page.eval_on_selector(FRAME, "f => Number(f.parentElement.dataset.dropped || 0)")
    assert dropped > 0
    # Nothing of it outside the frame.
    assert page.url == lab_url
    assert len(page.context.pages) == pages_before
    assert eval_global(page, "window.__anvia_pwned") is None
    assert page_events.dialogs == []
    assert [url for url in requests if "example.com" in url or PROBE_PATH in url] == []
    assert app_cells.datagrams(udp_listener) == []  # no STUN or TURN packet from the view's WebRTC attempts
    # Sizes: the hostile view asked for 100000 px and got the bound; the minimal one got its 240.
    minimal = sized_views(page)
    assert minimal.text_content() == "initialized inline; result"
    page.evaluate("() => { document.body.dataset.jpThemeLight = 'false'; }")  # as JupyterLab's dark theme does
    minimal.filter(has_text="; result; dark").wait_for(timeout=30_000)  # the views hear of it
    page.evaluate("() => { document.body.dataset.jpThemeLight = 'true'; }")

    # A view that navigates its own frame away is closed (Chromium blocked the page it went to).
    page.get_by_text("This view tried to leave its page and was closed.").wait_for(timeout=30_000)
    assert "navigated away: 1" in run_cell_below(page, "print('navigated away:', navigator.navigated_away)")

    # The view's one allowed call went through the kernel: in %mcp history, marked as the view's,
    # and in the trace.
    history = run_cell_below(page, "%mcp history")
    assert re.search(r"demo\s+hostile_view\s", history), history  # the cell's call
    assert re.search(r"demo\s+hostile_app_only\s.*app ui://anvia-demo/hostile-view\.html", history), history
    assert "hostile_model_only" not in history
    trace = run_cell_below(page, "%mcp trace demo")
    assert "hostile_app_only" in trace

    # Teardown: the view hears of it, then the widget closes and its frame goes.
    run_cell_below(page, "minimal.teardown()")
    page.wait_for_function(f"() => document.querySelectorAll('{FRAME}').length === 1", timeout=30_000, polling=POLL_MS)
    told = run_cell_below(page, "print(notices, minimal.comm is None)")
    assert "('notifications/message', 'torn down')] True" in told
    # Clearing an output removes the view; the kernel hears of it.
    _clear_output_of_cell(page, 2)
    page.wait_for_function(f"() => document.querySelectorAll('{FRAME}').length === 0", timeout=30_000, polling=POLL_MS)
    closed = run_cell_below(page, "print('views closed:', hostile.frame.views_closed)")
    assert "views closed: 1" in closed
    print(f"app frame: heights {frame_heights(page)}, flood {flood}, dropped in the page {dropped}")


def _clear_output_of_cell(page: Any, index: int) -> None:
    """Select cell ``index`` and run Edit > Clear Cell Output (JupyterLab's own command)."""
    visible_notebook(page).locator(".jp-Cell").nth(index).locator(".jp-InputPrompt").click()
    page.locator(".lm-MenuBar-item", has_text=re.compile(r"^\s*Edit\s*$")).click()
    label = page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Clear (Cell )?Output$"))
    page.locator(".lm-Menu .lm-Menu-item", has=label).filter(visible=True).first.click()
