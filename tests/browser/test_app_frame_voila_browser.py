"""MCP Apps in Voilà (a dashboard viewer): the view renders from the package's own JavaScript, with
nothing fetched from a CDN, and the hostile view is refused everything there as in JupyterLab.

Voilà runs every cell, shows the outputs and keeps the kernel: the view talks to it as in a notebook.
"""

from __future__ import annotations

import urllib.parse
from pathlib import Path
from typing import Any

import nbformat
import pytest

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
