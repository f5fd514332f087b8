"""ArgumentsForm without a browser: set widgets as a person would, read value/problems/valid."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings

from anvia_nb.core.protocol.types import ToolInfo
from anvia_nb.errors import ArgumentValidationError
from anvia_nb.widgets.fields import ListField, ObjectField
from anvia_nb.widgets.fields.arguments_form import ArgumentsForm
from tests.helpers.spec import MUTUALLY_RECURSIVE, SELF_RECURSIVE, load_schema, schema_like
from tests.helpers.support import examples

FETCH = ToolInfo(server="fetch", name="fetch", input_schema=load_schema("fetch"))


def test_a_form_from_a_tool_sends_only_the_typed_required_field() -> None:
    form = ArgumentsForm(FETCH)
    form.field("url").input.value = "https://example.com"
    assert form.valid and form.problems == []
    assert form.value == {"url": "https://example.com"}


def test_an_untouched_form_with_a_required_url_is_invalid_and_value_raises() -> None:
    form = ArgumentsForm(FETCH)
    assert not form.valid
    assert form.problems == ["url: must have at least 1 character"]
    with pytest.raises(ArgumentValidationError) as caught:
        _ = form.value
    assert caught.value.problems == form.problems


def test_a_half_typed_number_keeps_its_text_and_makes_the_form_invalid() -> None:
    form = ArgumentsForm(FETCH)
    form.field("url").input.value = "https://example.com"
    form.field("max_length").input.value = "1e"
    assert form.field("max_length").input.value == "1e"
    assert form.problems == ["max_length: '1e' is not an integer"]
    form.field("max_length").input.value = "1e3"
    assert form.value == {"url": "https://example.com", "max_length": 1000}


def test_on_change_reports_every_change_with_validity_up_to_date() -> None:
    form = ArgumentsForm(FETCH)
    seen: list[bool] = []
    form.on_change(lambda f: seen.append(f.valid))
    form.field("url").input.value = "https://example.com"
    form.field("url").input.value = ""
    assert seen == [True, False]


def test_schema_violations_the_fields_cannot_catch_are_reported_by_validation() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
        "dependentRequired": {"a": ["b"]},
    }
    form = ArgumentsForm(schema=schema)
    form.field("a").input.value = "x"
    assert form.problems == ["b is needed when a is given"]


def test_initial_arguments_fill_the_fields_and_are_sent_as_given() -> None:
    form = ArgumentsForm(FETCH, initial={"url": "https://a.example", "raw": False, "max_length": 10})
    assert not form.json_mode
    assert form.field("raw").input.value == "false"
    assert form.value == {"url": "https://a.example", "raw": False, "max_length": 10}


def test_set_value_with_what_the_fields_cannot_express_switches_to_json_mode() -> None:
    form = ArgumentsForm(FETCH)
    form.set_value({"url": "https://a.example", "surprise": 1})
    assert form.json_mode and "cannot express" in form.mode_note.value
    assert json.loads(form.json_text.value) == {"url": "https://a.example", "surprise": 1}
    assert form.value == {"url": "https://a.example", "surprise": 1}  # fetch allows extra keys


def test_json_mode_round_trip_keeps_the_arguments() -> None:
    form = ArgumentsForm(schema=load_schema("form_showcase"))
    form.field("text").input.value = "hello"
    tags = form.field("tags")
    assert isinstance(tags, ListField)
    tags.add_button.click()
    tags.rows[0].input.value = "t"
    form.field("address.city").input.value = "Oslo"
    before = form.value
    form.mode.value = "JSON"
    assert json.loads(form.json_text.value) == before
    form.json_text.value = json.dumps({**before, "count": 7})
    assert form.value == {**before, "count": 7}
    form.mode.value = "form"
    assert not form.json_mode
    assert form.field("count").input.value == "7"
    assert form.value == {**before, "count": 7}


def test_leaving_json_mode_with_broken_json_stays_in_json_mode_and_says_why() -> None:
    form = ArgumentsForm(FETCH)
    form.mode.value = "JSON"
    form.json_text.value = '{"url": '
    assert not form.valid and form.problems == ["not valid JSON (line 1, column 9): expecting value"]
    form.mode.value = "form"
    assert form.json_mode and form.mode_note.value.startswith("still JSON: not valid JSON")


def test_json_mode_requires_an_object() -> None:
    form = ArgumentsForm(FETCH)
    form.mode.value = "JSON"
    form.json_text.value = "[1]"
    assert form.problems == ["the arguments must be a JSON object"]


def test_json_mode_can_send_what_the_fields_cannot_such_as_an_optional_empty_string() -> None:
    schema = {"type": "object", "properties": {"note": {"type": "string"}}}
    form = ArgumentsForm(schema=schema)
    form.mode.value = "JSON"
    form.json_text.value = '{"note": ""}'
    assert form.value == {"note": ""}


def test_a_tool_without_arguments_has_an_empty_valid_form() -> None:
    form = ArgumentsForm(ToolInfo(server="s", name="ping"))
    assert form.valid and form.value == {}


def test_a_root_map_schema_is_one_json_field_that_must_hold_an_object() -> None:
    form = ArgumentsForm(schema={"type": "object", "additionalProperties": {"type": "integer"}})
    assert form.value == {}
    form.root.input.value = '{"a": 1}'
    assert form.value == {"a": 1}
    form.root.input.value = '{"a": "x"}'
    assert form.problems == ["a: must be an integer"]
    form.root.input.value = "3"
    assert form.problems == ["the arguments must be a JSON object"]


def test_value_is_a_copy_that_callers_may_change() -> None:
    form = ArgumentsForm(FETCH, initial={"url": "https://a.example"})
    form.value["url"] = "changed"
    assert form.value == {"url": "https://a.example"}


def test_the_form_displays_as_its_widget() -> None:
    form = ArgumentsForm(FETCH)
    bundle = form._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle


@settings(max_examples=examples(60), deadline=None)
@given(schema_like)
def test_any_schema_like_value_builds_a_form_without_crashing(schema: Any) -> None:
    form = ArgumentsForm(schema=schema if isinstance(schema, dict) else {"type": "object"})
    assert isinstance(form.problems, list)
    form.mode.value = "JSON"
    form.mode.value = "form"


@pytest.mark.parametrize("schema", [SELF_RECURSIVE, MUTUALLY_RECURSIVE], ids=["self", "mutual"])
def test_a_form_over_a_recursive_schema_builds_few_fields(schema: dict[str, Any]) -> None:
    form = ArgumentsForm(schema=schema)
    root = form.field("root")
    assert isinstance(root, ObjectField)
    recursion = root.children
    assert len(recursion) == 2
    assert all(len(getattr(child, "children", {})) <= 2 for child in recursion.values())


def test_switching_to_json_with_a_half_typed_number_is_refused_and_keeps_the_text() -> None:
    form = ArgumentsForm(FETCH)
    form.field("url").input.value = "https://example.com"
    form.field("max_length").input.value = "1e"
    form.mode.value = "JSON"
    assert not form.json_mode
    assert form.mode_note.value == "Fix or clear 'max_length' first: '1e' is not an integer"
    assert form.field("max_length").input.value == "1e"
    assert form.root.widget.layout.display is None and form.json_text.layout.display == "none"
    form.field("max_length").input.value = "1e3"
    form.mode.value = "JSON"
    assert form.json_mode and form.mode_note.value == ""
    assert json.loads(form.json_text.value) == {"url": "https://example.com", "max_length": 1000}


def test_switching_to_json_with_broken_json_in_a_nested_field_or_a_list_row_is_refused() -> None:
    schema = {
        "type": "object",
        "properties": {
            "filter": {"type": "object", "properties": {"extra": {"type": "object", "additionalProperties": True}}},
            "sizes": {"type": "array", "items": {"type": "number"}},
        },
    }
    form = ArgumentsForm(schema=schema)
    form.field("filter.extra").input.value = '{"a": '
    sizes = form.field("sizes")
    assert isinstance(sizes, ListField)
    sizes.add_row().input.value = "2."
    sizes.add_row().input.value = "x"
    form.mode.value = "JSON"
    assert not form.json_mode
    assert form.mode_note.value.startswith("Fix or clear 'filter.extra' first: not valid JSON")
    assert form.mode_note.value.endswith("(and 1 more)")
    form.field("filter.extra").input.value = ""
    form.mode.value = "JSON"
    assert form.mode_note.value == "Fix or clear 'sizes[1]' first: 'x' is not a number"
    assert form.field("filter.extra").input.value == "" and sizes.rows[1].input.value == "x"


def test_switching_to_json_with_only_schema_problems_still_works() -> None:
    form = ArgumentsForm(FETCH)
    form.field("max_length").input.value = "-5"
    assert not form.valid
    form.mode.value = "JSON"
    assert form.json_mode and json.loads(form.json_text.value) == {"url": "", "max_length": -5}


@pytest.mark.slow  # builds a form of thousands of fields
def test_a_huge_schema_that_does_not_recurse_builds_a_bounded_form() -> None:
    defs = {
        f"L{i}": {
            "type": "object",
            "properties": {"a": {"$ref": f"#/$defs/L{i + 1}"}, "b": {"$ref": f"#/$defs/L{i + 1}"}},
        }
        for i in range(14)
    }
    defs["L14"] = {"type": "string"}
    schema = {"type": "object", "$defs": defs, "properties": {"root": {"$ref": "#/$defs/L0"}}}
    form = ArgumentsForm(schema=schema)
    assert 0 < len(list(form.root.walk())) < 500  # about the field budget, whatever the ref graph
