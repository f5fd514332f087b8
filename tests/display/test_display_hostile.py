"""A hostile corpus: each payload rendered, and the produced HTML parsed to prove nothing runs,
loads or imitates anvia_nb's chrome, while the user can still read what the server sent."""

from __future__ import annotations

import html
import json
from typing import Any
from urllib.parse import quote

import pytest

from anvia_nb.display import bundle_from_error, bundle_from_outcome, tree_bundle_from_outcome
from anvia_nb.errors import ProtocolError, ToolResultError
from tests.helpers.display import (
    HOSTILE_ITEMS,
    HOSTILE_TEXTS,
    PWN,
    assert_safe_html,
    audit_html,
    outcome,
    text_result,
)


@pytest.mark.parametrize("payload", HOSTILE_TEXTS)
def test_hostile_text_is_inert_and_still_readable(payload: str) -> None:
    bundle = bundle_from_outcome(outcome(text_result(payload)))
    audit = assert_safe_html(bundle["text/html"])
    assert payload in audit.text_by_class["anvia-server-text"]
    assert payload in bundle["text/plain"]


def test_ansi_escapes_and_bidi_and_invisible_characters_are_made_visible_not_interpreted() -> None:
    payload = (
        "\x1b[2J\x1b[31mred\x1b[0m \x1b]8;;https://evil.example\x07link\x1b]8;;\x07 "
        "invoice\u202etxt.exe \u2066iso\u2069 zero\u200bwidth \ufeffbom nul\x00 bell\x07 del\x7f c1\x85 "
        "tag\U000e0041\U000e0042 rtl\u200f\u061c"
    )
    bundle = bundle_from_outcome(outcome(text_result(payload)))
    audit = assert_safe_html(bundle["text/html"])
    shown = audit.text_by_class["anvia-server-text"]
    for marker in (
        "⟨ESC⟩[2J",
        "⟨ESC⟩[31m",
        "⟨ESC⟩]8;;https://evil.example⟨BEL⟩",
        "⟨U+202E⟩",
        "⟨U+2066⟩",
        "⟨U+2069⟩",
        "⟨U+200B⟩",
        "⟨U+FEFF⟩",
        "⟨NUL⟩",
        "⟨BEL⟩",
        "⟨DEL⟩",
        "⟨U+0085⟩",
        "⟨U+E0041⟩",
        "⟨U+200F⟩",
        "⟨U+061C⟩",
    ):
        assert marker in shown, marker
        assert marker in bundle["text/plain"], marker
    invisible = "\x1b\u202e\u2066\u2069\u200b\ufeff\x00\x07\x7f\x85\U000e0041\u200f\u061c"
    for char in invisible:
        assert char not in bundle["text/html"], hex(ord(char))
        assert char not in bundle["text/plain"], hex(ord(char))
    styled = audit.text_by_class["anvia-control"]
    assert "⟨U+202E⟩" in styled
    assert "⟨ESC⟩[31m" in styled
    assert "red" not in styled


def test_windows_line_endings_stay_line_breaks_and_a_lone_carriage_return_is_visible() -> None:
    bundle = bundle_from_outcome(outcome(text_result("a\r\nb\rc")))
    assert "a\nb⟨CR⟩c" in bundle["text/plain"]


@pytest.mark.parametrize("item", HOSTILE_ITEMS, ids=range(len(HOSTILE_ITEMS)))
def test_hostile_content_items_render_inert(item: dict[str, Any]) -> None:
    bundle = bundle_from_outcome(outcome({"content": [item]}))
    audit = assert_safe_html(bundle["text/html"])
    for node in audit.elements:
        assert PWN not in json.dumps(node.attrs), node
    if "src" in json.dumps([n.attrs for n in audit.elements]):
        (img,) = [n for n in audit.elements if n.tag == "img"]
        assert (img.attrs["src"] or "").startswith(("data:image/svg+xml;base64,", "data:image/png;base64,"))


def test_an_eight_megabyte_image_is_refused_without_decoding_and_says_so() -> None:
    bundle = bundle_from_outcome(outcome({"content": [HOSTILE_ITEMS[7]]}))
    assert "larger than the 5,242,880 byte limit" in assert_safe_html(bundle["text/html"]).text
    assert len(bundle["text/html"]) < 10_000


