"""What an arguments form shows a person: the live "will send" line, defaults as placeholders,
groups for arrays of objects, a chooser for type unions, and each problem once, in plain words."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, Field

from anvia_nb.core.protocol.schema import argument_problems
from anvia_nb.core.protocol.types import ToolInfo
from anvia_nb.policy import MASK, ShowPolicy
from anvia_nb.widgets.fields import ListField, ObjectField, UnionField
from anvia_nb.widgets.fields.arguments_form import ArgumentsForm
from tests.helpers.spec import load_schema

FETCH = ToolInfo(server="fetch", name="fetch", input_schema=load_schema("fetch"))
SECRET = "sk-live-51HqMASKME"


def will_send(form: ArgumentsForm) -> Any:
    text = form.will_send_text
    assert text.startswith("will send: "), text
    return json.loads(text.removeprefix("will send: "))


def test_the_will_send_line_follows_every_change_and_is_exactly_what_call_sends() -> None:
    form = ArgumentsForm(FETCH)
    assert form.will_send_text == 'so far: {"url": ""}'  # the problem is said once, not here again
    form.field("url").input.value = "https://example.com"
    assert will_send(form) == {"url": "https://example.com"} == form.value
    form.field("raw").input.value = "true"
    assert will_send(form) == {"url": "https://example.com", "raw": True} == form.value
    assert "will send: " in form.will_send.value  # shown under the form, as escaped HTML


def test_the_will_send_line_masks_secrets_from_the_show_policy_but_the_value_keeps_them() -> None:
    form = ArgumentsForm(FETCH, policy=ShowPolicy(secrets=frozenset({SECRET})))
    form.field("url").input.value = f"https://example.com/?key={SECRET}"
    assert SECRET not in form.will_send_text and SECRET not in form.will_send.value
    assert will_send(form) == {"url": f"https://example.com/?key={MASK}"}
    assert form.value == {"url": f"https://example.com/?key={SECRET}"}
    both = ArgumentsForm(FETCH, secrets=("tok-123",), policy=ShowPolicy(secrets=frozenset({SECRET})))
    both.field("url").input.value = f"{SECRET}/tok-123"
    assert will_send(both) == {"url": f"{MASK}/{MASK}"}


def test_an_optional_default_is_a_placeholder_that_is_not_sent_and_a_required_one_is_sent() -> None:
    schema = {
        "type": "object",
        "required": ["n"],
        "properties": {
            "n": {"type": "integer", "default": 5},
            "m": {"type": "integer", "default": 10},
            "flag": {"type": "boolean", "default": True},
        },
    }
    form = ArgumentsForm(schema=schema)
    assert form.field("m").input.value == "" and form.field("m").input.placeholder.startswith("server default: 10")
    assert form.field("flag").input.label == "(not set: server default true)"
    assert form.field("n").input.value == "5"
    assert will_send(form) == {"n": 5} == form.value


def test_a_required_array_left_untouched_or_with_an_empty_row_cannot_be_sent() -> None:
    form = ArgumentsForm(schema=load_schema("filesystem_read_multiple_files"))
    assert not form.valid and form.problems == [
        "paths: a value is required: add an item (+ then − sends an empty list)"
    ]
    paths = form.field("paths")
    assert isinstance(paths, ListField)
    paths.add_button.click()
    assert (
        not form.valid
        and form.field("paths").problem_text == "a value is required: add an item (+ then − sends an empty list)"
    )  # not [""] nor []
    paths.rows[0].input.value = "/tmp/a"
    paths.add_button.click()  # a second row, left empty: not sent
    assert form.valid and will_send(form) == {"paths": ["/tmp/a"]}


def test_filesystem_edit_file_edits_are_addable_groups_of_fields() -> None:
    schema = load_schema("filesystem_edit_file")
    form = ArgumentsForm(schema=schema)
    form.field("path").input.value = "a.py"
    edits = form.field("edits")
    assert isinstance(edits, ListField)
    for old, new in (("a", "b"), ("c", "d")):
        row = edits.add_row()
        edits._changed()
        assert isinstance(row, ObjectField)
        row.field("oldText").input.value = old
        row.field("newText").input.value = new
    edits.add_button.click()  # a third group, left alone: not sent
    expected = {"path": "a.py", "edits": [{"oldText": "a", "newText": "b"}, {"oldText": "c", "newText": "d"}]}
    assert form.valid and form.value == expected == will_send(form)
    assert argument_problems(schema, form.value) == []


class Observation(BaseModel):
    entityName: str
    contents: list[str] = Field(min_length=1)


class AddObservations(BaseModel):
    """Shaped like server-memory's add_observations: a list of models."""

    observations: list[Observation]


