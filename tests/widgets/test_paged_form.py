"""A form of many fields builds a page at a time and behaves as if every field were built: a field
on a page opened later validates and is sent, a required field on a closed page still blocks the
call, and a value loaded into the form reaches fields not built yet."""

from __future__ import annotations

from typing import Any

from anvia_nb.core.protocol.schema import schema_check
from anvia_nb.policy import Limits
from anvia_nb.widgets.fields.arguments_form import ArgumentsForm
from anvia_nb.widgets.fields.paged import PagedObjectField

PAGE_FIELDS = Limits().page_fields

COUNT = 3 * PAGE_FIELDS + 5
LAST = f"p{COUNT - 1:03d}"


def many(required: tuple[str, ...] = ()) -> dict[str, Any]:
    properties: dict[str, Any] = {f"p{i:03d}": {"type": "integer"} for i in range(COUNT)}
    properties["p001"] = {"type": "string", "minLength": 2}
    return {"type": "object", "properties": properties, "required": list(required)}


def paged(form: ArgumentsForm) -> PagedObjectField:
    assert isinstance(form.root, PagedObjectField)
    return form.root


def test_only_the_first_page_is_built_and_the_others_wait_closed() -> None:
    root = paged(ArgumentsForm(schema=many()))
    assert list(root.children) == [f"p{i:03d}" for i in range(PAGE_FIELDS)]
    assert [page.built for page in root.pages] == [False] * len(root.pages)
    assert root.pages[-1].toggle.description == f"▸ fields {3 * PAGE_FIELDS + 1}–{COUNT} of {COUNT}"


def test_a_field_built_when_its_page_opens_validates_and_is_sent() -> None:
    form = ArgumentsForm(schema=many())
    root = paged(form)
    root.open_page(root.pages[-1])
    assert root.pages[-1].built and LAST in root.children
    form.field(LAST).input.value = "nine"
    assert not form.valid and form.problems == [f"{LAST}: 'nine' is not an integer"]
    form.field(LAST).input.value = "9"
    assert form.valid and form.value == {LAST: 9}


def test_a_required_field_on_a_closed_page_still_blocks_the_call() -> None:
    form = ArgumentsForm(schema=many(required=(LAST,)))
    root = paged(form)
    assert not root.pages[-1].built
    assert not form.valid
    assert form.problems == [f"{LAST}: a value is required"]
    assert "required" in root.pages[-1].toggle.description
    form.field(LAST).input.value = "3"  # asked for by name: its page is built, not opened
    assert root.pages[-1].built and root.pages[-1].box.layout.display == "none"
    assert form.valid and form.value == {LAST: 3}


def test_a_value_set_before_a_page_is_built_is_sent_and_shown_when_it_opens() -> None:
    form = ArgumentsForm(schema=many())
    form.set_value({"p001": "ab", LAST: 7})
    root = paged(form)
    assert not root.pages[-1].built
    assert form.value == {"p001": "ab", LAST: 7}
    root.open_page(root.pages[-1])
    assert form.field(LAST).input.value == "7"
    assert form.value == {"p001": "ab", LAST: 7}


def test_a_small_form_is_not_paged() -> None:
    schema = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(2 * PAGE_FIELDS)}}
    assert not isinstance(ArgumentsForm(schema=schema).root, PagedObjectField)


def test_a_schema_of_many_properties_is_still_checked_as_json_schema() -> None:
    broken = many()
    broken["properties"][LAST] = {"type": "integer", "minimum": "zero"}  # checked once per distinct shape
    verdict = schema_check(broken).verdict({"p001": 5})
    assert isinstance(verdict, str) and verdict.startswith("the schema is not valid JSON Schema: 'zero'")
    assert schema_check(many()).verdict({"p001": 5}) != verdict
    titled = many()
    titled["properties"][LAST] = {"type": "integer", "title": 5}  # a title that is no text
    assert str(schema_check(titled).verdict({"p001": 5})).startswith("the schema is not valid JSON Schema: 5")
