"""What the SDK builds on a process's first ``tools/call`` is built by ``prepare_sdk_calls`` (which
every connect runs while its server starts), in a fresh process where nothing built it."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import mcp_types
from mcp_types import methods
from anvia_nb.core.transport.sdk.protocol import prepare_sdk_calls
assert not mcp_types.CallToolRequest.__pydantic_complete__, "already built: this test proves nothing"
before = methods._adapter.cache_info().currsize
prepare_sdk_calls()
assert mcp_types.CallToolRequest.__pydantic_complete__
assert methods._adapter.cache_info().currsize > before
prepare_sdk_calls()  # idempotent
print("ok")
"""


def test_the_first_calls_models_are_built_ahead() -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120, check=False)
    assert done.stdout.strip() == "ok", done.stderr[-2000:]
