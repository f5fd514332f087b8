"""Turn a tool's ``inputSchema`` into a :class:`FieldSpec` tree (pure: no ipywidgets).

Arrays of objects (every ``list[Model]``) become addable groups of fields; a union of types
(``type: ["boolean", "string"]``, ``anyOf`` of types) a chooser of the type. The schemas come
from servers, so this reads them defensively: anything it does not model (``allOf`` beyond a
single wrapper, maps without properties, ``{}``, ``true``,
remote or recursive ``$ref``) becomes a JSON text field for that one field, never an exception.
Local ``$ref`` (``#/$defs/...``, ``#/definitions/...``, any JSON pointer) is resolved, with two
bounds so that a hostile schema cannot make the form explode: a ref already being expanded, and
any field past a depth or a total size, become JSON fields too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import unquote

from anvia_nb.policy import Limits
from anvia_nb.widgets.spec.trees import (
    NO_DEFAULT,
    SIMPLE_KINDS,
    Choice,
    Constraints,
    FieldKind,
    FieldSpec,
)

__all__ = ["field_spec_from_schema", "resolve_local"]

_ANNOTATIONS = frozenset(
    {"title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly", "$comment"}
)
_ITEM_KINDS = SIMPLE_KINDS | {"choice", "object", "union"}
"""What a list's rows can be: one value each, a group of fields (``list[Model]``), or a union."""
_KIND_NAMES = {
    "string": "text",
    "number": "number",
    "integer": "integer",
    "boolean": "true/false",
    "choice": "choice",
    "multi_choice": "choices",
    "list": "list",
    "object": "object",
}
_SIMPLE_TYPES: dict[str, FieldKind] = {
    "string": "string",
    "number": "number",
    "integer": "integer",
    "boolean": "boolean",
}


def field_spec_from_schema(schema: object, limits: Limits | None = None) -> FieldSpec:
    """The form's root spec for ``schema`` (a tool's ``inputSchema``); never raises.

    The root is required (the arguments object is always sent). A root that is not an object
    with properties (or a plain ``{"type": "object"}`` of a tool without arguments) is a JSON field.
    Past ``limits.form_depth`` levels or ``limits.form_fields`` fields (the policy's, by default
    :class:`~anvia_nb.policy.Limits`' own) a part of the form becomes one JSON field: a person cannot
    fill thousands of fields, and building them costs seconds of the kernel's time.
    """
    builder = _Builder(schema, limits or Limits())
    return builder.build(schema, name="", required=True, refs=("#",), depth=0)  # "#" is being expanded


def _json_pointer(root: Any, ref: str) -> Any:
    """The value at a local ``#...`` reference, or ``NO_DEFAULT`` when it does not resolve."""
    if not ref.startswith("#"):
        return NO_DEFAULT
    pointer = unquote(ref[1:])
    if pointer == "":
        return root
    if not pointer.startswith("/"):
        return NO_DEFAULT  # a plain-name anchor: not supported here
    node = root
    for raw in pointer.split("/")[1:]:
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return NO_DEFAULT
    return node


def resolve_local(root: Any, schema: Any) -> Any:  # any: a schema as sent; callers read it
    """``schema`` with a chain of local ``$ref`` followed (at most a few steps), else as it is."""
    for _ in range(8):
        ref = schema.get("$ref") if isinstance(schema, Mapping) else None
        if not isinstance(ref, str):
            return schema
        target = _json_pointer(root, ref)
        if target is NO_DEFAULT:
            return schema
        if not isinstance(target, Mapping):
            return target
        schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
    return schema


def _is_null_schema(option: Any) -> bool:
    return isinstance(option, Mapping) and option.get("type") == "null" and set(option) <= (_ANNOTATIONS | {"type"})


def _const_of(option: Any) -> Any:
    """The single value an option allows (``const`` or one-element ``enum``), else ``NO_DEFAULT``."""
    if not isinstance(option, Mapping):
        return NO_DEFAULT
    if "const" in option:
        return option["const"]
    enum = option.get("enum")
    if isinstance(enum, list) and len(enum) == 1:
        return enum[0]
    return NO_DEFAULT


def _number(value: Any) -> float | None:
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _constraints_from(schema: Mapping[str, Any]) -> Constraints:
    minimum, maximum = _number(schema.get("minimum")), _number(schema.get("maximum"))
    ex_min, ex_max = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    if ex_min is True:  # draft 4: a flag on minimum
        minimum, ex_min = None, minimum
    if ex_max is True:
        maximum, ex_max = None, maximum
    pattern, fmt = schema.get("pattern"), schema.get("format")
    return Constraints(
        minimum=minimum,
        maximum=maximum,
        exclusive_minimum=_number(ex_min),
        exclusive_maximum=_number(ex_max),
        min_length=_count(schema.get("minLength")),
        max_length=_count(schema.get("maxLength")),
        pattern=pattern if isinstance(pattern, str) else None,
        format=fmt if isinstance(fmt, str) else None,
        min_items=_count(schema.get("minItems")),
        max_items=_count(schema.get("maxItems")),
    )


