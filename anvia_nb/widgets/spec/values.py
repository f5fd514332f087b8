"""From what the user entered to the arguments to send, and back (pure: no ipywidgets).

The rules, which decide what a server receives:

- an optional field nobody touched is left out, never sent as ``null``, ``0``, ``false`` or ``""``;
  an optional field's ``default`` is therefore not in its entry (a form shows it as a
  placeholder): leaving it out lets the server apply its own;
- an optional text or number field left empty is left out too; a *required* string is sent as
  typed, so an empty one is sent as ``""``; a required field with a default shows and sends it;
- a list (or multiple choice) follows the same rules: its empty rows are never sent, an
  optional one with nothing in it is left out, and a required one nobody filled is a problem,
  never ``[]`` (server-memory's ``open_nodes`` would look up no names); ``[]`` is sent only
  when the person emptied it (pressed − on every row, or unpicked every choice), and a
  schema's ``minItems`` says when even that is too few;
- an optional multiple choice shows its ``default`` selected (it has no placeholder); untouched
  it is left out, and emptied by the person it is sent as ``[]``;
- ``null`` is sent only for a nullable field whose "null" box the user ticked (or that a
  required field shows as its default);
- an optional nested object is left out unless something inside it was touched;
- what does not parse (``"1e"`` in a number field, broken JSON) stays in the entry as typed and
  becomes a problem, never an exception.

Only what the entries themselves say is checked here; the schema's own constraints are checked
once, on the whole value, by the one validator (:mod:`anvia_nb.core.protocol.schema`).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from anvia_nb.core.protocol.schema import dotted
from anvia_nb.widgets.spec.trees import OMITTED, Entry, FieldSpec

Path = tuple[str | int, ...]
Found = list[tuple[Path, str]]
"""Problems found while reading entries: where (a path of names and indexes), and what."""

__all__ = [
    "Found",
    "Path",
    "entry_from_value",
    "initial_entry",
    "json_equal",
    "json_problem",
    "read_entry",
    "text_from_default",
    "unreadable_entries",
    "value_from_entry",
]

_INTEGER = re.compile(r"[+-]?[0-9]+")
_NUMBER = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")


def json_equal(a: object, b: object) -> bool:
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


def text_from_default(spec: FieldSpec, value: object) -> str:
    """How a value appears in a text box: strings as they are, everything else as JSON."""
    if isinstance(value, str) and spec.kind == "string":
        return value
    return json.dumps(value, indent=2 if spec.kind == "json" else None, ensure_ascii=False)


def initial_entry(spec: FieldSpec) -> Entry:
    """The untouched entry of a field: empty, or showing the ``default`` of a required field."""
    children = {child.name: initial_entry(child) for child in spec.children}
    items = tuple(initial_entry(option) for option in spec.options)
    if spec.kind == "multi_choice" and spec.has_default and not spec.required:
        # A multiple selection has no placeholder: its default shows selected, and, untouched, is
        # still left out (the server applies its own).
        shown = _entry_for(spec, spec.default, touched=False)
        return shown if shown is not None else Entry()
    if not spec.has_default or not spec.required:  # an optional default is a placeholder, not a value
        return Entry(flag=False if spec.kind == "boolean" and spec.required else None, children=children, items=items)
    default = spec.default
    if default is None and spec.nullable:
        return Entry(null=True, children=children)
    shown = _entry_for(spec, default, touched=False)
    if shown is None:  # a default that does not fit the field: show nothing rather than guess
        return Entry(children=children)
    return shown


def entry_from_value(spec: FieldSpec, value: object) -> Entry | None:
    """The entry that sends exactly ``value`` (every part of it touched), or ``None`` when the
    fields cannot express it (an extra key, a value of another type, an optional ``""``)."""
    entry = _entry_for(spec, value, touched=True)
    if entry is None:
        return None
    read, problems = _read(spec, entry, ())
    return entry if not problems and read is not OMITTED and json_equal(read, value) else None


def value_from_entry(spec: FieldSpec, entry: Entry, where: str = "") -> tuple[Any, list[str]]:
    """The JSON value to send for ``entry`` (``OMITTED`` when nothing is sent) and its problems.

    Problems are readable lines prefixed with the field's path (``"filter.limit: ..."``). The
    value is still returned when there are problems, with the unparsable fields left out, so a
    caller can show it; it must not be sent while there are problems.
    """
    value, found = read_entry(spec, entry)
    return value, [_line(where, path, message) for path, message in found]


def read_entry(spec: FieldSpec, entry: Entry) -> tuple[Any, Found]:
    """Like :func:`value_from_entry`, with each problem's path kept as names and indexes."""
    return _read(spec, entry, ())


