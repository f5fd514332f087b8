"""One ShowPolicy decides what may be shown: the same secrets masked in all their forms on every
surface, a limit that counts what the server sent, an exact count of what was cut, one notation
for control characters, and one place deciding whether server error text is hidden."""

from __future__ import annotations

import html
import json
from urllib.parse import quote

import pytest

from anvia_nb.core.api.factories import mcp
from anvia_nb.core.protocol.content import KINDS, UNSUPPORTED_KINDS
from anvia_nb.core.protocol.mapping import output_from_result
from anvia_nb.core.protocol.types import ToolInfo
from anvia_nb.display import (
    RenderSettings,
    ResultView,
    bundle_from_outcome,
    model_context_from_outcome,
    server_text_html,
    tool_header_html,
    tree_bundle_from_outcome,
)
from anvia_nb.errors import ArgumentError, ProtocolError, ToolResultError, UnsupportedContentError
from anvia_nb.policy import HIDDEN_SERVER_ERROR, MASK, ShowPolicy
from tests.helpers.display import assert_safe_html, outcome, text_result

SECRET = 'p&ss"wörd/ü <x>'
VARIANTS = {
    "as is": SECRET,
    "HTML-escaped": html.escape(SECRET, quote=True),
    "HTML-escaped, quotes kept": html.escape(SECRET, quote=False),
    "JSON-escaped": json.dumps(SECRET)[1:-1],
    "JSON-escaped, Unicode kept": json.dumps(SECRET, ensure_ascii=False)[1:-1],
    "URL-encoded": quote(SECRET, safe=""),
}
# What a leak could look like once a rendering escaped it again.
LEAKS = {SECRET, html.escape(SECRET), "wörd/ü", "w&#246;rd", "w%C3%B6rd", "w\\u00f6rd"}


def leaked(rendering: str) -> set[str]:
    return {leak for leak in LEAKS if leak in rendering}


@pytest.mark.parametrize("form", list(VARIANTS))
def test_every_form_of_a_secret_is_masked_on_every_display_surface(form: str) -> None:
    echoed = f"before {VARIANTS[form]} after"
    raw = text_result(echoed, structuredContent={echoed: [echoed]})
    result = outcome(raw, secrets=(SECRET,), server="srv" + VARIANTS[form], tool="t" + VARIANTS[form], problems=[])
    bundle = bundle_from_outcome(result)
    tree = tree_bundle_from_outcome(result)
    assert tree is not None
    info = ToolInfo(server="srv", name="t", title=echoed, description=echoed)
    surfaces = {
        "result html": assert_safe_html(bundle["text/html"]).text,
        "result plain": bundle["text/plain"],
        "json tree": json.dumps(tree["application/json"], ensure_ascii=False) + tree["text/plain"],
        "model context": model_context_from_outcome(result),
        "repr": repr(ResultView(result)),
        "tool header": tool_header_html(info, (SECRET,)),
        "server text block": server_text_html("label", echoed, (SECRET,)),
        "one line": ShowPolicy().with_secrets([SECRET]).line(echoed),
    }
    for surface, rendering in surfaces.items():
        assert not leaked(rendering), (surface, leaked(rendering))
        assert MASK in rendering, surface


