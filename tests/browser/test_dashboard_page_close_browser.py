"""A dashboard page that a viewer leaves shuts its kernel at once, and the MCP servers that kernel
started stop with it: the page's shutdown request carries the ``_xsrf`` cookie, which
anvia_nb.dashboard_kernels has Voilà set (Voilà's own page never does, so the request was refused and
only the culler freed the kernel, 20 to 50 s later). Culling is turned off here, so only the page's
request can free the kernel."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nbformat
import pytest

from tests.helpers.support import REPO
from tests.helpers.voila import serve_dashboard
from tests.helpers.waiting import wait_until

pytestmark = pytest.mark.browser

WAIT_MS = 120_000  # a kernel and a demo server: generous on a busy machine
FREED_SECONDS = 120.0  # proves only that it happens without the culler, not how fast
PAGE = (
    f"%load_ext anvia_nb\n%mcp connect demo --cwd {REPO} --stdio python -m anvia_nb.demo_server\nprint('END-OF-PAGE')"
)


def test_leaving_a_dashboard_page_shuts_its_kernel_and_its_servers(tmp_path: Path, voila_context: Any) -> None:
    with serve_dashboard(tmp_path, "--MappingKernelManager.cull_idle_timeout=0") as voila:
        notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(PAGE)])
        notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        nbformat.write(notebook, str(voila.root / "page.ipynb"))
        page = voila_context.new_page()
        try:
            page.goto(voila.base_url + "/voila/render/page.ipynb", wait_until="commit", timeout=WAIT_MS)
            page.get_by_text("END-OF-PAGE").first.wait_for(timeout=WAIT_MS)
            assert "_xsrf" in {cookie["name"] for cookie in voila_context.cookies()}
            assert len(voila.descendants()) >= 2  # the kernel and the demo server it started
            page.goto("about:blank")  # the viewer leaves: the page sends its shutdown request
            wait_until(lambda: not voila.descendants(), "the kernel and its server to stop", seconds=FREED_SECONDS)
            assert "Kernel shutdown" in voila.log()
        finally:
            page.close()
