"""nbval settings for the notebooks: the sanitize file, and a clean environment for the kernel.

nbval starts each notebook's kernel during the first cell's setup, when pytest has set
``PYTEST_CURRENT_TEST``; the kernel would inherit it and anything that reads it could print
differently from the stored run. The hook below removes it just before that setup (pytest sets it
again for the next phase, and removes it at the end).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SANITIZE_FILE = Path(__file__).with_name("nbval_sanitize.cfg")


def pytest_configure(config: pytest.Config) -> None:
    option = config.option
    if hasattr(option, "nbval_sanitize_with") and not option.nbval_sanitize_with:
        option.nbval_sanitize_with = str(SANITIZE_FILE)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.nodeid.split("::", 1)[0].endswith(".ipynb"):
        os.environ.pop("PYTEST_CURRENT_TEST", None)
