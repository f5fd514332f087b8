"""Helpers that drive Jupyter Notebook 7 (the ``notebook`` package) the way a person does, for browser tests.

Notebook 7 is JupyterLab's components in a one-document page, served by the same Jupyter server at
``/notebooks/<path>`` (and its file browser at ``/tree``). Selectors were measured against Notebook
7.6 on JupyterLab 4.6 components: the page holds one notebook, a ``.jp-NotebookPanel`` in
``#main-panel``, with no tab bar; the top bar shows the notebook's name without ``.ipynb`` in
``#jp-title h1`` (the token leaves the address once the page has read it); the menu bar (File, Edit,
View, Run, Kernel, Settings, Help) is Lumino's, as in JupyterLab (``.lm-MenuBar-item``, entries
``.lm-Menu-item``); the notebook's toolbar (``.jp-NotebookPanel-toolbar``) ends with the kernel's
name (``.jp-KernelName``) and the ``.jp-Notebook-ExecutionIndicator`` whose ``data-status`` is the
kernel's state. Cells, prompts (``[ ]:``, ``[*]:`` while queued or running, ``[n]:`` after) and
outputs (``.jp-OutputArea-output``) are JupyterLab's. Every wait here is bounded, waits on a
condition, and raises with what it saw.
"""

from __future__ import annotations

import re
import urllib.parse
from pathlib import PurePosixPath
from typing import Any

from tests.helpers.lab import LabServer, accept_kernel_dialog, click_menu, kernel_state, wait_js
from tests.helpers.waiting import wait_until

OPEN_TIMEOUT_SECONDS = 60.0
RUN_TIMEOUT_SECONDS = 120.0

# What the page shows: the notebook's title, its cells and prompts, the kernel's name and state,
# an open dialog, and the text of error outputs (a cell that raised).
_VIEW_JS = """() => {
  const panel = document.querySelector('#main-panel .jp-NotebookPanel');
  const title = document.querySelector('#jp-title h1');
  const dialog = [...document.querySelectorAll('.jp-Dialog')].find(d => d.checkVisibility());
  if (!panel) return {title: title ? title.textContent : null, cells: 0, prompts: [], status: null,
                      kernel: null, dialog: dialog ? dialog.innerText : null, errors: []};
  const indicator = panel.querySelector('.jp-NotebookPanel-toolbar .jp-Notebook-ExecutionIndicator');
  const kernel = panel.querySelector('.jp-NotebookPanel-toolbar .jp-KernelName');
  return {
    title: title ? title.textContent : null,
    cells: panel.querySelectorAll('.jp-Notebook .jp-Cell').length,
    prompts: [...panel.querySelectorAll('.jp-CodeCell .jp-InputPrompt')].map(p => p.textContent.trim()),
    status: indicator ? indicator.dataset.status : null,
    kernel: kernel ? kernel.textContent.trim() : null,
    dialog: dialog ? dialog.innerText : null,
    errors: [...panel.querySelectorAll('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')]
      .map(o => o.innerText.slice(-2000)),
  };
}"""

# The notebook `title` shows its cells with an idle kernel, or a dialog asks something.
_OPEN_OR_ASKING_JS = f"""(title) => {{
  const view = ({_VIEW_JS})();
  return view.dialog !== null || (view.title === title && view.cells > 0 && view.status === 'idle');
}}"""

# Run All is over: the kernel is idle and no prompt reads [*], and the prompts changed since the
# click (so the run began): either every cell has its number, or a cell raised and the run stopped.
_RUN_OVER_JS = f"""(before) => {{
  const view = ({_VIEW_JS})();
  return view.status === 'idle' && view.prompts.every(p => !p.includes('*'))
    && JSON.stringify(view.prompts) !== JSON.stringify(before);
}}"""

_NUMBERED = re.compile(r"^\[\d+\]:$")

