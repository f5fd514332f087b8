"""What a result looks like stays exactly what it was: the bundle of each result below, ordinary and
hostile, in default and viewer settings, is compared byte for byte with the one stored in
``bundles_as_shown.json`` (made by the renderer before issue 41 made it cheaper). A change meant to
alter what a person sees rewrites that file::

    ANVIA_WRITE_BUNDLES=1 python -m pytest tests/display/test_display_bundles_as_shown.py
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from anvia_nb.core.protocol.types import CallOutcome
from anvia_nb.display import RenderSettings, ResultView, bundle_from_error
from anvia_nb.errors import OutputSchemaError, ProtocolError, ToolResultError, ToolTimeoutError, UnsupportedContentError
from tests.helpers.display import HOSTILE_ITEMS, HOSTILE_TEXTS, PNG, b64, outcome, text_result

STORED = Path(__file__).with_name("bundles_as_shown.json")
SECRET = "sk-live-a1b2c3d4e5f6"
SETTINGS = {
    "default": RenderSettings(),
    "viewer": RenderSettings(hide_server_errors=True),
    "small": RenderSettings(max_output_chars=60, preview_chars=10, max_image_bytes=10),
}


def _results() -> Iterator[tuple[str, CallOutcome]]:
    ok = {"content": [{"type": "text", "text": "hi"}], "isError": False, "resultType": "complete"}
    yield "echo", outcome(ok, output="hi")
    for index, text in enumerate(HOSTILE_TEXTS):
        yield f"hostile text {index}", outcome(text_result(text))
    for index, item in enumerate(HOSTILE_ITEMS):
        if len(json.dumps(item)) < 10_000:  # the 8 MB image is refused by its size: not stored
            yield f"hostile item {index}", outcome({"content": [item]})
    yield "secret", outcome(text_result(f"key={SECRET} and again {SECRET}"), secrets=(SECRET,))
    yield "secret split across texts", outcome(text_result("key=sk-live-a1b2", "c3d4e5f6 tail"), secrets=(SECRET,))
    yield "cut", outcome(text_result("x" * 200 + "<b>"))
    yield "escapes", outcome(text_result("\x1b[31mred\x1b[0m a\r\nb\rc \u202eevil" + "\x1b" * 20))
    yield "many items", outcome(text_result(*[f"t{i}" for i in range(12)]))
    structured = {"a": [1, 2.5, None, True, "<b>"], "k" * 90: "v", "deep": [[[[[[[[[[[["x"]]]]]]]]]]]]}
    yield "structured", outcome({"content": [], "structuredContent": structured}, problems=["'a' is bad <x>"])
    yield (
        "structured ok",
        outcome({"content": [{"type": "text", "text": "{}"}], "structuredContent": {"a": 1}}, problems=[]),
    )
    boom = ToolResultError("MCP tool returned an error", server_text="boom <b>")
    yield "tool error", outcome({"content": [{"type": "text", "text": "boom <b>"}], "isError": True}, error=boom)
    yield (
        "tool error, no content",
        outcome({"content": [], "isError": True}, error=ToolResultError("MCP tool returned an error")),
    )
    yield "timeout", outcome(None, error=ToolTimeoutError("demo.echo timed out after 1 s"))
    yield "no result", outcome(None)
    yield "input required", outcome({"resultType": "input_required", "inputRequests": {}})
    links = [{"type": "resource_link", "uri": f"file:///{n}", "name": n} for n in "ab"]
    yield (
        "links",
        outcome({"content": links}, error=UnsupportedContentError("Unsupported MCP tool result content type")),
    )
    yield "toolResult", outcome({"toolResult": {"x": "<y>"}})
    yield "toolResult text", outcome({"toolResult": "plain <y>"})
    yield "image", outcome({"content": [{"type": "image", "mimeType": "image/png", "data": b64(PNG)}]})
    yield "names", outcome(text_result("ok"), server="s<e>\u202erv", tool="t\x1bool" + "n" * 200, seconds=123.456)
    said = ProtocolError("JSON-RPC error -32000: bad <thing>", server_text=f"bad <thing> {SECRET}")
    yield "protocol error", outcome(None, error=said, secrets=(SECRET,))
    mismatch = OutputSchemaError("mismatch", ["'a' wrong"])
    yield (
        "schema mismatch",
        outcome({"content": [], "structuredContent": {"a": "x"}}, error=mismatch, problems=["'a' wrong"]),
    )
    yield "replayed", replace(outcome(text_result("replayed")), origin="replayed from /tmp/x <y>.jsonl")
    yield "empty", outcome({"content": []})


# Beside the defaults: viewer mode where a result has server error text, small limits where a
# result is long enough to be cut.
ALSO = {
    "viewer": ("echo", "tool error", "tool error, no content", "timeout", "protocol error", "schema mismatch"),
    "small": ("cut", "escapes", "many items", "structured", "image", "secret", "hostile item 9", "hostile item 10"),
}


def _shown() -> dict[str, Any]:
    shown: dict[str, Any] = {}
    for setting, settings in SETTINGS.items():
        for name, result in _results():
            if setting in ALSO and name not in ALSO[setting]:
                continue
            view = ResultView(result, settings)
            tree = view.tree()
            shown[f"{setting}: {name}"] = {
                "bundle": view._repr_mimebundle_(),
                "tree": None if tree is None else tree._repr_mimebundle_(),
                "repr": repr(view),
            }
            if result.error is not None:
                error = bundle_from_error(result.server, result.tool, result.error, result.secrets, settings)
                shown[f"{setting}: {name}, no outcome"] = error
    return shown


def test_every_result_is_shown_byte_for_byte_as_stored() -> None:
    shown = json.loads(json.dumps(_shown()))  # as stored: tuples are lists
    if os.environ.get("ANVIA_WRITE_BUNDLES"):
        STORED.write_text(json.dumps(shown, indent=1, ensure_ascii=False, sort_keys=True) + "\n")
    stored = json.loads(STORED.read_text())
    assert sorted(shown) == sorted(stored)
    for name, value in shown.items():
        assert value == stored[name], name


@pytest.mark.parametrize("name", ["default: echo", "default: hostile text 0", "viewer: tool error"])
def test_the_stored_bundles_are_results_a_person_reads(name: str) -> None:
    stored = json.loads(STORED.read_text())[name]["bundle"]
    assert stored["text/html"].startswith('<div class="anvia-result tex2jax_ignore mathjax_ignore">')
    assert "<script>" not in stored["text/html"]
