"""JSON Schema checks with a full 2020-12 validator (the default dialect when ``$schema`` is absent).

Used for a tool's outputSchema (seed 002: validate structuredContent, show the verdict) and for
checking arguments against an inputSchema before anything is sent.
"""

from __future__ import annotations

import json
import re
import sys
import threading
import warnings
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

__all__ = ["argument_problems", "output_problems", "warm_up"]

_MAX_PROBLEMS = 20


def warm_up() -> None:
    """Import jsonschema on a daemon thread: it costs about a second here (its optional IRI
    grammar), which should not land on a user's first call or on ``import anvia_nb``."""
    if "jsonschema" not in sys.modules:
        threading.Thread(target=lambda: __import__("jsonschema"), name="anvia_nb-warm-up", daemon=True).start()


class _Unusable(str):
    """Why a schema cannot be applied (invalid, or a $ref that does not resolve locally)."""


@lru_cache(maxsize=256)
def _validator(schema_json: str) -> Validator | _Unusable:
    import referencing
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError
    from jsonschema.validators import validator_for

    schema = json.loads(schema_json)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an unknown $schema warns and falls back to the default
        cls = validator_for(schema, default=Draft202012Validator)
    try:
        cls.check_schema(schema)
    except (SchemaError, re.error, RecursionError) as exc:
        return _Unusable(f"the schema is not valid JSON Schema: {getattr(exc, 'message', exc)}")
    # An explicit empty registry: a server's schema must never make us fetch a remote $ref.
    # No format checker: formats are annotations in 2020-12, as in the SDKs' own checks.
    validator: Validator = cls(schema, registry=referencing.Registry())
    return validator


def _path(parts: Any) -> str:
    text = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts)
    return text.lstrip(".")


def _check(schema: Any, instance: Any) -> list[str] | _Unusable:
    if schema is True or schema == {}:
        return []
    if not isinstance(schema, dict):
        return _Unusable("the schema is not a JSON object")
    validator = _validator(json.dumps(schema, sort_keys=True))
    if isinstance(validator, _Unusable):
        return validator
    import referencing.exceptions
    from jsonschema.exceptions import SchemaError, UnknownType

    try:
        errors = sorted(validator.iter_errors(instance), key=lambda e: [str(p) for p in e.absolute_path])
    except (referencing.exceptions.Unresolvable, SchemaError, UnknownType, re.error, RecursionError) as exc:
        return _Unusable(f"the schema cannot be applied: {type(exc).__name__}: {exc}"[:300])
    lines = []
    for error in errors[:_MAX_PROBLEMS]:
        where = _path(error.absolute_path)
        lines.append(f"{where}: {error.message}" if where else error.message)
    return lines


def output_problems(schema: Any, structured: Any) -> list[str]:
    """The outputSchema verdict: one line per violation, ``[]`` if valid. A schema that cannot be
    applied is itself reported, since the data it promises cannot be checked."""
    found = _check(schema, structured)
    return [f"outputSchema: {found}"] if isinstance(found, _Unusable) else found


def argument_problems(schema: Any, arguments: Any) -> list[str]:
    """Arguments against an inputSchema, before sending: ``[]`` when they fit or when the schema
    cannot be applied (the server still validates; we only stop what is surely wrong)."""
    found = _check(schema, arguments)
    return [] if isinstance(found, _Unusable) else found