NOTEBOOK7_LOAD_ERRORS = frozenset(
    {
        "Cannot read properties of undefined (reading 'schema')",
        "Command 'filebrowser:open-path' not registered.",
    }
)
"""Page errors Notebook 7.6.5 raises itself while it loads any notebook, one with only ``print('hi')``
too, with or without this lab's disabled plugins and settings. JupyterLab's shortcuts plugin reads its
own settings while they reload (``t.plugins[W.id].schema`` in notebook_core.js); and on a busy
machine the file browser's restore, run when the router has routed, asks to open the page's path
with a command the notebook page never registers (only the /tree page does). Neither can come from
a notebook's outputs: the notebooks these tests open have none when they load."""


def page_errors_not_of_notebook7(errors: list[str]) -> list[str]:
    """The uncaught page errors left once Notebook 7's own load errors are set aside."""
    return [error for error in errors if error not in NOTEBOOK7_LOAD_ERRORS]


def notebook7_url(server: LabServer, path: str) -> str:
    """The address of ``path`` (under the server's root) in Notebook 7, with the server's token."""
    return f"{server.base_url}/notebooks/{urllib.parse.quote(path)}?token={urllib.parse.quote(server.token)}"


def notebook7_view(page: Any) -> dict[str, Any]:
    """What the page shows: ``title``, ``cells``, code ``prompts``, kernel ``status`` and ``kernel`` name,
    ``dialog``, and the text of stderr outputs (``errors``)."""
    view: dict[str, Any] = page.evaluate(_VIEW_JS)
    return view


def open_notebook7(page: Any, server: LabServer, path: str, timeout_seconds: float = OPEN_TIMEOUT_SECONDS) -> None:
    """Load ``path`` in Notebook 7 and wait until its title and cells show and its kernel is idle.

    Idle is read twice: from the toolbar's indicator (what a person sees) and from the REST API
    (the notebook's session, then its kernel). A "Select Kernel" dialog is answered with the
    default kernel. Give each notebook a page (a browser tab) of its own, as Notebook 7's file
    browser does: a page showing a notebook with unsaved changes asks before it leaves
    (``beforeunload``), and the test pages dismiss that question, which aborts this load.
    """
    page.goto(notebook7_url(server, path))
    title = PurePosixPath(path).name.removesuffix(".ipynb")

    def open_and_idle() -> bool:
        if not wait_js(page, _OPEN_OR_ASKING_JS, title, timeout_seconds):
            return False
        if notebook7_view(page)["dialog"] is not None:
            accept_kernel_dialog(page)
            return False
        return kernel_state(server.base_url, server.token, path) == "idle"  # the REST view lags the page

    wait_until(
        open_and_idle,
        lambda: f"{path} to open in Notebook 7 with an idle kernel; last: {notebook7_view(page)}",
        seconds=timeout_seconds,
    )


def run_all_cells7(page: Any, timeout_seconds: float = RUN_TIMEOUT_SECONDS) -> None:
    """Run > Run All Cells, then wait until every code cell has finished (its prompt reads ``[n]:``).

    A cell that raises stops the run (Notebook 7's own behaviour): that raises here, with the
    prompts and the error outputs the page shows.
    """
    before = notebook7_view(page)
    if not before["cells"]:
        raise RuntimeError(f"no notebook to run: {before}")
    click_menu(page, "Run", "Run All Cells")
    if not wait_js(page, _RUN_OVER_JS, before["prompts"], timeout_seconds):
        raise TimeoutError(f"cells still running after {timeout_seconds} s: {notebook7_view(page)}")
    after = notebook7_view(page)
    if not all(_NUMBERED.match(prompt) for prompt in after["prompts"]):
        raise AssertionError(f"not every cell ran: prompts {after['prompts']}, errors {after['errors']}")


def cell(page: Any, index: int) -> Any:
    """A locator of the notebook's cell ``index`` (from 0, markdown cells included)."""
    return page.locator("#main-panel .jp-NotebookPanel .jp-Notebook .jp-Cell").nth(index)


def cell_output(page: Any, index: int) -> Any:
    """A locator of cell ``index``'s output area (every output the cell shows)."""
    return cell(page, index).locator(".jp-OutputArea")


def cell_output_text(page: Any, index: int) -> str:
    """The text a person reads in cell ``index``'s outputs."""
    text: str = cell_output(page, index).inner_text()
    return text
