"""Hostile bundles saved in a notebook stay inert when nbconvert exports it to HTML."""

from __future__ import annotations

from html.parser import HTMLParser

import nbformat
from nbconvert import HTMLExporter

from anvia_nb.display import bundle_from_error, bundle_from_outcome
from anvia_nb.errors import ProtocolError, ToolResultError
from tests.helpers.display import HOSTILE_ITEMS, HOSTILE_TEXTS, PNG, PWN, b64, outcome, text_result


class _Scripts(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.in_script = False
        self.script_bodies: list[str] = []
        self.attrs: list[tuple[str, str, str]] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs.extend((tag, name, value or "") for name, value in attrs)
        if tag == "script":
            self.in_script = True
            self.script_bodies.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self.in_script = False

    def handle_data(self, data: str) -> None:
        if self.in_script:
            self.script_bodies[-1] += data


def hostile_bundles() -> list[dict[str, object]]:
    bundles = [bundle_from_outcome(outcome(text_result(*HOSTILE_TEXTS)))]
    bundles += [bundle_from_outcome(outcome({"content": [item]})) for item in HOSTILE_ITEMS if item != HOSTILE_ITEMS[7]]
    raw = {"content": [{"type": "text", "text": f"<script>{PWN}()</script>"}], "isError": True}
    bundles.append(bundle_from_outcome(outcome(raw, error=ToolResultError("x", raw=raw))))
    bundles.append(bundle_from_error("demo", "echo", ProtocolError("bad", server_text=f"<img src=x onerror={PWN}()>")))
    bundles.append(
        bundle_from_outcome(outcome({"content": [{"type": "image", "data": b64(PNG), "mimeType": "image/png"}]}))
    )
    bundles.append(bundle_from_outcome(outcome(text_result("{}", structuredContent={"k": f"<script>{PWN}</script>"}))))
    return bundles


def test_exported_notebook_html_has_no_server_script_or_event_handler() -> None:
    notebook = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("%mcp call demo.echo {}")
    cell.outputs = [nbformat.v4.new_output("display_data", data=bundle) for bundle in hostile_bundles()]
    notebook.cells.append(cell)
    nbformat.validate(notebook)
    exported, _ = HTMLExporter().from_notebook_node(notebook)
    parser = _Scripts()
    parser.feed(exported)
    assert not [body for body in parser.script_bodies if PWN in body]
    for tag, name, value in parser.attrs:
        assert not (name.lower().startswith("on") and PWN in value), (tag, name, value)
        if name in ("src", "href") and PWN in value:
            raise AssertionError((tag, name, value))
    assert "iframe" not in parser.tags
    assert "object" not in parser.tags
    assert "embed" not in parser.tags
    assert PWN in exported  # the payloads are there, as text
