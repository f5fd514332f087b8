"""The browser harness itself: it sees what a person sees, and it detects script that ran.

The second test is the detector's proof: JupyterLab trusts live outputs, so an `<img onerror>`
in `text/html` runs, and the harness must notice. anvia_nb's own tests rely on this detector
to show that its escaped output does NOT run.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest

from tests.helpers.lab import (
    LabServer,
    PageEvents,
    cell_output_texts,
    cell_outputs,
    eval_global,
    open_notebook,
    run_all_cells,
    screenshot,
    wait_for_global,
    write_notebook,
)

pytestmark = pytest.mark.browser


def test_run_all_shows_printed_text_and_rich_html(page: Any, jupyter_lab: LabServer, page_events: PageEvents) -> None:
    path = write_notebook(
        jupyter_lab,
        "harness_outputs.ipynb",
        ["print(1+1)", "from IPython.display import HTML; HTML('<b id=\"bold\">x</b>')"],
    )
    open_notebook(page, jupyter_lab.base_url, path, jupyter_lab.token)
    run_all_cells(page)
    screenshot(page, "harness_outputs")

    assert [text.strip() for text in cell_output_texts(page)] == ["2", "x"]
    bold = cell_outputs(page)[1].locator("b#bold")
    assert bold.count() == 1
    assert bold.evaluate("element => getComputedStyle(element).fontWeight") in ("700", "bold")
    assert page_events.page_errors == []
    assert page_events.dialogs == []


def test_harness_detects_script_that_ran_from_a_live_html_output(
    page: Any, jupyter_lab: LabServer, page_events: PageEvents
) -> None:
    path = write_notebook(
        jupyter_lab,
        "harness_detector.ipynb",
        ["from IPython.display import HTML; HTML('<img src=x onerror=\"window.__anvia_pwned=1\">')"],
    )
    open_notebook(page, jupyter_lab.base_url, path, jupyter_lab.token)
    assert eval_global(page, "window.__anvia_pwned") is None

    run_all_cells(page)

    assert wait_for_global(page, "window.__anvia_pwned") == 1
    assert eval_global(page, "window.__anvia_pwned") == 1
    screenshot(page, "harness_detector")


def test_kernel_runs_this_interpreter_without_pytest_variables(page: Any, jupyter_lab: LabServer) -> None:
    path = write_notebook(
        jupyter_lab,
        "harness_kernel.ipynb",
        ["import os, sys; print(sys.executable); print(sorted(k for k in os.environ if k.startswith('PYTEST')))"],
    )
    open_notebook(page, jupyter_lab.base_url, path, jupyter_lab.token)
    run_all_cells(page)

    assert cell_output_texts(page)[0].split() == [sys.executable, "[]"]
    kernelspecs = jupyter_lab.api("/api/kernelspecs")["kernelspecs"]
    assert list(kernelspecs) == ["python3"]
    assert kernelspecs["python3"]["spec"]["argv"][0] == sys.executable
