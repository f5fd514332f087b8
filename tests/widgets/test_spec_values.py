"""The value rules: what a server receives for what a person entered (or did not touch)."""

from __future__ import annotations

from typing import Any

import pytest

from anvia_nb.widgets.spec import (
    OMITTED,
    Entry,
    entry_from_value,
    field_spec_from_schema,
    initial_entry,
    value_from_entry,
)
from tests.helpers.spec import arguments, group, load_schema, null_chosen, picked, rows, ticked, typed

SHOWCASE = load_schema("form_showcase")


def one(schema: dict[str, Any], *, required: bool = False) -> dict[str, Any]:
    return {"type": "object", "properties": {"f": schema}, "required": ["f"] if required else []}


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "string"},
        {"type": "number"},
        {"type": "integer"},
        {"type": "boolean"},
        {"enum": ["a", "b"]},
        {"type": "array", "items": {"enum": ["a"]}},
        {"type": "array", "items": {"type": "string"}},
        {},
        {"type": "object", "properties": {"x": {"type": "string"}}},
        {"type": ["string", "null"]},
    ],
)
def test_an_untouched_optional_field_is_omitted_whatever_its_kind(schema: dict[str, Any]) -> None:
    assert arguments(one(schema)) == ({}, [])


def test_the_untouched_showcase_sends_only_its_one_required_string_as_empty() -> None:
    assert arguments(SHOWCASE) == ({"text": ""}, [])


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "integer", "default": 10},
        {"type": "string", "default": "x"},
        {"type": "boolean", "default": False},
        {"enum": ["a", "b"], "default": "b"},
        {"type": ["integer", "null"], "default": None},
    ],
)
def test_an_optional_default_is_not_a_value_in_the_entry_and_is_not_sent(schema: dict[str, Any]) -> None:
    spec = field_spec_from_schema(one(schema))
    assert initial_entry(spec.child("f")) == Entry()  # the form shows it as a placeholder
    assert value_from_entry(spec, initial_entry(spec)) == ({}, [])


def test_a_touched_field_with_a_default_is_sent_even_when_equal_to_the_default() -> None:
    assert arguments(one({"type": "integer", "default": 10}), f=typed("10")) == ({"f": 10}, [])


def test_a_required_field_with_a_default_sends_the_default_it_shows() -> None:
    assert arguments(one({"type": "integer", "default": 10}, required=True)) == ({"f": 10}, [])


def test_a_required_empty_string_is_sent_as_empty_string() -> None:
    assert arguments(one({"type": "string"}, required=True), f=typed("")) == ({"f": ""}, [])


def test_an_optional_string_cleared_by_the_user_is_omitted_not_sent_empty() -> None:
    assert arguments(one({"type": "string"}), f=typed("")) == ({}, [])


def test_an_optional_number_left_empty_is_omitted_but_a_required_one_is_a_problem() -> None:
    assert arguments(one({"type": "number"}), f=typed("  ")) == ({}, [])
    assert arguments(one({"type": "number"}, required=True)) == ({}, ["f: a value is required"])


def test_an_optional_boolean_is_omitted_when_unset_and_sent_when_false() -> None:
    schema = one({"type": "boolean"})
    assert arguments(schema, f=ticked(None)) == ({}, [])
    assert arguments(schema, f=ticked(False)) == ({"f": False}, [])


def test_a_required_boolean_sends_false_from_an_unticked_box() -> None:
    assert arguments(one({"type": "boolean"}, required=True)) == ({"f": False}, [])


@pytest.mark.parametrize(
    ("kind", "text", "sent"),
    [
        ("number", "2", 2),
        ("number", "2.5", 2.5),
        ("number", "-1e3", -1000.0),
        ("number", " 7 ", 7),
        ("integer", "3.0", 3),
        ("integer", "-12", -12),
        ("integer", "1e2", 100),
        ("number", "123456789012345678901234567890", 123456789012345678901234567890),
    ],
)
def test_numbers_parse_from_text_and_integers_stay_integers(kind: str, text: str, sent: Any) -> None:
    value, problems = arguments(one({"type": kind}), f=typed(text))
    assert problems == [] and value == {"f": sent} and type(value["f"]) is type(sent)


@pytest.mark.parametrize(
    ("kind", "text", "problem"),
    [
        ("number", "1e", "f: '1e' is not a number"),
        ("integer", "3.5", "f: '3.5' is not an integer"),
        ("number", "nan", "f: 'nan' is not a number"),
        ("number", "1e999", "f: '1e999' is too large"),
        ("integer", "١٢", "f: '١٢' is not an integer"),
        ("number", "1_000", "f: '1_000' is not a number"),
    ],
)
def test_text_that_is_not_a_number_is_a_problem_and_not_sent(kind: str, text: str, problem: str) -> None:
    assert arguments(one({"type": kind}), f=typed(text)) == ({}, [problem])


