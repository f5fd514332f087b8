"""The form and ``%mcp call`` accept and refuse exactly the same arguments: one validator
(``anvia_nb.core.protocol.schema``), compiled once per schema, with one format policy."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anvia_nb.core.protocol.schema import argument_problems, compiled_count
from anvia_nb.widgets.fields.arguments_form import ArgumentsForm
from tests.helpers.spec import load_schema
from tests.helpers.support import examples

FORMATS = ["email", "date", "date-time", "time", "uri", "uuid", "ipv4", "hostname"]
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        **{fmt.replace("-", "_"): {"type": "string", "format": fmt} for fmt in FORMATS},
        "code": {"type": "string", "pattern": "^[A-Z]{2,3}$", "maxLength": 3},
        "count": {"type": "integer", "minimum": 1, "maximum": 5},
    },
    "required": ["email"],
}
FORM = ArgumentsForm(schema=SCHEMA)  # one form, typed into again and again, as a person would
texts = st.one_of(
    st.sampled_from(
        [
            "ada@",
            "ada@example.com",
            "2024-02-30",
            "2024-02-29",
            "12:00",
            "25:00",
            "tomorrow",
            "example.com",
            "https://example.com",
            "AB",
            "abcd",
            "ABCD",
            "",
            "0",
            "3",
            "9",
            "1e",
            "2024-05-01T10:00",
            "not-a-uuid",
            "999.1.1.1",
            "-bad-",
        ]
    ),
    st.text(max_size=8),
)


def agree(form: ArgumentsForm, field: str, text: str) -> None:
    form.field(field).input.value = text
    if not form.valid and any("is not an integer" in p or "is not a number" in p for p in form.problems):
        return  # text the field cannot read is not arguments: nothing to send to either
    sent = form._value
    assert form.valid == (argument_problems(SCHEMA, sent) == []), (field, text, form.problems)


@pytest.mark.parametrize(
    ("field", "text"), [("email", "ada@"), ("time", "25:00"), ("uri", "example.com"), ("date_time", "tomorrow")]
)
def test_a_form_sends_what_the_magic_sends_whatever_the_format(field: str, text: str) -> None:
    form = ArgumentsForm(schema=SCHEMA)
    form.field("email").input.value = "x"
    form.field(field).input.value = text
    assert form.valid and form.value[field] == text and argument_problems(SCHEMA, form.value) == []
    hint = form.field(field).hint_text
    assert hint.startswith("does not look like") and "sent as typed" in hint  # a hint, never a refusal


def test_a_date_the_picker_cannot_show_is_still_sent_as_the_magic_would() -> None:
    form = ArgumentsForm(schema=SCHEMA, initial={"email": "x", "date": "2024-02-30"})  # remembered arguments
    assert not form.json_mode and form.valid
    assert form.value == {"email": "x", "date": "2024-02-30"} and argument_problems(SCHEMA, form.value) == []


@settings(max_examples=examples(150), deadline=None)  # the quick set tries fewer (support.examples)
@given(st.sampled_from(["email", "date_time", "time", "uri", "uuid", "ipv4", "hostname", "code", "count"]), texts)
def test_the_form_and_argument_problems_accept_and_refuse_the_same_arguments(field: str, text: str) -> None:
    agree(FORM, field, text)


def test_the_validator_is_built_once_per_schema_not_per_keystroke_or_form() -> None:
    schema = load_schema("form_showcase")
    forms = [ArgumentsForm(schema=schema)]
    before = compiled_count()
    forms.append(ArgumentsForm(schema=schema))
    for n in range(100):
        forms[1].field("text").input.value = f"typed {n}"
        forms[1].field("count").input.value = str(n % 10 + 1)
    assert forms[1].value["count"] == 10
    argument_problems(schema, forms[1].value)  # the magic's check of the same schema: the same validator
    assert compiled_count() == before
