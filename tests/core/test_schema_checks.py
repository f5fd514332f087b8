"""outputSchema verdicts and argument checks: a full 2020-12 validator that never fetches."""

from __future__ import annotations

import socket
import threading
from typing import Any

import pytest

from anvia_nb.core.protocol.schema import argument_problems, compiled_count, output_problems, schema_check

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


# -- the one validator: compiled once, one format policy, plain words, bounded patterns --------


def test_a_schema_is_compiled_once_however_often_it_is_checked() -> None:
    schema = {"type": "object", "properties": {f"f{i}": {"type": "string", "maxLength": i + 1} for i in range(400)}}
    before = compiled_count()
    for n in range(100):
        assert argument_problems(schema, {"f0": "x" * (n % 3)}) == ([] if n % 3 < 2 else ["f0: 'xx' is too long"])
        schema_check(schema).problems({"f1": n})
    assert compiled_count() - before == 1
    assert schema_check(dict(reversed(list(schema.items())))) is schema_check(schema)  # same schema, same check


def test_the_same_arguments_checked_twice_on_one_path_are_validated_once() -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    check = schema_check(schema)
    before = check.validations
    assert (
        argument_problems(schema, {"n": "x"})
        == argument_problems(schema, {"n": "x"})
        == ["n: 'x' is not of type 'integer'"]
    )  # %mcp call's check, then call_outcome's
    assert check.validations - before == 1
    assert argument_problems(schema, {"n": 1}) == [] and check.validations - before == 2


def test_the_format_policy_is_one_option_annotations_by_default() -> None:
    schema = {
        "type": "object",
        "properties": {"e": {"type": "string", "format": "email"}, "d": {"type": "string", "format": "date"}},
    }
    odd = {"e": "ada@", "d": "2024-02-30"}
    assert schema_check(schema).problems(odd) == [] == argument_problems(schema, odd)
    asserted = schema_check(schema, formats="assert").problems(odd)
    assert [p.line(plain=True) for p in asserted] == [
        "d: is not a date (YYYY-MM-DD)",
        "e: is not an email address (name@example.com)",
    ]
    assert schema_check(schema, formats="assert").problems({"e": "a@b.c", "d": "2024-02-29"}) == []


@pytest.mark.parametrize(
    ("schema", "value", "plain"),
    [
        ({"type": "integer"}, "x", "n: must be an integer"),
        ({"type": ["string", "null"]}, 1, "n: must be text or null"),
        ({"minimum": 1}, 0, "n: must be at least 1"),
        ({"exclusiveMaximum": 5}, 5, "n: must be less than 5"),
        ({"maxLength": 2}, "abc", "n: must have at most 2 characters"),
        ({"minItems": 1}, [], "n: needs at least 1 item"),
        ({"enum": ["a", "b"]}, "c", "n: must be one of: a, b"),
        ({"pattern": "^[A-Z]{3}$"}, "ab", "n: must match the pattern ^[A-Z]{3}$"),
        (
            {"anyOf": [{"type": "object", "properties": {"x": {"maximum": 3}}}, {"type": "null"}]},
            {"x": 9},
            "n.x: must be at most 3",
        ),
    ],
)
def test_problems_have_plain_words_beside_the_validators_own(schema: dict[str, Any], value: Any, plain: str) -> None:
    whole = {"type": "object", "properties": {"n": schema}, "required": ["n", "m"]}
    problems = schema_check(whole).problems({"n": value})
    assert [p.line(plain=True) for p in problems] == ["m: a value is required", plain]
    assert problems[0].line() == "'m' is a required property"  # the magic's wording is unchanged
    assert not any("is not of type" in p.plain or "'" in p.plain[:1] for p in problems)


def test_a_catastrophic_pattern_is_checked_with_a_bounded_cost_and_never_blocks() -> None:
    schema = {"type": "object", "properties": {"s": {"type": "string", "pattern": "^(a|aa)+$"}}}
    hostile = {"s": "a" * 60 + "!"}
    done = threading.Event()
    found: list[Any] = []

    def check() -> None:
        found.append(schema_check(schema).problems(hostile))
        done.set()

    threading.Thread(target=check, daemon=True).start()
    assert done.wait(30), "a server's pattern froze the check"
    (problem,) = found[0]
    assert not problem.blocking and "could not be checked in time" in problem.plain
    assert argument_problems(schema, hostile) == [] and output_problems(schema, hostile) == []
    assert argument_problems(schema, {"s": "b"}) == ["s: 'b' does not match '^(a|aa)+$'"]
    assert argument_problems(schema, {"s": "aaa"}) == []
    nested = {"type": "string", "pattern": "^(a+)+$"}
    assert output_problems(nested, "a" * 40 + "!") == ["'" + "a" * 40 + "!' does not match '^(a+)+$'"]
