"""nbval settings for the notebooks: the sanitize file, and a clean environment for the kernel.

nbval starts each notebook's kernel in the notebook collector's ``setup``, which pytest runs after
setting ``PYTEST_CURRENT_TEST``; the kernel would inherit it, and anything that reads it could behave
differently from the stored run. The wrapper below starts the kernel without it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

SANITIZE_FILE = Path(__file__).with_name("nbval_sanitize.cfg")


def pytest_configure(config: pytest.Config) -> None:
    option = config.option
    if hasattr(option, "nbval_sanitize_with") and not option.nbval_sanitize_with:
        option.nbval_sanitize_with = str(SANITIZE_FILE)


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
