"""Field widgets without a browser: the right control per kind, touched tracking, entries."""

from __future__ import annotations

import datetime
from typing import Any

import ipywidgets as widgets
import pytest

from anvia_nb.widgets.fields import BUILDERS, FieldWidget, ListField, ObjectField, build_field
from anvia_nb.widgets.spec import OMITTED, Entry, field_spec_from_schema, value_from_entry
from tests.helpers.spec import load_schema

SHOWCASE_SPEC = field_spec_from_schema(load_schema("form_showcase"))


def field_for(schema: dict[str, Any], *, required: bool = False) -> FieldWidget:
    root = {"type": "object", "properties": {"f": schema}, "required": ["f"] if required else []}
    return build_field(field_spec_from_schema(root).child("f"))


def sent(field: FieldWidget) -> Any:
    return value_from_entry(field.spec, field.entry())


def test_the_dispatch_table_has_a_builder_for_every_kind() -> None:
    assert set(BUILDERS) == {
        "string",
        "number",
        "integer",
        "boolean",
        "choice",
        "multi_choice",
        "list",
        "object",
        "union",
        "json",
    }


@pytest.mark.parametrize(
    ("name", "control"),
    [
        ("text", widgets.Text),
        ("ratio", widgets.Text),
        ("count", widgets.Text),
        ("verbose", widgets.Dropdown),
        ("level", widgets.Dropdown),
        ("channels", widgets.SelectMultiple),
        ("birthday", widgets.DatePicker),
        ("anything", widgets.Textarea),
        ("tags", widgets.VBox),
        ("address", widgets.VBox),
    ],
)
def test_each_kind_gets_the_control_a_person_expects(name: str, control: type) -> None:
    assert type(build_field(SHOWCASE_SPEC.child(name)).input) is control


def test_numbers_are_plain_text_so_half_typed_input_is_kept_verbatim() -> None:
    field = field_for({"type": "number"})
    field.input.value = "1e"
    assert field.entry().text == "1e"
    assert sent(field) == (OMITTED, ["'1e' is not a number"])


def test_a_number_field_placeholder_says_its_range() -> None:
    assert field_for({"type": "integer", "minimum": 1, "exclusiveMaximum": 10}).input.placeholder == "integer ≥ 1 < 10"


def test_format_fields_have_a_placeholder_showing_the_expected_form() -> None:
    assert field_for({"type": "string", "format": "email"}).input.placeholder == "name@example.com"


def test_a_required_boolean_is_a_checkbox_and_an_optional_one_can_stay_unset() -> None:
    required = field_for({"type": "boolean"}, required=True)
    assert isinstance(required.input, widgets.Checkbox) and sent(required) == (False, [])
    optional = field_for({"type": "boolean"})
    assert optional.input.value == "unset"
    optional.input.value = "false"
    assert sent(optional) == (False, [])
    optional.input.value = "unset"
    assert sent(optional) == (OMITTED, []) and optional.entry().flag is None


def test_an_optional_choice_starts_unset_and_a_required_one_starts_blank() -> None:
    optional = field_for({"enum": ["a", "b"]})
    assert optional.input.label == "(not set)"
    required = field_for({"enum": ["a", "b"]}, required=True)
    assert required.input.value is None and "(not set)" not in required.input.options
    required.input.label = "b"
    assert sent(required) == ("b", [])


def test_choice_labels_are_the_titles_and_values_are_sent() -> None:
    field = build_field(SHOWCASE_SPEC.child("color"))
    assert [label for label, _ in field.input.options] == ["(not set)", "Red", "Green", "Blue"]
    field.input.label = "Green"
    assert sent(field) == ("#00ff00", [])


def test_a_multi_select_sends_the_selected_values() -> None:
    field = build_field(SHOWCASE_SPEC.child("channels"))
    field.input.label = ("email", "push")
    assert sent(field) == (["email", "push"], [])


def test_a_date_picker_sends_an_iso_date() -> None:
    field = build_field(SHOWCASE_SPEC.child("birthday"))
    field.input.value = datetime.date(2024, 2, 29)
    assert sent(field) == ("2024-02-29", [])
    field.input.value = None
    assert field.entry().text == ""


