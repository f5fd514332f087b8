"""Properties over arbitrary server text: the HTML only ever holds our tags, and secrets never survive.

The quick set tries each property on fewer examples than the full suite (``support.examples``)."""

from __future__ import annotations

import html
import json
import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anvia_nb.display import RenderSettings, bundle_from_outcome, tree_bundle_from_outcome
from anvia_nb.policy import ShowPolicy
from tests.helpers.display import ALLOWED_TAGS, assert_safe_html, outcome, text_result
from tests.helpers.support import examples

HOSTILE_ALPHABET = st.sampled_from(
    [
        *list("<>&\"'=/ ;:\n\t\r\x1b\x00\x07\x7f\x85[]()!#*`"),
        "\u202e",
        "\u2066",
        "\u200b",
        "\ufeff",
        "\U000e0041",
        "script",
        "onerror",
        "javascript:",
        "<img",
        "</pre>",
    ]
)
SERVER_TEXT = st.one_of(st.text(), st.lists(HOSTILE_ALPHABET, max_size=60).map("".join))
SECRET = st.text(alphabet=string.ascii_letters + string.digits + "&<>\"'%/+=", min_size=6, max_size=24).map(
    lambda s: "sk-" + s
)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts=st.lists(SERVER_TEXT, min_size=1, max_size=4), cap=st.integers(min_value=0, max_value=300))
def test_rendered_html_of_any_text_holds_only_allowed_tags_and_shows_the_text(texts: list[str], cap: int) -> None:
    bundle = bundle_from_outcome(outcome(text_result(*texts)), RenderSettings(max_output_chars=cap + 400))
    audit = assert_safe_html(bundle["text/html"])
    assert audit.tags() <= ALLOWED_TAGS
    assert len(audit.with_class("anvia-header")) == 1


@settings(max_examples=examples(300), deadline=None)
@given(secret=SECRET, before=SERVER_TEXT, after=SERVER_TEXT, cap=st.integers(min_value=200, max_value=2000))
def test_masking_removes_every_secret_from_every_rendering(secret: str, before: str, after: str, cap: int) -> None:
    text = before + secret + after + html.escape(secret) + secret
    result = outcome(text_result(text, structuredContent={secret: before + secret}), secrets=(secret,))
    bundle = bundle_from_outcome(result, RenderSettings(max_output_chars=cap))
    tree = tree_bundle_from_outcome(result, RenderSettings(max_output_chars=cap))
    assert tree is not None
    visible = assert_safe_html(bundle["text/html"]).text
    renderings = (bundle["text/html"], bundle["text/plain"], visible, str(tree["application/json"]), tree["text/plain"])
    for rendering in renderings:
        assert secret not in rendering
        assert html.escape(secret) not in rendering


@settings(max_examples=examples(100))
@given(secret=SECRET, text=SERVER_TEXT)
def test_mask_secrets_and_mask_json_leave_no_secret(secret: str, text: str) -> None:
    combined = text + secret + text
    policy = ShowPolicy().with_secrets([secret])
    assert secret not in policy.mask(combined)
    masked = policy.mask_json({combined: [combined, {"k": combined}]})
    assert secret not in repr(masked)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
ITEM = st.fixed_dictionaries(
    {"type": st.sampled_from(["text", "image", "resource", "resource_link", "audio", "other"])},
    optional={
        "text": JSON,
        "data": JSON,
        "mimeType": st.sampled_from(["image/png", "image/svg+xml", "text/html"]) | JSON,
        "uri": JSON,
        "name": JSON,
        "resource": st.fixed_dictionaries({}, optional={"uri": JSON, "text": JSON, "blob": JSON, "mimeType": JSON}),
    },
)
RAW = st.fixed_dictionaries(
    {},
    optional={
        "content": st.lists(ITEM | JSON, max_size=5) | JSON,
        "isError": JSON,
        "structuredContent": JSON,
        "toolResult": JSON,
        "resultType": st.sampled_from(["complete", "input_required"]) | JSON,
    },
)


@settings(max_examples=examples(300), deadline=None)
@given(raw=RAW)
def test_any_malformed_result_renders_safely_without_raising(raw: dict[str, object]) -> None:
    bundle = bundle_from_outcome(outcome(raw))
    assert_safe_html(bundle["text/html"])
    assert isinstance(bundle["text/plain"], str)
    tree = tree_bundle_from_outcome(outcome(raw))
    json.dumps(tree and tree["application/json"], allow_nan=False)  # strict JSON: Jupyter must serialise it
