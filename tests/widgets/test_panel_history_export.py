"""The panel's "Save as pytest": the calls made from it, written as a test file."""

from __future__ import annotations

from pathlib import Path

from anvia_nb import mcp
from anvia_nb.demo_server.handlers import build_server
from anvia_nb.runtime import Runtime
from anvia_nb.widgets import panel
from tests.helpers.support import WAIT_SECONDS


def call_add(runtime: Runtime) -> object:
    explorer = panel(runtime=runtime)
    explorer.tools.value = "add"
    add = explorer.form
    assert add is not None
    add.arguments.field("a").input.value = "2"
    add.arguments.field("b").input.value = "3"
    add.call_button.click()
    assert add.wait(WAIT_SECONDS) is not None
    return explorer


def test_save_as_pytest_writes_the_panels_calls(runtime: Runtime, tmp_path: Path, demo_http_url: str) -> None:
    runtime.connect(mcp.http(name="demo", url=demo_http_url))
    explorer = call_add(runtime)
    explorer.export.path.value = str(tmp_path / "test_panel.py")  # type: ignore[attr-defined]
    explorer.export.button.click()  # type: ignore[attr-defined]
    source = (tmp_path / "test_panel.py").read_text(encoding="utf-8")
    assert "runtime.call('demo', 'add', {'a': 2, 'b': 3})" in source
    assert "assert outcome.structured == {'sum': 5}" in source
    assert "Saved 1 calls to" in explorer.export.status.value  # type: ignore[attr-defined]


def test_an_in_memory_connection_is_not_saved_and_the_status_says_why(runtime: Runtime, tmp_path: Path) -> None:
    runtime.connect(mcp.memory(name="demo", server=build_server()))
    explorer = call_add(runtime)
    explorer.export.path.value = str(tmp_path / "test_memory.py")  # type: ignore[attr-defined]
    explorer.export.button.click()  # type: ignore[attr-defined]
    assert not (tmp_path / "test_memory.py").exists()
    assert "Not saved: demo is an in-memory connection" in explorer.export.status.value  # type: ignore[attr-defined]
