"""MCP Apps in Voilà (a dashboard viewer): the view renders from the package's own JavaScript, with
nothing fetched from a CDN, and the hostile view is refused everything there as in JupyterLab.

Voilà runs every cell, shows the outputs and keeps the kernel: the view talks to it as in a notebook.
"""

from __future__ import annotations

import json
import urllib.parse
from pathlib import Path
from typing import Any

import nbformat
import pytest

from anvia_nb.demo_server.account_app import ACCOUNT_LEAK
from anvia_nb.demo_server.hostile_app import HOSTILE_APP_URI
from anvia_nb.policy import HIDDEN_SERVER_ERROR
from tests.helpers.app_cells import (
    HANDLER_CELL,
    MINIMAL_CELL,
    REPORT_WAIT_MS,
    SETUP_CELL,
    frame_report,
    hostile_cell,
    report_problems,
    sized_views,
)
from tests.helpers.lab import eval_global, record_page_events, screenshot
from tests.helpers.support import REPO

pytestmark = pytest.mark.browser


def _serve(root: Path, cells: list[str]) -> str:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in cells]
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(notebook, str(root / "apps.ipynb"))
    return "/voila/render/apps.ipynb"


def test_in_voila_the_view_loads_offline_and_the_hostile_view_is_refused_everything(
    voila: tuple[str, Path], voila_context: Any
) -> None:
    base, root = voila
    page = voila_context.new_page()
    events = record_page_events(page)
    requests: list[str] = []
    page.on("requestfinished", lambda request: requests.append(request.url))
    page.on("websocket", lambda socket: requests.append(socket.url))
    probe = f"{base}/api/contents/anvia-hostile-probe"
    url = base + _serve(root, [SETUP_CELL, HANDLER_CELL, hostile_cell(probe), MINIMAL_CELL])
    try:
        page.goto(url, wait_until="commit", timeout=REPORT_WAIT_MS)
        report = frame_report(page)
        minimal = sized_views(page)
        assert minimal.text_content() == "initialized inline; result"
        screenshot(page, "app_frame_voila")
        assert report_problems(report) == []
        assert page.url == url
        assert len(voila_context.pages) == 1
        assert eval_global(page, "window.__anvia_pwned") is None
        assert events.dialogs == []
        origin = urllib.parse.urlsplit(base).netloc
        foreign = [u for u in requests if urllib.parse.urlsplit(u).scheme not in ("data", "blob", "about")]
        assert [u for u in foreign if urllib.parse.urlsplit(u).netloc != origin] == []  # no CDN, no outside
        assert [u for u in requests if "anvia-hostile-probe" in u] == []
    finally:
        page.close()


VIEWER_SETUP_CELL = (
    "%load_ext anvia_nb\n"
    "%config McpMagics.hide_server_errors = True\n"
    f"%mcp connect demo --cwd {REPO} --stdio python -m anvia_nb.demo_server"
)
"""A page for viewers as the README builds it: the one switch, then forms without ``settings=``."""


def _called_form_cell(name: str, fixed: dict[str, Any]) -> str:
    return (
        "from anvia_nb.widgets import form\n"
        f"{name} = form('demo.account_view', readonly_arguments={fixed!r})\n"
        f"{name}.call()\n{name}.wait()\n{name}"
    )


def test_on_a_viewer_page_a_forms_view_is_held_to_the_forms_fixed_arguments_and_hears_no_server_text(
    voila: tuple[str, Path], voila_context: Any
) -> None:
    """Issue 39: the hostile account view asks for mallory's statement and for one without an
    account, reads another view's ui:// resource and a resource the page does not offer, and makes
    calls that fail with the server's words (a path and a token); a second form's opening call fails
    with them. The account stays fixed, nothing else is read, and none of the server's text reaches
    either view or the page."""
    base, root = voila
    page = voila_context.new_page()
    cells = [
        VIEWER_SETUP_CELL,
        _called_form_cell("statement", {"account": "alice"}),
        _called_form_cell("failing", {"account": "alice", "fail": True}),
    ]
    try:
        page.goto(base + _serve(root, cells), wait_until="commit", timeout=REPORT_WAIT_MS)
        report = frame_report(page, 0)
        failed = frame_report(page, 1)
        screenshot(page, "app_frame_voila_viewer_page")
        for name in ("call_as_mallory", "call_without_account"):
            assert report[name]["structuredContent"] == {"account": "alice"}, report[name]
        assert report["call_failing"] == f"refused: -32603 account_view failed: {HIDDEN_SERVER_ERROR}"
        assert report["call_error_result"] == {
            "content": [{"type": "text", "text": HIDDEN_SERVER_ERROR}],
            "isError": True,
        }
        for name, uri in (("read_other_view", HOSTILE_APP_URI), ("read_not_offered", "demo://notes/1")):
            assert report[name] == f"refused: -32602 this page does not offer the resource {uri!r}"
        assert report["read_own_view"] == "read"
        assert failed["cancelled"] == {"reason": f"account_view failed: {HIDDEN_SERVER_ERROR}"}
        shown = json.dumps([report, failed]) + page.content()
        assert "LEAKED-ledger" not in shown and "/srv/ledger" not in shown
        assert ACCOUNT_LEAK not in shown
    finally:
        page.close()
