"""nbval settings for the notebooks: the sanitize file, and a clean environment for the kernel.

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
from support import servers_venv

SANITIZE_FILE = Path(__file__).with_name("nbval_sanitize.cfg")


def pytest_configure(config: pytest.Config) -> None:
    option = config.option
    if hasattr(option, "nbval_sanitize_with") and not option.nbval_sanitize_with:
        option.nbval_sanitize_with = str(SANITIZE_FILE)
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
