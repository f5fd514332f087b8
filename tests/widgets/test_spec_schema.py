"""Reading inputSchemas into field specs: every kind servers send, and a JSON field for the rest.

The properties over arbitrary schema-like values try fewer examples in the quick set than in the
full suite (``support.examples``): generating nested schemas is most of their time."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings

from anvia_nb.core.protocol.schema import argument_problems
from anvia_nb.policy import Limits
from anvia_nb.widgets.spec import (
    NO_DEFAULT,
    Choice,
    FieldSpec,
    entry_from_value,
    field_spec_from_schema,
    initial_entry,
    json_equal,
    value_from_entry,
)
from tests.helpers.spec import MUTUALLY_RECURSIVE, SELF_RECURSIVE, json_values, load_schema, schema_like
from tests.helpers.support import examples

MAX_FIELDS = Limits().form_fields


def only_field(schema: dict[str, Any], required: bool = False) -> FieldSpec:
    root = {"type": "object", "properties": {"f": schema}, "required": ["f"] if required else []}
    return field_spec_from_schema(root).child("f")


@pytest.mark.parametrize("kind", ["string", "number", "integer", "boolean"])
def test_simple_types_become_fields_of_their_own_kind(kind: str) -> None:
    assert only_field({"type": kind}).kind == kind


def test_constraints_description_default_and_required_marker_are_kept() -> None:
    spec = only_field(
        {"type": "integer", "minimum": 1, "maximum": 9, "default": 3, "description": "how many", "title": "Count"},
        required=True,
    )
    assert (spec.constraints.minimum, spec.constraints.maximum) == (1, 9)
    assert (spec.default, spec.description, spec.label, spec.required) == (3, "how many", "Count", True)


def test_string_constraints_and_format_are_kept() -> None:
    c = only_field({"type": "string", "minLength": 2, "maxLength": 5, "pattern": "^a", "format": "email"}).constraints
    assert (c.min_length, c.max_length, c.pattern, c.format) == (2, 5, "^a", "email")


def test_a_field_without_default_says_so_even_when_null_is_a_possible_default() -> None:
    assert only_field({"type": "string"}).default is NO_DEFAULT
    assert only_field({"type": ["string", "null"], "default": None}).default is None


def test_draft4_boolean_exclusive_bounds_become_numeric_bounds() -> None:
    c = only_field({"type": "number", "minimum": 0, "exclusiveMinimum": True}).constraints
    assert (c.minimum, c.exclusive_minimum) == (None, 0)


def test_enum_becomes_a_choice_labelled_by_its_values() -> None:
    spec = only_field({"type": "string", "enum": ["asc", "desc"]})
    assert spec.kind == "choice"
    assert spec.choices == (Choice("asc", "asc"), Choice("desc", "desc"))


def test_titled_one_of_const_becomes_a_choice_labelled_by_titles() -> None:
    spec = only_field({"type": "string", "oneOf": [{"const": "#f00", "title": "Red"}, {"const": "#0f0"}]})
    assert spec.choices == (Choice("#f00", "Red"), Choice("#0f0", "#0f0"))


def test_any_of_numeric_consts_becomes_a_choice_of_numbers() -> None:
    spec = only_field({"anyOf": [{"const": 1, "title": "Small"}, {"const": 2, "title": "Large"}]})
    assert [c.value for c in spec.choices] == [1, 2]


def test_enum_names_label_the_choices_when_they_match_in_length() -> None:
    spec = only_field({"type": "string", "enum": ["a", "b"], "enumNames": ["Apple", "Banana"]})
    assert [c.label for c in spec.choices] == ["Apple", "Banana"]


def test_null_in_an_enum_makes_the_choice_nullable_instead_of_a_null_entry() -> None:
    spec = only_field({"enum": ["a", None]})
    assert spec.nullable and [c.value for c in spec.choices] == ["a"]


def test_array_of_enums_becomes_a_multi_choice() -> None:
    spec = only_field({"type": "array", "items": {"type": "string", "enum": ["x", "y"]}})
    assert spec.kind == "multi_choice" and [c.value for c in spec.choices] == ["x", "y"]


@pytest.mark.parametrize("item_type", ["string", "number", "integer", "boolean"])
def test_array_of_simple_items_becomes_an_add_remove_list(item_type: str) -> None:
    spec = only_field({"type": "array", "items": {"type": item_type}, "minItems": 1})
    assert spec.kind == "list" and spec.item is not None and spec.item.kind == item_type
    assert spec.item.required and spec.constraints.min_items == 1


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "array"},
        {"type": "array", "prefixItems": [{"type": "string"}]},
        {"type": "array", "items": {"type": ["string", "null"]}},
    ],
)
def test_arrays_the_list_widget_cannot_show_become_json(schema: dict[str, Any]) -> None:
    assert only_field(schema).kind == "json"


def test_nested_object_becomes_a_group_with_its_own_required_children() -> None:
    spec = only_field(
        {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["b"]}
    )
    assert spec.kind == "object"
    assert [(c.name, c.kind, c.required) for c in spec.children] == [("a", "string", False), ("b", "integer", True)]


def test_refs_to_defs_and_definitions_resolve_and_sibling_keywords_win() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"$ref": "#/$defs/Mode", "description": "beside the ref"},
            "b": {"$ref": "#/definitions/Num"},
            "c": {"$ref": "#/$defs/with~1slash"},
        },
        "$defs": {"Mode": {"enum": ["x"], "description": "in the def"}, "with/slash": {"type": "boolean"}},
        "definitions": {"Num": {"type": "number"}},
    }
    spec = field_spec_from_schema(schema)
    assert spec.child("a").kind == "choice" and spec.child("a").description == "beside the ref"
    assert spec.child("b").kind == "number"
    assert spec.child("c").kind == "boolean"


@pytest.mark.parametrize(
    "ref", ["#/$defs/Missing", "https://example.com/schema.json", "other.json#/x", "#anchor", "#/$defs/Num/0"]
)
def test_refs_that_do_not_resolve_locally_become_json(ref: str) -> None:
    schema = {"type": "object", "properties": {"a": {"$ref": ref}}, "$defs": {"Num": {"type": "number"}}}
    assert field_spec_from_schema(schema).child("a").kind == "json"


def test_a_recursive_ref_becomes_a_json_field_at_the_point_of_recursion() -> None:
    tree = load_schema("form_showcase")["$defs"]["Tree"]
    assert tree["properties"]["children"]["items"] == {"$ref": "#/$defs/Tree"}
    spec = field_spec_from_schema(load_schema("form_showcase")).child("tree")
    assert spec.kind == "object"
    assert spec.child("name").kind == "string"
    assert spec.child("children").kind == "json"


def test_a_ref_to_the_root_is_recursion_too() -> None:
    spec = field_spec_from_schema({"type": "object", "properties": {"again": {"$ref": "#"}}})
    assert spec.child("again").kind == "json"


def test_a_ref_graph_that_doubles_at_every_level_stays_bounded() -> None:
    defs = {
        f"D{i}": {
            "type": "object",
            "properties": {"l": {"$ref": f"#/$defs/D{i + 1}"}, "r": {"$ref": f"#/$defs/D{i + 1}"}},
        }
        for i in range(40)
    }
    defs["D40"] = {"type": "string"}
    spec = field_spec_from_schema({"$ref": "#/$defs/D0", "$defs": defs})

    def count(node: FieldSpec) -> int:
        return 1 + sum(count(child) for child in node.children)

    assert count(spec) < 20_000


def count_fields(node: FieldSpec) -> int:
    return 1 + sum(count_fields(child) for child in node.children)


def test_an_object_with_more_properties_than_a_form_can_hold_is_one_json_field() -> None:
    wide = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(5_000)}}
    assert field_spec_from_schema(wide).kind == "json"
    assert count_fields(field_spec_from_schema(wide)) == 1
    nested = {"type": "object", "properties": {"name": {"type": "string"}, "many": wide}}
    spec = field_spec_from_schema(nested)
    assert [child.kind for child in spec.children] == ["string", "json"]
    fits = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(MAX_FIELDS - 1)}}
    assert field_spec_from_schema(fits).kind == "object"  # up to the bound, every field is its own


def test_many_wide_objects_side_by_side_stay_within_twice_the_bound() -> None:
    wide = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(300)}}
    spec = field_spec_from_schema({"type": "object", "properties": {f"o{i}": wide for i in range(50)}})
    assert count_fields(spec) <= 2 * MAX_FIELDS
    assert spec.children[0].kind == "object" and spec.children[-1].kind == "json"


def test_a_ref_met_again_inside_its_own_expansion_becomes_one_json_field() -> None:
    node = field_spec_from_schema(SELF_RECURSIVE).child("root")
    assert node.kind == "object"
    assert [child.kind for child in node.children] == ["json", "json"]
    assert count_fields(field_spec_from_schema(SELF_RECURSIVE)) == 4


def test_mutually_recursive_refs_stop_where_the_first_ref_comes_back() -> None:
    spec = field_spec_from_schema(MUTUALLY_RECURSIVE)
    b = spec.child("root").child("b")
    assert b.kind == "object"
    assert [child.kind for child in b.children] == ["json", "json"]
    assert count_fields(spec) == 8


@pytest.mark.parametrize(
    "schema",
    [
        {"type": ["integer", "null"]},
        {"anyOf": [{"type": "integer"}, {"type": "null"}]},
        {"oneOf": [{"type": "null"}, {"type": "integer", "minimum": 0}]},
        {"type": "integer", "nullable": True},
    ],
)
def test_null_alternatives_make_a_nullable_field_of_the_other_type(schema: dict[str, Any]) -> None:
    spec = only_field(schema)
    assert (spec.kind, spec.nullable) == ("integer", True)


def test_a_nullable_ref_keeps_the_outer_title_and_default() -> None:
    schema = {
        "type": "object",
        "properties": {
            "inner": {"anyOf": [{"$ref": "#/$defs/In"}, {"type": "null"}], "default": None, "title": "Inner thing"}
        },
        "$defs": {"In": {"type": "object", "title": "In", "properties": {"x": {"type": "string"}}}},
    }
    spec = field_spec_from_schema(schema).child("inner")
    assert (spec.kind, spec.nullable, spec.default, spec.title) == ("object", True, None, "Inner thing")


def test_a_single_all_of_wrapper_is_unwrapped() -> None:
    schema = {
        "type": "object",
        "properties": {"m": {"allOf": [{"$ref": "#/$defs/M"}], "default": "a", "description": "mode"}},
        "$defs": {"M": {"enum": ["a", "b"]}},
    }
    spec = field_spec_from_schema(schema).child("m")
    assert (spec.kind, spec.default, spec.description) == ("choice", "a", "mode")


@pytest.mark.parametrize("name", ["shape", "merged", "labels", "anything", "also_anything"])
def test_shapes_the_form_cannot_model_fall_back_to_a_json_field(name: str) -> None:
    assert field_spec_from_schema(load_schema("form_showcase")).child(name).kind == "json"


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "null"},
        {"not": {"type": "string"}},
        {"type": "object"},
        {
            "anyOf": [
                {"type": "object", "properties": {"a": {"type": "string"}}},
                {"type": "object", "properties": {"b": {"type": "string"}}},
            ]
        },
    ],
)
def test_unknown_shapes_and_unions_nobody_could_tell_apart_are_json_fields(schema: dict[str, Any]) -> None:
    assert only_field(schema).kind == "json"


@pytest.mark.parametrize("schema", [{"type": "object"}, {"type": "object", "properties": {}}, {}])
def test_a_tool_without_arguments_gets_an_empty_form_or_a_json_field(schema: dict[str, Any]) -> None:
    spec = field_spec_from_schema(schema)
    assert spec.required
    assert spec.kind == ("json" if schema == {} else "object") and spec.children == ()


def test_a_root_map_without_properties_is_a_json_field() -> None:
    assert field_spec_from_schema({"type": "object", "additionalProperties": {"type": "string"}}).kind == "json"


@settings(max_examples=examples(400), deadline=None)
@given(schema_like)
def test_arbitrary_schema_like_values_never_crash_the_spec_builder(schema: Any) -> None:
    spec = field_spec_from_schema(schema)
    assert spec.required and spec.kind in {
        "object",
        "json",
        "string",
        "number",
        "integer",
        "boolean",
        "choice",
        "multi_choice",
        "list",
    }


@settings(max_examples=examples(200), deadline=None)
@given(schema_like, json_values)
def test_arbitrary_schemas_never_crash_reading_or_validating_a_form(schema: Any, value: Any) -> None:
    spec = field_spec_from_schema(schema)
    sent, problems = value_from_entry(spec, initial_entry(spec))
    assert isinstance(problems, list)
    entry = entry_from_value(spec, value)
    if entry is not None:
        assert json_equal(value_from_entry(spec, entry)[0], value)
    assert isinstance(argument_problems(schema, value), list)
    # null is sent only where the schema allows it: nullable, or an explicit `default: null` shown untouched
    assert sent is not None or spec.nullable or (isinstance(schema, dict) and schema.get("default", 0) is None)


def test_the_pure_part_does_not_import_ipywidgets() -> None:
    code = "import sys, anvia_nb.widgets.spec; print('ipywidgets' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"
