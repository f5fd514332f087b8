"""Check arguments against a tool's ``inputSchema`` with jsonschema, as readable lines.

Two checks share one format checker. :func:`validate_arguments` checks the whole arguments
object with the validator for the schema's dialect (JSON Schema 2020-12 when ``$schema`` is
absent, as MCP says). :func:`constraint_problems` checks one field against its own constraints,
so a problem can be shown beside the field that has it.

Formats are checked leniently, for the five a form can help with (email, uri, date, date-time,
time): servers built with Pydantic accept ``12:00`` and naive date-times, so the form must too.
A schema that jsonschema cannot use (invalid, or with refs that do not resolve locally) gives no
lines: the form cannot judge it, and the server still will. Remote refs are never fetched.
"""

from __future__ import annotations

import re
import warnings
from datetime import date, datetime, time
from typing import Any

import jsonschema
import referencing
import referencing.exceptions
from jsonschema.protocols import Validator
from jsonschema.validators import validator_for

from anvia_nb.widgets._spec_types import Constraints

__all__ = ["FORMAT_CHECKER", "constraint_problems", "problem_line", "validate_arguments"]

FORMAT_CHECKER = jsonschema.FormatChecker(formats=())
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+")
_URI = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:[^\s]+")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def _iso(text: str) -> str:
    return text[:-1] + "+00:00" if text.endswith(("Z", "z")) else text


@FORMAT_CHECKER.checks("email")
def _is_email(value: object) -> bool:
    return not isinstance(value, str) or bool(_EMAIL.fullmatch(value))


@FORMAT_CHECKER.checks("uri")
def _is_uri(value: object) -> bool:
    return not isinstance(value, str) or bool(_URI.fullmatch(value))


@FORMAT_CHECKER.checks("date", raises=ValueError)
def _is_date(value: object) -> bool:
    if isinstance(value, str):
        if not _DATE.fullmatch(value):
            return False
        date.fromisoformat(value)
    return True


@FORMAT_CHECKER.checks("date-time", raises=ValueError)
def _is_date_time(value: object) -> bool:
    if isinstance(value, str):
        if not _DATE.match(value) or len(value) < 11 or value[10] not in "Tt ":
            return False
        datetime.fromisoformat(_iso(value[:10] + "T" + value[11:]))
    return True


@FORMAT_CHECKER.checks("time", raises=ValueError)
def _is_time(value: object) -> bool:
    if isinstance(value, str):
        text = _iso(value)
        if "+" in text or "-" in text:  # Python 3.10's fromisoformat takes no offset on a time
            sign = "+" if "+" in text else "-"
            clock, offset = text.split(sign, 1)
            datetime.fromisoformat(f"2000-01-01T{clock}{sign}{offset}")
        else:
            time.fromisoformat(text)
    return True


def problem_line(error: jsonschema.ValidationError) -> str:
    """``"count: 'x' is not of type 'integer'"``; the path is dotted, list indexes in brackets."""
    path = ""
    for part in error.absolute_path:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return f"{path}: {error.message}" if path else error.message


def _validator(schema: Any) -> Validator | None:
    if schema is True or schema == {}:
        return None  # accepts everything
    if not isinstance(schema, dict):
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an unknown $schema warns and falls back to the default
        cls = validator_for(schema, default=jsonschema.Draft202012Validator)
    try:
        cls.check_schema(schema)
    except (jsonschema.SchemaError, re.error, RecursionError, referencing.exceptions.Unresolvable):
        return None
    # An explicit empty registry: jsonschema would otherwise fetch unknown remote refs itself.
    return cls(schema, registry=referencing.Registry(), format_checker=FORMAT_CHECKER)


def _lines(validator: Validator | None, value: Any) -> list[str]:
    if validator is None:
        return []
    try:
        errors = list(validator.iter_errors(value))
    except (jsonschema.SchemaError, re.error, RecursionError, referencing.exceptions.Unresolvable,
            jsonschema.exceptions.UnknownType, TypeError, ValueError):
        return []
    errors.sort(key=lambda error: ([str(p) for p in error.absolute_path], error.message))
    return [problem_line(error) for error in errors]


def validate_arguments(schema: Any, value: Any) -> list[str]:
    """One readable line per way ``value`` breaks ``schema``; ``[]`` when it fits (or when the
    schema cannot be used to judge)."""
    return _lines(_validator(schema), value)


def constraint_problems(constraints: Constraints, value: Any) -> list[str]:
    """The lines for one field's own constraints (length, range, pattern, format, item count)."""
    keywords = constraints.as_schema()
    if not keywords:
        return []
    return _lines(_validator(keywords), value)