def test_a_connection_target_is_masked_by_the_policy_in_its_url_encoded_form_too() -> None:
    token = "tok en/+1"
    http = mcp.http(
        name="web",
        url=f"https://h.example/mcp?api_key={quote(token, safe='')}&x=1",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert quote(token, safe="") not in http.target() and MASK in http.target()
    stdio = mcp.stdio(name="s", command="srv", args=["--token", "abc123"], env={"API_TOKEN": "abc123"})
    assert stdio.target() == f"srv --token {MASK}"


def test_a_hundred_character_limit_shows_a_thirty_two_character_result_whole() -> None:
    text = "thirty-two characters of result!"
    assert len(text) == 32
    bundle = bundle_from_outcome(outcome(text_result(text)), RenderSettings(max_output_chars=100))
    audit = assert_safe_html(bundle["text/html"])
    assert audit.text_by_class["anvia-server-text"] == text
    assert "not shown" not in bundle["text/plain"]


def test_after_a_cut_the_hidden_count_is_exact_in_server_characters() -> None:
    bundle = bundle_from_outcome(outcome(text_result("x" * 36_432)), RenderSettings(max_output_chars=32))
    audit = assert_safe_html(bundle["text/html"])
    assert audit.text_by_class["anvia-server-text"] == "x" * 32
    assert "… 36,400 more characters not shown" in audit.text
    assert "… 36,400 more characters not shown" in bundle["text/plain"]


def test_control_characters_count_as_what_the_server_sent_and_the_count_stays_exact() -> None:
    text = "\x1b[31m" + "r" * 10 + "\u202e" + "y" * 100  # 5 + 10 + 1 + 100 characters sent
    bundle = bundle_from_outcome(outcome(text_result(text)), RenderSettings(max_output_chars=20))
    shown = assert_safe_html(bundle["text/html"]).text_by_class["anvia-server-text"]
    assert shown == "⟨ESC⟩[31m" + "r" * 10 + "⟨U+202E⟩" + "yyyy"
    assert "… 96 more characters not shown" in bundle["text/plain"]


def test_a_secret_across_the_cut_is_left_out_whole_and_counted() -> None:
    secret = "s3cr3t-value"
    result = outcome(text_result("x" * 28 + secret + "tail"), secrets=(secret,))
    bundle = bundle_from_outcome(result, RenderSettings(max_output_chars=32))
    assert "s3cr" not in bundle["text/html"] + bundle["text/plain"]
    assert "… 16 more characters not shown" in bundle["text/plain"]


def test_the_escape_character_is_shown_in_the_angle_bracket_notation_everywhere() -> None:
    text = "a\x1b[2Jb\x07c\x00d\x7fe\x9bf\tg\nh"
    bundle = bundle_from_outcome(outcome(text_result(text)))
    shown = assert_safe_html(bundle["text/html"]).text_by_class["anvia-server-text"]
    assert shown == "a⟨ESC⟩[2Jb⟨BEL⟩c⟨NUL⟩d⟨DEL⟩e⟨U+009B⟩f\tg\nh"
    for rendering in (bundle["text/html"], bundle["text/plain"], ShowPolicy().line(text)):
        assert not any(0x2400 <= ord(c) <= 0x2426 for c in rendering), rendering  # no control pictures


def test_names_have_one_limit_on_every_surface() -> None:
    long_name = "n" * 300
    policy = ShowPolicy()
    assert policy.name(long_name) == "n" * (policy.limits.name_chars - 1) + "…"
    bundle = bundle_from_outcome(outcome(text_result("hi"), server=long_name))
    header = tool_header_html(ToolInfo(server=long_name, name="t"))
    assert policy.name(long_name) in bundle["text/plain"]
    assert policy.name(long_name) in header
    assert "n" * policy.limits.name_chars not in bundle["text/plain"] + header


def test_hide_server_errors_is_decided_by_the_policy_for_every_error_surface() -> None:
    server_error = ProtocolError("tools/call failed: /srv/x", server="demo", server_text="/srv/x")
    own_error = ArgumentError("Tool arguments must be a JSON object")
    hidden = RenderSettings(hide_server_errors=True).policy()
    shown = RenderSettings().policy()
    assert hidden.hides(server_error) and not hidden.hides(own_error) and hidden.hides()
    assert not shown.hides(server_error) and not shown.hides()
    assert hidden.error_line(server_error) == HIDDEN_SERVER_ERROR  # a viewer reads no class names
    assert "/srv/x" in shown.error_line(server_error)
    assert hidden.error_line(own_error) == "Tool arguments must be a JSON object"
    wrapped = RuntimeError("listing failed")
    wrapped.__cause__ = server_error
    assert hidden.error_line(wrapped, kind=True) == HIDDEN_SERVER_ERROR
    assert hidden.server_error("/srv/x") == HIDDEN_SERVER_ERROR
    bundle = bundle_from_outcome(outcome(None, error=server_error), RenderSettings(hide_server_errors=True))
    assert "/srv/x" not in bundle["text/html"] + bundle["text/plain"]


def test_the_title_shown_is_the_title_else_the_annotations_title() -> None:
    assert ToolInfo(server="s", name="t", title="Mine", annotations={"title": "Other"}).shown_title == "Mine"
    assert ToolInfo(server="s", name="t", annotations={"title": "Other"}).shown_title == "Other"
    assert ToolInfo(server="s", name="t", title="", annotations={"title": 3}).shown_title is None
    header = tool_header_html(ToolInfo(server="s", name="t", annotations={"title": "From annotations"}))
    assert "From annotations" in header


def test_one_table_of_content_kinds_drives_mapping_and_display() -> None:
    assert set(KINDS) == {"text", "image", "resource", "audio", "resource_link"}
    assert UNSUPPORTED_KINDS == ("audio", "resource_link")
    for kind in UNSUPPORTED_KINDS:
        with pytest.raises(UnsupportedContentError, match=f"content type: {kind}$"):
            output_from_result({"content": [{"type": kind, "uri": "x://y"}]})
        bundle = bundle_from_outcome(outcome({"content": [{"type": kind, "uri": "x://y", "data": "AAAA"}]}))
        assert f"{KINDS[kind].label} from server demo ({KINDS[kind].not_done})" in bundle["text/plain"]
    with pytest.raises(UnsupportedContentError, match="content type: video$"):
        output_from_result({"content": [{"type": "video"}]})
    assert "content of type video" in bundle_from_outcome(outcome({"content": [{"type": "video"}]}))["text/plain"]


def test_an_error_result_is_hidden_whole_when_server_errors_are_hidden() -> None:
    raw = {"content": [{"type": "text", "text": "/srv/secret failed"}], "isError": True}
    error = ToolResultError("/srv/secret failed", server="demo", tool="echo", raw=raw)
    bundle = bundle_from_outcome(outcome(raw, error=error), RenderSettings(hide_server_errors=True))
    assert "/srv/secret" not in bundle["text/html"] + bundle["text/plain"]
    assert HIDDEN_SERVER_ERROR in bundle["text/plain"]


def test_a_name_shown_before_its_secret_was_known_is_masked_as_soon_as_it_is() -> None:
    """Names are kept as shown by each policy (issue 41); a new secret makes a new policy."""
    name, secret = "team-sk-live-abcdef123", "sk-live-abcdef123"
    before = RenderSettings().policy()
    assert before.name(name) == before.name(name) == name
    assert before.with_secrets([secret]).name(name) == f"team-{MASK}"
    assert RenderSettings().policy([secret]).name(name) == f"team-{MASK}"
    shown = bundle_from_outcome(outcome(text_result("hi"), server=name, tool=name), RenderSettings())
    assert name in shown["text/plain"]
    masked = bundle_from_outcome(outcome(text_result("hi"), server=name, tool=name, secrets=(secret,)))
    assert secret not in masked["text/html"] and secret not in masked["text/plain"]
    assert f"[MCP team-{MASK} · team-{MASK}] ok" in masked["text/plain"]
