"""The notebooks rendered to HTML (nbconvert, as GitHub and nbviewer do) stay inert: server text in
outputs and in saved widget state is text, never a live script or handler."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import nbformat
import pytest

from tests.helpers.stored_notebooks import NAMES, exporter, rendered

PAYLOAD_MARKER = "__anvia_pwned"

_SCRIPT_URL = re.compile(r"\s*(javascript:|vbscript:|data:text/html)", re.IGNORECASE)


_DATA_BLOCK = re.compile(r"json|text/x-", re.IGNORECASE)


class _LiveContent(HTMLParser):
    """Collects what a browser would run: script bodies, on* handlers, srcdoc and script URLs."""

    _URL_ATTRIBUTES = ("href", "src", "action", "formaction", "xlink:href", "data")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.live: list[str] = []
        self._script_type: str | None = None
        self._script_body: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for key, value in attrs:
            value = value or ""
            script_url = key in self._URL_ATTRIBUTES and _SCRIPT_URL.match(value)
            if key.startswith("on") or key == "srcdoc" or script_url:
                self.live.append(f"<{tag} {key}={value}>")
        if tag == "script":
            self._script_type = dict(attrs).get("type") or "text/javascript"
            self._script_body = []

    def handle_data(self, data: str) -> None:
        if self._script_type is not None:
            self._script_body.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._script_type is not None:
            # A data block (the widgets' saved state is JSON in a script tag) is never run; had a
            # server's "</script>" ended it early, what follows would be a script of its own.
            if not _DATA_BLOCK.search(self._script_type):
                self.live.append(f"<script type={self._script_type}>{''.join(self._script_body)}")
            self._script_type = None


def live_content_with_marker(html: str) -> list[str]:
    parser = _LiveContent()
    parser.feed(html)
    parser.close()
    return [item for item in parser.live if PAYLOAD_MARKER in item]


def test_the_html_check_finds_a_live_payload_when_one_is_there() -> None:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x")])
    nb.cells[0].outputs = [nbformat.v4.new_output(
        "display_data", data={"text/html": f'<img src=x onerror="{PAYLOAD_MARKER}=1">', "text/plain": "x"})]
    html, _ = exporter().from_notebook_node(nb)
    assert live_content_with_marker(html)


def test_server_text_in_saved_widget_state_stays_data_unless_it_breaks_out() -> None:
    payload = f"</script><script>{PAYLOAD_MARKER}=1</script>"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x")])
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {
        "version_major": 2, "version_minor": 0,
        "state": {"m": {"model_name": "SelectModel", "state": {"_options_labels": [payload]}}}}}
    html, _ = exporter().from_notebook_node(nb)
    assert PAYLOAD_MARKER in html and live_content_with_marker(html) == []  # nbconvert writes <\/script>
    broken = f'<script type="application/vnd.jupyter.widget-state+json">{{"a": "{payload}"}}</script>'
    assert live_content_with_marker(broken)  # had it not, the check would catch the break-out


@pytest.mark.parametrize("name", NAMES)
def test_the_rendered_html_holds_no_live_script_from_a_server(name: str) -> None:
    assert live_content_with_marker(rendered(name)) == []


def test_the_hostile_payloads_are_in_the_rendered_html_as_text() -> None:
    html = rendered("04-untrusted-output.ipynb")
    assert "&lt;script&gt;window.__anvia_pwned=1&lt;/script&gt;" in html
    assert '&lt;img src=x onerror="window.__anvia_pwned=1"&gt;' in html