def _line(prefix: str, path: Path, message: str) -> str:
    where = dotted(path)
    if prefix:
        where = f"{prefix}{'' if where.startswith('[') or not where else '.'}{where}"
    return f"{where}: {message}" if where else message


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
    if spec.kind == "union":
        index = entry.chosen[0] if entry.chosen else -1
        if 0 <= index < min(len(spec.options), len(entry.items)):
            return unreadable_entries(spec.options[index], entry.items[index], where)
        return []
    if spec.kind == "list" and spec.item is not None:
        return [
            pair
            for index, item in enumerate(entry.items)
            for pair in unreadable_entries(spec.item, item, f"{where}[{index}]")
        ]
    if spec.kind not in {"number", "integer", "json"} or not entry.text.strip():
        return []
    _, problems = _READERS[spec.kind](spec, entry, ())
    return [(where, problem) for _path, problem in problems]


def _read(spec: FieldSpec, entry: Entry, where: Path) -> tuple[Any, Found]:
    if not spec.required and not entry.anything_touched:
        return OMITTED, []
    if entry.null and spec.nullable:
        return None, []
    return _READERS[spec.kind](spec, entry, where)


def _missing(spec: FieldSpec, where: Path) -> tuple[Any, Found]:
    if spec.required:
        return OMITTED, [(where, "a value is required")]
    return OMITTED, []


def _read_string(spec: FieldSpec, entry: Entry, where: Path) -> tuple[Any, Found]:
    if entry.text == "" and not spec.required:
        return OMITTED, []
    return entry.text, []


def _read_number(spec: FieldSpec, entry: Entry, where: Path) -> tuple[Any, Found]:
    text = entry.text.strip()
    if text == "":
        return _missing(spec, where)
    if not _NUMBER.fullmatch(text):
        noun = "an integer" if spec.kind == "integer" else "a number"
        return OMITTED, [(where, f"{entry.text!r} is not {noun}")]
    if _INTEGER.fullmatch(text):
        return int(text), []
    number = float(text)
    if math.isinf(number):
        return OMITTED, [(where, f"{entry.text!r} is too large")]
    if spec.kind == "integer":
        if not number.is_integer():
            return OMITTED, [(where, f"{entry.text!r} is not an integer")]
        return int(number), []
    return number, []


def _read_boolean(spec: FieldSpec, entry: Entry, where: Path) -> tuple[Any, Found]:
    return _missing(spec, where) if entry.flag is None else (entry.flag, [])


def _read_choice(spec: FieldSpec, entry: Entry, where: Path) -> tuple[Any, Found]:
    if not entry.chosen:
        return _missing(spec, where)
    index = entry.chosen[0]
    if not 0 <= index < len(spec.choices):
        return OMITTED, [(where, "choose one of the listed values")]
    return spec.choices[index].value, []


def _read_multi_choice(spec: FieldSpec, entry: Entry, where: Path) -> tuple[Any, Found]:
    if any(not 0 <= i < len(spec.choices) for i in entry.chosen):
        return OMITTED, [(where, "choose each of the listed values")]
    values = [spec.choices[i].value for i in entry.chosen if 0 <= i < len(spec.choices)]
    if not values and spec.has_default and spec.default:
        return [], []  # the person emptied the default shown selected: leaving it out would bring it back
    return (values, []) if values else _empty_list(spec, where, emptied=entry.touched)


