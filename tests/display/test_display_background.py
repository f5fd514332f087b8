"""The status line of a background call: what the server says of its task (id, status, status
message, progress message) is rendered inert, masked and visible, never as anvia_nb's chrome."""

from __future__ import annotations

import pytest

from anvia_nb.core.protocol.types import BackgroundState
from anvia_nb.display.background import background_html, background_text
from anvia_nb.policy import MASK, NOT_MATH_CLASSES
from tests.helpers.display import HOSTILE_TEXTS, PWN, assert_safe_html

SECRET = "sk-live-0123456789"


def state(text: str, *, done: bool = False, status: str | None = None) -> BackgroundState:
    return BackgroundState(
        server="demo",
        tool="long_job",
        status=status if status is not None else text,
        task_id=text,
        status_message=text,
        progress=(2, 5, text),
        seconds=1.5,
        done=done,
        secrets=(SECRET,),
    )


@pytest.mark.parametrize("payload", HOSTILE_TEXTS)
def test_hostile_task_text_is_inert_and_still_readable(payload: str) -> None:
    markup = background_html(state(payload))
    audit = assert_safe_html(markup)
    assert payload[:60] in audit.text_by_class["anvia-background-message"]
    assert PWN in audit.text_by_class["anvia-background-status"]  # an unknown status is shown as text
    assert set(NOT_MATH_CLASSES.split()) <= set(audit.elements[0].classes)
    assert audit.text_by_class["anvia-server-name"] == "demo"


def test_secrets_controls_and_math_in_task_text_are_masked_visible_and_not_typeset() -> None:
    text = f"token {SECRET} \x1b[31mred\u202e $x^2$ done"
    markup = background_html(state(text, done=True, status="completed"))
    audit = assert_safe_html(markup)
    message = audit.text_by_class["anvia-background-message"]
    assert SECRET not in markup and MASK in message
    assert "\x1b" not in markup and "\u202e" not in markup and "⟨ESC⟩" in message
    assert "$x^2$" in message and "running in the background" not in audit.text
    plain = background_text(state(text))
    assert SECRET not in plain and "\x1b" not in plain and "running in the background" in plain


def test_the_status_line_says_which_call_and_how_far() -> None:
    plain = background_text(
        BackgroundState("demo", "long_job", "working", "t-1", "step 2 of 5", (2, 5, None), 0.4, False)
    )
    assert plain == (
        "[MCP demo · long_job] working · task t-1 · 2 of 5 · step 2 of 5 · 0.4 s · "
        "running in the background; the cell is free"
    )
