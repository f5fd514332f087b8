"""The quick check never accepts what the full validator refuses, and never takes a schema the
metaschema refuses: it only spares plain, valid calls the import of jsonschema."""

from __future__ import annotations

from typing import Any

import jsonschema
from hypothesis import given, settings
from hypothesis import strategies as st

from anvia_nb.core.protocol.schema import argument_problems, schema_check
from anvia_nb.core.protocol.schema_quick import quick_check
from tests.helpers.support import examples

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.floats(-5, 5, allow_nan=False),
    st.sampled_from([1.0, 0.0]),
    st.text(max_size=4),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.sampled_from("abc"), inner, max_size=3)),
    max_leaves=8,
)
type_names = st.sampled_from(["string", "integer", "number", "boolean", "null", "array", "object"])
odd = st.sampled_from([-1, 1.5, True, "x", None, [], ["a", "a"]])  # shapes the metaschema may refuse


def keyword_values(sub: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {},
        optional={
            "type": st.one_of(type_names, st.lists(type_names, max_size=3), odd),
            "properties": st.dictionaries(st.sampled_from("abc"), sub, max_size=3),
            "required": st.one_of(st.lists(st.sampled_from("abc"), max_size=3), odd),
            "additionalProperties": st.one_of(st.booleans(), sub),
            "items": sub,
            "enum": st.lists(scalars, max_size=3),
            "const": scalars,
            "minimum": st.one_of(st.integers(-3, 3), odd),
            "exclusiveMaximum": st.floats(-3, 3, allow_nan=False),
            "minLength": st.one_of(st.integers(0, 3), odd),
            "maxItems": st.integers(0, 3),
            "anyOf": st.lists(sub, max_size=2),
            "format": st.sampled_from(["email", "date"]),
            "title": st.one_of(st.text(max_size=3), odd),
        },
    )


schemas: st.SearchStrategy[Any] = st.recursive(st.just({}), keyword_values, max_leaves=6)


@settings(max_examples=examples(400), deadline=None)  # the quick set tries fewer (support.examples)
@given(schemas, values)
def test_what_the_quick_check_accepts_the_full_validator_accepts(schema: dict[str, Any], value: Any) -> None:
    quick = quick_check(schema)
    if quick is None:
        return
    jsonschema.Draft202012Validator.check_schema(schema)  # a schema with a quick check is valid
    if quick(value):
        assert list(jsonschema.Draft202012Validator(schema).iter_errors(value)) == []


def test_a_plain_schema_accepts_a_valid_call_without_building_the_validator() -> None:
    schema = {
        "type": "object",
        "properties": {"message": {"type": "string", "title": "Message"}},
        "required": ["message"],
        "additionalProperties": False,
    }
    check = schema_check(schema)
    assert argument_problems(schema, {"message": "hi"}) == []
    assert check._validator is None  # the valid call needed no jsonschema validator
    assert argument_problems(schema, {"message": 1}) == ["message: 1 is not of type 'string'"]
    assert argument_problems(schema, {"message": "hi", "x": 1}) == [
        "Additional properties are not allowed ('x' was unexpected)"
    ]


def test_schemas_that_are_not_plain_get_no_quick_check() -> None:
    assert quick_check({"type": "string", "pattern": "^a"}) is None
    assert quick_check({"$ref": "#/$defs/a", "$defs": {"a": {}}}) is None
    assert quick_check({"type": "strin"}) is None
    assert quick_check({"required": ["a", "a"]}) is None
    assert quick_check({"$schema": "http://json-schema.org/draft-07/schema#"}) is None


def test_a_long_enum_is_checked_as_json_compares_each_kind_of_value() -> None:
    check = quick_check({"enum": [f"value-{i}" for i in range(20_000)] + [1, None]})
    assert check is not None
    assert check("value-19999") and check(1) and check(1.0) and check(None)
    assert not check("value-20000") and not check(True) and not check("1") and not check(["value-1"])
