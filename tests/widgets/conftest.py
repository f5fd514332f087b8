"""A fresh runtime with the demo server connected in memory, for the form and elicitation tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from anvia_nb import mcp
from anvia_nb.demo_server.handlers import build_server
from anvia_nb.runtime import Runtime
from anvia_nb.widgets.tool_form import forget_arguments


@pytest.fixture
def runtime() -> Iterator[Runtime]:
    forget_arguments()
    rt = Runtime()
    try:
        rt.connect(mcp.memory(name="demo", server=build_server()))
        yield rt
    finally:
        rt.shutdown()
        forget_arguments()