def test_an_optional_default_is_a_placeholder_not_a_value() -> None:
    field = build_field(SHOWCASE_SPEC.child("count"))
    assert field.input.value == "" and field.input.placeholder.startswith("server default: 3")
    assert not field.touched and sent(field) == (OMITTED, [])
    field.input.value = "4"
    assert field.touched and sent(field) == (4, [])


def test_an_optional_boolean_or_choice_names_the_default_in_its_unset_option() -> None:
    field = field_for({"type": "boolean", "default": True})
    assert field.input.label == "(not set: server default true)" and sent(field) == (OMITTED, [])
    field = field_for({"enum": ["fast", "exact"], "default": "exact"})
    assert field.input.label == "(not set: server default exact)" and sent(field) == (OMITTED, [])


def test_a_required_default_is_shown_as_the_value_it_sends() -> None:
    field = field_for({"type": "integer", "default": 10}, required=True)
    assert field.input.value == "10" and sent(field) == (10, [])


def test_loading_an_entry_is_not_a_touch_and_fires_no_change() -> None:
    field = field_for({"type": "string"})
    changes: list[None] = []
    field.on_change(lambda: changes.append(None))
    field.load(Entry(text="remembered"))
    assert field.input.value == "remembered" and not field.touched and changes == []
    field.input.value = "typed"
    assert field.touched and len(changes) == 1


def test_the_null_box_disables_the_input_and_sends_null() -> None:
    field = build_field(SHOWCASE_SPEC.child("nickname"))
    assert field.null_box is not None
    field.null_box.value = True
    assert field.input.disabled and sent(field) == (None, [])
    field.null_box.value = False
    assert not field.input.disabled


def test_an_optional_null_default_leaves_the_null_box_unticked_and_says_so() -> None:
    field = build_field(SHOWCASE_SPEC.child("limit"))
    assert field.null_box is not None and not field.null_box.value and not field.touched
    assert field.input.placeholder.startswith("server default: null")


def test_the_description_is_escaped_wrapping_text_and_required_fields_are_marked() -> None:
    spec = field_spec_from_schema(
        {
            "type": "object",
            "required": ["x"],
            "properties": {
                "x": {"type": "string", "description": "<img src=x onerror=alert(1)> " + "long words " * 40}
            },
        }
    )
    field = build_field(spec.child("x"))
    assert field.help_label is not None
    assert "&lt;img src=x onerror=alert(1)&gt;" in field.help_label.value
    assert "white-space:pre-wrap" in field.help_label.value  # wraps instead of clipping
    assert field.name_label.value == "x *"
    assert not any("<img" in w.value for w in walk(field.widget) if isinstance(w, widgets.HTML))


def walk(widget: Any) -> list[Any]:
    found = [widget]
    for child in getattr(widget, "children", ()):
        found += walk(child)
    return found


def test_list_rows_are_added_and_removed_by_buttons() -> None:
    field = build_field(SHOWCASE_SPEC.child("tags"))
    assert isinstance(field, ListField) and field.rows == [] and not field.touched
    field.add_button.click()
    field.add_button.click()
    field.rows[0].input.value = "a"
    field.rows[1].input.value = "b"
    assert sent(field) == (["a", "b"], [])
    field.remove_buttons[0].click()
    assert sent(field) == (["b"], [])
    assert field.touched


def list_field(name: str) -> ListField:
    field = build_field(SHOWCASE_SPEC.child(name))
    assert isinstance(field, ListField)
    return field


def test_a_nested_object_is_a_bordered_group_touched_through_its_children() -> None:
    field = build_field(SHOWCASE_SPEC.child("address"))
    assert isinstance(field, ObjectField) and field.input.layout.border
    assert sent(field) == (OMITTED, []) and not field.entry().anything_touched
    field.field("city").input.value = "Oslo"
    assert sent(field) == ({"city": "Oslo"}, [])


def test_a_recursive_part_is_a_json_textarea_inside_the_group() -> None:
    field = build_field(SHOWCASE_SPEC.child("tree"))
    assert isinstance(field, ObjectField)
    assert isinstance(field.field("children").input, widgets.Textarea)