def test_null_is_sent_only_when_the_field_allows_it_and_the_user_chose_it() -> None:
    assert arguments(one({"type": ["string", "null"]}), f=null_chosen()) == ({"f": None}, [])
    assert arguments(one({"type": "string"}), f=Entry(touched=True, null=True, text="x")) == ({"f": "x"}, [])


def test_unticking_a_null_default_and_leaving_the_field_empty_omits_it() -> None:
    schema = one({"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None})
    assert arguments(schema, f=Entry(touched=True, null=False, text="")) == ({}, [])
    assert arguments(schema, f=Entry(touched=True, null=False, text="4")) == ({"f": 4}, [])


def test_a_required_nullable_field_without_a_value_is_a_problem_until_null_is_chosen() -> None:
    schema = one({"anyOf": [{"type": "integer"}, {"type": "null"}]}, required=True)
    assert arguments(schema) == ({}, ["f: a value is required"])
    assert arguments(schema, f=null_chosen()) == ({"f": None}, [])


def test_a_choice_sends_the_value_not_the_label() -> None:
    assert arguments(SHOWCASE, color=picked(2)) == ({"text": "", "color": "#0000ff"}, [])
    assert arguments(SHOWCASE, size=picked(1)) == ({"text": "", "size": 2}, [])


def test_a_required_choice_nobody_picked_is_a_problem() -> None:
    assert arguments(one({"enum": ["a"]}, required=True)) == ({}, ["f: a value is required"])


def test_a_multi_choice_sends_the_picked_values_and_an_emptied_one_is_omitted_like_an_empty_field() -> None:
    assert arguments(SHOWCASE, channels=picked(2, 0)) == ({"text": "", "channels": ["push", "email"]}, [])
    assert arguments(SHOWCASE, channels=picked()) == ({"text": ""}, [])


def test_an_empty_list_row_is_never_sent() -> None:
    assert arguments(SHOWCASE, tags=rows(typed("a"), typed(""))) == ({"text": "", "tags": ["a"]}, [])
    assert arguments(SHOWCASE, tags=rows(Entry())) == ({"text": ""}, [])  # + pressed, row left alone


def test_a_required_list_nobody_filled_is_a_problem_and_one_the_person_emptied_is_sent_empty() -> None:
    # server-memory's open_nodes with an untouched names list must not look up no names
    schema = one({"type": "array", "items": {"type": "string"}}, required=True)
    assert arguments(schema) == (
        {},
        ["f: a value is required: add an item (+ then − sends an empty list)"],
    )  # untouched: not []
    assert arguments(schema, f=rows(typed(""))) == (
        {},
        ["f: a value is required: add an item (+ then − sends an empty list)"],
    )  # a blank row: not [""] nor []
    assert arguments(schema, f=rows(Entry())) == (
        {},
        ["f: a value is required: add an item (+ then − sends an empty list)"],
    )  # + pressed, row left alone
    assert arguments(schema, f=rows()) == ({"f": []}, [])  # every row removed by the person
    assert arguments(schema, f=rows(typed("a"))) == ({"f": ["a"]}, [])


def test_a_required_multi_choice_nobody_picked_is_a_problem_and_one_unpicked_is_sent_empty() -> None:
    schema = one({"type": "array", "items": {"enum": ["a", "b"]}}, required=True)
    assert arguments(schema) == ({}, ["f: a value is required"])
    assert arguments(schema, f=picked()) == ({"f": []}, [])
    assert arguments(schema, f=picked(1)) == ({"f": ["b"]}, [])


def test_a_bad_number_row_is_a_problem_named_by_its_index() -> None:
    value, problems = arguments(SHOWCASE, scores=rows(typed("1"), typed("x")))
    assert problems == ["scores[1]: 'x' is not a number"]
    assert value == {"text": "", "scores": [1]}


def test_an_optional_list_emptied_by_the_user_is_omitted_like_an_emptied_field() -> None:
    assert arguments(SHOWCASE, tags=rows()) == ({"text": ""}, [])


def test_an_optional_nested_object_is_omitted_until_something_inside_is_touched() -> None:
    assert arguments(SHOWCASE) == ({"text": ""}, [])
    value, problems = arguments(SHOWCASE, address=group(city=typed("Oslo")))
    assert (value, problems) == ({"text": "", "address": {"city": "Oslo"}}, [])


def test_a_touched_nested_object_sends_its_required_strings_even_if_empty() -> None:
    value, _ = arguments(SHOWCASE, address=group(street=typed("Main St")))
    assert value == {"text": "", "address": {"street": "Main St", "city": ""}}


def test_a_touched_nested_object_reports_its_missing_required_numbers_by_path() -> None:
    schema = one(
        {"type": "object", "properties": {"n": {"type": "number"}, "s": {"type": "string"}}, "required": ["n"]}
    )
    assert arguments(schema, f=group(s=typed("x"))) == ({"f": {"s": "x"}}, ["f.n: a value is required"])


def test_a_required_object_is_always_sent_with_its_required_strings() -> None:
    schema = one(
        {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "required": ["a"]},
        required=True,
    )
    assert arguments(schema) == ({"f": {"a": ""}}, [])


def test_a_json_field_sends_parsed_json_and_reports_broken_json() -> None:
    assert arguments(SHOWCASE, shape=typed('{"radius": 2}')) == ({"text": "", "shape": {"radius": 2}}, [])
    value, problems = arguments(SHOWCASE, shape=typed('{"radius": '))
    assert value == {"text": ""}
    assert problems == ["shape: not valid JSON (line 1, column 12): expecting value"]


def test_a_json_field_can_send_null_or_false_when_typed() -> None:
    assert arguments(SHOWCASE, anything=typed("null")) == ({"text": "", "anything": None}, [])
    assert arguments(SHOWCASE, anything=typed("false")) == ({"text": "", "anything": False}, [])


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("alarm", "12:00"),
        ("alarm", "12:00:30Z"),
        ("alarm", "08:15:00+02:00"),
        ("meeting", "2024-05-01T10:00"),
        ("meeting", "2024-05-01 10:00:00Z"),
        ("homepage", "https://example.com/a?b=c"),
        ("email", "a@b.c"),
    ],
)
def test_formats_accept_what_pydantic_servers_accept(name: str, text: str) -> None:
    assert arguments(SHOWCASE, **{name: typed(text)}) == ({"text": "", name: text}, [])


