"""``demo_runtime``: a fresh runtime with the demo server connected in memory as ``demo``, for the form
and elicitation tests (``runtime``, from tests/conftest.py, is the same without a connection)."""

from __future__ import annotations

import pytest

from anvia_nb import mcp
from anvia_nb.demo_server.handlers import build_server
from anvia_nb.runtime import Runtime


@pytest.fixture
def demo_runtime(runtime: Runtime) -> Runtime:
    runtime.connect(mcp.memory(name="demo", server=build_server()))
    return runtime