def test_a_pydantic_list_of_models_is_groups_whose_problems_are_shown_in_plain_words_once() -> None:
    schema = AddObservations.model_json_schema()
    form = ArgumentsForm(schema=schema)
    groups = form.field("observations")
    assert isinstance(groups, ListField)
    groups.add_button.click()
    row = groups.rows[0]
    assert isinstance(row, ObjectField)
    row.field("entityName").input.value = "ada"
    assert form.problems == [
        "observations[0].contents: a value is required: add an item (+ then − sends an empty list)"
    ]  # untouched: never sent as []
    contents = row.field("contents")
    assert isinstance(contents, ListField)
    contents.add_button.click()
    contents.rows[0].input.value = "likes tea"
    assert form.valid and AddObservations.model_validate(form.value).observations[0].contents == ["likes tea"]


def test_a_type_union_is_a_chooser_of_the_type_then_its_field() -> None:
    schema = {"type": "object", "properties": {"v": {"type": ["boolean", "string"], "description": "a flag or a name"}}}
    form = ArgumentsForm(schema=schema)
    union = form.field("v")
    assert isinstance(union, UnionField)
    assert union.chooser.label.startswith("(not set") and form.value == {}
    union.choose("true/false").input.value = "true"
    assert will_send(form) == {"v": True}
    union.choose("text").input.value = "yes"
    assert will_send(form) == {"v": "yes"}
    union.choose("true/false")
    assert form.value == {"v": True}  # what was chosen before is kept
    again = ArgumentsForm(schema=schema, initial={"v": "name"})
    assert not again.json_mode and again.value == {"v": "name"}


def test_a_json_box_that_remains_suggests_the_shape_and_reports_broken_json_plainly() -> None:
    schema = {"type": "object", "properties": {"shape": load_schema("form_showcase")["properties"]["shape"]}}
    form = ArgumentsForm(schema=schema)
    box = form.field("shape").input
    assert box.placeholder == '{"radius": 0}'
    box.value = '{"radius": '
    assert form.problems == ["shape: not valid JSON (line 1, column 12): expecting value"]


def test_each_problem_is_shown_once_in_plain_words() -> None:
    schema = {
        "type": "object",
        "required": ["n", "code"],
        "properties": {"n": {"type": "integer", "maximum": 3}, "code": {"type": "string", "pattern": "^[A-Z]+$"}},
    }
    form = ArgumentsForm(schema=schema)
    assert form.summary == "n: a value is required (and 1 more)"  # a fresh form does not scold: a status line says why
    form.field("n").input.value = "7"
    assert form.problems == ["n: must be at most 3", "code: must match the pattern ^[A-Z]+$"]  # code is sent as ""
    assert form.field("n").problem_text == "must be at most 3"
    assert "must be at most 3" not in form.problems_box.value  # not repeated under the form
    assert "code: must match the pattern ^[A-Z]+$" in form.problems_box.value  # untouched: under the form
    form.field("code").input.value = "AB"
    assert form.problems_box.layout.display == "none"
    assert form.summary == "n: see above"
    form.mode.value = "JSON"
    form.json_text.value = '{"n": "x", "code": "a"}'
    shown = form.problems_box.value
    assert "n: must be an integer" in shown and "code: must match the pattern ^[A-Z]+$" in shown
    assert "is not of type" not in shown and "does not match" not in shown
    assert form.field("n").problem_text == ""  # the fields are hidden in JSON mode: shown there only


def test_a_pattern_too_costly_to_check_is_a_hint_and_never_blocks_the_form() -> None:
    schema = {"type": "object", "properties": {"s": {"type": "string", "pattern": "^(a|aa)+$"}}}
    form = ArgumentsForm(schema=schema)
    form.field("s").input.value = "a" * 60 + "!"  # backtracking would take years: bounded instead
    assert form.valid and form.value == {"s": "a" * 60 + "!"}
    assert "could not be checked in time" in form.field("s").hint_text
    form.field("s").input.value = "b"
    assert form.problems == ["s: must match the pattern ^(a|aa)+$"] and form.field("s").hint_text == ""
