"""Tool arguments typed in a notebook: JSON objects and ``key=value`` values.

Kept apart from the line grammar because a JSON mistake deserves a precise answer: the line and
column where it broke and the text around the spot, in one line, so a person can fix it quickly.
"""

from __future__ import annotations

import difflib
import json
import re
import unicodedata
from typing import Any

from anvia_nb.core.protocol.types import JsonValue
from anvia_nb.errors import CommandLineError
from anvia_nb.magic.parse.variables import VARIABLE_PAIR, VariableWord

__all__ = [
    "CommandLineError",
    "arguments_from_json",
    "call_words",
    "json_prefix",
    "property_schema",
    "python_escapes",
    "typed_for_schema",
    "unknown_names",
    "value_from_text",
    "value_words",
]


def value_from_text(value: str) -> JsonValue:
    """A ``key=value`` value: JSON when it parses (numbers, true, lists...), else the text itself."""
    if value.lstrip()[:1] not in _JSON_STARTS:  # surely text: a failed json.loads costs 10 µs
        return value
    try:
        parsed: JsonValue = json.loads(value)
    except ValueError:
        return value
    return parsed


_JSON_STARTS = frozenset('{["-0123456789tfnNI')
"""The first characters of a JSON value as ``json.loads`` reads it (``NaN`` and ``Infinity`` too)."""


def property_schema(schema: dict[str, Any], key: str) -> Any:  # any: a JSON Schema as the server sent it
    """What the inputSchema says of one argument: its property, else additionalProperties (or None)."""
    properties = schema.get("properties")
    if isinstance(properties, dict) and key in properties:
        return properties[key]
    extra = schema.get("additionalProperties")
    return extra if isinstance(extra, dict) else None


def _fits(root: dict[str, Any], prop: Any, value: Any) -> bool:
    """Whether ``value`` is valid for one property schema (anyOf, oneOf, type lists and ``$ref``
    into the root's ``$defs``/``definitions`` included)."""
    from anvia_nb.core.protocol.schema import argument_problems

    probe: dict[str, Any] = {"allOf": [prop]}
    for defs in ("$defs", "definitions"):
        if isinstance(root.get(defs), dict):
            probe[defs] = root[defs]
    return not argument_problems(probe, value)


def typed_for_schema(arguments: dict[str, Any], texts: dict[str, str], schema: object) -> dict[str, Any]:
    """``key=value`` values as the person meant them: the JSON reading only when it is valid for
    the property, else the text typed (``base_branch=2024`` stays ``"2024"`` for a string or
    ``anyOf [string, null]``). When neither reading is valid the JSON one is kept, so the error
    quotes the value as typed."""
    if not isinstance(schema, dict):
        return arguments
    typed = dict(arguments)
    for key, text in texts.items():
        prop = property_schema(schema, key)
        value = typed.get(key)
        if prop is None or value == text or _fits(schema, prop, value):  # one reading, or the JSON one fits
            continue
        if _fits(schema, prop, text):
            typed[key] = text
    return typed


def unknown_names(arguments: dict[str, Any], schema: object) -> list[str]:
    """Argument names the tool does not take, each with the closest property (``did you mean``).

    A name is refused when it is not among ``properties`` and the schema does not allow others
    (``additionalProperties`` true or a schema, or a matching ``patternProperties``). A schema
    that combines others at its top (``allOf``, ``anyOf``, ``oneOf``, ``$ref``) is not judged here.
    """
    if not isinstance(schema, dict) or not _COMBINERS.isdisjoint(schema):
        return []
    properties = schema.get("properties")
    extra = schema.get("additionalProperties")
    if extra is True or isinstance(extra, dict) or (not isinstance(properties, dict) and extra is not False):
        return []
    if isinstance(properties, dict) and all(name in properties for name in arguments):  # the usual call
        return []
    known = list(properties) if isinstance(properties, dict) else []
    patterns = schema.get("patternProperties")
    problems: list[str] = []
    for name in arguments:
        if name in known:
            continue
        if isinstance(patterns, dict) and any(_matches(p, name) for p in patterns):
            continue
        close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        problems.append(f"{name!r}{hint}")
    return problems


_COMBINERS = frozenset({"allOf", "anyOf", "oneOf", "$ref"})


def _matches(pattern: str, name: str) -> bool:
    try:
        return re.search(pattern, name) is not None
    except re.error:
        return True  # a pattern we cannot read: let the server judge


def _json_error(text: str, exc: json.JSONDecodeError) -> CommandLineError:
    lines = text.splitlines() or [""]
    line = lines[min(exc.lineno, len(lines)) - 1]
    spot = exc.colno - 1
    before, after = line[max(0, spot - 30) : spot], line[spot : spot + 30]
    return CommandLineError(
        f"The JSON arguments do not parse at line {exc.lineno}, column {exc.colno}: {exc.msg}, "
        f"here: {before}⟦here⟧{after}"
    )


