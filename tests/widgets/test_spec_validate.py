"""Whole-value validation: jsonschema in the schema's own dialect, one readable line per problem."""

from __future__ import annotations

import socket
from typing import Any

import pytest
from spec_helpers import load_schema

from anvia_nb.widgets.spec import validate_arguments

SHOWCASE = load_schema("form_showcase")


def test_a_type_mismatch_reads_as_field_colon_message() -> None:
    schema = {"type": "object", "properties": {"count": {"type": "integer"}}}
    assert validate_arguments(schema, {"count": "x"}) == ["count: 'x' is not of type 'integer'"]


def test_nested_paths_are_dotted_and_list_indexes_bracketed() -> None:
    problems = validate_arguments(SHOWCASE, {"text": "t", "address": {"city": "c", "zip": "1"},
                                             "scores": [1, "two"]})
    assert problems == ["address.zip: '1' does not match '^[0-9]{5}$'", "scores[1]: 'two' is not of type 'number'"]


def test_a_missing_required_property_is_reported_at_the_object() -> None:
    assert validate_arguments(SHOWCASE, {}) == ["'text' is a required property"]
    assert validate_arguments(SHOWCASE, {"text": "", "address": {}}) == ["address: 'city' is a required property"]


def test_a_valid_value_has_no_problems() -> None:
    assert validate_arguments(SHOWCASE, {"text": "", "color": "#ff0000", "shape": {"radius": 1}}) == []


def test_every_problem_gets_its_own_line() -> None:
    assert len(validate_arguments(SHOWCASE, {"text": 1, "count": 0, "level": "loud"})) == 3


def test_without_dollar_schema_the_dialect_is_2020_12() -> None:
    schema = {"type": "array", "prefixItems": [{"type": "string"}]}
    assert validate_arguments(schema, [1]) == ["[0]: 1 is not of type 'string'"]


def test_a_draft_4_schema_is_checked_as_draft_4() -> None:
    schema = {"$schema": "http://json-schema.org/draft-04/schema#", "type": "object",
              "properties": {"n": {"type": "number", "maximum": 5, "exclusiveMaximum": True}}}
    assert validate_arguments(schema, {"n": 5}) == ["n: 5 is greater than or equal to the maximum of 5"]


def test_an_unknown_dollar_schema_falls_back_to_2020_12_without_warning(recwarn: pytest.WarningsRecorder) -> None:
    schema = {"$schema": "https://example.com/my-dialect", "type": "object", "required": ["a"]}
    assert validate_arguments(schema, {}) == ["'a' is a required property"]
    assert not recwarn.list


@pytest.mark.parametrize("schema", [{"type": "text"}, {"properties": {"a": {"minimum": "x"}}}, "nonsense"])
def test_a_schema_that_cannot_judge_gives_no_lines_instead_of_raising(schema: Any) -> None:
    assert validate_arguments(schema, {"a": 1}) == []


def test_remote_refs_are_never_fetched(monkeypatch: pytest.MonkeyPatch) -> None:
    attempts: list[object] = []

    def no_network(*args: object, **kwargs: object) -> None:
        attempts.append(args)
        raise OSError("no network in this test")

    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.setattr(socket, "getaddrinfo", no_network)
    schema = {"type": "object", "properties": {"a": {"$ref": "https://example.com/a.json"}}}
    assert validate_arguments(schema, {"a": 1}) == []
    assert attempts == []


def test_true_and_empty_schemas_accept_anything() -> None:
    assert validate_arguments(True, {"a": 1}) == []
    assert validate_arguments({}, {"a": 1}) == []