SHOWCASE_VALUES = [
    {"text": "", "code": "ABC", "count": 3, "verbose": False, "dry_run": True, "level": "info"},
    {"text": "x", "color": "#00ff00", "size": 1, "channels": ["sms"], "tags": ["a", "b"], "scores": [1.5, 2]},
    {"text": "x", "nickname": None, "limit": None, "address": {"city": "Oslo", "zip": "12345"}},
    {
        "text": "x",
        "tree": {"name": "root", "children": [{"name": "leaf"}]},
        "shape": {"side": 1},
        "labels": {"a": "b"},
        "anything": [1, {"x": None}],
        "also_anything": None,
        "birthday": "2024-01-31",
    },
    {"text": "x", "address": {"city": ""}},
]


@pytest.mark.parametrize("value", SHOWCASE_VALUES)
def test_any_value_the_fields_can_express_round_trips_through_an_entry(value: dict[str, Any]) -> None:
    spec = field_spec_from_schema(SHOWCASE)
    entry = entry_from_value(spec, value)
    assert entry is not None
    assert value_from_entry(spec, entry) == (value, [])


@pytest.mark.parametrize(
    "value",
    [
        {"text": "x", "unknown": 1},
        {"text": 5},
        {"text": "x", "count": 2.5},
        {"text": "x", "level": "loud"},
        {"text": "x", "email": ""},
        {"text": "x", "verbose": 1},
        {"text": "x", "count": True},
        {},
        {"text": "x", "channels": ["sms", "sms"]},
        {"text": "x", "address": {"street": "no city"}},
    ],
)
def test_a_value_the_fields_cannot_express_exactly_gives_no_entry(value: dict[str, Any]) -> None:
    assert entry_from_value(field_spec_from_schema(SHOWCASE), value) is None


def test_a_value_that_breaks_only_constraints_still_fills_the_fields_the_validator_judges_it() -> None:
    spec = field_spec_from_schema(SHOWCASE)
    entry = entry_from_value(spec, {"text": "x", "code": "lower"})
    assert entry is not None
    assert value_from_entry(spec, entry) == ({"text": "x", "code": "lower"}, [])


def test_omitted_is_falsy_and_distinct_from_null() -> None:
    spec = field_spec_from_schema(one({"type": "string"})).child("f")
    assert value_from_entry(spec, Entry()) == (OMITTED, [])
    assert OMITTED is not None and not OMITTED
