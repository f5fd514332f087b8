"""A required array may be sent empty (``[]`` is a value: server-memory's entity without
observations), and a multiple selection shows its default selected."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from anvia_nb.runtime import Runtime
from anvia_nb.widgets.fields import ListField, MultiChoiceField
from anvia_nb.widgets.fields.arguments_form import ArgumentsForm
from tests.helpers.waiting import WAIT_SECONDS
from tests.helpers.widgets import form

ENTITIES = {  # shaped like server-memory's create_entities
    "type": "object",
    "required": ["entities"],
    "properties": {"entities": {"type": "array", "items": {
        "type": "object", "required": ["name", "observations"],
        "properties": {"name": {"type": "string"}, "observations": {"type": "array", "items": {"type": "string"}}},
    }}},
}  # fmt: skip


def _schema(field: dict[str, Any], *, required: bool) -> dict[str, Any]:
    return {"type": "object", "properties": {"f": field}, "required": ["f"] if required else []}


def test_a_required_array_with_no_rows_is_sent_as_an_empty_list(demo_runtime: Runtime) -> None:
    concat = form("demo.concat_texts", runtime=demo_runtime)  # parts: a required array of strings
    parts = concat.arguments.field("parts")
    assert isinstance(parts, ListField) and parts.rows == []
    assert not concat.call_button.disabled and concat.reason.value == ""
    concat.call()
    outcome = concat.wait(WAIT_SECONDS)
    assert outcome is not None and outcome.arguments == {"parts": []} and not outcome.is_error


def test_an_entity_without_observations_can_be_created() -> None:
    arguments = ArgumentsForm(schema=ENTITIES)
    entities = arguments.field("entities")
    assert isinstance(entities, ListField)
    entities.add_button.click()
    entities.rows[0].field("name").input.value = "ada"  # type: ignore[attr-defined]
    assert arguments.valid and arguments.value == {"entities": [{"name": "ada", "observations": []}]}


def test_min_items_still_refuses_an_empty_required_array() -> None:
    field = {"type": "array", "items": {"type": "string"}, "minItems": 1}
    arguments = ArgumentsForm(schema=_schema(field, required=True))
    assert not arguments.valid and arguments.problems == ["f: needs at least 1 item"]


def test_a_multiple_selections_default_is_shown_selected_and_left_out_until_changed() -> None:
    field = {"type": "array", "items": {"enum": ["a", "b", "c"]}, "default": ["a", "c"]}
    arguments = ArgumentsForm(schema=_schema(field, required=False))
    chooser = arguments.field("f")
    assert isinstance(chooser, MultiChoiceField) and isinstance(chooser.input, widgets.SelectMultiple)
    assert [chooser.input.options[i][0] for i in chooser.input.value] == ["a", "c"]
    assert arguments.value == {}  # untouched: the server applies its own default
    chooser.input.value = (1,)
    assert arguments.value == {"f": ["b"]}
    chooser.input.value = ()
    assert arguments.value == {"f": []}  # emptied by the person: leaving it out would bring the default back
