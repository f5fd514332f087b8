"""nbval settings for the notebooks: which notebooks are the project's, the sanitize file, and a
clean environment for the kernel.

Only the project's notebooks are tested: those git tracks (or has staged), or, outside a git
checkout, those named like ``01-quickstart.ipynb`` (tests/helpers/project_notebooks.py, the one rule
the tests of the stored notebooks follow too). A notebook a person saves in this folder while
working in it (``Untitled.ipynb``, ``01-quickstart-Copy1.ipynb``) is theirs, not a test.

nbval starts each notebook's kernel in the notebook collector's ``setup``, which pytest runs after
setting ``PYTEST_CURRENT_TEST``; the kernel would inherit it, and anything that reads it could behave
differently from the stored run. The wrapper below starts the kernel without it.

``05-real-servers.ipynb`` replays recordings of MCP servers from PyPI (``LIVE = False``), so it runs
with no server installed, as on Binder; set live, it would use the ones scripts/setup-test
installed (``ANVIA_NB_SERVERS_VENV`` tells its first cell where) and install nothing under test.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.project_notebooks import is_project_notebook
from tests.helpers.support import servers_venv

SANITIZE_FILE = Path(__file__).with_name("nbval_sanitize.cfg")
_NBVAL_STARTUP_DEFAULT = 60
KERNEL_STARTUP_SECONDS = 240.0


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if collection_path.suffix == ".ipynb" and collection_path.parent == Path(__file__).parent:
        return not is_project_notebook(collection_path) or None
    return None


def pytest_configure(config: pytest.Config) -> None:
    option = config.option
    if hasattr(option, "nbval_sanitize_with") and not option.nbval_sanitize_with:
        option.nbval_sanitize_with = str(SANITIZE_FILE)
    if getattr(option, "nbval_kernel_startup_timeout", None) == _NBVAL_STARTUP_DEFAULT:
        # A kernel that takes a minute to start is a busy machine, not a broken notebook: seen
        # with a load average of 11 on 2 cores. The bound stays, only further away.
        option.nbval_kernel_startup_timeout = KERNEL_STARTUP_SECONDS
    os.environ["ANVIA_NB_SERVERS_VENV"] = str(servers_venv())  # the kernels inherit it


def _without_pytest_current_test(setup: Callable[[], Any]) -> Callable[[], Any]:
    def start_kernel() -> Any:
        saved = os.environ.pop("PYTEST_CURRENT_TEST", None)
        try:
            return setup()
        finally:
            if saved is not None:
                os.environ["PYTEST_CURRENT_TEST"] = saved

    return start_kernel


def pytest_collectstart(collector: pytest.Collector) -> None:
    if type(collector).__name__ == "IPyNbFile":  # nbval's notebook collector
        collector.setup = _without_pytest_current_test(collector.setup)  # type: ignore[method-assign]


_SHOWN_CHARS = 1_500


def _described(output: Any) -> str:
    """One output of a cell as a failure report shows it: its kind and its text, cut."""
    kind = output.get("output_type", "?")
    if kind == "stream":
        return f"stream {output.get('name')}: {str(output.get('text', ''))[:_SHOWN_CHARS]!r}"
    if kind == "error":
        return f"error {output.get('ename')}: {str(output.get('evalue', ''))[:_SHOWN_CHARS]!r}"
    text = output.get("data", {}).get("text/plain", "")
    return f"{kind}: {str(text)[:_SHOWN_CHARS]!r}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A failed cell's report also lists what the cell did output (nbval shows only the first
    difference): a failure on a busy CI machine then says what happened instead."""
    outcome = yield
    report = outcome.get_result()
    outputs = getattr(item, "test_outputs", None)
    if report.when == "call" and report.failed and type(item).__name__ == "IPyNbCell" and outputs is not None:
        lines = [f"the cell ran for {call.duration:.1f} s"]
        lines += [_described(output) for output in outputs] or ["(no output)"]
        report.sections.append(("outputs of this run", "\n".join(lines)))
