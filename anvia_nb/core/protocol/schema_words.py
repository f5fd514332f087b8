"""Plain words for schema problems, and the lenient format checks behind a form's hints.

:func:`plain_words` says what a validator error means for the person filling arguments
(``"must be an integer"``, not ``"'x' is not of type 'integer'"``). :func:`format_checker` is
the checker of the ``"assert"`` format policy: five formats a person can be helped with (email,
uri, date, date-time, time), checked leniently, since servers built with Pydantic accept
``12:00`` and naive date-times. jsonschema is imported only when these are called.
"""

from __future__ import annotations

import json
import re
from datetime import date, datetime, time
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from anvia_nb.core.protocol import limits

if TYPE_CHECKING:
    from jsonschema import FormatChecker
    from jsonschema.exceptions import ValidationError

__all__ = ["FORMAT_NAMES", "format_checker", "format_ok", "plain_words"]

FORMAT_NAMES = {
    "email": "an email address (name@example.com)",
    "uri": "a URI (https://…)",
    "date": "a date (YYYY-MM-DD)",
    "date-time": "a date and time (YYYY-MM-DDTHH:MM:SS)",
    "time": "a time (HH:MM:SS)",
}
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+")
_URI = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:[^\s]+")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_TYPES = {
    "string": "text",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "array": "a list",
    "object": "an object",
    "null": "null",
}


def _iso(text: str) -> str:
    return text[:-1] + "+00:00" if text.endswith(("Z", "z")) else text


def _date_ok(value: str) -> bool:
    if not _DATE.fullmatch(value):
        return False
    date.fromisoformat(value)
    return True


def _date_time_ok(value: str) -> bool:
    if not _DATE.match(value) or len(value) < 11 or value[10] not in "Tt ":
        return False
    datetime.fromisoformat(_iso(value[:10] + "T" + value[11:]))
    return True


def _time_ok(value: str) -> bool:
    text = _iso(value)
    if "+" in text or "-" in text:  # Python 3.10's fromisoformat takes no offset on a time
        sign = "+" if "+" in text else "-"
        clock, offset = text.split(sign, 1)
        datetime.fromisoformat(f"2000-01-01T{clock}{sign}{offset}")
    else:
        time.fromisoformat(text)
    return True


_CHECKS = {
    "email": lambda value: bool(_EMAIL.fullmatch(value)),
    "uri": lambda value: bool(_URI.fullmatch(value)),
    "date": _date_ok,
    "date-time": _date_time_ok,
    "time": _time_ok,
}


def format_ok(fmt: str, value: object) -> bool:
    """Whether ``value`` looks like ``fmt`` (true for formats not checked here and for non-strings)."""
    check = _CHECKS.get(fmt)
    if check is None or not isinstance(value, str):
        return True
    try:
        return bool(check(value))
    except ValueError:
        return False


@lru_cache(maxsize=1)
def format_checker() -> FormatChecker:
    """The ``"assert"`` policy's checker: the five formats above, leniently."""
    from anvia_nb.core.protocol.jsonschema_import import import_jsonschema

    import_jsonschema()
    from jsonschema import FormatChecker

    checker = FormatChecker(formats=())
    for name in _CHECKS:
        checker.checks(name)(lambda value, name=name: format_ok(name, value))
    return checker


def _shown(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limits.SCHEMA_VALUE_CHARS else text[: limits.SCHEMA_VALUE_CHARS - 1] + "…"


def _names(values: Any) -> str:
    return ", ".join(_shown(v) for v in values) if isinstance(values, list) else _shown(values)


def _count(n: Any, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def plain_words(error: ValidationError) -> str:
    """What ``error`` means, in plain words; the validator's own message when no rule fits."""
    keyword, value, instance = str(error.validator), error.validator_value, error.instance
    if keyword == "type":
        kinds = value if isinstance(value, list) else [value]
        return "must be " + " or ".join(_TYPES.get(str(k), str(k)) for k in kinds)
    simple: dict[str, str] = {
        "minimum": f"must be at least {_shown(value)}",
        "maximum": f"must be at most {_shown(value)}",
        "exclusiveMinimum": f"must be more than {_shown(value)}",
        "exclusiveMaximum": f"must be less than {_shown(value)}",
        "multipleOf": f"must be a multiple of {_shown(value)}",
        "minLength": f"must have at least {_count(value, 'character')}",
        "maxLength": f"must have at most {_count(value, 'character')}",
        "pattern": f"must match the pattern {_shown(value)}",
        "minItems": f"needs at least {_count(value, 'item')}",
        "maxItems": f"takes at most {_count(value, 'item')}",
        "uniqueItems": "items must all be different",
        "minProperties": f"needs at least {_count(value, 'field')}",
        "maxProperties": f"takes at most {_count(value, 'field')}",
        "const": f"must be {_shown(value)}",
        "enum": f"must be one of: {_names(value)}",
        "anyOf": "does not fit any of the allowed shapes",
        "oneOf": "must fit exactly one of the allowed shapes",
        "not": "is a value that is not allowed here",
        "format": f"is not {FORMAT_NAMES.get(str(value), f'in the format {_shown(value)}')}",
    }
    if keyword in simple:
        return simple[keyword]
    if keyword in {"additionalProperties", "unevaluatedProperties"} and isinstance(instance, dict):
        schema = error.schema if isinstance(error.schema, dict) else {}
        properties = schema.get("properties")
        known = properties if isinstance(properties, dict) else {}
        extra = [key for key in instance if key not in known]
        return f"takes no field named {_names(extra)}" if extra else "has fields that are not allowed"
    if keyword == "dependentRequired" and isinstance(value, dict) and isinstance(instance, dict):
        for given, needed in value.items():
            missing = [n for n in needed if n not in instance] if given in instance and isinstance(needed, list) else []
            if missing:
                return f"{_names(missing)} {'is' if len(missing) == 1 else 'are'} needed when {_shown(given)} is given"
    return str(error.message)
