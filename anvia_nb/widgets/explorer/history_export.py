"""The panel's "Save as pytest": its calls written as a pytest module, as ``%mcp history --to-pytest`` does.

A file name, a button, a "replace it" box and a status line in anvia_nb's own words; the module
is made by :func:`anvia_nb.runtime.to_pytest.pytest_module` from the calls' summaries and the
connections open now (secret values are read from the environment when the test runs, never
written).

Where it may write, decided here and nowhere else:

- **For viewers** (``hide_server_errors``: a page served with Voilà) it is not offered at all: no
  widget a viewer can reach writes a file (a viewer once replaced a file outside the served folder,
  and fetched another back through Voilà's file route), and the module would show them the
  author's server command lines. ``save()`` refuses too, whatever a browser sends.
- **For the author** it writes a ``.py`` file inside the notebook's folder (the kernel's working
  directory) only: an absolute path, ``..``, or a symbolic link that leads out is refused, and an
  existing file is replaced only when "Replace it" is ticked (the box is cleared after each save).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path, PurePath

import ipywidgets as widgets

from anvia_nb.core.protocol.types import CallRecord
from anvia_nb.display.chrome import notice_html
from anvia_nb.errors import AnviaError, InvalidValueError
from anvia_nb.runtime import Runtime

__all__ = ["HistoryExport", "export_path"]

DEFAULT_FILE = "test_mcp_session.py"
NOT_FOR_VIEWERS = "Saving files is not offered on a page served to viewers."


def export_path(name: str, folder: Path | None = None) -> Path:
    """Where ``name`` may be written: a ``.py`` file inside ``folder`` (the kernel's working
    directory), resolved; else :class:`InvalidValueError` saying why, in one line."""
    base = (folder or Path.cwd()).resolve()
    text = name.strip() or DEFAULT_FILE
    given = PurePath(text)
    if given.is_absolute() or text.startswith("~") or os.path.isabs(text):
        raise InvalidValueError(f"{text!r} is an absolute path: give a file name inside the notebook's folder.")
    if ".." in given.parts:
        raise InvalidValueError(f"{text!r} leads out of the notebook's folder (..): give a file name inside it.")
    if given.suffix != ".py":
        raise InvalidValueError(f"{text!r} is not a Python file: the name must end in .py (a pytest module).")
    target = (base / given).resolve()
    if not target.is_relative_to(base) or target == base:
        raise InvalidValueError(f"{text!r} leads out of the notebook's folder (a symbolic link): give another name.")
    return target


def write_new(path: Path, source: str, *, replace: bool) -> None:
    """Write ``source`` to ``path``: a new file, or (``replace``) over an existing regular one;
    never through a symbolic link (``O_NOFOLLOW``), never over a file when not asked to."""
    flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | (os.O_TRUNC if replace else os.O_EXCL)
    descriptor = os.open(path, flags, 0o644)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(source)


class HistoryExport:
    """``.widget``: a file name, "Save as pytest", "Replace it" and what happened; ``save()`` does the same.

    ``for_viewers``: nothing is offered (``.widget`` is empty and hidden, ``save()`` refuses).
    """

    def __init__(self, runtime: Runtime, calls: Callable[[], list[CallRecord]], for_viewers: bool = False) -> None:
        self.runtime = runtime
        self.calls = calls
        self.for_viewers = for_viewers
        self.status = widgets.HTML(value="")
        if for_viewers:  # no file name, no button: nothing a browser could press or fill
            self.widget = widgets.HBox([], layout=widgets.Layout(display="none"))
            return
        self.path = widgets.Text(
            value=DEFAULT_FILE, description="Test file", tooltip="a .py file name in the notebook's folder"
        )
        self.button = widgets.Button(
            description="Save as pytest",
            icon="save",
            tooltip="write these calls as a pytest file that repeats and checks them",
        )
        self.replace = widgets.Checkbox(
            value=False, description="Replace it", indent=False, tooltip="replace the file if it exists already"
        )
        self.button.on_click(lambda _b: self.save())
        self.widget = widgets.HBox(
            [self.path, self.button, self.replace, self.status],
            layout=widgets.Layout(flex_flow="row wrap", width="100%", max_width="100%"),
        )

    def save(self) -> Path | None:
        """Write the file; the status line says where, or why not (nothing is raised into the UI)."""
        from anvia_nb.runtime.to_pytest import pytest_module, run_command

        if self.for_viewers:
            self.status.value = notice_html(NOT_FOR_VIEWERS)
            return None
        calls = self.calls()
        replace, self.replace.value = bool(self.replace.value), False  # a confirmation is for one save
        try:
            path = export_path(self.path.value)
            if path.exists() and not replace:
                self.status.value = notice_html(
                    f"Not saved: {path.name} exists. Tick “Replace it” and save again to replace it."
                )
                return None
            connections = {name: self.runtime.server(name).connection for name in self.runtime.names()}
            secrets = {name: self.runtime.server(name).secrets for name in self.runtime.names()}
            source = pytest_module(
                calls, connections, command="the panel's Save as pytest", secrets=secrets, path=str(path)
            )
            write_new(path, source, replace=replace)
        except (AnviaError, OSError) as exc:
            self.status.value = notice_html(f"Not saved: {exc}")
            return None
        shown = path.relative_to(Path.cwd().resolve())
        self.status.value = notice_html(f"Saved {len(calls)} calls to {shown}; run it with: {run_command(path)}")
        return path
