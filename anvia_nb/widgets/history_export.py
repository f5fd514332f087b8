"""The panel's "Save as pytest": its calls written as a pytest module, as ``%mcp history --to-pytest`` does.

A file name, a button and a status line in anvia_nb's own words; the module is made by
:func:`anvia_nb.runtime.to_pytest.pytest_module` from the calls' summaries and the connections
open now (secret values are read from the environment when the test runs, never written).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import ipywidgets as widgets

from anvia_nb.core.protocol.types import CallRecord
from anvia_nb.display.chrome import notice_html
from anvia_nb.errors import AnviaError
from anvia_nb.runtime import Runtime

__all__ = ["HistoryExport"]

DEFAULT_FILE = "test_mcp_session.py"


class HistoryExport:
    """``.widget``: a file name, "Save as pytest" and what happened; ``save()`` does the same."""

    def __init__(self, runtime: Runtime, calls: Callable[[], list[CallRecord]]) -> None:
        self.runtime = runtime
        self.calls = calls
        self.path = widgets.Text(value=DEFAULT_FILE, description="Test file")
        self.button = widgets.Button(description="Save as pytest", icon="save",
                                     tooltip="write these calls as a pytest file that repeats and checks them")
        self.status = widgets.HTML(value="")
        self.button.on_click(lambda _b: self.save())
        self.widget = widgets.HBox([self.path, self.button, self.status],
                                   layout=widgets.Layout(flex_flow="row wrap", width="100%", max_width="100%"))

    def save(self) -> Path | None:
        """Write the file; the status line says where, or why not (nothing is raised into the UI)."""
        from anvia_nb.runtime.to_pytest import pytest_module, run_command

        path = Path(self.path.value.strip() or DEFAULT_FILE)
        calls = self.calls()
        try:
            connections = {name: self.runtime.server(name).connection for name in self.runtime.names()}
            secrets = {name: self.runtime.server(name).secrets for name in self.runtime.names()}
            source = pytest_module(
                calls, connections, command="the panel's Save as pytest", secrets=secrets, path=str(path)
            )
            path.write_text(source, encoding="utf-8")
        except (AnviaError, OSError) as exc:
            self.status.value = notice_html(f"Not saved: {exc}")
            return None
        self.status.value = notice_html(f"Saved {len(calls)} calls to {path}; run it with: {run_command(path)}")
        return path
