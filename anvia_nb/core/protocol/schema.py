"""The one JSON Schema validator: a full 2020-12 validator (the default dialect when ``$schema``
is absent), compiled once per schema and shared by every surface.

Used for a tool's outputSchema (docs/mapping.md, rule 10: validate structuredContent, show the verdict) and for
checking arguments against an inputSchema before anything is sent: ``Tool.check_arguments``, which
``Tool.call_outcome`` (unless ``validate_arguments=False``), ``Tool.start``, maps and ``%mcp call``
use, and the forms all ask :func:`schema_check`, so they accept and refuse exactly the same
arguments. ``Tool.call`` does not check them: like Anvia's adapter, it sends what it is given and
the server answers for its own schema.

The format policy is one option, ``formats``: ``"annotate"`` (the default, used everywhere a
call can be refused) treats ``format`` as an annotation, as 2020-12 and the SDKs' own checks do;
``"assert"`` also checks the formats a person can be helped with (see ``_schema_words``), which
a form uses only for hints that never block. A server's schema never makes us fetch a remote
``$ref``.

Speed: a valid value of a plain schema (typed properties, required, enums, bounds) is accepted by
a quick stdlib check (:mod:`anvia_nb.core.protocol.schema_quick`) without importing jsonschema; the full
validator is built on the first value the quick check is not sure of, so every problem reported
keeps the validator's own wording. jsonschema is imported without its optional IRI grammar
(``rfc3987_syntax``, a second or more to build, for the ``iri`` formats that no check here uses).
"""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.jsonschema_import import import_jsonschema
from anvia_nb.core.protocol.schema_quick import Quick, quick_check
from anvia_nb.core.protocol.schema_words import format_checker, plain_words

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError
    from jsonschema.protocols import Validator

__all__ = [
    "FormatPolicy",
    "Problem",
    "SchemaCheck",
    "argument_problems",
    "compiled_count",
    "dotted",
    "import_jsonschema",
    "output_problems",
    "schema_check",
]

FormatPolicy = Literal["annotate", "assert"]
_UNFINISHED = "unfinished"
"""The ``validator`` of a problem whose check could not finish in time (never blocking)."""


@dataclass(frozen=True)
class Problem:
    """One way a value breaks a schema.

    ``path`` leads to the value (property names and list indexes); ``message`` is the
    validator's own wording, ``plain`` says the same in plain words. ``blocking`` is false for a
    check that could not finish (a pattern too costly to evaluate): reported, never refusing.
    """

    path: tuple[str | int, ...]
    message: str
    plain: str
    keyword: str = ""
    blocking: bool = True
    reported_at: tuple[str | int, ...] | None = None
    """Where the validator reported it, when that differs from ``path`` (a missing property is
    reported at its parent)."""

    @property
    def where(self) -> str:
        """``"filter.tags[1]"``: the path dotted, list indexes in brackets (``""`` at the root)."""
        return dotted(self.path)

    def line(self, *, plain: bool = False) -> str:
        """``"count: must be an integer"`` (plain) or the validator's ``"count: 'x' is not of type 'integer'"``."""
        where = self.where if plain or self.reported_at is None else dotted(self.reported_at)
        text = self.plain if plain else self.message
        return f"{where}: {text}" if where else text


def dotted(path: tuple[str | int, ...]) -> str:
    """A path as text: names dotted, list indexes in brackets."""
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


