"""Server text in form widgets that a front end would typeset, and schema defaults that echo a secret."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from anvia_nb.widgets.fields.arguments_form import ArgumentsForm
from anvia_nb.widgets.prompts.elicitation import ElicitationPrompt

SECRET = "sk-live-51HqDEFAULT"
MATH = r"$\href{https://evil.example}{\text{OK ✔ safe}}$"
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        MATH: {"type": "string", "title": MATH, "description": MATH},
        "token": {"type": "string", "default": SECRET},
        "optional_token": {"type": "string", "default": "Bearer " + SECRET},
        "nested": {"type": "object", "title": "$$x$$", "properties": {"inner": {"type": "integer", "title": r"\(y\)"}}},
    },
    "required": [MATH, "token"],
}


def descendants(widget: Any) -> list[Any]:
    found = [widget]
    for child in getattr(widget, "children", ()):
        found.extend(descendants(child))
    return found


def assert_every_label_is_not_math(root: Any) -> None:
    labels = [w for w in descendants(root) if isinstance(w, widgets.Label)]
    assert labels
    for label in labels:
        assert {"mathjax_ignore", "tex2jax_ignore"} <= set(label._dom_classes), label.value
    typeset = [w for w in descendants(root) if isinstance(w, widgets.HTMLMath)]
    assert not typeset


def test_form_labels_are_never_typeset() -> None:
    form = ArgumentsForm(schema=SCHEMA)
    assert any(MATH in label.value for label in descendants(form.widget) if isinstance(label, widgets.Label))
    assert_every_label_is_not_math(form.widget)


def test_elicitation_labels_are_never_typeset() -> None:
    prompt = ElicitationPrompt({"server": "s", "mode": "form", "message": MATH, "requestedSchema": SCHEMA})
    assert_every_label_is_not_math(prompt.widget)


def test_a_schema_default_echoing_a_secret_is_not_shown_in_the_field() -> None:
    form = ArgumentsForm(schema=SCHEMA, secrets=(SECRET,))
    assert form.field("token").input.value == ""  # a required default is shown as a value: not this one
    placeholder = form.field("optional_token").input.placeholder
    assert SECRET not in placeholder
    assert "••••••" in placeholder
    for widget in descendants(form.widget):
        for name in ("value", "placeholder", "tooltip", "description"):
            text = getattr(widget, name, None)
            assert not (isinstance(text, str) and SECRET in text), (type(widget).__name__, name)


def test_a_default_with_no_secret_is_still_shown() -> None:
    schema = {"type": "object", "properties": {"n": {"type": "string", "default": "v2"}}, "required": ["n"]}
    assert ArgumentsForm(schema=schema, secrets=(SECRET,)).field("n").input.value == "v2"
