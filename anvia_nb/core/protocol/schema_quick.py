"""A quick "surely valid" check for plain schemas, so a valid call never waits for jsonschema.

Most tools' inputSchemas are plain: an object of typed properties, some required, perhaps an
enum, bounds or lengths. For those, :func:`quick_check` compiles a predicate that answers
``True`` only when the value is certainly valid under JSON Schema 2020-12 (formats as
annotations). ``False`` means "not sure": the caller then asks the full validator, whose
wording every reported problem keeps. A schema using anything else (``$ref``, ``pattern``,
``oneOf``, an unknown keyword) gets no predicate; neither does one whose keywords have a
shape the metaschema refuses, so a schema given a predicate is one the full validator accepts.
Stdlib only.
"""

from __future__ import annotations

from collections.abc import Callable, Sized
from typing import Any

from anvia_nb.core.protocol import limits

__all__ = ["Quick", "quick_check"]

Quick = Callable[[Any], bool]

_DIALECT = "https://json-schema.org/draft/2020-12/schema"
_TYPES = frozenset({"string", "integer", "number", "boolean", "null", "array", "object"})
_ANNOTATIONS: dict[str, Callable[[Any], bool]] = {
    "title": lambda v: isinstance(v, str),
    "description": lambda v: isinstance(v, str),
    "$comment": lambda v: isinstance(v, str),
    "format": lambda v: isinstance(v, str),
    "contentMediaType": lambda v: isinstance(v, str),
    "contentEncoding": lambda v: isinstance(v, str),
    "default": lambda v: True,
    "examples": lambda v: isinstance(v, list),
    "deprecated": lambda v: isinstance(v, bool),
    "readOnly": lambda v: isinstance(v, bool),
    "writeOnly": lambda v: isinstance(v, bool),
}


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _integer(value: Any) -> bool:
    # 1.0 is an integer in 2020-12
    return _number(value) and (isinstance(value, int) or float(value).is_integer())


_TYPE_TESTS: dict[str, Quick] = {
    "string": lambda v: isinstance(v, str),
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "number": _number,
    "integer": _integer,
}


def _all_of(checks: list[Quick]) -> Quick:
    """Every check passes. A loop, not ``all()`` over a generator: these run on every call."""
    if len(checks) == 1:
        return checks[0]

    def check(value: Any) -> bool:
        for one in checks:  # noqa: SIM110 - see the docstring
            if not one(value):
                return False
        return True

    return check


def _one_of(options: list[Any]) -> Quick:
    """Equal to one of ``options``; a string by one set lookup (enums of thousands stay cheap to check)."""
    strings = {option for option in options if isinstance(option, str)}
    others = [option for option in options if not isinstance(option, str)]
    return lambda v: v in strings if isinstance(v, str) else any(_same(v, option) for option in others)


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON values, for scalars only (anything else: not sure)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if _number(a) and _number(b):
        return bool(a == b)
    if isinstance(a, str) and isinstance(b, str):
        return a == b
    return a is None and b is None


def _unique_strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value) and len(set(value)) == len(value)


# Kept (issue 27): a fresh %mcp connect then call: first call 6.7 ms with it, 219 ms without (imports jsonschema).
def quick_check(schema: object, depth: int = 0) -> Quick | None:
    """The predicate of a plain schema, or ``None`` when the schema is not plain."""
    if schema is True:
        return lambda _value: True
    if not isinstance(schema, dict) or depth > limits.SCHEMA_DEPTH:
        return None
    if depth == 0 and schema.get("$schema", _DIALECT) != _DIALECT:
        return None
    checks: list[Quick] = []
    for keyword, value in schema.items():
        if keyword in _ANNOTATIONS:
            if not _ANNOTATIONS[keyword](value):
                return None
            continue
        if keyword == "additionalProperties":
            check = _additional(value, schema.get("properties"), depth)
        else:
            check = _keyword(keyword, value, depth)
        if check is None:
            return None
        checks.append(check)
    if not checks:
        return lambda _value: True
    return _all_of(checks)


def _keyword(keyword: str, value: Any, depth: int) -> Quick | None:
    if keyword == "$schema":
        return (lambda _v: True) if depth == 0 else None
    if keyword == "type":
        names = [value] if isinstance(value, str) else value
        if not isinstance(names, list) or not names or not _unique_strings(names) or not set(names) <= _TYPES:
            return None
        tests = [_TYPE_TESTS[name] for name in names]
        if len(tests) == 1:
            return tests[0]
        return lambda v: any(test(v) for test in tests)
    if keyword == "properties":
        if not isinstance(value, dict):
            return None
        inner = {name: quick_check(sub, depth + 1) for name, sub in value.items()}
        if any(check is None for check in inner.values()):
            return None
        subs = [(name, check) for name, check in inner.items() if check is not None]

        def each_named(v: Any) -> bool:
            if isinstance(v, dict):
                for name, sub in subs:
                    if name in v and not sub(v[name]):
                        return False
            return True

        return each_named
    if keyword == "required":
        if not _unique_strings(value):
            return None
        names = frozenset(value)
        return lambda v: not isinstance(v, dict) or v.keys() >= names
    if keyword == "items":
        item = quick_check(value, depth + 1)
        if item is None:
            return None
        return lambda v: not isinstance(v, list) or all(item(x) for x in v)
    if keyword in ("anyOf", "allOf"):
        if not isinstance(value, list) or not value:
            return None
        options = [quick_check(sub, depth + 1) for sub in value]
        if any(option is None for option in options):
            return None
        branches: list[Quick] = [option for option in options if option is not None]
        if keyword == "anyOf":
            return lambda v: any(branch(v) for branch in branches)
        return _all_of(branches)
    if keyword in ("enum", "const"):
        options = value if keyword == "enum" else [value]
        if not isinstance(options, list):
            return None
        return _one_of(options)
    if keyword in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        return _bound(keyword, value)
    if keyword in ("minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"):
        return _size(keyword, value)
    return None


def _additional(value: Any, named: Any, depth: int) -> Quick | None:
    """``additionalProperties``: the keys ``properties`` (beside it) does not name must fit ``value``."""
    if value is True:
        return lambda _v: True
    if named is not None and not isinstance(named, dict):
        return None
    known = frozenset(named or ())
    if value is False:
        return lambda v: not isinstance(v, dict) or all(key in known for key in v)
    other = quick_check(value, depth + 1)
    if other is None:
        return None
    return lambda v: not isinstance(v, dict) or all(key in known or other(item) for key, item in v.items())


def _bound(keyword: str, limit: Any) -> Quick | None:
    if not _number(limit):
        return None
    if keyword == "minimum":
        return lambda v: not _number(v) or v >= limit
    if keyword == "maximum":
        return lambda v: not _number(v) or v <= limit
    if keyword == "exclusiveMinimum":
        return lambda v: not _number(v) or v > limit
    return lambda v: not _number(v) or v < limit


def _size(keyword: str, limit: Any) -> Quick | None:
    if not _count(limit):
        return None
    kinds: dict[str, type[Sized]] = {"Length": str, "Items": list, "Properties": dict}
    kind = kinds[keyword[3:]]
    if keyword.startswith("min"):
        return lambda v: not isinstance(v, kind) or len(v) >= limit
    return lambda v: not isinstance(v, kind) or len(v) <= limit
