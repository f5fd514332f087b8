"""The panel's "Save as pytest": the calls made from it, written as a test file, only inside the
notebook's folder (the kernel's working directory), never over a file unasked, never for viewers."""

from __future__ import annotations

from pathlib import Path

import pytest

from anvia_nb import mcp
from anvia_nb.demo_server.handlers import build_server
from anvia_nb.display import RenderSettings
from anvia_nb.runtime import Runtime
from anvia_nb.widgets import panel
from anvia_nb.widgets.explorer.panel import Panel
from tests.helpers.waiting import WAIT_SECONDS


def call_add(runtime: Runtime, settings: RenderSettings | None = None) -> Panel:
    explorer = panel(runtime=runtime, settings=settings)
    explorer.tools.value = "add"
    add = explorer.form
    assert add is not None
    add.arguments.field("a").input.value = "2"
    add.arguments.field("b").input.value = "3"
    add.call_button.click()
    assert add.wait(WAIT_SECONDS) is not None
    return explorer


def save(explorer: Panel, name: str) -> str:
    explorer.export.path.value = name
    explorer.export.button.click()
    return str(explorer.export.status.value)


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The notebook's folder: the kernel's working directory."""
    inside = tmp_path / "notebook"
    inside.mkdir()
    monkeypatch.chdir(inside)
    return inside


def test_save_as_pytest_writes_the_panels_calls(runtime: Runtime, folder: Path, demo_http_url: str) -> None:
    runtime.connect(mcp.http(name="demo", url=demo_http_url))
    explorer = call_add(runtime)
    status = save(explorer, "test_panel.py")
    source = (folder / "test_panel.py").read_text(encoding="utf-8")
    assert "runtime.call('demo', 'add', {'a': 2, 'b': 3})" in source
    assert "assert outcome.structured == {'sum': 5}" in source
    assert "Saved 1 calls to test_panel.py" in status
    (folder / "tests").mkdir()
    assert "Saved 1 calls to tests/test_panel.py" in save(explorer, "tests/test_panel.py")


def test_an_in_memory_connection_is_not_saved_and_the_status_says_why(runtime: Runtime, folder: Path) -> None:
    runtime.connect(mcp.memory(name="demo", server=build_server()))
    explorer = call_add(runtime)
    status = save(explorer, "test_memory.py")
    assert not (folder / "test_memory.py").exists()
    assert "Not saved: demo is an in-memory connection" in status


def test_a_path_out_of_the_notebooks_folder_is_refused(
    runtime: Runtime, folder: Path, tmp_path: Path, demo_http_url: str
) -> None:
    runtime.connect(mcp.http(name="demo", url=demo_http_url))
    explorer = call_add(runtime)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "victim.py").write_text("kept", encoding="utf-8")
    (folder / "escape").symlink_to(outside, target_is_directory=True)
    (folder / "link.py").symlink_to(outside / "victim.py")
    for name, why in [
        (str(outside / "victim.py"), "is an absolute path"),
        ("~/victim.py", "is an absolute path"),
        ("../outside/victim.py", "leads out of the notebook's folder (..)"),
        ("escape/victim.py", "leads out of the notebook's folder (a symbolic link)"),
        ("link.py", "leads out of the notebook's folder (a symbolic link)"),
        ("leak.png", "is not a Python file"),
    ]:
        explorer.export.replace.value = True  # not even a confirmed replace goes out
        status = save(explorer, name)
        assert "Not saved" in status and why in status, (name, status)
    assert (outside / "victim.py").read_text(encoding="utf-8") == "kept"
    assert sorted(p.name for p in outside.iterdir()) == ["victim.py"]
    assert not list(folder.glob("*.png"))


def test_an_existing_file_is_replaced_only_when_confirmed(runtime: Runtime, folder: Path, demo_http_url: str) -> None:
    runtime.connect(mcp.http(name="demo", url=demo_http_url))
    explorer = call_add(runtime)
    (folder / "test_mine.py").write_text("# mine\n", encoding="utf-8")
    status = save(explorer, "test_mine.py")
    assert "Not saved: test_mine.py exists" in status and "Replace it" in status
    assert (folder / "test_mine.py").read_text(encoding="utf-8") == "# mine\n"
    explorer.export.replace.value = True
    assert "Saved 1 calls" in save(explorer, "test_mine.py")
    assert "runtime.call('demo', 'add'" in (folder / "test_mine.py").read_text(encoding="utf-8")
    assert explorer.export.replace.value is False  # a confirmation is for one save
    (folder / "test_mine.py").write_text("# mine again\n", encoding="utf-8")
    assert "exists" in save(explorer, "test_mine.py")
    assert (folder / "test_mine.py").read_text(encoding="utf-8") == "# mine again\n"


def test_for_viewers_nothing_that_writes_files_is_offered(runtime: Runtime, folder: Path, demo_http_url: str) -> None:
    runtime.connect(mcp.http(name="demo", url=demo_http_url))
    explorer = call_add(runtime, RenderSettings(hide_server_errors=True))
    export = explorer.export
    assert export.widget.children == () and export.widget.layout.display == "none"
    assert not hasattr(export, "button") and not hasattr(export, "path")
    assert export.save() is None
    assert "not offered on a page served to viewers" in export.status.value
    assert list(folder.iterdir()) == []
