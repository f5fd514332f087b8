"""anvia_nb's own chrome (tool header, warnings, request header) is built in the display layer,
escaped, masked and bounded; the widgets only place it."""

from __future__ import annotations

import ast
from pathlib import Path

from anvia_nb.core.protocol.types import ToolInfo
from anvia_nb.display import (
    destructive_warning_html,
    hints_text,
    is_destructive,
    notice_html,
    request_header_html,
    server_text_html,
    tool_header_html,
)
from anvia_nb.display.chrome import DESCRIPTION_CHARS

SECRET = "sk-chrome-7f3a9c"
HOSTILE = ToolInfo(
    server="srv<img src=x onerror=alert(1)>" + SECRET,
    name="t\u202eool",
    title="Title\x1b[31m" + SECRET,
    description="<script>alert(1)</script>" + "d" * 50_000 + SECRET,
    input_schema={"type": "object"},
    annotations={"destructiveHint": True, "idempotentHint": False},
)


def test_the_tool_header_escapes_masks_and_marks_every_server_string() -> None:
    markup = tool_header_html(HOSTILE, (SECRET,))
    assert "<script" not in markup and "<img" not in markup
    assert SECRET not in markup
    assert "\u202e" not in markup and "\x1b" not in markup
    assert "⟨U+202E⟩" in markup and "⟨ESC⟩[31m" in markup
    assert "hints from the server: destructive, not idempotent" in markup


def test_the_tool_header_bounds_a_huge_description() -> None:
    assert len(tool_header_html(HOSTILE, (SECRET,))) < DESCRIPTION_CHARS + 3_000


def test_the_destructive_warning_appears_only_for_an_explicit_destructive_hint() -> None:
    assert is_destructive(HOSTILE)
    warning = destructive_warning_html(HOSTILE, (SECRET,))
    assert "Warning: destructive tool." in warning and SECRET not in warning and "<img" not in warning
    quiet = ToolInfo(server="s", name="t", input_schema={"type": "object"})
    assert destructive_warning_html(quiet) == "" and hints_text(quiet) == ""


def test_request_header_and_server_text_mask_the_server_and_its_text() -> None:
    header = request_header_html("evil<b>" + SECRET, "url", (SECRET,))
    assert "asks you to visit a URL" in header and SECRET not in header and "evil<b>" not in header
    assert "evil&lt;b&gt;" in header
    block = server_text_html("URL", "https://x/?k=" + SECRET + "\x07", (SECRET,), 200)
    assert SECRET not in block and "\x07" not in block and "⟨BEL⟩" in block


def test_a_notice_is_escaped_too() -> None:
    markup = notice_html("<i>x</i>")
    assert "<i>" not in markup and "&lt;i&gt;x&lt;/i&gt;" in markup


def test_no_widget_module_imports_a_private_display_module() -> None:
    widgets = Path(__file__).parents[2] / "anvia_nb" / "widgets"
    private: list[str] = []
    for path in sorted(widgets.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = (
                [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else ([alias.name for alias in node.names] if isinstance(node, ast.Import) else [])
            )
            private += [f"{path.name}: {name}" for name in names if name.startswith("anvia_nb.display._")]
    assert private == []
