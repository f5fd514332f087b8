"""From what the user entered to the arguments to send, and back (pure: no ipywidgets).

The rules, which decide what a server receives:

- an optional field nobody touched is left out, never sent as ``null``, ``0``, ``false`` or ``""``;
  this includes a field that shows its ``default``: leaving it out lets the server apply its own;
- an optional text or number field left empty is left out too; a *required* string is sent as
  typed, so an empty one is sent as ``""``;
- ``null`` is sent only for a nullable field whose "null" box the user ticked (or that a
  required field shows as its default);
- an optional nested object is left out unless something inside it was touched;
- what does not parse (``"1e"`` in a number field, broken JSON) stays in the entry as typed and
  becomes a problem line, never an exception.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from anvia_nb.widgets._spec_types import OMITTED, Entry, FieldSpec
from anvia_nb.widgets._spec_validate import constraint_problems

__all__ = [
    "entry_from_value",
    "initial_entry",
    "json_equal",
    "text_from_default",
    "unreadable_entries",
    "value_from_entry",
]

_INTEGER = re.compile(r"[+-]?[0-9]+")
_CONSTRAINED_KINDS = frozenset({"string", "number", "integer", "list", "multi_choice"})
_NUMBER = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")


def json_equal(a: Any, b: Any) -> bool:
    """JSON equality: ``1 == 1.0`` but ``true != 1``, recursively."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, (dict, list)) or isinstance(b, (dict, list)):
        return False
    return bool(a == b)


def text_from_default(spec: FieldSpec, value: Any) -> str:
    """How a value appears in a text box: strings as they are, everything else as JSON."""
    if isinstance(value, str) and spec.kind == "string":
        return value
    return json.dumps(value, indent=2 if spec.kind == "json" else None, ensure_ascii=False)


def initial_entry(spec: FieldSpec) -> Entry:
    """The untouched entry of a field: empty, or showing the schema's ``default``."""
    children = {child.name: initial_entry(child) for child in spec.children}
    if not spec.has_default:
        return Entry(flag=False if spec.kind == "boolean" and spec.required else None, children=children)
    default = spec.default
    if default is None and spec.nullable:
        return Entry(null=True, children=children)
    shown = _entry_for(spec, default, touched=False)
    if shown is None:  # a default that does not fit the field: show nothing rather than guess
        return Entry(children=children)
    return shown


def entry_from_value(spec: FieldSpec, value: Any) -> Entry | None:
    """The entry that sends exactly ``value`` (every part of it touched), or ``None`` when the
    fields cannot express it (an extra key, a value of another type, an optional ``""``)."""
    entry = _entry_for(spec, value, touched=True)
    if entry is None:
        return None
    read, problems = _read(spec, entry, "", check_constraints=False)
    return entry if not problems and read is not OMITTED and json_equal(read, value) else None


def value_from_entry(spec: FieldSpec, entry: Entry, where: str = "") -> tuple[Any, list[str]]:
    """The JSON value to send for ``entry`` (``OMITTED`` when nothing is sent) and its problems.

    Problems are readable lines prefixed with the field's path (``"filter.limit: ..."``). The
    value is still returned when there are problems, with the unparsable fields left out, so a
    caller can show it; it must not be sent while there are problems.
    """
    return _read(spec, entry, where, check_constraints=True)


def unreadable_entries(spec: FieldSpec, entry: Entry, where: str = "") -> list[tuple[str, str]]:
    """``(path, problem)`` of every field holding typed text that cannot be read as its kind
    (a half-typed number, broken JSON): text that reading the entry as a value would drop.

    A field whose "null" box is ticked is skipped (its text is not what it sends), and so is an
    empty one (nothing typed, nothing lost).
    """
    if entry.null and spec.nullable:
        return []
    if spec.kind == "object":
        found: list[tuple[str, str]] = []
        for child in spec.children:
            child_entry = entry.children.get(child.name)
            if child_entry is not None:
                found += unreadable_entries(child, child_entry, f"{where}.{child.name}" if where else child.name)
        return found
    if spec.kind == "list" and spec.item is not None:
        return [pair for index, item in enumerate(entry.items)
                for pair in unreadable_entries(spec.item, item, f"{where}[{index}]")]
    if spec.kind not in {"number", "integer", "json"} or not entry.text.strip():
        return []
    _, problems = _READERS[spec.kind](spec, entry, "", False)
    return [(where, problem) for problem in problems]


def _read(spec: FieldSpec, entry: Entry, where: str, *, check_constraints: bool) -> tuple[Any, list[str]]:
    if not spec.required and not entry.anything_touched:
        return OMITTED, []
    if entry.null and spec.nullable:
        return None, []
    value, problems = _READERS[spec.kind](spec, entry, where, check_constraints)
    if check_constraints and value is not OMITTED and spec.kind in _CONSTRAINED_KINDS:
        problems += [_at(where, line) for line in constraint_problems(spec.constraints, value)]
    return value, problems


def _at(where: str, message: str) -> str:
    return f"{where}: {message}" if where else message


def _missing(spec: FieldSpec, where: str) -> tuple[Any, list[str]]:
    if spec.required:
        return OMITTED, [_at(where, "a value is required")]
    return OMITTED, []


def _read_string(spec: FieldSpec, entry: Entry, where: str, check: bool) -> tuple[Any, list[str]]:
    if entry.text == "" and not spec.required:
        return OMITTED, []
    return entry.text, []


