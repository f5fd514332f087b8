"""JSON Schema checks with a full 2020-12 validator (the default dialect when ``$schema`` is absent).

Used for a tool's outputSchema (seed 002: validate structuredContent, show the verdict) and for
checking arguments against an inputSchema before anything is sent.
"""

from __future__ import annotations

import json
import sys
import threading
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

__all__ = ["problems_from_instance", "warm_up"]

_MAX_PROBLEMS = 20


def warm_up() -> None:
    """Import jsonschema on a daemon thread: it costs about a second here (its optional IRI
    grammar), which should not land on a user's first call or on ``import anvia_nb``."""
    if "jsonschema" not in sys.modules:
        threading.Thread(target=lambda: __import__("jsonschema"), name="anvia_nb-warm-up", daemon=True).start()


@lru_cache(maxsize=256)
def _validator(schema_json: str) -> Validator | str:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError
    from jsonschema.validators import validator_for

    schema = json.loads(schema_json)
    cls = validator_for(schema, default=Draft202012Validator)
    try:
        cls.check_schema(schema)
    except SchemaError as exc:
        return f"the schema itself is not valid JSON Schema: {exc.message}"
    validator: Validator = cls(schema, format_checker=cls.FORMAT_CHECKER)
    return validator


def _path(parts: Any) -> str:
    text = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts)
    return text.lstrip(".")


def problems_from_instance(schema: Any, instance: Any) -> list[str]:
    """One readable line per violation (``"count: 'three' is not of type 'integer'"``); ``[]`` if valid."""
    if schema is True or schema == {}:
        return []
    if not isinstance(schema, dict | bool):
        return ["the schema is not a JSON object"]
    validator = _validator(json.dumps(schema, sort_keys=True))
    if isinstance(validator, str):
        return [validator]
    errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.absolute_path))
    lines = []
    for error in errors[:_MAX_PROBLEMS]:
        where = _path(error.absolute_path)
        lines.append(f"{where}: {error.message}" if where else error.message)
    return lines
