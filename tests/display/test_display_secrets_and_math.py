"""A secret split across text items, and server text that a front end's MathJax would typeset."""

from __future__ import annotations

from anvia_nb.core.protocol.types import ToolInfo
from anvia_nb.display import (
    bundle_from_outcome,
    destructive_warning_html,
    request_header_html,
    server_text_html,
    tool_header_html,
)
from anvia_nb.policy import MASK, ShowPolicy
from tests.helpers.display import assert_safe_html, outcome, text_result

SECRET = "sk-live-a1b2c3d4e5"
MATH = r"$\href{https://evil.example}{\text{OK ✔ safe}}$ and $$x$$ and \(y\) and \[z\]"


def test_a_secret_split_across_two_text_items_is_masked_in_both() -> None:
    bundle = bundle_from_outcome(outcome(text_result("key: sk-live-", "a1b2c3d4e5 end"), secrets=(SECRET,)))
    audit = assert_safe_html(bundle["text/html"])
    blocks = [n for n in audit.elements if "anvia-server-text" in n.classes]
    assert len(blocks) == 2
    for text in (audit.text, bundle["text/plain"]):
        assert "sk-live-" not in text
        assert "a1b2c3d4e5" not in text
        assert "key: " + MASK in text
        assert MASK + " end" in text


def test_a_secret_split_across_three_text_items_is_masked_in_each() -> None:
    bundle = bundle_from_outcome(outcome(text_result("x sk-li", "ve-a1", "b2c3d4e5 y"), secrets=(SECRET,)))
    plain = bundle["text/plain"]
    for part in ("sk-li", "ve-a1", "b2c3d4e5"):
        assert part not in plain


def test_texts_that_only_look_like_a_secret_start_are_left_alone() -> None:
    bundle = bundle_from_outcome(outcome(text_result("sk-live-", "zzz"), secrets=(SECRET,)))
    assert "sk-live-" in bundle["text/plain"]
    assert MASK not in bundle["text/plain"]


def _all_text_is_not_math(markup: str) -> None:
    audit = assert_safe_html(markup)
    assert audit.text.strip()
    for cls in ("mathjax_ignore", "tex2jax_ignore"):
        assert audit.text_by_class.get(cls) == audit.text, cls


def test_every_result_is_marked_not_math() -> None:
    _all_text_is_not_math(bundle_from_outcome(outcome(text_result(MATH), tool=MATH))["text/html"])


def test_every_chrome_block_is_marked_not_math() -> None:
    info = ToolInfo(
        server="demo",
        name=MATH,
        title=MATH,
        description=MATH,
        input_schema={"type": "object"},
        annotations={"destructiveHint": True},
    )
    for markup in (
        tool_header_html(info),
        destructive_warning_html(info),
        request_header_html(MATH, "form"),
        server_text_html("message", MATH),
    ):
        _all_text_is_not_math(markup)


def test_not_math_escapes_every_delimiter_so_processescapes_shows_the_text() -> None:
    escaped = ShowPolicy.not_math(MATH)
    # TeX's processEscapes turns "\$" into "$" and "\\" into "\": undo that to read what is shown.
    shown = escaped.replace("\\$", "\0").replace("\\\\", "\\").replace("\0", "$")
    assert shown == MATH
    assert "$" not in escaped.replace("\\$", "")
    assert "\\(" not in escaped.replace("\\\\", "")
    assert "\\[" not in escaped.replace("\\\\", "")