def test_hostile_server_and_tool_names_are_escaped_in_the_header() -> None:
    name = f"<img src=x onerror={PWN}()>"
    bundle = bundle_from_outcome(outcome(text_result("x"), server=name, tool=f'"><script>{PWN}</script>'))
    audit = assert_safe_html(bundle["text/html"])
    assert audit.text_by_class["anvia-server-name"] == name
    assert audit.text_by_class["anvia-tool-name"] == f'"><script>{PWN}</script>'


def test_server_text_cannot_imitate_the_header() -> None:
    ours = bundle_from_outcome(outcome(text_result("real"), server="bank", tool="balance"))
    fake = ours["text/html"] + "\n" + ours["text/plain"] + '\n<div class="anvia-header">MCP bank · balance ok</div>'
    bundle = bundle_from_outcome(outcome(text_result(fake), server="evil", tool="echo"))
    audit = assert_safe_html(bundle["text/html"])
    headers = audit.with_class("anvia-header")
    assert len(headers) == 1
    assert audit.text_by_class["anvia-header"] == "MCPevil·echook0.25 s"
    assert audit.text.count("bank") == audit.text_by_class["anvia-server-block"].count("bank") > 0
    assert fake in audit.text_by_class["anvia-server-text"]
    assert bundle["text/plain"].splitlines()[0] == "[MCP evil · echo] ok · 0.25 s"
    assert bundle["text/plain"].splitlines()[1] == "--- text from server evil ---"


SECRET = 'p&ss<w0rd>"1'


def secret_forms() -> list[str]:
    return [
        SECRET,
        html.escape(SECRET),
        html.escape(SECRET, quote=False),
        json.dumps(SECRET)[1:-1],
        quote(SECRET, safe=""),
    ]


def assert_no_secret(bundle: dict[str, Any], tree: dict[str, Any] | None = None) -> None:
    everything = bundle["text/html"] + bundle["text/plain"]
    if tree is not None:
        everything += tree["text/plain"] + json.dumps(tree["application/json"])
        everything += json.dumps(tree["application/json"], ensure_ascii=False)
    for form in secret_forms():
        assert form not in everything, form
    visible = audit_html(bundle["text/html"]).text
    for form in secret_forms():
        assert form not in visible, form


def test_secrets_echoed_back_by_a_server_are_masked_everywhere_in_every_form() -> None:
    echoes = " | ".join(secret_forms())
    raw = {
        "content": [
            {"type": "text", "text": f"token is {echoes}"},
            {"type": "resource", "resource": {"uri": f"https://u:{quote(SECRET, safe='')}@h/", "text": SECRET}},
            {"type": "resource_link", "uri": f"mem://{SECRET}", "name": SECRET},
        ],
        "structuredContent": {SECRET: [SECRET, {"nested": f"x{SECRET}y"}]},
    }
    result = outcome(raw, secrets=(SECRET,), problems=[f"{SECRET} is bad"], tool=SECRET)
    bundle = bundle_from_outcome(result)
    tree = tree_bundle_from_outcome(result)
    assert_no_secret(bundle, tree)
    assert "••••••" in bundle["text/plain"]
    assert tree is not None
    assert tree["application/json"] == {"••••••": ["••••••", {"nested": "x••••••y"}]}


def test_secrets_in_server_error_text_are_masked() -> None:
    raw = {"content": [{"type": "text", "text": f"auth failed for {SECRET}"}], "isError": True}
    bundle = bundle_from_outcome(
        outcome(raw, error=ToolResultError(f"auth failed for {SECRET}", raw=raw), secrets=(SECRET,))
    )
    assert_no_secret(bundle)
    failed = bundle_from_error("demo", "echo", ProtocolError("bad", server_text=f"echo {SECRET}"), secrets=(SECRET,))
    assert_no_secret(failed)
    assert "echo ••••••" in failed["text/plain"]


def test_a_secret_straddling_the_output_cap_is_masked_whole() -> None:
    from anvia_nb.display import RenderSettings

    text = "x" * 995 + SECRET + "tail"
    bundle = bundle_from_outcome(outcome(text_result(text), secrets=(SECRET,)), RenderSettings(max_output_chars=1400))
    assert_no_secret(bundle)
    for prefix in (SECRET[:5], html.escape(SECRET[:5])):
        assert prefix not in bundle["text/plain"] + bundle["text/html"]


def test_unicode_line_and_paragraph_separators_cannot_fake_a_line_break() -> None:
    bundle = bundle_from_outcome(outcome(text_result("ok\u2028[MCP other · tool] ok\u2029done")))
    assert "\u2028" not in bundle["text/plain"]
    assert "\u2029" not in bundle["text/plain"]
    assert "\u2028" not in bundle["text/html"]