class SchemaCheck:
    """One schema compiled once: call :meth:`problems` as often as needed.

    ``unusable`` says why the schema cannot be applied (invalid, or a ``$ref`` that does not
    resolve locally); such a check finds no problems, since it cannot judge.
    """

    def __init__(
        self,
        validator: Validator | None,
        unusable: str | None = None,
        *,
        schema: dict[str, Any] | None = None,
        formats: FormatPolicy = "annotate",
    ) -> None:
        """``schema``: compile the full validator from it on first need (``validator`` stays unset)."""
        self._validator = validator
        self._schema = schema
        self._formats = formats
        self._quick: Quick | None = quick_check(schema) if schema is not None and formats == "annotate" else None
        self.unusable = unusable
        self.validations = 0
        """How many times a value was actually validated (a repeat of the last value is not)."""
        self._last: tuple[str, list[Problem]] | None = None

    def _ready(self) -> bool:
        """Build the full validator now if it was deferred; whether there is one."""
        if self._schema is not None:
            schema, self._schema = self._schema, None
            self._validator, self.unusable = _full_validator(schema, self._formats)
        return self._validator is not None

    def problems(self, instance: object) -> list[Problem]:
        """Every way ``instance`` breaks the schema, sorted by path (at most 20)."""
        found = self._errors(instance)
        return [] if found is None else found

    def _errors(self, instance: Any) -> list[Problem] | None:
        if self._validator is None and self._schema is None:
            return None if self.unusable else []
        if self._quick is not None and self._quick(instance):  # surely valid: cheaper than the key
            self.validations += 1
            return []
        # The same arguments checked twice on one path (``%mcp call`` checks, then ``call_outcome``
        # checks what it sends) go to the full validator once: its last verdict is kept with its value.
        try:
            key = json.dumps(instance, sort_keys=True, allow_nan=False)
        except (TypeError, ValueError, RecursionError):
            key = None
        last = self._last
        if key is not None and last is not None and last[0] == key:
            return list(last[1])
        if not self._ready():
            return None if self.unusable else []
        found = self._validate(instance)
        if key is not None and found is not None:
            self._last = (key, found)
        return None if found is None else list(found)

    def _validate(self, instance: Any) -> list[Problem] | None:
        assert self._validator is not None
        self.validations += 1
        import referencing.exceptions
        from jsonschema.exceptions import SchemaError, UnknownType

        try:
            errors = sorted(
                self._validator.iter_errors(instance), key=lambda e: ([str(p) for p in e.absolute_path], e.message)
            )
        except (
            referencing.exceptions.Unresolvable,
            SchemaError,
            UnknownType,
            re.error,
            RecursionError,
            TypeError,
            ValueError,
        ) as exc:
            self.unusable = f"the schema cannot be applied: {type(exc).__name__}: {exc}"[:300]
            return None
        return [problem for error in errors for problem in _problems(error)][: limits.SCHEMA_PROBLEMS]

    def verdict(self, instance: object) -> list[Problem] | str:
        """Problems, or the reason the schema cannot be applied."""
        found = self._errors(instance)
        return (self.unusable or "") if found is None else found


_ACCEPT_ALL = SchemaCheck(None)


def _problems(error: ValidationError) -> list[Problem]:
    """The problems an error stands for: for ``anyOf``/``oneOf`` where only one option has the
    value's type (``Window | None`` given an object), that option's own problems, which say more."""
    if error.validator in {"anyOf", "oneOf"} and error.context:
        options: dict[Any, list[ValidationError]] = {}
        for inner in error.context:
            options.setdefault(inner.schema_path[0] if inner.schema_path else None, []).append(inner)
        fitting = [
            found for found in options.values() if not any(e.validator == "type" and not e.relative_path for e in found)
        ]
        if len(fitting) == 1:
            return [problem for inner in fitting[0] for problem in _problems(inner)]
    return [_problem(error)]


def _problem(error: ValidationError) -> Problem:
    keyword = str(error.validator)
    path = tuple(error.absolute_path)
    if keyword == "required":  # the missing property is the field that has the problem
        wanted = error.validator_value if isinstance(error.validator_value, list) else []
        missing = next((name for name in wanted if f"{name!r} is a required property" == error.message), None)
        if isinstance(missing, str):
            return Problem((*path, missing), error.message, "a value is required", keyword, reported_at=path)
    return Problem(path, error.message, plain_words(error), keyword, blocking=keyword != _UNFINISHED)


def schema_check(schema: object, *, formats: FormatPolicy = "annotate") -> SchemaCheck:
    """The compiled check of ``schema``, built once per distinct schema (and format policy)."""
    if schema is True or schema == {}:
        return _ACCEPT_ALL
    if not isinstance(schema, dict):
        return SchemaCheck(None, "the schema is not a JSON object")
    try:
        text = json.dumps(schema, sort_keys=True)
    except (TypeError, ValueError, RecursionError):
        return SchemaCheck(None, "the schema is not JSON")
    return _compiled(text, formats)


