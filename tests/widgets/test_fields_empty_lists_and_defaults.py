"""A required array nobody filled is never sent as ``[]`` (Call waits and says why); one the
person emptied is (server-memory's entity without observations); a multiple selection shows its
default selected."""

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


def test_an_untouched_required_array_holds_the_call_back_and_one_the_person_emptied_is_sent(
    demo_runtime: Runtime,
) -> None:
    concat = form("demo.concat_texts", runtime=demo_runtime)  # parts: a required array of strings
    parts = concat.arguments.field("parts")
    assert isinstance(parts, ListField) and parts.rows == []
    assert concat.call_button.disabled and not concat.call()  # untouched: never sent as {"parts": []}
    assert (
        concat.reason.value == "Cannot call yet: parts: a value is required: add an item (+ then − sends an empty list)"
    )
    assert parts.problem_text == ""  # a fresh form does not scold beside the field: the status line says it
    parts.add_button.click()
    assert (
        concat.call_button.disabled
        and parts.problem_text == "a value is required: add an item (+ then − sends an empty list)"
    )
    parts.remove_row(0)  # the person emptied it: [] is what they chose
    assert not concat.call_button.disabled and concat.reason.value == ""
    assert concat.call()
    outcome = concat.wait(WAIT_SECONDS)
    assert outcome is not None and outcome.arguments == {"parts": []} and not outcome.is_error


OPEN_NODES = {  # server-memory's open_nodes, as it lists it
    "type": "object",
    "properties": {"names": {"type": "array", "items": {"type": "string"}, "description": "Entity names to retrieve"}},
    "required": ["names"],
}  # fmt: skip


def test_open_nodes_with_its_names_untouched_cannot_be_sent() -> None:
    arguments = ArgumentsForm(schema=OPEN_NODES)
    assert not arguments.valid and arguments.problems == [
        "names: a value is required: add an item (+ then − sends an empty list)"
    ]
    assert arguments.will_send_text == "so far: {}"


def test_an_entity_whose_observations_nobody_touched_is_held_back_until_they_are_emptied_or_filled() -> None:
    arguments = ArgumentsForm(schema=ENTITIES)
    entities = arguments.field("entities")
    assert isinstance(entities, ListField)
    entities.add_button.click()
    entities.rows[0].field("name").input.value = "ada"  # type: ignore[attr-defined]
    assert arguments.problems == [
        "entities[0].observations: a value is required: add an item (+ then − sends an empty list)"
    ]
    observations = entities.rows[0].field("observations")  # type: ignore[attr-defined]  # a row of an array of objects
    assert isinstance(observations, ListField)
    observations.add_button.click()
    observations.remove_row(0)
    assert arguments.valid and arguments.value == {"entities": [{"name": "ada", "observations": []}]}


def test_min_items_still_refuses_an_emptied_required_array() -> None:
    field = {"type": "array", "items": {"type": "string"}, "minItems": 1}
    arguments = ArgumentsForm(schema=_schema(field, required=True))
    lines = arguments.field("f")
    assert isinstance(lines, ListField)
    lines.add_button.click()
    lines.remove_row(0)
    assert not arguments.valid and arguments.problems == ["f: needs at least 1 item"]


def test_a_required_multiple_selection_nobody_picked_is_held_back() -> None:
    field = {"type": "array", "items": {"enum": ["a", "b"]}}
    arguments = ArgumentsForm(schema=_schema(field, required=True))
    assert not arguments.valid and arguments.problems == ["f: a value is required"]
    chooser = arguments.field("f")
    assert isinstance(chooser, MultiChoiceField)
    chooser.input.value = (0,)
    chooser.input.value = ()
    assert arguments.valid and arguments.value == {"f": []}


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
