"""outputSchema verdicts and argument checks: a full 2020-12 validator that never fetches."""

from __future__ import annotations

import socket

import pytest

from anvia_nb.core.schema import argument_problems, output_problems

SUM = {"type": "object", "properties": {"sum": {"type": "number"}}, "required": ["sum"]}


def test_valid_structured_content_has_no_problems() -> None:
    assert output_problems(SUM, {"sum": 5}) == []


def test_each_violation_is_one_readable_line_with_its_path() -> None:
    schema = {"type": "object", "properties": {"rows": {"type": "array", "items": {"type": "integer"}}}}
    assert output_problems(schema, {"rows": [1, "two"]}) == ["rows[1]: 'two' is not of type 'integer'"]


def test_a_missing_required_property_reads_plainly() -> None:
    assert output_problems(SUM, {}) == ["'sum' is a required property"]


def test_2020_12_keywords_apply_when_no_dialect_is_named() -> None:
    schema = {"type": "array", "prefixItems": [{"type": "string"}], "items": False}
    assert output_problems(schema, ["a"]) == []
    assert output_problems(schema, ["a", 1]) != []


def test_a_declared_draft_07_dialect_is_honoured() -> None:
    schema = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "additionalProperties": False}
    assert output_problems(schema, {"x": 1}) != []


def test_formats_are_annotations_not_assertions() -> None:
    schema = {"type": "string", "format": "date-time"}
    assert output_problems(schema, "yesterday at noon") == []


def test_structured_content_may_be_any_json_value() -> None:
    assert output_problems({"type": "integer"}, 3) == []
    assert output_problems({"type": "integer"}, "3") == ["'3' is not of type 'integer'"]


def test_a_remote_ref_is_never_fetched(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a network connection was attempted")

    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    schema = {"type": "object", "properties": {"a": {"$ref": "http://127.0.0.1:9/schema.json"}}}
    verdict = output_problems(schema, {"a": 1})
    assert len(verdict) == 1
    assert verdict[0].startswith("outputSchema: the schema cannot be applied")
    assert argument_problems(schema, {"a": 1}) == []  # the server still judges its own arguments


def test_an_invalid_schema_is_reported_for_outputs_and_ignored_for_arguments() -> None:
    broken = {"type": "no-such-type"}
    assert output_problems(broken, 1)[0].startswith("outputSchema: the schema is not valid JSON Schema")
    assert argument_problems(broken, {}) == []


def test_local_refs_resolve() -> None:
    schema = {"$defs": {"n": {"type": "integer"}}, "type": "object", "properties": {"n": {"$ref": "#/$defs/n"}}}
    assert argument_problems(schema, {"n": 1}) == []
    assert argument_problems(schema, {"n": "x"}) == ["n: 'x' is not of type 'integer'"]