@lru_cache(maxsize=256)
def _compiled(schema_json: str, formats: FormatPolicy) -> SchemaCheck:
    return SchemaCheck(None, schema=json.loads(schema_json), formats=formats)


def _full_validator(schema: dict[str, Any], formats: FormatPolicy) -> tuple[Validator | None, str | None]:
    """jsonschema's validator for ``schema``, or why the schema cannot be applied."""
    import_jsonschema()
    import referencing
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError
    from jsonschema.validators import extend, validator_for

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an unknown $schema warns and falls back to the default
        cls = validator_for(schema, default=Draft202012Validator)
    try:
        _check_schema(cls, schema)
    except (SchemaError, re.error, RecursionError) as exc:
        return None, f"the schema is not valid JSON Schema: {getattr(exc, 'message', exc)}"
    bounded = extend(cls, {"pattern": _bounded_pattern})  # type: ignore[no-untyped-call]  # types-jsonschema: untyped
    # An explicit empty registry: a server's schema must never make us fetch a remote $ref.
    checker = format_checker() if formats == "assert" else None
    validator: Validator = bounded(schema, registry=referencing.Registry(), format_checker=checker)
    return validator, None


def _check_schema(cls: Any, schema: dict[str, Any]) -> None:
    """``cls.check_schema(schema)``, each distinct shape of property checked once: a tool of 300
    properties of a few shapes (their titles and descriptions aside) is checked in a few small
    passes, not one of 0.35 s (a property's schema is checked against the same meta-schema either
    way)."""
    properties = schema.get("properties")
    if not isinstance(properties, dict) or len(properties) < 16:
        cls.check_schema(schema)
        return
    cls.check_schema({**schema, "properties": {}})
    seen: set[str] = set()
    for sub in properties.values():
        shape = (
            {key: value for key, value in sub.items() if not _plain_annotation(key, value)}
            if isinstance(sub, dict)
            else sub
        )
        key = json.dumps(shape, sort_keys=True)
        if key not in seen:
            seen.add(key)
            cls.check_schema(shape)


def _plain_annotation(key: str, value: Any) -> bool:
    """An annotation the meta-schema accepts whatever its text (a title, a description, a default):
    left out of a property's shape, so properties that differ only in these are checked once."""
    return (key in ("title", "description", "$comment") and isinstance(value, str)) or key == "default"


def compiled_count() -> int:
    """How many schemas were compiled so far (each distinct schema once, while it stays cached)."""
    return _compiled.cache_info().misses


def _bounded_pattern(validator: Validator, pattern: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    """``pattern``, evaluated with a bounded cost: a server's regex must never freeze the kernel."""
    from jsonschema.exceptions import ValidationError

    from anvia_nb.core.protocol.patterns import search

    if not validator.is_type(instance, "string") or not isinstance(pattern, str):
        return
    found = search(pattern, instance)
    if found is None:
        yield ValidationError(
            f"the pattern {pattern!r} could not be checked in time; the server will judge it", validator=_UNFINISHED
        )
    elif not found:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _lines(check: SchemaCheck, instance: Any, owner: str = "") -> list[str]:
    found = check.verdict(instance)
    if isinstance(found, str):
        return [f"{owner}{found}"] if owner else []
    return [problem.line() for problem in found if problem.blocking]


def output_problems(schema: object, structured: object) -> list[str]:
    """The outputSchema verdict: one line per violation, ``[]`` if valid. A schema that cannot be
    applied is itself reported, since the data it promises cannot be checked. ``schema`` may be its
    :func:`schema_check` already (a tool keeps its own, so a call does not look it up again)."""
    check = schema if isinstance(schema, SchemaCheck) else schema_check(schema)
    return _lines(check, structured, owner="outputSchema: ")


def argument_problems(schema: object, arguments: object) -> list[str]:
    """Arguments against an inputSchema, before sending: ``[]`` when they fit or when the schema
    cannot be applied (the server still validates; we only stop what is surely wrong). ``schema``
    may be its :func:`schema_check` already."""
    check = schema if isinstance(schema, SchemaCheck) else schema_check(schema)
    return _lines(check, arguments)