def _object_or_error(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise CommandLineError(f"Tool arguments must be a JSON object {{...}}, not a {type(value).__name__}.")
    return value


def json_prefix(text: str) -> tuple[dict[str, Any], int]:
    """The JSON value at the start of ``text`` and where it ends (options may follow it)."""
    try:
        value, end = json.JSONDecoder().raw_decode(text)
    except json.JSONDecodeError as exc:
        raise _json_error(text, exc) from exc
    return _object_or_error(value), end


def arguments_from_json(text: str) -> dict[str, Any] | None:
    """A cell body as tool arguments: empty means none, else exactly one JSON object."""
    if not text.strip():
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _json_error(text, exc) from exc
    return _object_or_error(value)


# A key=value word whose value starts as JSON does (an object or a list).
_JSON_PAIR = re.compile(r"[^\s='\"\\-][^\s='\"\\]*=(?=[{\[])")


# A word with no quote or backslash in it, up to the next white space: read as is.
_PLAIN_WORD = re.compile(r"[^ \t\r\n'\"\\]+(?=[ \t\r\n]|\Z)")

_ESCAPE = re.compile(r"\\(N\{[^}]*\}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|x[0-9a-fA-F]{2}|[0-7]{1,3}|.)", re.DOTALL)
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'", "a": "\a", "b": "\b",
                   "f": "\f", "v": "\v", "\n": ""}  # fmt: skip


def _python_escape(found: re.Match[str]) -> str:
    code = found.group(1)
    if code in _SIMPLE_ESCAPES:
        return _SIMPLE_ESCAPES[code]
    if code[0] in "uUx" and len(code) > 1:
        return chr(int(code[1:], 16))
    if code[0] in "01234567":
        return chr(int(code, 8))
    if code.startswith("N{"):
        try:
            return unicodedata.lookup(code[2:-1])
        except KeyError:
            return found.group()
    return found.group()  # not an escape Python knows: the backslash stays, as in Python


def python_escapes(text: str) -> str:
    """The escapes of a Python string literal read (``\\n``, ``\\t``, ``\\\\``, ``\\"``,
    ``\\u00e9``, ``\\N{...}``...); a backslash before any other character stays, as in Python."""
    return _ESCAPE.sub(_python_escape, text) if "\\" in text else text


def _shell_word(text: str, start: int) -> tuple[str, int]:
    """The word at ``start`` and where it ends. The rule of a ``key=value`` line: outside quotes a
    backslash keeps the next character (as a shell does); single quotes keep everything as typed
    (``path='C:\\new'``); double quotes read Python's escapes (``text="a\\nb"`` is two lines)."""
    plain = _PLAIN_WORD.match(text, start)
    if plain is not None:
        return plain.group(), plain.end()
    parts: list[str] = []
    i, n = start, len(text)
    while i < n and not text[i].isspace():
        char = text[i]
        if char in "'\"":
            end = i + 1
            while end < n and text[end] != char:
                end += 2 if char == '"' and text[end] == "\\" else 1
            if end >= n:
                raise CommandLineError("Cannot split the line: No closing quotation; check your quotes.")
            body = text[i + 1 : end]
            parts.append(python_escapes(body) if char == '"' else body)
            i = end + 1
        elif char == "\\" and i + 1 < n:
            parts.append(text[i + 1])
            i += 2
        else:
            parts.append(char)
            i += 1
    return "".join(parts), i


def value_words(text: str) -> list[str]:
    """The words of a line of ``key=value`` pairs (``%mcp prompt``, ``%mcp read``), read by the
    same rule as a call's (:func:`_shell_word`)."""
    words: list[str] = []
    position = 0
    while True:
        while position < len(text) and text[position].isspace():
            position += 1
        if position >= len(text):
            return words
        word, position = _shell_word(text, position)
        words.append(word)


def _json_end(text: str, start: int) -> int:
    """Where a JSON value starting at ``start`` ends, when it parses and a word ends there; else -1."""
    try:
        _value, end = json.JSONDecoder().raw_decode(text, start)
    except json.JSONDecodeError:
        return -1
    return end if end == len(text) or text[end].isspace() else -1


def call_words(text: str) -> tuple[list[str], dict[str, Any] | None, int]:
    """The words of a ``call`` line, the JSON object among them and its index among the words (-1).

    Words are read by :func:`_shell_word`'s rule (double quotes read Python's escapes), except two
    kinds read raw, so their quotes and spaces are kept: a word starting with ``{`` or ``[`` (the
    JSON arguments; only the first such word), and a ``key=value`` word whose value is a JSON
    object or list that parses (``address={"city": "Oslo"}``). A value
    that only looks like JSON (``pattern=[a-z]+``) is a shell word, as typed. An unquoted
    ``key=$name`` is a :class:`~anvia_nb.magic.parse.variables.VariableWord` (the one ``$`` rule lives in
    :mod:`anvia_nb.magic.parse.variables`).
    """
    words: list[str] = []
    arguments: dict[str, Any] | None = None
    index = -1
    position = 0
    while True:
        while position < len(text) and text[position].isspace():
            position += 1
        if position >= len(text):
            return words, arguments, index
        if text[position] in "{[" and arguments is None:
            arguments, length = json_prefix(text[position:])
            index = len(words)
            position += length
            continue
        variable = VARIABLE_PAIR.match(text, position)
        if variable:
            words.append(VariableWord(variable.group()))
            position = variable.end()
            continue
        pair = _JSON_PAIR.match(text, position)
        end = _json_end(text, pair.end()) if pair else -1
        if end >= 0:
            words.append(text[position:end])
            position = end
            continue
        word, position = _shell_word(text, position)
        words.append(word)
