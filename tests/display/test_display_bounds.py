"""Output is bounded: huge results render with a visible cut, and the bundle stays small."""

from __future__ import annotations

import json
from typing import Any

from anvia_nb.display import RenderSettings, bundle_from_outcome, tree_bundle_from_outcome
from tests.helpers.display import assert_safe_html, outcome, text_result

SETTINGS = RenderSettings()
BOUND = SETTINGS.max_output_chars * 10


def bundle_bytes(bundle: dict[str, Any]) -> int:
    return sum(len(json.dumps(v, ensure_ascii=False).encode()) for v in bundle.values())


def test_a_fifty_megabyte_text_renders_with_a_visible_cut_and_a_bounded_bundle() -> None:
    text = "0123456789" * 5_000_000
    bundle = bundle_from_outcome(outcome(text_result(text)))
    assert bundle_bytes(bundle) < BOUND
    audit = assert_safe_html(bundle["text/html"])
    shown = len(audit.text_by_class["anvia-server-text"])
    assert 10_000 < shown <= SETTINGS.max_output_chars
    hidden = 50_000_000 - shown
    note = f"… {hidden:,} more characters not shown; the whole result is in `.output` and `.raw`"
    assert note in audit.text
    assert note in bundle["text/plain"]


def test_text_made_only_of_control_characters_is_bounded_by_its_rendered_size() -> None:
    bundle = bundle_from_outcome(outcome(text_result("\u202e<" * 5_000_000)))
    assert bundle_bytes(bundle) < BOUND
    assert "more characters not shown" in bundle["text/plain"]


def test_a_million_tiny_items_are_bounded_and_the_rest_are_counted() -> None:
    raw = {"content": [{"type": "text", "text": "<"}] * 1_000_000}
    bundle = bundle_from_outcome(outcome(raw))
    assert bundle_bytes(bundle) < BOUND
    assert "more content items not shown" in assert_safe_html(bundle["text/html"]).text


def test_huge_structured_content_is_cut_in_html_and_in_the_json_tree() -> None:
    structured = {"rows": [{"id": i, "name": "x" * 100} for i in range(200_000)], "blob": "y" * 10_000_000}
    result = outcome(text_result("", structuredContent=structured), problems=[])
    bundle = bundle_from_outcome(result)
    tree = tree_bundle_from_outcome(result)
    assert bundle_bytes(bundle) < BOUND
    assert tree is not None
    assert bundle_bytes(tree) < BOUND
    rows = tree["application/json"]["rows"]
    assert str(rows[-1]).startswith("… ")
    assert rows[-1].endswith("more items")


def test_deeply_nested_structured_content_is_elided_not_a_recursion_error() -> None:
    deep: Any = "bottom"
    for _ in range(500):
        deep = [deep]
    bundle = bundle_from_outcome(outcome(text_result("", structuredContent={"deep": deep})))
    assert "nested deeper than 64 levels" in bundle["text/plain"]


def test_the_cap_is_configurable_and_small_results_are_not_cut() -> None:
    small = bundle_from_outcome(outcome(text_result("a" * 5000)))
    assert "not shown" not in small["text/plain"]
    tight = bundle_from_outcome(outcome(text_result("a" * 5000)), RenderSettings(max_output_chars=1000))
    assert "more characters not shown" in tight["text/plain"]
    assert len(tight["text/plain"]) < 1500