def _label_of(value: Any) -> str:
    return (
        value
        if isinstance(value, str)
        else repr(value)
        if not isinstance(value, bool)
        else ("true" if value else "false")
    )


@dataclass(frozen=True)
class _Place:
    """Where a field being built stands: its name and whether it is required (what its spec
    carries), the refs being expanded above it, and its depth."""

    name: str
    required: bool
    refs: tuple[str, ...]
    depth: int

    @property
    def common(self) -> dict[str, Any]:
        """The spec's own keywords: ``name`` and ``required``."""
        return {"name": self.name, "required": self.required}


class _Builder:
    """One pass over one schema; counts fields so the total stays bounded."""

    def __init__(self, root: Any, limits: Limits) -> None:
        self.root = root
        self.fields = 0
        self.most_depth = limits.form_depth
        self.most_fields = limits.form_fields

    def _flatten(self, schema: Any, refs: tuple[str, ...]) -> tuple[dict[str, Any] | None, bool, tuple[str, ...]]:
        """Resolve refs, single wrappers and null options into one schema plus a nullable flag.

        ``None`` means "show a JSON field": recursion, an unresolvable ref, or a shape not modelled.
        Keywords beside a ``$ref`` or wrapper (title, description, default) win over the target's.
        The refs returned are ``refs`` plus those expanded here: the children of the flat schema
        are inside every one of them, so meeting one again below is recursion.
        """
        nullable = False
        current: Any = schema
        for _ in range(self.most_depth):
            if not isinstance(current, Mapping):
                return None, nullable, refs
            current = dict(current)
            if current.get("nullable") is True:  # OpenAPI-style, seen in some servers
                nullable = True
            ref = current.pop("$ref", None)
            if isinstance(ref, str):
                target = _json_pointer(self.root, ref)
                if ref in refs or target is NO_DEFAULT or not isinstance(target, (Mapping, bool)):
                    return None, nullable, refs
                refs = (*refs, ref)
                current = {**(target if isinstance(target, Mapping) else {}), **current}
                continue
            if ref is not None:
                return None, nullable, refs
            all_of = current.pop("allOf", None)
            if all_of is not None:
                if isinstance(all_of, list) and len(all_of) == 1 and set(current) <= _ANNOTATIONS:
                    inner = all_of[0]
                    current = {**inner, **current} if isinstance(inner, Mapping) else current
                    if not isinstance(inner, Mapping) and inner is not True:
                        return None, nullable, refs
                    continue
                return None, nullable, refs
            for key in ("anyOf", "oneOf"):
                options = current.get(key)
                if options is None:
                    continue
                if not isinstance(options, list) or not options:
                    return None, nullable, refs
                rest = [option for option in options if not _is_null_schema(option)]
                nullable = nullable or len(rest) < len(options)
                if len(rest) == 1 and isinstance(rest[0], Mapping):
                    del current[key]
                    current = {**rest[0], **current}
                    break
                if rest and (
                    all(_const_of(option) is not NO_DEFAULT for option in rest)
                    or all(isinstance(option, Mapping) for option in rest)
                ):
                    current[key] = rest  # a choice of constants, or a union of types
                    return current, nullable, refs
                return None, nullable, refs
            else:
                return current, nullable, refs
        return None, nullable, refs

    def build(self, schema: Any, *, name: str, required: bool, refs: tuple[str, ...], depth: int) -> FieldSpec:
        self.fields += 1
        flat, nullable = (None, False)
        if depth <= self.most_depth and self.fields <= self.most_fields:
            flat, nullable, refs = self._flatten(schema, refs)
        if flat is None:
            base = schema if isinstance(schema, Mapping) else {}
            return self._spec("json", base, schema, name=name, required=required, nullable=nullable)
        try:
            return self._classify(flat, nullable, name=name, required=required, refs=refs, depth=depth)
        except RecursionError:  # pragma: no cover - bounded above; kept as a last guard
            return self._spec("json", flat, flat, name=name, required=required, nullable=nullable)

    def _child(self, schema: Any, parent: _Place, *, name: str, required: bool) -> FieldSpec:
        """The field of ``schema`` one level below ``parent`` (the refs being expanded go down with it)."""
        return self.build(schema, name=name, required=required, refs=parent.refs, depth=parent.depth + 1)

    def _spec(self, kind: FieldKind, schema: Mapping[str, Any], raw: Any, **fields: Any) -> FieldSpec:
        title, description = schema.get("title"), schema.get("description")
        return FieldSpec(
            kind=kind,
            title=title if isinstance(title, str) else None,
            description=description if isinstance(description, str) else None,
            default=schema.get("default", NO_DEFAULT),
            constraints=_constraints_from(schema),
            schema=raw,
            **fields,
        )

    def _classify(
        self,
        schema: dict[str, Any],
        nullable: bool,
        *,
        name: str,
        required: bool,
        refs: tuple[str, ...],
        depth: int,
    ) -> FieldSpec:
        place = _Place(name, required, refs, depth)
        common = place.common
        type_ = schema.get("type")
        if isinstance(type_, list):
            kinds = [t for t in type_ if t != "null"]
            nullable = nullable or len(kinds) < len(type_)
            if len(kinds) > 1 and all(isinstance(t, str) for t in kinds):
                rest = {k: v for k, v in schema.items() if k not in _ANNOTATIONS}
                return self._union(schema, [{**rest, "type": t} for t in kinds], nullable, place)
            type_ = kinds[0] if len(kinds) == 1 else "union"
        union = schema.get("anyOf", schema.get("oneOf"))
        if isinstance(union, list) and any(_const_of(option) is NO_DEFAULT for option in union):
            return self._union(schema, union, nullable, place)

        values: list[Any] | None = None
        labels: list[str] = []
        if isinstance(schema.get("enum"), list):
            values = list(schema["enum"])
            names = schema.get("enumNames")  # legacy, still sent by elicitation-style schemas
            if isinstance(names, list) and len(names) == len(values):
                labels = [str(name) for name in names]
            else:
                labels = [_label_of(v) for v in values]
        elif "const" in schema:
            values, labels = [schema["const"]], [_label_of(schema["const"])]
        else:
            options = schema.get("anyOf", schema.get("oneOf"))
            if isinstance(options, list):
                values = [_const_of(option) for option in options]
                labels = [
                    option["title"] if isinstance(option.get("title"), str) else _label_of(value)
                    for option, value in zip(options, values, strict=True)
                ]
        if values is not None:
            pairs = [(v, label) for v, label in zip(values, labels, strict=True) if v is not None]
            nullable = nullable or len(pairs) < len(values)
            if not pairs:
                return self._spec("json", schema, schema, nullable=nullable, **common)
            choices = tuple(Choice(value=v, label=label) for v, label in pairs)
            return self._spec("choice", schema, schema, nullable=nullable, choices=choices, **common)

        simple = _SIMPLE_TYPES.get(type_) if isinstance(type_, str) else None
        if simple is not None:
            return self._spec(simple, schema, schema, nullable=nullable, **common)
        if type_ == "array" or (type_ is None and "items" in schema):
            return self._array(schema, nullable, place)
        if type_ == "object" or (type_ is None and "properties" in schema):
            return self._object(schema, nullable, place)
        return self._spec("json", schema, schema, nullable=nullable, **common)

    def _union(self, schema: dict[str, Any], options: list[Any], nullable: bool, place: _Place) -> FieldSpec:
        """A chooser of the type, then that type's field: each option must be one a form can show,
        and a person must be able to tell them apart (by type, or by their titles)."""
        built = tuple(self._child(option, place, name="", required=place.required) for option in options)
        if len(built) < 2 or any(option.kind in {"json", "union"} or option.nullable for option in built):
            return self._spec("json", schema, schema, nullable=nullable, **place.common)
        labelled = tuple(
            option if option.title else replace(option, title=_KIND_NAMES.get(option.kind, option.kind))
            for option in built
        )
        if len({option.title for option in labelled}) < len(labelled):
            return self._spec("json", schema, schema, nullable=nullable, **place.common)  # no way to tell them apart
        return self._spec("union", schema, schema, nullable=nullable, options=labelled, **place.common)

    def _array(self, schema: dict[str, Any], nullable: bool, place: _Place) -> FieldSpec:
        items = schema.get("items")
        if "prefixItems" in schema or not isinstance(items, Mapping):
            return self._spec("json", schema, schema, nullable=nullable, **place.common)
        item = self._child(items, place, name="", required=True)
        if item.nullable or item.kind not in _ITEM_KINDS or (item.kind == "object" and not item.children):
            return self._spec("json", schema, schema, nullable=nullable, **place.common)
        if item.kind == "choice":
            return self._spec(
                "multi_choice", schema, schema, nullable=nullable, item=item, choices=item.choices, **place.common
            )
        return self._spec("list", schema, schema, nullable=nullable, item=item, **place.common)

    def _object(self, schema: dict[str, Any], nullable: bool, place: _Place) -> FieldSpec:
        properties = schema.get("properties")
        extra = schema.get("additionalProperties")
        if not isinstance(properties, Mapping) or not properties:
            plain = place.depth == 0 and (extra is None or extra is False) and "patternProperties" not in schema
            kind: FieldKind = "object" if plain else "json"
            return self._spec(kind, schema, schema, nullable=nullable, **place.common)
        if len(properties) > self.most_fields - self.fields:
            # More fields than the form has left: one JSON field for the whole object, not thousands
            # of fields (each a widget the browser must draw) that nobody could fill.
            return self._spec("json", schema, schema, nullable=nullable, **place.common)
        wanted = schema.get("required")
        required_names = {r for r in wanted if isinstance(r, str)} if isinstance(wanted, list) else set()
        children = tuple(
            self._child(sub, place, name=str(key), required=key in required_names) for key, sub in properties.items()
        )
        return self._spec("object", schema, schema, nullable=nullable, children=children, **place.common)