def _blank(spec: FieldSpec, entry: Entry) -> bool:
    """A row with nothing in it: never sent (pressing + and leaving the row empty adds nothing)."""
    if entry.null and spec.nullable:
        return False
    if not entry.anything_touched:
        return True
    if spec.kind == "string":
        return entry.text == ""
    if spec.kind in {"number", "integer", "json"}:
        return entry.text.strip() == ""
    if spec.kind in {"boolean"}:
        return entry.flag is None
    return spec.kind in {"choice", "union"} and not entry.chosen


def _read_list(spec: FieldSpec, entry: Entry, where: Path) -> tuple[Any, Found]:
    assert spec.item is not None
    values: list[Any] = []
    problems: Found = []
    for index, item in enumerate(entry.items):
        if _blank(spec.item, item):
            continue
        value, item_problems = _read(spec.item, item, (*where, index))
        problems += item_problems
        if value is not OMITTED:
            values.append(value)
    if not values and not problems:
        return _empty_list(spec, where, emptied=entry.touched and not entry.items)
    return values, problems


_EMPTY_LIST_HINT = "a value is required: add an item (+ then − sends an empty list)"


def _empty_list(spec: FieldSpec, where: Path, *, emptied: bool) -> tuple[Any, Found]:
    """A list with nothing in it: left out when optional; when required, ``[]`` only if the
    person ``emptied`` it, else a problem: an untouched required field is never sent empty."""
    if not spec.required:
        return OMITTED, []
    if emptied:
        return [], []
    message = _EMPTY_LIST_HINT if spec.kind == "list" else "a value is required"
    return OMITTED, [(where, message)]


def _read_union(spec: FieldSpec, entry: Entry, where: Path) -> tuple[Any, Found]:
    if not entry.chosen or not 0 <= entry.chosen[0] < len(spec.options):
        return _missing(spec, where)
    index = entry.chosen[0]
    option = spec.options[index]
    chosen = entry.items[index] if index < len(entry.items) else initial_entry(option)
    value, problems = _read(option, chosen, where)
    if value is OMITTED and not problems:
        return _missing(spec, where)
    return value, problems


def _read_object(spec: FieldSpec, entry: Entry, where: Path) -> tuple[Any, Found]:
    values: dict[str, Any] = {}
    problems: Found = []
    for child in spec.children:
        child_entry = entry.children.get(child.name) or initial_entry(child)
        value, child_problems = _read(child, child_entry, (*where, child.name))
        problems += child_problems
        if value is not OMITTED:
            values[child.name] = value
    return values, problems


def json_problem(error: ValueError | RecursionError) -> str:
    """Why typed text is not JSON, in plain words with the place (``line 1, column 12``)."""
    if isinstance(error, json.JSONDecodeError):
        message = error.msg[:1].lower() + error.msg[1:]
        return f"not valid JSON (line {error.lineno}, column {error.colno}): {message}"
    return "not valid JSON: nested too deeply"


def _read_json(spec: FieldSpec, entry: Entry, where: Path) -> tuple[Any, Found]:
    if entry.text.strip() == "":
        return _missing(spec, where)
    try:
        return json.loads(entry.text), []
    except (ValueError, RecursionError) as error:
        return OMITTED, [(where, json_problem(error))]


_READERS = {
    "string": _read_string,
    "number": _read_number,
    "integer": _read_number,
    "boolean": _read_boolean,
    "choice": _read_choice,
    "multi_choice": _read_multi_choice,
    "list": _read_list,
    "object": _read_object,
    "union": _read_union,
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
    if kind == "union":
        for index, option in enumerate(spec.options):
            shown = _entry_for(option, value, touched=touched)
            if shown is not None and not _read(option, shown, ())[1] and json_equal(_read(option, shown, ())[0], value):
                options = [initial_entry(o) for o in spec.options]
                options[index] = shown
                return Entry(touched=touched, chosen=(index,), items=tuple(options))
        return None
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
