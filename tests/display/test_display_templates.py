"""The cheaper paths of a result's rendering (issue 41) give what the plain ones give: a template
filled is the element it was made from, a text the policy needs neither cut, mark nor mask is
prepared as the full cut prepares it, and neither path lets markup in."""

from __future__ import annotations

import pytest

from anvia_nb._visible import cut
from anvia_nb.display._html import Html, Template, element, join, template
from anvia_nb.errors import UnsafeMarkupError
from anvia_nb.policy import MASK, ShowPolicy
from tests.helpers.display import HOSTILE_TEXTS

SECRET = "sk-live-a1b2c3d4e5f6"


def _box(text: Html | str, note: Html | str) -> Html:
    shown = element("pre", text, cls="anvia-server-text", style="pre")
    return element("div", element("b", "<label>", cls="anvia-label"), shown, note, cls="anvia-server-block")


@pytest.mark.parametrize("text", ["hi", "", *HOSTILE_TEXTS])
def test_a_filled_template_is_the_element_it_was_made_from(text: str) -> None:
    note = element("div", "… 3 more characters", cls="anvia-elided", style="note")
    made = template(_box, 2)
    assert made.fill(text, note) == _box(text, note)
    assert made.fill(text, note).markup.count("<script") == 0
    one = template(lambda child: element("span", child, cls="anvia-seconds", style="muted"), 1)
    assert one.fill(text) == element("span", text, cls="anvia-seconds", style="muted")


def test_a_template_takes_as_many_children_as_it_has_slots_and_is_not_made_by_hand() -> None:
    made = template(_box, 2)
    with pytest.raises(UnsafeMarkupError, match="takes 2 children, not 1"):
        made.fill("x")
    with pytest.raises(UnsafeMarkupError, match="not by hand"):
        Template(("<script>", "</script>"))
    with pytest.raises(UnsafeMarkupError, match="placed 0"):
        template(lambda child: join([]), 1)


@pytest.mark.parametrize(
    "text",
    ["hi", "", "x" * 50, "x" * 51, "a\r\nb", "red\x1b[31m", "bidi\u202e", f"key {SECRET}", *HOSTILE_TEXTS],
)
@pytest.mark.parametrize("limit", [0, 50, 20_000])
def test_a_text_is_prepared_as_the_full_cut_prepares_it(text: str, limit: int) -> None:
    policy = ShowPolicy().with_secrets([SECRET])
    start = text.find(SECRET)
    spans = [(start, start + len(SECRET))] if start >= 0 else []
    assert policy.prepare(text, limit) == cut(text, limit, spans, MASK)
    assert policy.prepare(text, limit, measure="shown") == cut(text, limit, spans, MASK, measure="shown")
