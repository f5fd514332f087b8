"""Server strings in form widgets (titles, descriptions, enum labels, patterns in problem lines)
are shown masked, made visible and bounded; the values sent stay exactly the server's."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import ipywidgets as widgets

from anvia_nb import mcp
from anvia_nb.core import Tool
from anvia_nb.core.protocol.types import ToolInfo
from anvia_nb.runtime import Runtime
from anvia_nb.widgets.fields import HELP_CHARS, LABEL_CHARS, PROBLEM_CHARS
from anvia_nb.widgets.fields.arguments_form import ArgumentsForm
from anvia_nb.widgets.forms.tool_form import ToolForm
from anvia_nb.widgets.prompts.elicitation import ElicitationPrompt

SECRET = "sk-live-51HqMASKME"
TITLE = "Name\u202eevil\x1b[31m " + SECRET
HUGE = "Use " + SECRET + " here. " + "d" * 200_000 + SECRET
KEY = "tok_" + SECRET
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": TITLE, "description": HUGE, "pattern": "^" + SECRET + "$"},
        "mode": {"enum": ["a-" + SECRET, "b-\u202e" + SECRET], "title": TITLE, "description": HUGE},
        "tags": {"type": "array", "items": {"enum": [SECRET, "\x1b[2Jx" * 100]}},
        KEY: {"type": "integer"},
        "nested": {
            "type": "object",
            "title": TITLE,
            "description": HUGE,
            "properties": {"inner": {"type": "integer", "title": TITLE, "minimum": 0}},
        },
    },
    "required": ["name", KEY],
}
HIDDEN = (SECRET, "\u202e", "\x1b")


def descendants(widget: Any) -> Iterator[Any]:
    yield widget
    for child in getattr(widget, "children", ()):
        yield from descendants(child)


def shown_texts(root: Any) -> list[tuple[str, str]]:
    """(what, text) of everything a person reads in the widget tree, except what they typed."""
    shown: list[tuple[str, str]] = []
    for widget in descendants(root):
        if isinstance(widget, (widgets.Label, widgets.HTML)):
            shown.append(("label" if isinstance(widget, widgets.Label) else "html", widget.value))
        if isinstance(widget, (widgets.Dropdown, widgets.SelectMultiple)):
            shown += [("option", label) for label in widget._options_labels]
        for name in ("description", "tooltip", "placeholder"):
            text = getattr(widget, name, None)
            if isinstance(text, str):
                shown.append((name, text))
    return shown


def assert_nothing_hidden_or_unbounded(root: Any) -> None:
    shown = shown_texts(root)
    assert shown
    for what, text in shown:
        assert not any(hidden in text for hidden in HIDDEN), (what, text[:300])
        if what == "option":
            assert len(text) <= LABEL_CHARS, (what, len(text))
        elif what != "html":
            assert len(text) <= HELP_CHARS, (what, len(text))


def fill_badly(form: ArgumentsForm) -> None:
    form.field("name").input.value = "zzz"
    form.field(KEY).input.value = "1e"
    form.field("nested.inner").input.value = "-1"


def test_form_labels_options_tooltips_and_problems_mask_secrets_and_hidden_characters() -> None:
    form = ArgumentsForm(schema=SCHEMA, secrets=(SECRET,))
    fill_badly(form)
    assert_nothing_hidden_or_unbounded(form.widget)
    name = form.field("name")
    assert name.name_label.value.startswith("Name⟨U+202E⟩evil⟨ESC⟩[31m ••••••") and name.name_label.value.endswith(" *")
    assert len(name.name_label.value) <= LABEL_CHARS
    assert name.help_text.startswith("Use •••••• here.") and len(name.help_text) <= HELP_CHARS
    assert name.problem_text == "must match the pattern ^••••••$"
    assert form.field(KEY).name_label.value == "tok_•••••• *"
    assert sorted(form.problems[:2]) == ["name: must match the pattern ^••••••$", "tok_••••••: '1e' is not an integer"]
    assert all(SECRET not in line and len(line) <= PROBLEM_CHARS for line in form.problems)


def test_schema_problem_lines_quoting_the_pattern_are_masked_too() -> None:
    form = ArgumentsForm(schema=SCHEMA, secrets=(SECRET,))
    fill_badly(form)
    form.field(KEY).input.value = "3"
    form.field("nested.inner").input.value = "1"
    assert form.problems == ["name: must match the pattern ^••••••$"]
    assert form.field("name").problem_text == "must match the pattern ^••••••$"  # shown once: beside the field
    assert form.problems_box.layout.display == "none"


def test_masked_choices_still_send_the_real_values() -> None:
    form = ArgumentsForm(schema=SCHEMA, secrets=(SECRET,))
    mode, tags = form.field("mode").input, form.field("tags").input
    assert mode._options_labels == ("(not set)", "a-••••••", "b-⟨U+202E⟩••••••")
    assert all(len(label) <= LABEL_CHARS for label in tags._options_labels)
    form.field("name").input.value = SECRET
    form.field(KEY).input.value = "7"
    mode.value = 1
    tags.value = (0,)
    assert form.value == {"name": SECRET, KEY: 7, "mode": "b-\u202e" + SECRET, "tags": [SECRET]}


def test_choices_that_look_alike_once_cut_or_masked_stay_apart() -> None:
    schema = {"type": "object", "properties": {"c": {"enum": ["x" * 500 + "1", "x" * 500 + "2", "(not set)"]}}}
    labels = ArgumentsForm(schema=schema).field("c").input._options_labels
    assert len(set(labels)) == len(labels) == 4
    assert all(len(label) <= LABEL_CHARS for label in labels)


def test_an_elicitation_prompt_masks_the_secrets_of_the_session_that_asks() -> None:
    prompt = ElicitationPrompt(
        {"server": "s", "mode": "form", "message": "Who? " + SECRET, "requestedSchema": SCHEMA}, secrets=(SECRET,)
    )
    assert prompt.form is not None
    fill_badly(prompt.form)
    assert prompt.reason.value == "Cannot accept yet: name: see above (and 2 more)"
    assert prompt.form.field("name").problem_text == "must match the pattern ^••••••$"
    assert_nothing_hidden_or_unbounded(prompt.widget)


def test_a_tool_form_masks_the_secrets_of_its_connection(
    live_children: Callable[[], set[int]], demo_http_url: str
) -> None:
    before = live_children()
    rt = Runtime()
    try:  # the secret is a header of the connection: a session on the shared HTTP demo server
        rt.connect(mcp.http(name="demo", url=demo_http_url, headers={"X-Api-Key": SECRET}))
        server = rt.server("demo")
        assert server.secrets == (SECRET,)
        hostile = Tool(
            ToolInfo(server="demo", name="hostile", title=TITLE, description=HUGE, input_schema=SCHEMA), server
        )
        tool_form = ToolForm(hostile, runtime=rt)
        assert tool_form.reason.value.startswith("Cannot call yet: ")
        fill_badly(tool_form.arguments)
        assert tool_form.reason.value == "Cannot call yet: name: see above (and 2 more)"
        assert tool_form.arguments.field("name").problem_text == "must match the pattern ^••••••$"
        assert_nothing_hidden_or_unbounded(tool_form.widget)
    finally:
        rt.shutdown()
    assert live_children() <= before