def _read_number(spec: FieldSpec, entry: Entry, where: str, check: bool) -> tuple[Any, list[str]]:
    text = entry.text.strip()
    if text == "":
        return _missing(spec, where)
    if not _NUMBER.fullmatch(text):
        noun = "an integer" if spec.kind == "integer" else "a number"
        return OMITTED, [_at(where, f"{entry.text!r} is not {noun}")]
    if _INTEGER.fullmatch(text):
        return int(text), []
    number = float(text)
    if math.isinf(number):
        return OMITTED, [_at(where, f"{entry.text!r} is too large")]
    if spec.kind == "integer":
        if not number.is_integer():
            return OMITTED, [_at(where, f"{entry.text!r} is not an integer")]
        return int(number), []
    return number, []


def _read_boolean(spec: FieldSpec, entry: Entry, where: str, check: bool) -> tuple[Any, list[str]]:
    return _missing(spec, where) if entry.flag is None else (entry.flag, [])


def _read_choice(spec: FieldSpec, entry: Entry, where: str, check: bool) -> tuple[Any, list[str]]:
    if not entry.chosen:
        return _missing(spec, where)
    index = entry.chosen[0]
    if not 0 <= index < len(spec.choices):
        return OMITTED, [_at(where, "choose one of the listed values")]
    return spec.choices[index].value, []


def _read_multi_choice(spec: FieldSpec, entry: Entry, where: str, check: bool) -> tuple[Any, list[str]]:
    values = [spec.choices[i].value for i in entry.chosen if 0 <= i < len(spec.choices)]
    return values, []


def _read_list(spec: FieldSpec, entry: Entry, where: str, check: bool) -> tuple[Any, list[str]]:
    assert spec.item is not None
    values: list[Any] = []
    problems: list[str] = []
    for index, item in enumerate(entry.items):
        value, item_problems = _read(spec.item, item, f"{where}[{index}]", check_constraints=check)
        problems += item_problems
        if value is not OMITTED:
            values.append(value)
    return values, problems


def _read_object(spec: FieldSpec, entry: Entry, where: str, check: bool) -> tuple[Any, list[str]]:
    values: dict[str, Any] = {}
    problems: list[str] = []
    for child in spec.children:
        child_entry = entry.children.get(child.name) or initial_entry(child)
        path = f"{where}.{child.name}" if where else child.name
        value, child_problems = _read(child, child_entry, path, check_constraints=check)
        problems += child_problems
        if value is not OMITTED:
            values[child.name] = value
    return values, problems


def _read_json(spec: FieldSpec, entry: Entry, where: str, check: bool) -> tuple[Any, list[str]]:
    if entry.text.strip() == "":
        return _missing(spec, where)
    try:
        return json.loads(entry.text), []
    except (ValueError, RecursionError) as error:
        return OMITTED, [_at(where, f"invalid JSON: {error}")]


_READERS = {
    "string": _read_string,
    "number": _read_number,
    "integer": _read_number,
    "boolean": _read_boolean,
    "choice": _read_choice,
    "multi_choice": _read_multi_choice,
    "list": _read_list,
    "object": _read_object,
    "json": _read_json,
}


def _entry_for(spec: FieldSpec, value: Any, *, touched: bool) -> Entry | None:
    """An entry that shows ``value`` in this field, or ``None`` when the field cannot show it."""
    if value is None:
        if spec.nullable:
            return Entry(touched=touched, null=True)
        return Entry(touched=touched, text="null") if spec.kind == "json" else None
    kind = spec.kind
    if kind == "string":
        return Entry(touched=touched, text=value) if isinstance(value, str) else None
    if kind in {"number", "integer"}:
        is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if not is_number or (kind == "integer" and not float(value).is_integer()):
            return None
        return Entry(touched=touched, text=text_from_default(spec, value))
    if kind == "boolean":
        return Entry(touched=touched, flag=value) if isinstance(value, bool) else None
    if kind == "choice":
        index = _choice_index(spec, value)
        return None if index is None else Entry(touched=touched, chosen=(index,))
    if kind == "multi_choice":
        if not isinstance(value, list):
            return None
        indexes = [_choice_index(spec, v) for v in value]
        if any(i is None for i in indexes) or len(set(indexes)) < len(indexes):
            return None
        return Entry(touched=touched, chosen=tuple(i for i in indexes if i is not None))
    if kind == "list":
        assert spec.item is not None
        if not isinstance(value, list):
            return None
        items = [_entry_for(spec.item, v, touched=touched) for v in value]
        if any(item is None for item in items):
            return None
        return Entry(touched=touched, items=tuple(item for item in items if item is not None))
    if kind == "object":
        names = {child.name for child in spec.children}
        if not isinstance(value, dict) or not set(value) <= names:
            return None
        children: dict[str, Entry] = {}
        for child in spec.children:
            if child.name in value:
                child_entry = _entry_for(child, value[child.name], touched=touched)
                if child_entry is None:
                    return None
                children[child.name] = child_entry
            else:
                children[child.name] = initial_entry(child)
        return Entry(touched=touched, children=children)
    return Entry(touched=touched, text=text_from_default(spec, value))


def _choice_index(spec: FieldSpec, value: Any) -> int | None:
    for index, choice in enumerate(spec.choices):
        if json_equal(choice.value, value):
            return index
    return None
